// The fake build: Unity's callback order on a fixture export. The export step copies the fixture
// (Replace) or keeps the folder (--append), then exports the project's plug-ins whose .meta
// enables the platform (iOS: under Libraries/, added to UnityFramework as Unity does).
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using UnityEditor;
using UnityEditor.Build;
using UnityEditor.Build.Reporting;

static class Pipeline
{
    public static int Run(string[] a)
    {
        var opt = new Dictionary<string, string>();
        for (int i = 0; i < a.Length; ++i)
            opt[a[i]] = i + 1 < a.Length && !a[i + 1].StartsWith("--") ? a[++i] : "";
        string target = opt["--target"], project = Path.GetFullPath(opt["--project"]), pkg = Path.GetFullPath(opt["--package"]);
        string export = Path.GetFullPath(opt["--export"]), outDir = Path.GetFullPath(opt["--out"]);
        var bt = target == "ios" ? BuildTarget.iOS : target == "android" ? BuildTarget.Android : throw new ArgumentException("--target ios|android");

        string dir = AppDomain.CurrentDomain.BaseDirectory;
        var editor = Assembly.LoadFrom(Path.Combine(dir, "MemTracer.Editor.dll"));
        UnityEditor.PackageManager.PackageInfo.s_ByAssembly[editor] = new UnityEditor.PackageManager.PackageInfo { name = "com.memtracer.unity", resolvedPath = pkg };
        UnityEngine.Application.s_DataPath = Path.Combine(project, "Assets");
        var group = BuildPipeline.GetBuildTargetGroup(bt);
        PlayerSettings.SetScriptingBackend(group, opt.ContainsKey("--backend") && opt["--backend"] == "mono" ? ScriptingImplementation.Mono2x : ScriptingImplementation.IL2CPP);
        if (opt.ContainsKey("--archs")) PlayerSettings.Android.targetArchitectures = opt["--archs"] == "armv7" ? AndroidArchitecture.ARMv7 : AndroidArchitecture.ARM64;
        string argsFile = Path.Combine(project, "ProjectSettings", "FakeIl2CppArgs.txt");  // ProjectSettings persist between builds
        if (File.Exists(argsFile)) PlayerSettings.SetAdditionalIl2CppArgs(File.ReadAllText(argsFile));

        var report = new BuildReport { m_Summary = new BuildSummary { m_Platform = bt, m_OutputPath = outDir } };
        var types = editor.GetTypes().Where(t => !t.IsAbstract && !t.IsInterface).ToList();
        Func<Type, IEnumerable<object>> of = iface => types.Where(iface.IsAssignableFrom).Select(Activator.CreateInstance)
            .OrderBy(o => ((IOrderedCallback)o).callbackOrder).ToList();
        try
        {
            foreach (IPreprocessBuildWithReport cb in of(typeof(IPreprocessBuildWithReport))) cb.OnPreprocessBuild(report);
        }
        catch (BuildFailedException e)
        {
            Console.Error.WriteLine("build failed: " + e.Message);
            return 2;
        }
        finally
        {
            Directory.CreateDirectory(Path.GetDirectoryName(argsFile));
            File.WriteAllText(argsFile, PlayerSettings.GetAdditionalIl2CppArgs());
        }
        Console.WriteLine("il2cpp args: " + PlayerSettings.GetAdditionalIl2CppArgs());

        if (!opt.ContainsKey("--append") || !Directory.Exists(outDir))
        {
            if (Directory.Exists(outDir)) Directory.Delete(outDir, true);
            Copy(export, outDir);
        }
        if (bt == BuildTarget.iOS) Xcode.ExportPlugins(project, pkg, outDir);
        if (bt == BuildTarget.Android)
            foreach (UnityEditor.Android.IPostGenerateGradleAndroidProject cb in of(typeof(UnityEditor.Android.IPostGenerateGradleAndroidProject)))
                cb.OnPostGenerateGradleAndroidProject(Path.Combine(outDir, "unityLibrary"));
        foreach (IPostprocessBuildWithReport cb in of(typeof(IPostprocessBuildWithReport))) cb.OnPostprocessBuild(report);
        Console.WriteLine("build done: " + outDir);
        return 0;
    }

    public static void Copy(string src, string dst)
    {
        Directory.CreateDirectory(dst);
        foreach (var f in Directory.GetFiles(src, "*", SearchOption.AllDirectories))
        {
            string to = Path.Combine(dst, f.Substring(src.Length + 1));
            Directory.CreateDirectory(Path.GetDirectoryName(to));
            File.Copy(f, to, true);
        }
    }

    /// <summary>True when a plug-in's .meta enables it for the platform ("iPhone"/"Android"), or for Any without excluding it.</summary>
    public static bool Enabled(string metaPath, string platform)
    {
        if (!File.Exists(metaPath)) return false;
        string text = File.ReadAllText(metaPath);
        if (!text.Contains("PluginImporter:")) return false;
        bool any = false, own = false, ownSeen = false;
        foreach (var entry in text.Split(new[] { "- first:" }, StringSplitOptions.None).Skip(1))
        {
            bool enabled = entry.Contains("enabled: 1");
            string key = entry.TrimStart().Split(':')[0].Trim();
            if (key == "Any") any = enabled;
            if (key == platform) { own = enabled; ownSeen = true; }
        }
        return ownSeen ? own : any;
    }
}
