// Unity's script compilation, as far as a package meets it: one assembly per .asmdef, holding the
// .cs files under its folder (not under a nested asmdef's, nor under a `~` or dot folder, which
// Unity never imports). References: UnityEngine for every assembly, UnityEditor only for
// Editor-only ones (includePlatforms ["Editor"]); the iOS/Android extension assemblies never (an
// asmdef assembly does not get them). An assembly whose defineConstraints are not all defined is
// left out (UNITY_INCLUDE_TESTS: a package's tests compile only when it is testable). A file or
// folder without its .meta is refused: Unity ignores assets without one in an immutable package.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using MemTracer.Editor;

static class Compiler
{
    // UnityCompiler.exe PKG STANDINS OUT editor|ios|android
    static int Main(string[] a)
    {
        if (a.Length != 4) { Console.Error.WriteLine("usage: UnityCompiler.exe PKG STANDINS OUT editor|ios|android"); return 64; }
        try { return Run(a[0], a[1], a[2], a[3]); }
        catch (Exception e) when (e is IOException || e is FormatException) { Console.Error.WriteLine("UnityCompiler: " + e.Message); return 1; }
    }

    static string Sh(string file, string args, out int rc)
    {
        var psi = new System.Diagnostics.ProcessStartInfo(file, args) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        using (var p = System.Diagnostics.Process.Start(psi))
        {
            var err = p.StandardError.ReadToEndAsync();
            string o = p.StandardOutput.ReadToEnd();
            p.WaitForExit();
            rc = p.ExitCode;
            return o + err.Result;
        }
    }

    sealed class Asm
    {
        public string Name, Dir;
        public List<string> Refs = new List<string>(), Files = new List<string>(), Constraints = new List<string>();
        public bool EditorOnly, Unsafe;
    }

    static bool Hidden(string rel)
    {
        return rel.Split('/').Any(p => p.EndsWith("~") || p.StartsWith("."));
    }

    public static int Run(string pkg, string standins, string outDir, string flavor)
    {
        pkg = Path.GetFullPath(pkg);
        var all = Directory.GetFiles(pkg, "*", SearchOption.AllDirectories).Select(f => f.Substring(pkg.Length + 1).Replace('\\', '/')).ToList();
        var visible = all.Where(r => !Hidden(r)).ToList();
        foreach (var rel in visible.Where(r => !r.EndsWith(".meta")))
        {
            if (!visible.Contains(rel + ".meta")) { Console.Error.WriteLine("FAIL: " + rel + " has no .meta: Unity ignores it in an immutable package"); return 1; }
            string dir = Path.GetDirectoryName(rel).Replace('\\', '/');
            if (dir != "" && !visible.Contains(dir + ".meta")) { Console.Error.WriteLine("FAIL: folder " + dir + " has no .meta"); return 1; }
        }
        var asms = new List<Asm>();
        foreach (var rel in visible.Where(r => r.EndsWith(".asmdef")))
        {
            var o = (JsonObject)MiniJson.Parse(File.ReadAllText(Path.Combine(pkg, rel)), rel);
            var a = new Asm { Name = o.Str("name"), Dir = Path.GetDirectoryName(rel).Replace('\\', '/') };
            a.Refs = (o.Arr("references") ?? new List<object>()).Cast<string>().ToList();
            a.Constraints = (o.Arr("defineConstraints") ?? new List<object>()).Cast<string>().ToList();
            var inc = (o.Arr("includePlatforms") ?? new List<object>()).Cast<string>().ToList();
            a.EditorOnly = inc.Count == 1 && inc[0] == "Editor";
            a.Unsafe = o["allowUnsafeCode"] is bool && (bool)o["allowUnsafeCode"];
            asms.Add(a);
        }
        foreach (var a in asms)
            a.Files = visible.Where(r => r.EndsWith(".cs") && r.StartsWith(a.Dir + "/")
                && asms.Where(b => b != a && b.Dir.StartsWith(a.Dir + "/")).All(b => !r.StartsWith(b.Dir + "/"))).ToList();
        var orphans = visible.Where(r => r.EndsWith(".cs") && !asms.Any(a => a.Files.Contains(r))).ToList();
        if (orphans.Count > 0) { Console.Error.WriteLine("FAIL: scripts outside any asmdef (they would land in Assembly-CSharp): " + string.Join(", ", orphans)); return 1; }

        var defines = flavor == "editor" ? new[] { "UNITY_EDITOR", "UNITY_2022_3_OR_NEWER" }
                    : flavor == "ios" ? new[] { "UNITY_IOS", "ENABLE_IL2CPP", "UNITY_2022_3_OR_NEWER" }
                    : new[] { "UNITY_ANDROID", "ENABLE_IL2CPP", "UNITY_2022_3_OR_NEWER" };
        Directory.CreateDirectory(outDir);
        var built = new HashSet<string>();
        // references first: a few passes in dependency order
        for (int pass = 0; pass < asms.Count; ++pass)
            foreach (var a in asms.Where(x => !built.Contains(x.Name)))
            {
                if (a.EditorOnly && flavor != "editor") { built.Add(a.Name); continue; }
                if (a.Constraints.Any(c => !defines.Contains(c))) { Console.WriteLine("skipped " + a.Name + " (defineConstraints " + string.Join(",", a.Constraints) + ")"); built.Add(a.Name); continue; }
                if (!a.Refs.All(built.Contains)) continue;
                var refs = new List<string> { Path.Combine(standins, "UnityEngine.dll"), "System.Core.dll" };
                if (a.EditorOnly) refs.Add(Path.Combine(standins, "UnityEditor.dll"));
                refs.AddRange(a.Refs.Select(r => Path.Combine(outDir, r + ".dll")));
                string args = "-nologo -target:library -warnaserror+ -nowarn:162,429 -out:\"" + Path.Combine(outDir, a.Name + ".dll") + "\" "
                    + (a.Unsafe ? "-unsafe " : "") + string.Join(" ", defines.Select(d => "-d:" + d)) + " "
                    + string.Join(" ", refs.Select(r => "-r:\"" + r + "\"")) + " "
                    + string.Join(" ", a.Files.Select(f => "\"" + Path.Combine(pkg, f) + "\""));
                int rc;
                string output = Sh("mcs", args, out rc);
                if (rc != 0) { Console.Error.WriteLine("FAIL: " + a.Name + " does not compile (" + flavor + "):\n" + output); return 1; }
                Console.WriteLine("compiled " + a.Name + " (" + flavor + ", " + a.Files.Count + " files)");
                built.Add(a.Name);
            }
        var missing = asms.Where(a => !built.Contains(a.Name)).Select(a => a.Name).ToList();
        if (missing.Count > 0) { Console.Error.WriteLine("FAIL: unresolved asmdef references in " + string.Join(", ", missing)); return 1; }
        return 0;
    }
}
