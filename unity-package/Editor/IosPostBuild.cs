// The iOS post-build step: edits the exported Xcode project so the player traces with no manual
// step, and undoes every edit when MemTracer is off for iOS. Idempotent: a second run (or an
// "Append" build) changes nothing. What it does, on:
//   - patches the export's own Il2CppOutputProject/IL2CPP/libil2cpp (never the Editor install);
//   - copies the runtime into Libraries/com.memtracer.unity/MemTracer with the baked settings and
//     the registration source, and adds the compiled files to UnityFramework exactly once;
//   - adds the runtime's include folders to UnityFramework's HEADER_SEARCH_PATHS;
//   - sets UnityFramework's DEBUG_INFORMATION_FORMAT to dwarf-with-dsym (the original is kept);
//   - adds one "MemTracer symbols" Run Script phase to the app target, which copies the dSYM,
//     global-metadata.dat and il2cpp's Symbols/ into the symbol store under the dSYM's UUID.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace MemTracer.Editor
{
    public static class IosPostBuild
    {
        public const string Dir = "Libraries/com.memtracer.unity";
        public const string NativeDir = Dir + "/MemTracer";
        public const string StateFile = Dir + "/memtracer-state.json";
        public const string OriginalProject = Dir + "/project.pbxproj.orig";
        public const string PhaseName = "MemTracer symbols";
        public static readonly string[] HeaderPaths = { "$(SRCROOT)/" + NativeDir + "/include", "$(SRCROOT)/" + NativeDir + "/src" };
        static readonly string[] Compiled = { ".c", ".cpp", ".mm" };

        /// <summary>Applies (settings.ios) or removes MemTracer in the Xcode export; returns what it changed.</summary>
        public static List<string> Run(string exportDir, MemTracerSettings settings, string projectDir)
        {
            var xcode = XcodeProject.TryCreate();
            if (xcode == null) throw new InvalidOperationException("MemTracer: iOS Build Support (UnityEditor.iOS.Extensions.Xcode) is not installed");
            string pbxPath = XcodeProject.ProjectPath(exportDir);
            if (!File.Exists(pbxPath)) throw new FileNotFoundException("MemTracer: no Xcode project at " + pbxPath);
            return settings.ios ? Apply(xcode, exportDir, pbxPath, settings, projectDir) : Remove(xcode, exportDir, pbxPath);
        }

        static List<string> Apply(XcodeProject xcode, string exportDir, string pbxPath, MemTracerSettings settings, string projectDir)
        {
            var changed = new List<string>();
            if (settings.patchIl2cpp && settings.hook != "profiler")
            {
                if (LinksPrebuiltLibil2cpp(File.ReadAllText(pbxPath)))
                    changed.Add("note: this export links Unity's prebuilt Libraries/libil2cpp.a (il2cpp --external-lib-il2-cpp), so a patched " +
                                "libil2cpp would not be compiled; left unpatched: allocations come through il2cpp's profiler API (no-patch mode)");
                else
                    changed.AddRange(Il2Cpp.Patch(Path.Combine(exportDir, "Il2CppOutputProject", "IL2CPP", "libil2cpp")));
            }

            string native = Path.Combine(exportDir, NativeDir);
            var generated = new Dictionary<string, string> {
                { SettingsSource.FileName, SettingsSource.Generate(settings) },
                { IosRegistration.FileName, IosRegistration.Generate(IosRegistration.RegisterFunction(exportDir)) },
            };
            changed.AddRange(Files.Mirror(PackagePaths.Native, native, generated.Keys).Select(f => NativeDir + "/" + f));
            foreach (var g in generated)
                if (Files.WriteIfChanged(Path.Combine(native, g.Key), g.Value)) changed.Add(NativeDir + "/" + g.Key);

            byte[] before = File.ReadAllBytes(pbxPath);
            string statePath = Path.Combine(exportDir, StateFile);
            JsonObject state = File.Exists(statePath) ? (JsonObject)MiniJson.Parse(File.ReadAllText(statePath), statePath) : null;
            xcode.ReadFromString(File.ReadAllText(pbxPath));  // as PBXProject.ReadFromFile reads it
            string fw = xcode.FrameworkTarget(), app = xcode.MainTarget();
            if (state == null)
            {
                state = new JsonObject();
                state["original_sha256"] = Files.Sha256(before);
                state["debug_information_format"] = xcode.GetBuildPropertyForAnyConfig(fw, "DEBUG_INFORMATION_FORMAT") ?? "";
                Files.WriteIfChanged(Path.Combine(exportDir, OriginalProject), before);
            }
            else if (Files.Sha256(before) != state.Str("ours_sha256") && File.Exists(Path.Combine(exportDir, OriginalProject)))
            {
                // Edited since our last write (an Append build, another plug-in): the saved original
                // no longer describes the project, so off takes our entries out one by one instead.
                File.Delete(Path.Combine(exportDir, OriginalProject));
                changed.Add("-" + OriginalProject + " (the project changed since MemTracer's last build)");
            }
            foreach (var rel in PackagePaths.Files(native).Where(f => Compiled.Contains(Path.GetExtension(f))))
            {
                string projectPath = NativeDir + "/" + rel;
                if (xcode.ContainsFileByProjectPath(projectPath)) continue;
                xcode.AddFileToBuild(fw, xcode.AddFile(projectPath, projectPath));
            }
            xcode.UpdateBuildProperty(fw, "HEADER_SEARCH_PATHS", HeaderPaths, new string[0]);
            xcode.SetBuildProperty(fw, "DEBUG_INFORMATION_FORMAT", "dwarf-with-dsym");
            if (!xcode.BuildPhases(app).Any(p => xcode.BuildPhaseName(p) == PhaseName))
                xcode.AddShellScriptBuildPhase(app, PhaseName, "/bin/sh", SymbolsScript(settings.SymbolStorePath(projectDir)));

            string after = xcode.WriteToString();
            if (Files.WriteIfChanged(pbxPath, after)) changed.Add("Unity-iPhone.xcodeproj/project.pbxproj");
            state["ours_sha256"] = Files.Sha256(File.ReadAllBytes(pbxPath));
            if (Files.WriteIfChanged(statePath, MiniJson.Write(state) + "\n")) changed.Add(StateFile);
            return changed;
        }

        static List<string> Remove(XcodeProject xcode, string exportDir, string pbxPath)
        {
            var changed = new List<string>();
            changed.AddRange(Il2Cpp.Unpatch(Path.Combine(exportDir, "Il2CppOutputProject", "IL2CPP", "libil2cpp")));
            string statePath = Path.Combine(exportDir, StateFile), orig = Path.Combine(exportDir, OriginalProject);
            if (!File.Exists(statePath)) return changed;  // never applied here
            var state = (JsonObject)MiniJson.Parse(File.ReadAllText(statePath), statePath);
            byte[] current = File.ReadAllBytes(pbxPath);
            if (Files.Sha256(current) == state.Str("ours_sha256") && File.Exists(orig))
            {
                // Nobody edited the project after us: the original comes back byte for byte.
                File.WriteAllBytes(pbxPath, File.ReadAllBytes(orig));
            }
            else
            {
                // Edited since (Append build, another plug-in): take out our entries one by one.
                xcode.ReadFromString(File.ReadAllText(pbxPath));
                string fw = xcode.FrameworkTarget();
                string native = Path.Combine(exportDir, NativeDir);
                if (Directory.Exists(native))
                    foreach (var rel in PackagePaths.Files(native))
                    {
                        string guid = xcode.FindFileByProjectPath(NativeDir + "/" + rel);
                        if (guid != null) xcode.RemoveFile(guid);
                    }
                xcode.UpdateBuildProperty(fw, "HEADER_SEARCH_PATHS", new string[0], HeaderPaths);
                string dif = state.Str("debug_information_format");
                if (!string.IsNullOrEmpty(dif)) xcode.SetBuildProperty(fw, "DEBUG_INFORMATION_FORMAT", dif);
                File.WriteAllText(pbxPath, xcode.WriteToString());
                changed.Add("note: the '" + PhaseName + "' phase stays (PBXProject cannot remove a build phase); it does nothing without the runtime");
            }
            changed.Add("Unity-iPhone.xcodeproj/project.pbxproj");
            Files.DeleteTree(Path.Combine(exportDir, Dir));
            changed.Add("-" + Dir);
            return changed;
        }

        /// <summary>True when the il2cpp phase links Unity's prebuilt libil2cpp.a instead of compiling the export's sources
        /// (2022.3.31f1 exports seen so far: --external-lib-il2-cpp and no --custom-il2-cpp-root).</summary>
        public static bool LinksPrebuiltLibil2cpp(string pbxproj)
        {
            return pbxproj.Contains("--compile-cpp") && pbxproj.Contains("--external-lib-il2-cpp") && !pbxproj.Contains("--custom-il2-cpp-root");
        }

        /// <summary>The Run Script phase: dSYM, metadata and il2cpp symbols into STORE/&lt;UUID&gt;/.</summary>
        public static string SymbolsScript(string store)
        {
            return
"# MemTracer: keep what memtracer-symbolize needs for this build, keyed by the dSYM's UUID.\n" +
"STORE=\"" + store.Replace("\"", "\\\"") + "\"\n" +
"DSYM=\"${DWARF_DSYM_FOLDER_PATH}/UnityFramework.framework.dSYM\"\n" +
"if [ ! -d \"$DSYM\" ]; then echo \"warning: MemTracer: no $DSYM (DEBUG_INFORMATION_FORMAT?)\"; exit 0; fi\n" +
"UUID=$(xcrun dwarfdump --uuid \"$DSYM\" | awk 'NR==1 {print $2}')\n" +
"DEST=\"$STORE/$UUID\"\n" +
"mkdir -p \"$DEST\"\n" +
"rsync -a --delete \"$DSYM\" \"$DEST/\"\n" +
"cp \"${PROJECT_DIR}/Data/Managed/Metadata/global-metadata.dat\" \"$DEST/\"\n" +
"if [ -d \"${PROJECT_DIR}/Il2CppOutputProject/Source/il2cppOutput/Symbols\" ]; then rsync -a \"${PROJECT_DIR}/Il2CppOutputProject/Source/il2cppOutput/Symbols\" \"$DEST/\"; fi\n" +
"echo \"MemTracer: symbols of this build in $DEST (memtracer-symbolize --symbols \\\"$STORE\\\")\"\n";
        }
    }
}
