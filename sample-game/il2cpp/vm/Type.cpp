// vm/Type.cpp — Type::GetName for the IL format, following libil2cpp's Type::GetNameInternal
// (itself Mono's mono_type_get_name_full): a nested class is named after its declaring type,
// joined with '.', and the declaring type without its generic arguments; the `N arity suffix is
// dropped; generic arguments are the arguments' own IL names joined with ',' (no spaces) in <>;
// a single-dimension zero-based array is its element's name and "[]".
#include "vm/Type.h"

#include <string.h>

namespace il2cpp
{
namespace vm
{
    std::string Type::GetName(const Il2CppType *type)
    {
        std::string str;
        GetNameInternal(str, type, false);
        return str;
    }

    void Type::GetNameInternal(std::string &str, const Il2CppType *type, bool isNested)
    {
        if (type->type == IL2CPP_TYPE_SZARRAY)
        {
            GetNameInternal(str, type->data.type, false);
            str += "[]";
            return;
        }
        const Il2CppGenericClass *gclass = type->type == IL2CPP_TYPE_GENERICINST ? type->data.generic_class : NULL;
        const Il2CppClass *klass = gclass ? gclass->cached_class : type->data.klass;
        if (klass->declaringType)
        {
            GetNameInternal(str, &klass->declaringType->byval_arg, true);
            str += '.';
        }
        else if (*klass->namespaze)
        {
            str += klass->namespaze;
            str += '.';
        }
        const char *tick = strchr(klass->name, '`');
        str.append(klass->name, tick ? (size_t)(tick - klass->name) : strlen(klass->name));
        if (isNested || !gclass)
            return;
        const Il2CppGenericInst *inst = gclass->context.class_inst;
        str += '<';
        for (uint32_t i = 0; i < inst->type_argc; ++i)
        {
            if (i)
                str += ',';
            GetNameInternal(str, inst->type_argv[i], false);
        }
        str += '>';
    }
} /* namespace vm */
} /* namespace il2cpp */
