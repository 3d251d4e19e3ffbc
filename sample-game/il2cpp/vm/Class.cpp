// vm/Class.cpp — class creation. The GC descriptor is set up as libil2cpp's
// Class::SetupGCDescriptor does: strings and arrays get GC_NO_DESCRIPTOR, everything else
// MakeDescriptorForObject(bitmap, maxSetBit + 1), where the bitmap has one bit per word of the
// (boxed) instance that holds a reference.
#include "vm/Class.h"

#include "gc/GarbageCollector.h"
#include "il2cpp-object-internals.h"

#include <mutex>
#include <stdlib.h>
#include <string.h>

Il2CppDefaults il2cpp_defaults;

namespace il2cpp
{
namespace vm
{
    namespace
    {
        std::mutex s_mutex;  // class creation and the registry
        Il2CppClass *s_classes[Class::kMaxClasses];
        uint32_t s_classCount = 0;

        uint32_t Register(Il2CppClass *klass)
        {
            if (s_classCount == Class::kMaxClasses)
            {
                fprintf(stderr, "mini-libil2cpp: more than %u classes\n", Class::kMaxClasses);
                abort();
            }
            s_classes[s_classCount] = klass;
            return s_classCount++;
        }

        // The element type of corlib's primitives (Unity's il2cpp_defaults.*_class byval_arg);
        // every other class is CLASS or VALUETYPE.
        Il2CppTypeEnum TypeEnumFor(const Il2CppTypeDefinitionInfo &t)
        {
            static const struct { const char *name; Il2CppTypeEnum type; } kPrimitives[] = {
                {"Object", IL2CPP_TYPE_OBJECT}, {"String", IL2CPP_TYPE_STRING}, {"Boolean", IL2CPP_TYPE_BOOLEAN},
                {"Char", IL2CPP_TYPE_CHAR}, {"Byte", IL2CPP_TYPE_U1}, {"Int32", IL2CPP_TYPE_I4},
                {"Single", IL2CPP_TYPE_R4}};
            if (strcmp(t.namespaze, "System") == 0)
                for (const auto &p : kPrimitives)
                    if (strcmp(t.name, p.name) == 0)
                        return p.type;
            return t.valuetype ? IL2CPP_TYPE_VALUETYPE : IL2CPP_TYPE_CLASS;
        }

        void SetupGCDescriptor(Il2CppClass *klass, const uint32_t *refOffsets, uint32_t refCount)
        {
            if (klass == il2cpp_defaults.string_class)
            {
                klass->gc_desc = gc::GarbageCollector::MakeDescriptorForString();
                return;
            }
            size_t bitmap[4] = {0, 0, 0, 0};  // 256 words: enough for every sample-game type
            size_t maxSetBit = 0;
            for (uint32_t i = 0; i < refCount; ++i)
            {
                size_t word = refOffsets[i] / sizeof(void *);
                IL2CPP_ASSERT(word < sizeof(bitmap) * 8);
                bitmap[word / (sizeof(size_t) * 8)] |= (size_t)1 << (word % (sizeof(size_t) * 8));
                if (word > maxSetBit)
                    maxSetBit = word;
            }
            klass->gc_desc = gc::GarbageCollector::MakeDescriptorForObject(bitmap, (int)maxSetBit + 1);
        }
    }

    void Class::RegisterTypes(const Il2CppTypeDefinitionInfo *types, uint32_t count)
    {
        std::lock_guard<std::mutex> lock(s_mutex);
        Il2CppClass *created[kMaxClasses];
        for (uint32_t i = 0; i < count; ++i)
        {
            const Il2CppTypeDefinitionInfo &t = types[i];
            Il2CppClass *k = static_cast<Il2CppClass *>(calloc(1, sizeof(Il2CppClass)));
            k->image = t.image;
            k->name = t.name;
            k->namespaze = t.namespaze;
            k->byval_arg.type = TypeEnumFor(t);
            k->byval_arg.data.klass = k;
            k->element_class = k;
            k->castClass = k;
            k->instance_size = k->actualSize = t.instance_size;
            k->valuetype = t.valuetype;
            k->has_references = t.ref_count != 0;
            k->token = 0x02000000u | (i + 1);
            k->cctor_finished_or_no_cctor = 1;
            k->class_index = Register(k);
            created[i] = k;
            *t.type_info_var = k;
            if (strcmp(t.namespaze, "System") == 0 && strcmp(t.name, "String") == 0)
            {
                il2cpp_defaults.string_class = k;
                il2cpp_defaults.corlib = t.image;
            }
            if (strcmp(t.namespaze, "System") == 0 && strcmp(t.name, "Object") == 0)
                il2cpp_defaults.object_class = k;
            if (strcmp(t.namespaze, "System") == 0 && strcmp(t.name, "Char") == 0)
                il2cpp_defaults.char_class = k;
        }
        for (uint32_t i = 0; i < count; ++i)
        {
            Il2CppClass *k = created[i];
            SetupGCDescriptor(k, types[i].ref_offsets, types[i].ref_count);
            if (types[i].static_fields_size)
            {
                k->static_fields = gc::GarbageCollector::AllocateFixed(types[i].static_fields_size, NULL);
                k->static_fields_size = types[i].static_fields_size;
            }
            k->initialized = 1;
        }
    }

    Il2CppClass *Class::GetArrayClass(Il2CppClass *elementClass, uint32_t rank)
    {
        IL2CPP_ASSERT(rank == 1);  // the sample game only uses single-dimension arrays
        Il2CppClass *cached = __atomic_load_n(&elementClass->szarray_class, __ATOMIC_ACQUIRE);
        if (cached)
            return cached;
        std::lock_guard<std::mutex> lock(s_mutex);
        if (elementClass->szarray_class)
            return elementClass->szarray_class;
        Il2CppClass *k = static_cast<Il2CppClass *>(calloc(1, sizeof(Il2CppClass)));
        size_t len = strlen(elementClass->name);
        char *name = static_cast<char *>(malloc(len + 3));
        memcpy(name, elementClass->name, len);
        memcpy(name + len, "[]", 3);
        k->image = elementClass->image;
        k->name = name;
        k->namespaze = elementClass->namespaze;
        k->byval_arg.type = IL2CPP_TYPE_SZARRAY;
        k->byval_arg.data.type = &elementClass->byval_arg;
        k->element_class = elementClass;
        k->castClass = elementClass;
        k->rank = 1;
        k->element_size = elementClass->valuetype
            ? elementClass->instance_size - (uint32_t)sizeof(Il2CppObject)
            : (uint32_t)sizeof(void *);
        k->instance_size = k->actualSize = (uint32_t)kIl2CppSizeOfArray;
        k->has_references = elementClass->valuetype ? elementClass->has_references : 1;
        k->gc_desc = gc::GarbageCollector::MakeDescriptorForArray();
        k->cctor_finished_or_no_cctor = 1;
        k->initialized = 1;
        k->class_index = Register(k);
        __atomic_store_n(&elementClass->szarray_class, k, __ATOMIC_RELEASE);
        return k;
    }

    Il2CppClass *Class::FromName(const Il2CppImage *image, const char *namespaze, const char *name)
    {
        std::lock_guard<std::mutex> lock(s_mutex);
        for (uint32_t i = 0; i < s_classCount; ++i)
        {
            Il2CppClass *k = s_classes[i];
            if ((image == NULL || k->image == image) && strcmp(k->namespaze, namespaze) == 0 &&
                strcmp(k->name, name) == 0)
                return k;
        }
        return NULL;
    }

    void Class::SetShape(Il2CppClass *klass, Il2CppClass *declaringType, Il2CppClass *const *genericArgs, uint32_t argc)
    {
        std::lock_guard<std::mutex> lock(s_mutex);
        klass->declaringType = declaringType;
        if (argc == 0)
            return;
        // Metadata memory, never freed (as libil2cpp's MetadataCache allocations).
        const Il2CppType **argv = static_cast<const Il2CppType **>(calloc(argc, sizeof(Il2CppType *)));
        for (uint32_t i = 0; i < argc; ++i)
            argv[i] = &genericArgs[i]->byval_arg;
        Il2CppGenericInst *inst = static_cast<Il2CppGenericInst *>(calloc(1, sizeof(Il2CppGenericInst)));
        inst->type_argc = argc;
        inst->type_argv = argv;
        Il2CppGenericClass *gclass = static_cast<Il2CppGenericClass *>(calloc(1, sizeof(Il2CppGenericClass)));
        gclass->type = klass;
        gclass->context.class_inst = inst;
        gclass->cached_class = klass;
        klass->generic_class = gclass;
        klass->byval_arg.type = IL2CPP_TYPE_GENERICINST;
        klass->byval_arg.data.generic_class = gclass;
    }

    uint32_t Class::GetAll(Il2CppClass **out, uint32_t max)
    {
        std::lock_guard<std::mutex> lock(s_mutex);
        uint32_t n = s_classCount < max ? s_classCount : max;
        memcpy(out, s_classes, n * sizeof(Il2CppClass *));
        return n;
    }
} /* namespace vm */
} /* namespace il2cpp */
