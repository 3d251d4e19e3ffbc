// il2cpp_code_registration.h — C# names when only the binary and global-metadata.dat were kept
// (Android: symbols.zip's unstripped libil2cpp.so plus the APK's metadata; no il2cpp output
// folder, so no `// Method Definition Index` comments).
//
// IL2CPP registers each assembly's methods in the binary as an Il2CppCodeGenModule, one per
// assembly, named `g_<Assembly>_CodeGenModule` in the symbol table (`g_AssemblyU2DCSharp_CodeGenModule`),
// whose first fields are (libil2cpp il2cpp-class-internals.h, 2019.1.0a12 through 6000.x):
//   const char* moduleName;                    // "Assembly-CSharp.dll", the metadata image's name
//   const uint32_t methodPointerCount;
//   const Il2CppMethodPointer* methodPointers; // one per MethodDef row of the assembly
// and libil2cpp finds a method's code as `image->codeGenModule->methodPointers[rid - 1]`, rid
// being the row id of the method's MethodDef token (vm/MetadataCache.cpp GetMethodPointer), the
// image being the metadata image whose name equals moduleName. So pointer i of module M is the
// method of image M whose token row is i + 1: its full C# name comes from the metadata, whatever
// its native name says, and two methods il2cpp gave the same `Type_Method` (the Enumerator_MoveNext
// of List`1 and of Stack`1) are told apart.
//
// Read from an ELF file with its data sections (the unstripped .so; a split .debug file has
// none): pointers as stored, or from their dynamic relocation (RELATIVE, or ABS64/GLOB_DAT
// against a symbol) when the file is position independent. A symbol names the function at each
// pointer; when identical code folding put several methods at one address, each symbol there
// takes the method whose `Type_Method` it spells.
#ifndef MEMTRACER_SYM_IL2CPP_CODE_REGISTRATION_H
#define MEMTRACER_SYM_IL2CPP_CODE_REGISTRATION_H

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "il2cpp_metadata.h"

namespace mt::sym {

struct CodeRegistration {
    std::unordered_map<std::string, int64_t> method_of_symbol;  // native function name -> method index
    size_t modules = 0;          // *_CodeGenModule symbols read
    size_t modules_matched = 0;  // ... whose moduleName is an image of the metadata
    size_t pointers = 0;         // non-null method pointers
    // Why a module was left out ("" if none was): its data is not in the file (a split debug
    // file keeps the symbols but not the data), or points outside it. The other modules are kept.
    std::string problem;
};

// The code registration of `path` against `metadata`. A file that is not ELF, or has no
// *_CodeGenModule symbol, gives an empty result; a module that cannot be read is skipped and
// said in `problem` (a --symbols folder often holds both the .so and its split .debug file).
// A Mach-O `path` goes to read_code_registration_macho with `dsym_files` and the dSYMs beside it.
CodeRegistration read_code_registration(const std::string &path, const Il2CppMetadata &metadata,
                                        const std::vector<std::string> &dsym_files = {});

// The same for an iOS binary (UnityFramework; thin, or fat and its arm64 slice): data from
// `binary`, pointers through LC_DYLD_CHAINED_FIXUPS (DYLD_CHAINED_PTR_64 and _64_OFFSET) or as
// stored (rebase opcodes), symbols from the binary and from those of `symbol_files` (dSYM DWARF
// files) that carry the binary's LC_UUID.
CodeRegistration read_code_registration_macho(const std::string &binary, const std::vector<std::string> &symbol_files,
                                              const Il2CppMetadata &metadata);
// The DWARF files of `binary`.dSYM and of X.framework.dSYM beside X.framework/binary.
std::vector<std::string> macho_dsym_files_beside(const std::string &binary);

}  // namespace mt::sym

#endif
