// names.h — readable names for raw symbol names: C++ demangling (llvm::demangle) and the C#
// name behind an IL2CPP-generated function name.
//
// IL2CPP names a method `<Type>_<Method>_m<hash>` (older versions: `_m<number>`), optionally
// followed by `_gshared`, `_AdjustorThunk`, `_inline` and similar suffixes. The type part is an
// identifier followed by generic arity markers (`List_1` = List`1) and compiler-generated
// `__<n>` suffixes (`U3CStartU3Ed__5`); characters C++ identifiers cannot hold are escaped as
// `U<hex>` (`U3C` = '<', `U3E` = '>'). Constructors end in `__ctor` / `__cctor`.
#ifndef MEMTRACER_SYM_NAMES_H
#define MEMTRACER_SYM_NAMES_H

#include <string>
#include <string_view>
#include <vector>

#include "il2cpp_sources.h"

namespace mt::sym {

// Demangled form of a C++ (Itanium, also with Mach-O's extra leading '_'), Rust or D name;
// "" when `raw` is not mangled.
std::string demangle(std::string_view raw);

// The plain function name inside what a backend reports: the base name of a mangled or
// demangled C++ name ("_Z62Vector2_op_Implicit_m..._inline17Vector2_t..." ->
// "Vector2_op_Implicit_m..._inline": IL2CPP's `_inline` copies have C++ linkage, so DWARF names
// them by their mangled linkage name), else `raw` itself.
std::string plain_function_name(std::string_view raw);

// A function name without the suffix of a copy of another method's code: `_inline`
// (IL2CPP_MANAGED_FORCE_INLINE copies, compiled into their callers) or `_AdjustorThunk` (a value
// type's method called on its boxed form); `name` itself if it has neither. Applied in turn:
// "X_m..._gshared_inline" -> "X_m..._gshared".
std::string_view strip_copy_suffix(std::string_view name);

// "NodeFactory.CreateNode" for "NodeFactory_CreateNode_m5E30...", "List`1.Add" for
// "List_1_Add_m...", "Node..ctor" for "Node__ctor_m...", "GameObject.AddComponent<AudioSource>"
// for "GameObject_AddComponent_TisAudioSource_t871A..._m...", "List`1.System.Collections.IList.get_Item"
// for an explicit interface implementation, "<>c.<.cctor>b__5_0" for a static constructor's
// lambda; "" when `name` is not an IL2CPP method name. Accepts the demangled form of a mangled
// name as well (uses its base name). With `types` (the generated sources' type names) the type
// part is the longest known type ("Session_ME_connect" -> Session_ME.connect); without, it ends
// at the first '_' that is not an arity or compiler-generated suffix (Session.ME_connect).
std::string il2cpp_csharp_name(std::string_view name, const GeneratedSources *types = nullptr);

// The C# parameter types of a generated function's C++ parameters, CLR names as in generic
// arguments: "(Int32, String, Vector3, ref Int32)" for "Foo_t...* __this, int32_t ___0_n,
// String_t* ___1_s, Vector3_t... ___2_v, int32_t* ___3_r, const RuntimeMethod* method".
// A pointer to a struct or primitive reads as `ref` (il2cpp writes ref, out and in alike).
// With `types`, a generic class instance shows its arguments when the build's generic instance
// table is known (il2cpp_generic_types.h): KeyValuePair<Int32, String> rather than KeyValuePair`2.
std::string il2cpp_parameter_types(std::string_view cpp_parameters, const GeneratedSources *types = nullptr);
// The same, one entry per parameter: {"Int32", "String", "Vector3", "ref Int32"}.
std::vector<std::string> il2cpp_parameter_list(std::string_view cpp_parameters, const GeneratedSources *types = nullptr);

// The `Type_Method` part of an IL2CPP function name, before its hash and generic arguments:
// "GameObject_AddComponent" for "GameObject_AddComponent_TisAudioSource_t871A..._m..._gshared".
std::string il2cpp_type_method(std::string_view name);

// The generic arguments of a generic method instance's name: "<AudioSource>" for
// "GameObject_AddComponent_TisAudioSource_t871A..._m..."; "" if it has none.
std::string il2cpp_generic_arguments(std::string_view name, const GeneratedSources *types = nullptr);

// The name a person reads: MethodMap's full C# name, else the heuristic C# name, else the
// demangled name, else the raw one.
std::string display_name(const std::string &raw, const std::string &demangled, const std::string &csharp);

}  // namespace mt::sym

#endif
