// Unity's build callbacks. Order (Unity's): IPreprocessBuildWithReport before the player is
// built; IPostGenerateGradleAndroidProject once the Gradle project is written (Android);
// IPostprocessBuildWithReport after the export (iOS: the Xcode project exists then).
using System.IO;
using UnityEditor;
using UnityEditor.Android;
using UnityEditor.Build;
using UnityEditor.Build.Reporting;
using UnityEngine;

namespace MemTracer.Editor
{
    static class Project
    {
        public static string Dir { get { return Path.GetDirectoryName(Application.dataPath); } }
        public static MemTracerSettings Settings { get { return MemTracerSettings.Load(Dir); } }

        public static string PlatformOf(BuildTarget target)
        {
            return target == BuildTarget.iOS ? "iOS" : target == BuildTarget.Android ? "Android" : null;
        }

        // One line per change, the runtime's own sources counted rather than listed.
        public static void Log(string what, System.Collections.Generic.List<string> changed)
        {
            var shown = changed.FindAll(c => !c.Contains("/MemTracer/src/") && !c.Contains("/MemTracer/include/"));
            int runtime = changed.Count - shown.Count;
            if (runtime > 0) shown.Add(runtime + " runtime sources and headers written");
            Debug.Log("MemTracer " + what + ": " + (changed.Count == 0 ? "nothing to change" : string.Join("\n  ", shown)));
        }
    }

    /// <summary>Refuses builds MemTracer cannot trace, and keeps its IL2CPP arguments in step with the settings.</summary>
    public sealed class MemTracerPreBuild : IPreprocessBuildWithReport
    {
        public int callbackOrder { get { return 0; } }

        public void OnPreprocessBuild(BuildReport report)
        {
            var target = report.summary.platform;
            string platform = Project.PlatformOf(target);
            var settings = Project.Settings;
            bool on = platform != null && settings.EnabledFor(platform);
            var group = BuildPipeline.GetBuildTargetGroup(target);
            if (on)
            {
                if (PlayerSettings.GetScriptingBackend(group) != ScriptingImplementation.IL2CPP)
                    throw new BuildFailedException("MemTracer is on for " + platform + " but this player uses the Mono scripting backend; MemTracer traces IL2CPP players only. Player Settings > Scripting Backend: IL2CPP, or turn MemTracer off for " + platform + " in Project Settings > MemTracer");
                if (target == BuildTarget.Android && (PlayerSettings.Android.targetArchitectures & AndroidArchitecture.ARM64) == 0)
                    throw new BuildFailedException("MemTracer is on for Android but ARM64 is not a target architecture (Player Settings > Target Architectures); MemTracer's runtime is arm64 only");
            }
            string args = PlayerSettings.GetAdditionalIl2CppArgs();
            string ledger = Path.Combine(Project.Dir, Il2CppArgs.LedgerFile);
            string updated = Il2CppArgs.Update(args, on, ledger);
            if (updated != args) PlayerSettings.SetAdditionalIl2CppArgs(updated);
        }
    }

    public sealed class MemTracerIosPostBuild : IPostprocessBuildWithReport
    {
        public int callbackOrder { get { return 100; } }

        public void OnPostprocessBuild(BuildReport report)
        {
            if (report.summary.platform != BuildTarget.iOS) return;
            Project.Log("iOS", IosPostBuild.Run(report.summary.outputPath, Project.Settings, Project.Dir));
        }
    }

    public sealed class MemTracerAndroidPostBuild : IPostGenerateGradleAndroidProject
    {
        public int callbackOrder { get { return 100; } }

        public void OnPostGenerateGradleAndroidProject(string unityLibraryPath)
        {
            Project.Log("Android", AndroidPostBuild.Run(unityLibraryPath, Project.Settings, Project.Dir));
        }
    }
}
