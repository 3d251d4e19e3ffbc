// vm/Type.h — type names, as libil2cpp's vm::Type::GetName in IL2CPP_TYPE_NAME_FORMAT_IL (the
// format il2cpp_type_get_name uses): "System.Collections.Generic.List<Enemy>",
// "EnemyManager.<>c__DisplayClass7_0", "System.Int32[]".
#pragma once

#include "il2cpp-class-internals.h"

#include <string>

namespace il2cpp
{
namespace vm
{
    class Type
    {
    public:
        static std::string GetName(const Il2CppType *type);

    private:
        static void GetNameInternal(std::string &str, const Il2CppType *type, bool isNested);
    };
} /* namespace vm */
} /* namespace il2cpp */
