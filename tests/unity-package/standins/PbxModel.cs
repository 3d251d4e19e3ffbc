// The stand-in's project.pbxproj model: a parser and a writer for Xcode's old-style property list
// as Xcode (and Unity's PBXProject) write it. Parsed strings and comments keep their exact source
// text, so an unchanged project is written back byte for byte; new values are quoted by Xcode's
// rule. Objects are written in sections by isa and sorted by id, as Xcode does.
using System;
using System.Collections.Generic;
using System.Linq;
using System.Text;

namespace UnityEditor.iOS.Xcode
{
    internal sealed class PStr
    {
        public string Value;
        public string Raw;  // exact source token, null when set by code
        public PStr(string v, string raw = null) { Value = v; Raw = raw; }
    }

    internal sealed class PEntry
    {
        public object Key;     // PStr (dict) or null (array)
        public object Value;   // PStr, PDict or PArr
        public string Comment; // comment after the key (dict) or the value (array), raw, without /* */
        public string ValueComment;
    }

    internal sealed class PDict
    {
        public List<PEntry> Entries = new List<PEntry>();
        public bool Inline;
        public object Get(string k) { var e = Entries.FirstOrDefault(x => ((PStr)x.Key).Value == k); return e == null ? null : e.Value; }
        public string Str(string k) { var v = Get(k) as PStr; return v == null ? null : v.Value; }
        public PEntry Entry(string k) { return Entries.FirstOrDefault(x => ((PStr)x.Key).Value == k); }
        public void Set(string k, object v, string valueComment = null)
        {
            var e = Entry(k);
            if (e == null) { e = new PEntry { Key = new PStr(k) }; Entries.Add(e); }
            e.Value = v; e.ValueComment = valueComment;
        }
        public void Remove(string k) { Entries.RemoveAll(x => ((PStr)x.Key).Value == k); }
    }

    internal sealed class PArr
    {
        public List<PEntry> Items = new List<PEntry>();
        public bool Inline;
    }

    internal static class PbxParser
    {
        public static PDict Parse(string s)
        {
            int i = 0;
            if (!s.StartsWith("// !$*UTF8*$!")) throw new FormatException("project.pbxproj: no '// !$*UTF8*$!' header");
            i = s.IndexOf('\n') + 1;
            var p = new P { s = s, i = i };
            p.Ws();
            var root = p.Value(out _) as PDict;
            if (root == null) throw new FormatException("project.pbxproj: the root is not a dictionary");
            return root;
        }

        sealed class P
        {
            public string s; public int i;
            public string LastComment;
            public void Ws()
            {
                for (;;)
                {
                    while (i < s.Length && char.IsWhiteSpace(s[i])) ++i;
                    if (i + 1 < s.Length && s[i] == '/' && s[i + 1] == '*')
                    {
                        int e = s.IndexOf("*/", i + 2, StringComparison.Ordinal);
                        if (e < 0) Fail("unterminated comment");
                        LastComment = s.Substring(i + 2, e - i - 2);
                        i = e + 2;
                        continue;
                    }
                    if (i + 1 < s.Length && s[i] == '/' && s[i + 1] == '/') { i = s.IndexOf('\n', i); if (i < 0) i = s.Length; continue; }
                    return;
                }
            }
            public void Fail(string what)
            {
                int line = 1 + s.Take(Math.Min(i, s.Length)).Count(c => c == '\n');
                throw new FormatException("project.pbxproj:" + line + ": " + what);
            }
            // Reads a value and the comment right after it (on the same stretch of whitespace).
            public object Value(out string comment)
            {
                comment = null;
                if (i >= s.Length) Fail("unexpected end");
                object v;
                int start = i;
                if (s[i] == '{')
                {
                    ++i;
                    var d = new PDict();
                    for (;;)
                    {
                        LastComment = null; Ws();
                        if (i < s.Length && s[i] == '}') { ++i; break; }
                        var e = new PEntry();
                        string kc;
                        e.Key = Value(out kc); e.Comment = kc;
                        Ws(); Expect('='); Ws();
                        string vc;
                        e.Value = Value(out vc); e.ValueComment = vc;
                        Ws(); Expect(';');
                        d.Entries.Add(e);
                    }
                    d.Inline = s.IndexOf('\n', start, i - start) < 0;
                    v = d;
                }
                else if (s[i] == '(')
                {
                    ++i;
                    var a = new PArr();
                    for (;;)
                    {
                        Ws();
                        if (i < s.Length && s[i] == ')') { ++i; break; }
                        var e = new PEntry();
                        string c;
                        e.Value = Value(out c); e.Comment = c;
                        Ws();
                        if (i < s.Length && s[i] == ',') ++i;
                        else if (i < s.Length && s[i] != ')') Fail("expected ',' or ')'");
                        a.Items.Add(e);
                    }
                    a.Inline = s.IndexOf('\n', start, i - start) < 0;
                    v = a;
                }
                else if (s[i] == '"')
                {
                    int j = i + 1;
                    var b = new StringBuilder();
                    while (j < s.Length && s[j] != '"')
                    {
                        if (s[j] == '\\' && j + 1 < s.Length)
                        {
                            char e = s[j + 1];
                            b.Append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
                            j += 2;
                        }
                        else b.Append(s[j++]);
                    }
                    if (j >= s.Length) Fail("unterminated string");
                    v = new PStr(b.ToString(), s.Substring(i, j + 1 - i));
                    i = j + 1;
                }
                else
                {
                    int j = i;
                    while (j < s.Length && !char.IsWhiteSpace(s[j]) && "{}();=,\"".IndexOf(s[j]) < 0) ++j;
                    if (j == i) Fail("unexpected '" + s[i] + "'");
                    string w = s.Substring(i, j - i);
                    v = new PStr(w, w);
                    i = j;
                }
                // a comment right after a string value on the same line belongs to it
                if (v is PStr)
                {
                    int k = i;
                    while (k < s.Length && (s[k] == ' ' || s[k] == '\t')) ++k;
                    if (k + 1 < s.Length && s[k] == '/' && s[k + 1] == '*')
                    {
                        int e = s.IndexOf("*/", k + 2, StringComparison.Ordinal);
                        comment = s.Substring(k + 2, e - k - 2);
                        i = e + 2;
                    }
                }
                return v;
            }
            void Expect(char c) { if (i >= s.Length || s[i] != c) Fail("expected '" + c + "'"); ++i; }
        }
    }

    internal static class PbxWriter
    {
        public static string Write(PDict root)
        {
            var b = new StringBuilder("// !$*UTF8*$!\n");
            Dict(b, root, 0, true);
            b.Append('\n');
            return b.ToString();
        }

        static string Str(object v)
        {
            var p = (PStr)v;
            if (p.Raw != null) return p.Raw;
            string s = p.Value;
            if (s.Length > 0 && s.All(c => char.IsLetterOrDigit(c) && c < 128 || "_./$".IndexOf(c) >= 0) && !s.Contains("___")) return s;
            var q = new StringBuilder("\"");
            foreach (char c in s)
            {
                if (c == '"' || c == '\\') q.Append('\\').Append(c);
                else if (c == '\n') q.Append("\\n");
                else if (c == '\t') q.Append("\\t");
                else q.Append(c);
            }
            return q.Append('"').ToString();
        }

        static string C(string comment) { return comment == null ? "" : " /*" + comment + "*/"; }

        static void Value(StringBuilder b, object v, int depth, bool inline)
        {
            if (v is PStr) b.Append(Str(v));
            else if (v is PDict) Dict(b, (PDict)v, depth, false, inline);
            else Arr(b, (PArr)v, depth, inline);
        }

        static void Dict(StringBuilder b, PDict d, int depth, bool root, bool inline = false)
        {
            if (inline || d.Inline)
            {
                b.Append('{');
                foreach (var e in d.Entries)
                {
                    b.Append(Str(e.Key)).Append(C(e.Comment)).Append(" = ");
                    Value(b, e.Value, depth, true);
                    b.Append(C(e.ValueComment)).Append("; ");
                }
                b.Append('}');
                return;
            }
            b.Append("{\n");
            foreach (var e in d.Entries)
            {
                if (root && ((PStr)e.Key).Value == "objects" && e.Value is PDict)
                {
                    b.Append('\t').Append(Str(e.Key)).Append(" = ");
                    Objects(b, (PDict)e.Value);
                    b.Append(";\n");
                    continue;
                }
                b.Append('\t', depth + 1).Append(Str(e.Key)).Append(C(e.Comment)).Append(" = ");
                Value(b, e.Value, depth + 1, false);
                b.Append(C(e.ValueComment)).Append(";\n");
            }
            b.Append('\t', depth).Append('}');
        }

        static void Arr(StringBuilder b, PArr a, int depth, bool inline)
        {
            if (inline || a.Inline)
            {
                b.Append('(');
                foreach (var e in a.Items) { Value(b, e.Value, depth, true); b.Append(C(e.Comment)).Append(", "); }
                b.Append(')');
                return;
            }
            b.Append("(\n");
            foreach (var e in a.Items)
            {
                b.Append('\t', depth + 1);
                Value(b, e.Value, depth + 1, false);
                b.Append(C(e.Comment)).Append(",\n");
            }
            b.Append('\t', depth).Append(')');
        }

        static void Objects(StringBuilder b, PDict objects)
        {
            b.Append("{\n");
            var byIsa = objects.Entries.GroupBy(e => ((PDict)e.Value).Str("isa")).OrderBy(g => g.Key, StringComparer.Ordinal);
            foreach (var g in byIsa)
            {
                b.Append("\n/* Begin ").Append(g.Key).Append(" section */\n");
                foreach (var e in g.OrderBy(x => ((PStr)x.Key).Value, StringComparer.Ordinal))
                {
                    b.Append("\t\t").Append(Str(e.Key)).Append(C(e.Comment)).Append(" = ");
                    Dict(b, (PDict)e.Value, 2, false);
                    b.Append(";\n");
                }
                b.Append("/* End ").Append(g.Key).Append(" section */\n");
            }
            b.Append("\t}");
        }
    }
}
