// FakeUnity: the parts of the Unity Editor MemTracer's package meets, run on Debian's mono with the
// stand-in assemblies (standins/); UnityCompiler.exe (Compiler.cs) is its script compilation. As
// strict as Unity: it exports only plug-ins whose .meta enables the platform, and runs the
// build callbacks in Unity's order (IPreprocessBuildWithReport, the export,
// IPostGenerateGradleAndroidProject, IPostprocessBuildWithReport; each sorted by callbackOrder).
//
//   FakeUnity.exe load                       (from a folder holding the assemblies to load)
//   FakeUnity.exe build --target ios|android --project P --package PKG --export SRC --out DIR
//                       [--append] [--backend mono|il2cpp] [--archs armv7|arm64]
//   FakeUnity.exe patch LIBIL2CPP DATA apply|revert|check
//   FakeUnity.exe pbx-roundtrip FILE | pbx-badtarget FILE
//   FakeUnity.exe status HEADER
//   FakeUnity.exe settings-source PROJECT OUT
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Text.RegularExpressions;

static class FakeUnity
{
    static int Main(string[] a)
    {
        try
        {
            switch (a.Length > 0 ? a[0] : "")
            {
                case "load": return Load();
                case "build": return Pipeline.Run(a.Skip(1).ToArray());
                case "patch": return Patch(a[1], a[2], a[3]);
                case "pbx-roundtrip": return Xcode.RoundTrip(a[1]);
                case "pbx-badtarget": return Xcode.BadTarget(a[1]);
                case "status": return Status(a[1]);
                case "settings-source": return SettingsSource(a[1], a[2]);
                case "editor-tools": return EditorToolsCheck(a[1]);
            }
            Console.Error.WriteLine("usage: FakeUnity.exe load|build|patch|pbx-roundtrip|pbx-badtarget|status|settings-source ...");
            return 64;
        }
        catch (Exception e) when (!(e is OutOfMemoryException))
        {
            Console.Error.WriteLine("FakeUnity: " + e.GetType().Name + ": " + e.Message);
            return 1;
        }
    }

    // The Editor assembly loads and its types resolve in an editor with no iOS/Android support:
    // run from a folder without UnityEditor.iOS.Extensions.Xcode.dll / UnityEditor.Android.Extensions.dll.
    static int Load()
    {
        string dir = AppDomain.CurrentDomain.BaseDirectory;
        var editor = Assembly.LoadFrom(Path.Combine(dir, "MemTracer.Editor.dll"));
        Type[] types;
        // Unity refuses an assembly with an unresolvable reference ("Unable to resolve reference
        // ... will not be loaded"): every referenced assembly must be there.
        var missing = editor.GetReferencedAssemblies().Where(r => !File.Exists(Path.Combine(dir, r.Name + ".dll")) && !Gac(r)).ToList();
        if (missing.Count > 0)
        {
            Console.Error.WriteLine("FAIL: MemTracer.Editor does not load: unresolved reference to " + string.Join(", ", missing.Select(r => r.Name)));
            return 1;
        }
        try
        {
            types = editor.GetTypes();
            foreach (var t in types)
                foreach (var m in t.GetMethods(BindingFlags.Static | BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.DeclaredOnly))
                    m.GetParameters();  // resolves every signature's types
        }
        catch (Exception e) when (e is ReflectionTypeLoadException || e is FileNotFoundException || e is TypeLoadException)
        {
            Console.Error.WriteLine("FAIL: MemTracer.Editor does not load: " + e.Message);
            return 1;
        }
        var callbacks = types.Where(t => !t.IsAbstract && !t.IsInterface && typeof(UnityEditor.Build.IOrderedCallback).IsAssignableFrom(t)).ToList();
        foreach (var t in callbacks) Activator.CreateInstance(t);
        bool ios = Type.GetType("UnityEditor.iOS.Xcode.PBXProject, UnityEditor.iOS.Extensions.Xcode", false) != null;
        Console.WriteLine("loaded MemTracer.Editor: " + types.Length + " types, " + callbacks.Count + " build callbacks; iOS support " + (ios ? "present" : "absent"));
        // by reflection: this method must run against any MemTracer.Editor.dll (the control's too)
        var xcode = editor.GetType("MemTracer.Editor.XcodeProject", true).GetMethod("TryCreate").Invoke(null, null);
        if (!ios && xcode != null) { Console.Error.WriteLine("FAIL: XcodeProject without iOS support"); return 1; }
        return 0;
    }

    // The window's pieces that run without a device: tool lookup, adb's output, the diagnosis, the menu path.
    static int EditorToolsCheck(string tmp)
    {
        int bad = 0;
        Action<bool, string> check = (ok, what) => { if (!ok) { Console.Error.WriteLine("FAIL: " + what); ++bad; } };
        Directory.CreateDirectory(Path.Combine(tmp, "bin"));
        File.WriteAllText(Path.Combine(tmp, "bin", "memtracer-viewer"), "");
        check(MemTracer.Editor.EditorTools.Find("memtracer-viewer", "", "/nonexistent" + Path.PathSeparator + Path.Combine(tmp, "bin")) == Path.Combine(tmp, "bin", "memtracer-viewer"), "PATH lookup");
        check(MemTracer.Editor.EditorTools.Find("memtracer-viewer", "/nonexistent", Path.Combine(tmp, "bin")) == null, "the tools folder setting must win over PATH");
        check(MemTracer.Editor.EditorTools.Missing("memtracer-report", "").Contains("tools folder"), "the missing-tool message says what to do");
        // adb's documented output: a header, then "SERIAL<TAB>STATE" lines; only "device" is usable
        var serials = MemTracer.Editor.EditorTools.ParseAdbDevices("* daemon started successfully\nList of devices attached\nR58M123ABC\tdevice\nemulator-5554\toffline\n0123456789\tunauthorized\n\n");
        check(serials.Count == 1 && serials[0] == "R58M123ABC", "adb devices: " + string.Join(",", serials));
        check(string.Join(" ", MemTracer.Editor.EditorTools.ForwardArgs("Android", 34999, "R58")) == "-s R58 forward tcp:34999 tcp:34999", "adb forward arguments");
        var empty = new MemTracer.Counters { Running = 1 };
        check(MemTracer.Diagnosis.Explain(empty).Any(w => w.StartsWith("no frames")), "running without frames is explained");
        var nohook = new MemTracer.Counters { Running = 1, FramesWritten = 10 };
        check(MemTracer.Diagnosis.Explain(nohook).Any(w => w.Contains("no hook attached")), "frames without allocations are explained");
        var drops = new MemTracer.Counters { Running = 1, FramesWritten = 10, AllocationsSeen = 100, EventsRecorded = 90, EventsDropped = 10 };
        check(MemTracer.Diagnosis.Explain(drops).Any(w => w.StartsWith("10 of 100 allocations dropped")), "drops are counted");
        var fine = new MemTracer.Counters { Running = 1, FramesWritten = 10, AllocationsSeen = 100, EventsRecorded = 100 };
        check(MemTracer.Diagnosis.Explain(fine).Length == 0, "a healthy run has nothing to explain");
        var menu = typeof(MemTracer.Editor.MemTracerWindow).GetMethod("Open").GetCustomAttributes(typeof(UnityEditor.MenuItem), false).Cast<UnityEditor.MenuItem>().Select(m => m.menuItem).FirstOrDefault();
        check(menu == "Window/Analysis/MemTracer", "menu item is " + menu);
        if (bad == 0) Console.WriteLine("ok: tool lookup, adb devices, forward arguments, diagnosis, Window/Analysis/MemTracer");
        return bad == 0 ? 0 : 1;
    }

    static bool Gac(AssemblyName r)
    {
        try { Assembly.Load(r); return true; }
        catch (FileNotFoundException) { return false; }
    }

    static int SettingsSource(string project, string output)
    {
        File.WriteAllText(output, MemTracer.Editor.SettingsSource.Generate(MemTracer.Editor.MemTracerSettings.Load(project)));
        return 0;
    }

    static int Patch(string lib, string data, string what)
    {
        var p = new MemTracer.Editor.Il2CppPatcher(lib, data);
        try
        {
            if (what == "check") { Console.WriteLine(p.Check()); return 0; }
            foreach (var l in what == "apply" ? p.Apply() : p.Revert()) Console.WriteLine(l);
            return 0;
        }
        catch (MemTracer.Editor.PatchRefused e) { Console.Error.WriteLine("refused: " + e.Message); return 2; }
    }

    // MemTracer.Status must be mt_status, value for value (memtracer.h is the one home of the codes).
    static int Status(string header)
    {
        string text = File.ReadAllText(header);
        var block = Regex.Match(text, @"typedef enum mt_status \{(.*?)\} mt_status;", RegexOptions.Singleline).Groups[1].Value;
        var c = Regex.Matches(block, @"MT_(?:ERR_)?([A-Z0-9_]+)\s*=\s*(\d+)").Cast<Match>()
            .ToDictionary(m => m.Groups[1].Value.Replace("_", ""), m => int.Parse(m.Groups[2].Value));
        var cs = Enum.GetValues(typeof(MemTracer.Status)).Cast<MemTracer.Status>().Where(s => s != MemTracer.Status.Unavailable)
            .ToDictionary(s => s.ToString().ToUpperInvariant(), s => (int)s);
        int bad = 0;
        foreach (var kv in c)
            if (!cs.ContainsKey(kv.Key) || cs[kv.Key] != kv.Value) { Console.Error.WriteLine("FAIL: mt_status " + kv.Key + " = " + kv.Value + " has no equal in MemTracer.Status"); ++bad; }
        foreach (var kv in cs)
            if (!c.ContainsKey(kv.Key)) { Console.Error.WriteLine("FAIL: MemTracer.Status." + kv.Key + " is not in mt_status"); ++bad; }
        if (c.Count < 20) { Console.Error.WriteLine("FAIL: read only " + c.Count + " codes from " + header); ++bad; }
        Console.WriteLine("mt_status: " + c.Count + " codes, MemTracer.Status: " + cs.Count);
        if (MemTracer.Tracer.IsAvailable || MemTracer.Tracer.Mark("x") != MemTracer.Status.Unavailable) { Console.Error.WriteLine("FAIL: Tracer available in the Editor"); ++bad; }
        bad += MarkEncoding();
        return bad == 0 ? 0 : 1;
    }

    unsafe delegate int EncodeFn(string s, byte* buf, int at, int limit);

    static unsafe string Hex(EncodeFn encode, string s, int limit)
    {
        var arr = new byte[64];
        int n;
        fixed (byte* buf = arr) n = encode(s, buf, 0, limit);
        return n == 0 ? "" : BitConverter.ToString(arr, 0, n);
    }

    // Mark's label encoding (MemTracer.Utf8, what MarkParts runs in a player): UTF-8 without splitting
    // a character at the 63-byte limit, and no managed allocation per call.
    static unsafe int MarkEncoding()
    {
        var m = typeof(MemTracer.Tracer).Assembly.GetType("MemTracer.Utf8", true).GetMethod("Encode", BindingFlags.Static | BindingFlags.NonPublic);
        var encode = (EncodeFn)Delegate.CreateDelegate(typeof(EncodeFn), m);
        int bad = 0;
        var cases = new[] {
            Tuple.Create("scene A", 63, "73-63-65-6E-65-20-41"),
            Tuple.Create("\u00e9", 63, "C3-A9"),
            Tuple.Create("a\u00e9", 2, "61"),                   // the 2-byte character does not fit: dropped whole
            Tuple.Create("\u20ac", 63, "E2-82-AC"),
            Tuple.Create("\ud83d\ude00", 63, "F0-9F-98-80"),     // a surrogate pair is one 4-byte character
            Tuple.Create("\ud83d", 63, "EF-BF-BD"),               // a lone surrogate becomes U+FFFD
        };
        foreach (var c in cases)
        {
            string got = Hex(encode, c.Item1, c.Item2);
            if (got != c.Item3) { Console.Error.WriteLine("FAIL: Utf8 case " + c.Item3 + ": got " + got); ++bad; }
        }
        if (Hex(encode, new string('x', 100), 63).Split('-').Length != 63) { Console.Error.WriteLine("FAIL: a long label does not keep 63 bytes"); ++bad; }
        var arr = new byte[64];
        long allocated;
        fixed (byte* buf = arr)
        {
            string label = "level 3: boss fight";
            encode(label, buf, 0, 63);  // warm (JIT)
            long before = GC.GetAllocatedBytesForCurrentThread();
            for (int i = 0; i < 10000; ++i) encode(label, buf, encode("scene ", buf, 0, 63), 63);
            allocated = GC.GetAllocatedBytesForCurrentThread() - before;
        }
        if (allocated != 0) { Console.Error.WriteLine("FAIL: 10000 label encodings allocated " + allocated + " managed bytes"); ++bad; }
        long control = GC.GetAllocatedBytesForCurrentThread();
        GC.KeepAlive(new byte[16]);
        if (GC.GetAllocatedBytesForCurrentThread() == control) { Console.Error.WriteLine("FAIL: control: this runtime's allocation counter does not count"); ++bad; }
        Console.WriteLine("mark encoding: UTF-8 cases ok, 10000 encodings allocated " + allocated + " managed bytes");
        return bad;
    }
}
