// MemTracer's IL2CPP arguments: frame pointers (stacks stop early without them) and source mapping
// (C# lines). Added exactly once when on; when off only the ones MemTracer added are removed (a
// ledger under Library/ remembers which), so a user's own identical flag stays.
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace MemTracer.Editor
{
    public static class Il2CppArgs
    {
        public static readonly string[] Ours = { "--compiler-flags=-fno-omit-frame-pointer", "--emit-source-mapping" };
        public const string LedgerFile = "Library/MemTracer/il2cpp-args-added.txt";

        public static string Update(string args, bool on, string ledger)
        {
            args = args ?? "";
            var tokens = args.Split(new[] { ' ' }, System.StringSplitOptions.RemoveEmptyEntries).ToList();
            var added = File.Exists(ledger) ? File.ReadAllLines(ledger).Where(l => l != "").ToList() : new List<string>();
            string result = args;
            if (on)
            {
                foreach (var t in Ours)
                {
                    if (tokens.Contains(t)) continue;
                    result = result.Length == 0 ? t : result + " " + t;
                    tokens.Add(t);
                    added.Add(t);
                }
            }
            else
            {
                foreach (var t in added)
                {
                    int i = tokens.IndexOf(t);
                    if (i < 0) continue;
                    tokens.RemoveAt(i);
                    result = RemoveToken(result, t);
                }
                added.Clear();
            }
            added = added.Distinct().ToList();
            if (added.Count > 0)
            {
                Directory.CreateDirectory(Path.GetDirectoryName(ledger));
                File.WriteAllLines(ledger, added.ToArray());
            }
            else if (File.Exists(ledger)) File.Delete(ledger);
            return result;
        }

        // Removes the last whole-word occurrence and the one space that joined it.
        static string RemoveToken(string s, string t)
        {
            for (int i = s.LastIndexOf(t, System.StringComparison.Ordinal); i >= 0; i = i == 0 ? -1 : s.LastIndexOf(t, i - 1, System.StringComparison.Ordinal))
            {
                bool start = i == 0 || s[i - 1] == ' ', end = i + t.Length == s.Length || s[i + t.Length] == ' ';
                if (!start || !end) continue;
                if (i > 0) return s.Remove(i - 1, t.Length + 1);
                return s.Length > t.Length ? s.Remove(0, t.Length + 1) : "";
            }
            return s;
        }
    }
}
