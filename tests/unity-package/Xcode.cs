// The fake pipeline's Xcode side: Unity's own export of iOS plug-ins, and the PBXProject checks.
using System;
using System.IO;
using System.Linq;
using UnityEditor.iOS.Xcode;

static class Xcode
{
    static readonly string[] Native = { ".c", ".cpp", ".mm", ".m", ".h" };

    // Assets/Plugins/... -> Libraries/Plugins/...; a package's -> Libraries/<package>/...; only
    // files whose .meta enables iOS; compiled ones join UnityFramework.
    public static void ExportPlugins(string project, string pkg, string outDir)
    {
        string pbxPath = PBXProject.GetPBXProjectPath(outDir);
        var proj = new PBXProject();
        proj.ReadFromFile(pbxPath);
        string before = proj.WriteToString();
        string fw = proj.GetUnityFrameworkTargetGuid();
        var roots = new[] { Tuple.Create(Path.Combine(project, "Assets"), "Libraries"), Tuple.Create(pkg, "Libraries/" + Path.GetFileName(pkg.TrimEnd('/'))) };
        foreach (var r in roots.Where(r => Directory.Exists(r.Item1)))
            foreach (var f in Directory.GetFiles(r.Item1, "*", SearchOption.AllDirectories).OrderBy(x => x, StringComparer.Ordinal))
            {
                string rel = f.Substring(r.Item1.Length + 1).Replace('\\', '/');
                if (!Native.Contains(Path.GetExtension(f)) || rel.Split('/').Any(p => p.EndsWith("~"))) continue;
                if (!Pipeline.Enabled(f + ".meta", "iPhone")) continue;
                string projectPath = r.Item2 + "/" + rel;
                string to = Path.Combine(outDir, projectPath);
                Directory.CreateDirectory(Path.GetDirectoryName(to));
                File.Copy(f, to, true);
                string guid = proj.AddFile(projectPath, projectPath);
                if (Path.GetExtension(f) != ".h") proj.AddFileToBuild(fw, guid);
                Console.WriteLine("exported plug-in " + projectPath);
            }
        string after = proj.WriteToString();
        if (after != before) File.WriteAllText(pbxPath, after);
    }

    public static int RoundTrip(string file)
    {
        var p = new PBXProject();
        string text = File.ReadAllText(file);
        p.ReadFromString(text);
        string back = p.WriteToString();
        if (back == text) { Console.WriteLine("round trip: identical (" + text.Length + " bytes)"); return 0; }
        int i = 0;
        while (i < text.Length && i < back.Length && text[i] == back[i]) ++i;
        int line = 1 + text.Take(i).Count(c => c == '\n');
        Console.Error.WriteLine("FAIL: " + file + " differs after a round trip at line " + line + ":\n  read:  " + Line(text, i) + "\n  wrote: " + Line(back, i));
        return 1;
    }

    static string Line(string s, int at)
    {
        int b = s.LastIndexOf('\n', Math.Max(0, Math.Min(at, s.Length - 1))) + 1, e = s.IndexOf('\n', Math.Min(at, s.Length));
        return s.Substring(b, (e < 0 ? s.Length : e) - b);
    }

    public static int BadTarget(string file)
    {
        var p = new PBXProject();
        p.ReadFromFile(file);
        string g = p.AddFile("x.cpp", "x.cpp");
        foreach (var bad in new[] { "0123456789ABCDEF01234567", g, null })
        {
            try { p.AddFileToBuild(bad, g); }
            catch (Exception e) { Console.WriteLine("throws for target " + (bad ?? "null") + ": " + e.Message); continue; }
            Console.Error.WriteLine("FAIL: AddFileToBuild accepted target " + (bad ?? "null"));
            return 1;
        }
        if (p.TargetGuidByName("NoSuchTarget") != null) { Console.Error.WriteLine("FAIL: TargetGuidByName invented a target"); return 1; }
        return 0;
    }
}
