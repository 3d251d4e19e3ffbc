// A small JSON reader and writer: Unity's JsonUtility maps only fixed classes, and the patch rules
// (il2cpp-layouts.json) and the patch state (libil2cpp/memtracer/patch-state.json, shared with
// bdwgc-patches/memtracer-patch-il2cpp) are free-form. Objects keep their key order.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Text;

namespace MemTracer.Editor
{
    public sealed class JsonObject : List<KeyValuePair<string, object>>
    {
        public object this[string key]
        {
            get
            {
                foreach (var kv in this) if (kv.Key == key) return kv.Value;
                return null;
            }
            set
            {
                for (int i = 0; i < Count; ++i)
                    if (this[i].Key == key) { this[i] = new KeyValuePair<string, object>(key, value); return; }
                Add(new KeyValuePair<string, object>(key, value));
            }
        }
        public bool Has(string key) { foreach (var kv in this) if (kv.Key == key) return true; return false; }
        public string Str(string key) { return this[key] as string; }
        public JsonObject Obj(string key) { return this[key] as JsonObject; }
        public List<object> Arr(string key) { return this[key] as List<object>; }
    }

    public static class MiniJson
    {
        public static object Parse(string text, string where)
        {
            var p = new Parser { s = text, where = where };
            p.Ws();
            object v = p.Value();
            p.Ws();
            if (p.i != text.Length) p.Fail("trailing characters");
            return v;
        }

        sealed class Parser
        {
            public string s, where;
            public int i;
            public void Fail(string what)
            {
                int line = 1;
                for (int k = 0; k < i && k < s.Length; ++k) if (s[k] == '\n') ++line;
                throw new FormatException(where + ":" + line + ": bad JSON: " + what);
            }
            public void Ws() { while (i < s.Length && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i; }
            void Expect(char c) { if (i >= s.Length || s[i] != c) Fail("expected '" + c + "'"); ++i; }
            public object Value()
            {
                if (i >= s.Length) Fail("unexpected end");
                char c = s[i];
                if (c == '{')
                {
                    ++i; var o = new JsonObject(); Ws();
                    if (i < s.Length && s[i] == '}') { ++i; return o; }
                    for (;;)
                    {
                        Ws(); string k = Str(); Ws(); Expect(':'); Ws();
                        o.Add(new KeyValuePair<string, object>(k, Value())); Ws();
                        if (i < s.Length && s[i] == ',') { ++i; continue; }
                        Expect('}'); return o;
                    }
                }
                if (c == '[')
                {
                    ++i; var a = new List<object>(); Ws();
                    if (i < s.Length && s[i] == ']') { ++i; return a; }
                    for (;;)
                    {
                        Ws(); a.Add(Value()); Ws();
                        if (i < s.Length && s[i] == ',') { ++i; continue; }
                        Expect(']'); return a;
                    }
                }
                if (c == '"') return Str();
                if (Word("true")) return true;
                if (Word("false")) return false;
                if (Word("null")) return null;
                int start = i;
                while (i < s.Length && "+-0123456789.eE".IndexOf(s[i]) >= 0) ++i;
                if (start == i) Fail("unexpected '" + c + "'");
                return long.Parse(s.Substring(start, i - start), CultureInfo.InvariantCulture);
            }
            bool Word(string w)
            {
                if (string.CompareOrdinal(s, i, w, 0, w.Length) != 0) return false;
                i += w.Length; return true;
            }
            string Str()
            {
                Expect('"');
                var b = new StringBuilder();
                while (i < s.Length && s[i] != '"')
                {
                    char c = s[i++];
                    if (c != '\\') { b.Append(c); continue; }
                    if (i >= s.Length) Fail("unterminated escape");
                    char e = s[i++];
                    int k = EscapeCodes.IndexOf(e);
                    if (k >= 0) b.Append(EscapedChars[k]);
                    else if (e != 'u') b.Append(e);
                    else
                    {
                        if (i + 4 > s.Length) Fail("short \\u escape");
                        b.Append((char)int.Parse(s.Substring(i, 4), NumberStyles.HexNumber)); i += 4;
                    }
                }
                Expect('"');
                return b.ToString();
            }
        }

        /// <summary>Writes v as Python's json.dumps(v, indent=2) does (ASCII escapes, ", " and ": ").</summary>
        public static string Write(object v)
        {
            var b = new StringBuilder();
            Write(b, v, 0);
            return b.ToString();
        }

        static void Write(StringBuilder b, object v, int depth)
        {
            if (v == null) { b.Append("null"); return; }
            if (v is bool) { b.Append((bool)v ? "true" : "false"); return; }
            if (v is string) { Quote(b, (string)v); return; }
            if (v is int || v is long) { b.Append(Convert.ToInt64(v).ToString(CultureInfo.InvariantCulture)); return; }
            var o = v as JsonObject;
            if (o != null)
            {
                if (o.Count == 0) { b.Append("{}"); return; }
                b.Append("{");
                for (int k = 0; k < o.Count; ++k)
                {
                    b.Append(k == 0 ? "\n" : ",\n").Append(' ', 2 * (depth + 1));
                    Quote(b, o[k].Key); b.Append(": "); Write(b, o[k].Value, depth + 1);
                }
                b.Append('\n').Append(' ', 2 * depth).Append('}');
                return;
            }
            var a = v as List<object>;
            if (a != null)
            {
                if (a.Count == 0) { b.Append("[]"); return; }
                b.Append("[");
                for (int k = 0; k < a.Count; ++k)
                {
                    b.Append(k == 0 ? "\n" : ",\n").Append(' ', 2 * (depth + 1));
                    Write(b, a[k], depth + 1);
                }
                b.Append('\n').Append(' ', 2 * depth).Append(']');
                return;
            }
            throw new ArgumentException("MiniJson.Write: cannot write " + v.GetType());
        }

        // The two-character escapes, both ways: backslash + EscapeCodes[k] stands for EscapedChars[k].
        // Reading takes any other escaped character as itself (a slash included); writing uses \uXXXX
        // for the rest of C0 and everything past '~'.
        const string EscapeCodes = "\"\\ntrbf";
        const string EscapedChars = "\"\\\n\t\r\b\f";

        static void Quote(StringBuilder b, string s)
        {
            b.Append('"');
            foreach (char c in s)
            {
                int k = EscapedChars.IndexOf(c);
                if (k >= 0) b.Append('\\').Append(EscapeCodes[k]);
                else if (c < 0x20 || c > 0x7e) b.Append("\\u").Append(((int)c).ToString("x4"));
                else b.Append(c);
            }
            b.Append('"');
        }
    }
}
