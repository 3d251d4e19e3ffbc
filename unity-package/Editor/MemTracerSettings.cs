// Project Settings > MemTracer: what the build hooks do and what the player starts with. Stored in
// ProjectSettings/MemTracerSettings.json (text, reviewable, one key per line) and baked into the
// player as generated C source (SettingsSource) the runtime reads when no environment variable
// overrides it: iOS has no practical environment.
using System;
using System.Globalization;
using System.IO;

namespace MemTracer.Editor
{
    public sealed class MemTracerSettings
    {
        public const string FileName = "ProjectSettings/MemTracerSettings.json";

        public bool ios = true;            // hooks run for iOS builds
        public bool android = true;        // hooks run for Android builds
        public string mode = "events";     // events | aggregate
        public long depth = 64;            // frames per stack
        public long ringBytes = 1 << 20;   // ring per thread
        public long sampleBytes = 0;       // one sample per N bytes; 0: every allocation
        public string hook = "auto";       // auto | patch | profiler
        public bool patchIl2cpp = true;    // patch the export's libil2cpp (never the Editor install)
        public bool gcEvents = true;       // MT_FLAG_GC_EVENTS
        public bool lifetimes = false;     // MT_FLAG_LIFETIMES
        public bool sceneMarks = true;     // "scene <name>" marks from C#
        public string listen = "";         // live: host:port the game listens on
        public string connect = "";        // live: host:port the game connects to
        public string token = "";          // live: the token a host must send
        public string symbolStore = "MemTracerSymbols";  // relative to the project folder, or absolute
        public string toolsDir = "";       // where memtracer-viewer etc. are; empty: PATH

        public bool EnabledFor(string platform)
        {
            return platform == "iOS" ? ios : platform == "Android" ? android : false;
        }

        public uint Flags { get { return (gcEvents ? 1u : 0u) | (lifetimes ? 2u : 0u); } }

        /// <summary>The symbol store as an absolute path (relative ones are under the project folder).</summary>
        public string SymbolStorePath(string projectDir)
        {
            return Path.GetFullPath(Path.IsPathRooted(symbolStore) ? symbolStore : Path.Combine(projectDir, symbolStore));
        }

        public static MemTracerSettings Load(string projectDir)
        {
            var s = new MemTracerSettings();
            string path = Path.Combine(projectDir, FileName);
            if (!File.Exists(path)) return s;
            var o = MiniJson.Parse(File.ReadAllText(path), path) as JsonObject;
            if (o == null) throw new FormatException(path + ": not a JSON object");
            foreach (var f in typeof(MemTracerSettings).GetFields())
            {
                if (f.IsLiteral || !o.Has(f.Name)) continue;
                object v = o[f.Name];
                try { f.SetValue(s, f.FieldType == typeof(long) ? Convert.ToInt64(v, CultureInfo.InvariantCulture) : v); }
                catch (ArgumentException) { throw new FormatException(path + ": '" + f.Name + "' must be a " + f.FieldType.Name); }
            }
            s.Validate(path);
            return s;
        }

        public string ToJson()
        {
            var o = new JsonObject();
            foreach (var f in typeof(MemTracerSettings).GetFields())
                if (!f.IsLiteral) o[f.Name] = f.GetValue(this);
            return MiniJson.Write(o) + "\n";
        }

        public void Save(string projectDir) { File.WriteAllText(Path.Combine(projectDir, FileName), ToJson()); }

        void Validate(string where)
        {
            if (mode != "events" && mode != "aggregate") throw new FormatException(where + ": mode must be events or aggregate, not '" + mode + "'");
            if (hook != "auto" && hook != "patch" && hook != "profiler") throw new FormatException(where + ": hook must be auto, patch or profiler");
            if (depth < 1 || depth > 128) throw new FormatException(where + ": depth must be 1..128");
            if (ringBytes < 4096 || (ringBytes & (ringBytes - 1)) != 0) throw new FormatException(where + ": ringBytes must be a power of two >= 4096");
            if (listen != "" && connect != "") throw new FormatException(where + ": set listen or connect, not both");
        }
    }
}
