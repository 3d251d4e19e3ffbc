// Il2CppPatcher: bdwgc-patches/memtracer-patch-il2cpp in C#, so the Editor patches an export's
// libil2cpp with no Python (Windows editors have none). Both read the same rules
// (bdwgc-patches/il2cpp-layouts.json, copied into the package by the build) and write the same
// bytes: the same line splitting (Python's str.splitlines over latin-1), the same whitespace set
// for strip(), the same backups, headers and patch-state.json; tests/unity-package proves it on
// every layout fixture. Refusals throw PatchRefused and leave every file as it was.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;

namespace MemTracer.Editor
{
    public sealed class PatchRefused : Exception
    {
        public PatchRefused(string message) : base(message) { }
    }

    public sealed class Il2CppPatcher
    {
        public const string Tool = "memtracer-patch-il2cpp";
        const string StateDir = "memtracer", StateFile = "memtracer/patch-state.json", BackupDir = "memtracer/backup";
        // destination under libil2cpp -> file name in the patch data folder (the Python script's HEADERS, same order)
        static readonly string[,] Headers = {
            { "memtracer/memtracer_il2cpp_hooks.h", "memtracer_il2cpp_hooks.h" },
            { "memtracer/memtracer.h", "memtracer.h" },
            { "memtracer/il2cpp_bridge.h", "il2cpp_bridge.h" },
        };

        readonly string m_Root;
        readonly List<object> m_Files;
        readonly string m_DataDir;

        /// <summary>root: a libil2cpp folder; dataDir: holds il2cpp-layouts.json and the three headers.</summary>
        public Il2CppPatcher(string root, string dataDir)
        {
            m_Root = root;
            m_DataDir = dataDir;
            string rules = Path.Combine(dataDir, "il2cpp-layouts.json");
            var doc = (JsonObject)MiniJson.Parse(File.ReadAllText(rules), rules);
            m_Files = doc.Arr("files");
        }

        // ------------------------------------------------------------------ text, as Python sees it

        sealed class Text
        {
            public List<string> Lines = new List<string>();
            public List<string> Bodies = new List<string>();

            public Text(byte[] data)
            {
                var s = new StringBuilder(data.Length);
                foreach (byte b in data) s.Append((char)b);  // latin-1: every byte round-trips
                string all = s.ToString();
                int start = 0;
                for (int i = 0; i < all.Length; ++i)
                {
                    char c = all[i];
                    if (!IsLineBreak(c)) continue;
                    if (c == '\r' && i + 1 < all.Length && all[i + 1] == '\n') ++i;
                    Lines.Add(all.Substring(start, i + 1 - start));
                    start = i + 1;
                }
                if (start < all.Length) Lines.Add(all.Substring(start));
                Rebody();
            }
            // str.splitlines() boundaries within latin-1
            static bool IsLineBreak(char c) { return c == '\n' || c == '\r' || c == '\x0b' || c == '\x0c' || c == '\x1c' || c == '\x1d' || c == '\x1e' || c == '\x85'; }
            public void Rebody() { Bodies = Lines.Select(l => l.TrimEnd('\r', '\n')).ToList(); }
            public string Eol(int i)
            {
                string e = Lines[i].Substring(Bodies[i].Length);
                return e.Length > 0 ? e : "\n";
            }
            public byte[] Data()
            {
                string all = string.Concat(Lines);
                var b = new byte[all.Length];
                for (int i = 0; i < all.Length; ++i) b[i] = (byte)all[i];
                return b;
            }
        }

        // str.isspace() within latin-1: what Python's strip() removes
        static readonly char[] PyWhitespace = { ' ', '\t', '\n', '\x0b', '\x0c', '\r', '\x1c', '\x1d', '\x1e', '\x1f', '\x85', '\xa0' };
        static string Strip(string s) { return s.Trim(PyWhitespace); }

        static List<int> FindBlock(List<string> bodies, List<string> block)
        {
            var hits = new List<int>();
            for (int i = 0; i + block.Count <= bodies.Count; ++i)
            {
                bool same = true;
                for (int k = 0; k < block.Count && same; ++k) same = bodies[i + k] == block[k];
                if (same) hits.Add(i);
            }
            return hits;
        }

        static List<string> Strings(JsonObject o, string key) { return o.Arr(key).Cast<string>().ToList(); }

        struct RuleHit { public string State; public int Index; public string Detail; }

        static RuleHit RuleState(Text t, JsonObject rule)
        {
            List<int> clean, patched;
            if (rule.Str("kind") == "block")
            {
                clean = FindBlock(t.Bodies, Strings(rule, "original"));
                patched = FindBlock(t.Bodies, Strings(rule, "patched"));
            }
            else
            {
                var b = t.Bodies;
                var hits = Enumerable.Range(0, b.Count).Where(i => Strip(b[i]) == rule.Str("match")).ToList();
                patched = hits.Where(i => i + 1 < b.Count && Strip(b[i + 1]) == rule.Str("insert")).ToList();
                clean = hits.Where(i => !patched.Contains(i)).ToList();
            }
            if (clean.Count == 1 && patched.Count == 0) return new RuleHit { State = "clean", Index = clean[0] };
            if (patched.Count == 1 && clean.Count == 0) return new RuleHit { State = "patched", Index = patched[0] };
            return new RuleHit { State = "mismatch", Index = -1,
                Detail = rule.Str("what") + ": original form found " + clean.Count + "x, patched form " + patched.Count + "x" };
        }

        static void ApplyRule(Text t, JsonObject rule, int index)
        {
            string eol = t.Eol(index);
            if (rule.Str("kind") == "block")
            {
                var original = Strings(rule, "original");
                t.Lines.RemoveRange(index, original.Count);
                t.Lines.InsertRange(index, Strings(rule, "patched").Select(s => s + eol));
            }
            else
            {
                string body = t.Bodies[index];
                string indent = body.Substring(0, body.Length - body.TrimStart(PyWhitespace).Length);
                t.Lines.Insert(index + 1, indent + rule.Str("insert") + eol);
            }
            t.Rebody();
        }

        sealed class FileResult
        {
            public string Rel, State;
            public JsonObject Layout;
            public Text Text;
            public List<RuleHit> Hits;
        }

        FileResult Classify(JsonObject fdesc)
        {
            string rel = fdesc.Str("path"), path = Path.Combine(m_Root, rel);
            var r = new FileResult { Rel = rel };
            if (!File.Exists(path))
            {
                if ((bool)fdesc["required"]) throw new PatchRefused(path + ": missing (a libil2cpp always has it)");
                r.State = "missing";
                return r;
            }
            r.Text = new Text(File.ReadAllBytes(path));
            var b = r.Text.Bodies;
            string marker = fdesc.Str("absent_ok_if_missing_marker");
            if (marker != null && !b.Any(s => s.Contains(marker)))
            {
                if (b.Any(s => s.Contains("MEMTRACER")))
                    throw new PatchRefused(path + ": mentions MEMTRACER but has no " + marker + " path: edited by someone else");
                r.State = "not-needed";
                return r;
            }
            var partial = new List<string>();
            foreach (JsonObject layout in fdesc.Arr("layouts"))
            {
                var hits = layout.Arr("rules").Cast<JsonObject>().Select(rule => RuleState(r.Text, rule)).ToList();
                var kinds = new HashSet<string>(hits.Select(h => h.State));
                if (kinds.Count == 1 && (kinds.Contains("clean") || kinds.Contains("patched")))
                {
                    if (kinds.Contains("clean") && b.Any(s => s.Contains("MEMTRACER")))
                        throw new PatchRefused(path + ": original layout '" + layout.Str("name") + "' but other MEMTRACER edits are present: modified by someone else");
                    r.State = kinds.First(); r.Layout = layout; r.Hits = hits;
                    return r;
                }
                if (kinds.Contains("patched"))
                    partial.Add("layout '" + layout.Str("name") + "': " + string.Join("; ", hits.Select(h => h.Detail ?? h.State)));
            }
            if (partial.Count > 0) throw new PatchRefused(path + ": half patched or edited after patching (" + string.Join(" | ", partial) + ")");
            throw new PatchRefused(path + ": unknown layout (no rule of il2cpp-layouts.json matches; bdwgc-patches/memtracer-patch-il2cpp --check shows the closest)");
        }

        JsonObject LoadState()
        {
            string dir = Path.Combine(m_Root, StateDir), file = Path.Combine(m_Root, StateFile);
            if (!Directory.Exists(dir)) return null;
            if (!File.Exists(file)) throw new PatchRefused(dir + " exists but is not MemTracer's (no " + StateFile + "); move it away first");
            JsonObject state;
            try { state = MiniJson.Parse(File.ReadAllText(file), file) as JsonObject; }
            catch (FormatException e) { throw new PatchRefused(file + ": unreadable (" + e.Message + ")"); }
            if (state == null || state.Str("tool") != Tool || state.Obj("files") == null)
                throw new PatchRefused(file + ": unreadable; restore the backups in " + Path.Combine(m_Root, BackupDir) + " by hand");
            return state;
        }

        /// <summary>"clean" or "patched"; anything else throws PatchRefused.</summary>
        public string Check()
        {
            JsonObject state;
            List<FileResult> results;
            return Inspect(out results, out state);
        }

        string Inspect(out List<FileResult> results, out JsonObject state)
        {
            state = LoadState();
            results = m_Files.Cast<JsonObject>().Select(Classify).ToList();
            var kinds = new HashSet<string>(results.Select(r => r.State).Where(s => s != "not-needed" && s != "missing"));
            if (kinds.Count == 1 && kinds.Contains("clean"))
            {
                if (state != null) throw new PatchRefused(m_Root + ": sources are original but " + StateFile + " says patched; something else restored them. Remove the memtracer/ folder to start over");
                return "clean";
            }
            if (!(kinds.Count == 1 && kinds.Contains("patched")))
                throw new PatchRefused(m_Root + ": files disagree (" + string.Join(", ", results.Select(r => r.Rel + ": " + r.State)) + "); half patched or edited by someone else");
            if (state == null) throw new PatchRefused(m_Root + ": sources carry the MemTracer patch but " + StateFile + " is missing; no backup to revert from");
            foreach (var kv in state.Obj("files"))
            {
                string p = Path.Combine(m_Root, kv.Key);
                byte[] data = File.Exists(p) ? File.ReadAllBytes(p) : new byte[0];
                if (Files.Sha256(data) != ((JsonObject)kv.Value).Str("patched_sha256"))
                    throw new PatchRefused(p + ": changed since MemTracer patched it (hash differs from " + StateFile + ")");
            }
            return "patched";
        }

        // Inspect for Apply and Revert: the one line they answer with when the tree already is
        // `wanted` (then nothing is written), else an empty list for what they go on to do.
        List<string> AlreadyIn(string wanted, string says, out List<FileResult> results, out JsonObject state)
        {
            var did = new List<string>();
            if (Inspect(out results, out state) == wanted) did.Add(m_Root + says);
            return did;
        }

        /// <summary>Patches the tree; returns what it did (one line per file). Already patched: says so, writes nothing.</summary>
        public List<string> Apply()
        {
            var did = AlreadyIn("patched", ": already patched", out var results, out _);
            if (did.Count > 0) return did;
            var record = new JsonObject();
            var patched = new Dictionary<string, byte[]>();
            var originals = new Dictionary<string, byte[]>();
            foreach (var r in results)
            {
                if (r.State != "clean") continue;
                byte[] before = File.ReadAllBytes(Path.Combine(m_Root, r.Rel));
                var rules = r.Layout.Arr("rules").Cast<JsonObject>().ToList();
                // bottom-up, so an insertion never moves a line a later rule still has to find
                foreach (int k in Enumerable.Range(0, rules.Count).OrderByDescending(k => r.Hits[k].Index))
                    ApplyRule(r.Text, rules[k], r.Hits[k].Index);
                originals[r.Rel] = before;
                patched[r.Rel] = r.Text.Data();
                var rec = new JsonObject();
                rec["original_sha256"] = Files.Sha256(before);
                rec["patched_sha256"] = Files.Sha256(patched[r.Rel]);
                rec["backup"] = BackupDir + "/" + r.Rel + ".orig";
                record[r.Rel] = rec;
                did.Add("  " + r.Rel + ": layout '" + r.Layout.Str("name") + "'");
            }
            var added = new JsonObject();
            var headerBytes = new List<KeyValuePair<string, byte[]>>();
            for (int i = 0; i < Headers.GetLength(0); ++i)
            {
                byte[] data = File.ReadAllBytes(Path.Combine(m_DataDir, Headers[i, 1]));
                headerBytes.Add(new KeyValuePair<string, byte[]>(Headers[i, 0], data));
                added[Headers[i, 0]] = Files.Sha256(data);
            }
            var newState = new JsonObject();
            newState["tool"] = Tool;
            newState["format"] = 1L;
            newState["files"] = record;
            newState["added"] = added;

            var tx = new Transaction(m_Root);
            tx.Run(() =>
            {
                foreach (var kv in record) tx.Write(((JsonObject)kv.Value).Str("backup"), originals[kv.Key]);
                foreach (var h in headerBytes) tx.Write(h.Key, h.Value);
                tx.Write(StateFile, Encoding.UTF8.GetBytes(MiniJson.Write(newState) + "\n"));
                foreach (var kv in record) tx.Write(kv.Key, patched[kv.Key]);
            });
            did.Insert(0, m_Root + ": patched");
            return did;
        }

        /// <summary>Restores every original byte for byte and removes what Apply added.</summary>
        public List<string> Revert()
        {
            var did = AlreadyIn("clean", ": not patched, nothing to revert", out _, out var state);
            if (did.Count > 0) return did;
            var originals = new Dictionary<string, byte[]>();
            foreach (var kv in state.Obj("files"))
            {
                var rec = (JsonObject)kv.Value;
                string backup = Path.Combine(m_Root, rec.Str("backup"));
                byte[] data = File.Exists(backup) ? File.ReadAllBytes(backup) : null;
                if (data == null || Files.Sha256(data) != rec.Str("original_sha256"))
                    throw new PatchRefused(backup + ": backup missing or damaged; cannot restore " + kv.Key + " byte for byte");
                originals[kv.Key] = data;
            }
            foreach (var kv in state.Obj("added"))
            {
                string p = Path.Combine(m_Root, kv.Key);
                if (File.Exists(p) && Files.Sha256(File.ReadAllBytes(p)) != (string)kv.Value)
                    throw new PatchRefused(p + ": modified since patching; keep your copy elsewhere and delete it, then revert");
            }
            var ours = state.Obj("added").Select(kv => kv.Key)
                .Concat(state.Obj("files").Select(kv => ((JsonObject)kv.Value).Str("backup"))).ToList();
            ours.Add(StateFile);
            var tx = new Transaction(m_Root);
            tx.Run(() =>
            {
                foreach (var kv in originals) tx.Write(kv.Key, kv.Value);
                foreach (var rel in ours) if (File.Exists(Path.Combine(m_Root, rel))) tx.Remove(rel);
            });
            PruneEmpty(Path.Combine(m_Root, StateDir));
            did.Add(m_Root + ": reverted");
            return did;
        }

        static void PruneEmpty(string top)
        {
            if (!Directory.Exists(top)) return;
            foreach (var d in Directory.GetDirectories(top, "*", SearchOption.AllDirectories).OrderByDescending(d => d.Length))
                if (!Directory.EnumerateFileSystemEntries(d).Any()) Directory.Delete(d);
            if (!Directory.EnumerateFileSystemEntries(top).Any()) Directory.Delete(top);
        }

        /// <summary>All-or-nothing writes: on the first failure every file written so far is put back.</summary>
        sealed class Transaction
        {
            readonly string m_Root;
            readonly List<KeyValuePair<string, byte[]>> m_Done = new List<KeyValuePair<string, byte[]>>();
            public Transaction(string root) { m_Root = root; }

            public void Write(string rel, byte[] data)
            {
                string p = Path.Combine(m_Root, rel);
                if (File.Exists(p) && new FileInfo(p).IsReadOnly)
                    throw new PatchRefused(p + ": read-only; make it writable or copy the Editor first");
                byte[] prev = File.Exists(p) ? File.ReadAllBytes(p) : null;
                Directory.CreateDirectory(Path.GetDirectoryName(p));
                File.WriteAllBytes(p, data);  // in place: the file keeps its permissions
                m_Done.Add(new KeyValuePair<string, byte[]>(p, prev));
            }

            public void Remove(string rel)
            {
                string p = Path.Combine(m_Root, rel);
                byte[] prev = File.ReadAllBytes(p);
                File.Delete(p);
                m_Done.Add(new KeyValuePair<string, byte[]>(p, prev));
            }

            public void Run(Action steps)
            {
                try { steps(); }
                catch (Exception e) when (e is IOException || e is UnauthorizedAccessException || e is PatchRefused)
                {
                    for (int i = m_Done.Count - 1; i >= 0; --i)
                    {
                        var kv = m_Done[i];
                        if (kv.Value == null) File.Delete(kv.Key);
                        else File.WriteAllBytes(kv.Key, kv.Value);
                    }
                    throw new PatchRefused("write failed: " + e.Message + "; every file was put back");
                }
            }
        }
    }

    /// <summary>An export's libil2cpp (iOS's Xcode export, Android's Gradle export) patched or restored with the shared rules: the post-build steps' one way in.</summary>
    public static class Il2Cpp
    {
        public static List<string> Patch(string libil2cpp)
        {
            if (!File.Exists(Path.Combine(libil2cpp, "vm", "Object.cpp")))
                throw new FileNotFoundException("MemTracer: no libil2cpp in the export at " + libil2cpp + " (Unity 2019.3+ exports carry one); set the hook to 'profiler' in Project Settings > MemTracer to build without the patch");
            var p = new Il2CppPatcher(libil2cpp, PackagePaths.PatchData);
            if (p.Check() == "patched") return new List<string>();
            return p.Apply().Skip(1).Select(l => "libil2cpp: " + l.Trim()).ToList();
        }

        public static List<string> Unpatch(string libil2cpp)
        {
            if (!File.Exists(Path.Combine(libil2cpp, "vm", "Object.cpp"))) return new List<string>();
            var p = new Il2CppPatcher(libil2cpp, PackagePaths.PatchData);
            if (p.Check() != "patched") return new List<string>();
            p.Revert();
            return new List<string> { "libil2cpp: reverted" };
        }
    }
}
