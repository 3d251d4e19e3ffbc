// The Android step, on the generated Gradle project (IPostGenerateGradleAndroidProject hands over
// the unityLibrary folder). Idempotent; off removes every edit. What it does, on:
//   - patches unityLibrary/src/main/Il2CppOutputProject/IL2CPP/libil2cpp (Gradle's IL2CPP step
//     compiles it into libil2cpp.so);
//   - copies the runtime into src/main/cpp/MemTracer with the baked settings and a CMakeLists.txt
//     building libGfxPluginMemTracer.so: Unity preloads GfxPlugin* plug-ins at startup and calls
//     their UnityPluginLoad; otherwise the package's first [DllImport] (SceneMarks, at
//     SubsystemRegistration, before the first scene) loads it (docs/integration.md);
//   - adds that folder to the export's native build: one marked add_subdirectory line in
//     src/main/cpp/CMakeLists.txt (GameActivity exports), or, where there is none, one marked
//     externalNativeBuild block in build.gradle;
//   - appends one marked block to build.gradle: a memtracerSymbols task, run after the IL2CPP
//     step and every assemble/bundle task, that copies the unstripped libil2cpp.so (symbols/<abi>/), the
//     metadata and the il2cpp output's Symbols/ into the symbol store under the GNU build id.
using System;
using System.Collections.Generic;
using System.IO;
using System.Text;

namespace MemTracer.Editor
{
    public static class AndroidPostBuild
    {
        public const string NativeDir = "src/main/cpp/MemTracer";
        public const string Begin = "// >>> MemTracer (com.memtracer.unity): generated, removed when MemTracer is off";
        public const string End = "// <<< MemTracer";
        public const string CMakeLine = "add_subdirectory(MemTracer) # MemTracer (com.memtracer.unity)";
        public const string Library = "GfxPluginMemTracer";

        public static List<string> Run(string unityLibrary, MemTracerSettings settings, string projectDir)
        {
            string gradle = Path.Combine(unityLibrary, "build.gradle");
            if (!File.Exists(gradle)) throw new FileNotFoundException("MemTracer: no unityLibrary/build.gradle at " + gradle);
            string libil2cpp = Path.Combine(unityLibrary, "src", "main", "Il2CppOutputProject", "IL2CPP", "libil2cpp");
            var changed = new List<string>();
            string cmake = Path.Combine(unityLibrary, "src", "main", "cpp", "CMakeLists.txt");
            bool useCmake = File.Exists(cmake);
            if (!settings.android)
            {
                changed.AddRange(Il2Cpp.Unpatch(libil2cpp));
                if (useCmake && EditLines(cmake, false)) changed.Add("src/main/cpp/CMakeLists.txt");
                if (EditBlock(gradle, null)) changed.Add("build.gradle");
                if (Directory.Exists(Path.Combine(unityLibrary, NativeDir)))
                {
                    Files.DeleteTree(Path.Combine(unityLibrary, NativeDir));
                    changed.Add("-" + NativeDir);
                    string cpp = Path.GetDirectoryName(Path.Combine(unityLibrary, NativeDir));
                    if (Directory.GetFileSystemEntries(cpp).Length == 0) Directory.Delete(cpp);  // we made it
                }
                return changed;
            }
            if (settings.patchIl2cpp && settings.hook != "profiler") changed.AddRange(Il2Cpp.Patch(libil2cpp));
            string native = Path.Combine(unityLibrary, NativeDir);
            var generated = new Dictionary<string, string> {
                { SettingsSource.FileName, SettingsSource.Generate(settings) },
                { "CMakeLists.txt", PluginCMake(PackagePaths.Files(PackagePaths.Native)) },
            };
            foreach (var f in Files.Mirror(PackagePaths.Native, native, generated.Keys)) changed.Add(NativeDir + "/" + f);
            foreach (var g in generated)
                if (Files.WriteIfChanged(Path.Combine(native, g.Key), g.Value)) changed.Add(NativeDir + "/" + g.Key);
            if (useCmake && EditLines(cmake, true)) changed.Add("src/main/cpp/CMakeLists.txt");
            string block = GradleBlock(settings.SymbolStorePath(projectDir), useCmake);
            if (EditBlock(gradle, block)) changed.Add("build.gradle");
            return changed;
        }

        /// <summary>Ensures (add) or removes our one line at the end of a CMakeLists.txt ("\n" + line, so any ending round-trips).</summary>
        static bool EditLines(string path, bool add)
        {
            string text = File.ReadAllText(path), suffix = "\n" + CMakeLine;
            bool has = text.EndsWith(suffix, StringComparison.Ordinal);
            if (has == add) return false;
            File.WriteAllText(path, add ? text + suffix : text.Substring(0, text.Length - suffix.Length));
            return true;
        }

        /// <summary>Ensures (block != null) or removes our marked block at the end of build.gradle.</summary>
        static bool EditBlock(string path, string block)
        {
            string text = File.ReadAllText(path);
            string without = text;
            int b = text.IndexOf("\n" + Begin + "\n", StringComparison.Ordinal);
            if (b >= 0)
            {
                int e = text.IndexOf(End + "\n", b, StringComparison.Ordinal);
                if (e < 0) throw new FormatException(path + ": MemTracer's block starts but never ends ('" + End + "' missing); remove it by hand");
                without = text.Substring(0, b) + text.Substring(e + End.Length + 1);
            }
            string want = block == null ? without : without + "\n" + Begin + "\n" + block + End + "\n";
            if (want == text) return false;
            File.WriteAllText(path, want);
            return true;
        }

        public static string PluginCMake(List<string> files)
        {
            var b = new StringBuilder();
            b.Append("# Generated by com.memtracer.unity: the MemTracer runtime as libGfxPluginMemTracer.so.\n");
            b.Append("cmake_minimum_required(VERSION 3.10)\n");
            b.Append("add_library(" + Library + " SHARED\n    memtracer_settings.c\n");
            foreach (var f in files)
                if (f.EndsWith(".cpp") && !f.EndsWith("/noop.cpp")) b.Append("    ").Append(f).Append('\n');
            b.Append(")\n");
            b.Append("target_include_directories(" + Library + " PRIVATE include src)\n");
            b.Append("target_compile_options(" + Library + " PRIVATE -fno-exceptions -fno-rtti -fno-omit-frame-pointer)\n");
            b.Append("target_link_libraries(" + Library + " PRIVATE log dl)\n");
            return b.ToString();
        }

        public static string GradleBlock(string store, bool viaCmake)
        {
            var b = new StringBuilder();
            if (!viaCmake)
                b.Append("android.externalNativeBuild { cmake { path \"" + NativeDir + "/CMakeLists.txt\" } }\n");
            b.Append("def memtracerStore = file('").Append(store.Replace("\\", "/").Replace("'", "\\'")).Append("')\n");
            b.Append(@"// The GNU build id of an ELF file (NT_GNU_BUILD_ID in a PT_NOTE segment), as memtracer-symbolize matches it.
def memtracerBuildId(File so) {
    def buf = java.nio.ByteBuffer.wrap(so.bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN)
    if (buf.getInt(0) != 0x464c457f || buf.get(4) != 2) return null
    long phoff = buf.getLong(0x20); int phentsize = buf.getShort(0x36) & 0xffff; int phnum = buf.getShort(0x38) & 0xffff
    for (int i = 0; i < phnum; i++) {
        int ph = (int) (phoff + i * phentsize)
        if (buf.getInt(ph) != 4) continue
        long off = buf.getLong(ph + 8), end = off + buf.getLong(ph + 32)
        while (off + 12 <= end) {
            int namesz = buf.getInt((int) off), descsz = buf.getInt((int) off + 4), type = buf.getInt((int) off + 8)
            long desc = off + 12 + ((namesz + 3) & ~3)
            if (type == 3 && namesz == 4 && buf.get((int) off + 12) == 0x47) {
                return (0..<descsz).collect { String.format('%02x', buf.get((int) desc + it) & 0xff) }.join('')
            }
            off = desc + ((descsz + 3) & ~3)
        }
    }
    return null
}
tasks.register('memtracerSymbols') {
    doLast {
        fileTree(dir: 'symbols', includes: ['*/libil2cpp.so', '*/libil2cpp.sym.so', '*/libil2cpp.dbg.so']).each { so ->
            def id = memtracerBuildId(so)
            if (id == null) { logger.warn(""MemTracer: no build id in ${so}""); return }
            def dest = new File(memtracerStore, id)
            copy { from so; into new File(dest, so.parentFile.name) }
            copy { from 'src/main/assets/bin/Data/Managed/Metadata'; include 'global-metadata.dat'; into dest }
            copy { from 'src/main/Il2CppOutputProject/Source/il2cppOutput/Symbols'; into new File(dest, 'Symbols') }
            logger.lifecycle(""MemTracer: symbols of ${so.parentFile.name} in ${dest}"")
        }
    }
}
afterEvaluate {
    // after the IL2CPP step (it leaves symbols/<abi>/libil2cpp.so) and after every assemble/bundle
    tasks.matching { it.name ==~ /(?i)buildil2cpp(task)?|(assemble|bundle)(Debug|Release)?/ }.all { it.finalizedBy 'memtracerSymbols' }
}
");
            return b.ToString();
        }
    }
}
