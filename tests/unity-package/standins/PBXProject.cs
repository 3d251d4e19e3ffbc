// Stand-in for UnityEditor.iOS.Xcode.PBXProject (UnityEditor.iOS.Extensions.Xcode.dll), written
// from Unity's public scripting API pages: the members MemTracer's iOS hook calls, with the same
// names and signatures. As strict as Unity or stricter: an unknown target GUID throws, a project
// path is one file, and writing an unchanged project gives back its bytes.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;

namespace UnityEditor.iOS.Xcode
{
    public enum PBXSourceTree { Absolute, Group, Source, Build, Developer, Sdk }

    public class PBXProject
    {
        PDict m_Root;
        PDict Objects { get { return (PDict)m_Root.Get("objects"); } }
        static readonly Random s_Random = new Random();

        public static string GetPBXProjectPath(string buildPath) { return Path.Combine(buildPath, "Unity-iPhone.xcodeproj", "project.pbxproj"); }
        public static string GetUnityTargetName() { return "Unity-iPhone"; }

        public void ReadFromString(string src) { m_Root = PbxParser.Parse(src); }
        public void ReadFromFile(string path) { ReadFromString(File.ReadAllText(path)); }
        public string WriteToString() { return PbxWriter.Write(m_Root); }
        public void WriteToFile(string path) { File.WriteAllText(path, WriteToString()); }

        PDict Obj(string guid) { return guid == null ? null : Objects.Get(guid) as PDict; }
        IEnumerable<KeyValuePair<string, PDict>> OfIsa(string isa)
        {
            foreach (var e in Objects.Entries)
            {
                var d = (PDict)e.Value;
                if (d.Str("isa") == isa) yield return new KeyValuePair<string, PDict>(((PStr)e.Key).Value, d);
            }
        }

        public string ProjectGuid() { return ((PStr)m_Root.Get("rootObject")).Value; }

        public string TargetGuidByName(string name)
        {
            foreach (var t in OfIsa("PBXNativeTarget")) if (t.Value.Str("name") == name) return t.Key;
            return null;
        }

        public string GetUnityMainTargetGuid() { return TargetGuidByName("Unity-iPhone"); }
        public string GetUnityFrameworkTargetGuid() { return TargetGuidByName("UnityFramework"); }

        PDict Target(string guid)
        {
            var t = Obj(guid);
            if (t == null || t.Str("isa") != "PBXNativeTarget")
                throw new Exception("Invalid target guid: " + (guid ?? "null") + " is not a target of this project");
            return t;
        }

        static string NewGuid()
        {
            var b = new byte[12];
            lock (s_Random) s_Random.NextBytes(b);
            return string.Concat(b.Select(x => x.ToString("X2")));
        }

        static IEnumerable<string> Guids(PDict d, string key)
        {
            var a = d.Get(key) as PArr;
            return a == null ? Enumerable.Empty<string>() : a.Items.Select(i => ((PStr)i.Value).Value);
        }

        // ------------------------------------------------------------ files and groups

        // project path of every file reference, from the group tree under the main group
        Dictionary<string, string> ProjectPaths()
        {
            var result = new Dictionary<string, string>();
            var main = Obj(ProjectObject().Str("mainGroup"));
            Walk(main, "", result);
            return result;
        }

        PDict ProjectObject() { return Obj(ProjectGuid()); }

        void Walk(PDict group, string prefix, Dictionary<string, string> into)
        {
            foreach (var g in Guids(group, "children"))
            {
                var child = Obj(g);
                if (child == null) continue;
                string name = child.Str("name") ?? child.Str("path");
                string path = prefix == "" ? name : prefix + "/" + name;
                if (child.Str("isa") == "PBXGroup") Walk(child, path, into);
                else into[path] = g;
            }
        }

        public string FindFileGuidByProjectPath(string path)
        {
            string g;
            return ProjectPaths().TryGetValue(path.Replace('\\', '/'), out g) ? g : null;
        }

        public bool ContainsFileByProjectPath(string path) { return FindFileGuidByProjectPath(path) != null; }

        public string FindFileGuidByRealPath(string path)
        {
            foreach (var f in OfIsa("PBXFileReference")) if (f.Value.Str("path") == path) return f.Key;
            return null;
        }

        static string FileType(string path)
        {
            switch (Path.GetExtension(path))
            {
                case ".c": return "sourcecode.c.c";
                case ".cpp": return "sourcecode.cpp.cpp";
                case ".mm": return "sourcecode.cpp.objcpp";
                case ".m": return "sourcecode.c.objc";
                case ".h": return "sourcecode.c.h";
                default: return "text";
            }
        }

        public string AddFile(string path, string projectPath, PBXSourceTree sourceTree = PBXSourceTree.Source)
        {
            projectPath = projectPath.Replace('\\', '/');
            string existing = FindFileGuidByProjectPath(projectPath);
            if (existing != null) return existing;
            string name = Path.GetFileName(projectPath);
            var f = new PDict { Inline = true };
            f.Set("isa", new PStr("PBXFileReference"));
            f.Set("lastKnownFileType", new PStr(FileType(path)));
            f.Set("name", new PStr(name));
            f.Set("path", new PStr(path.Replace('\\', '/')));
            f.Set("sourceTree", new PStr(sourceTree == PBXSourceTree.Source ? "SOURCE_ROOT" : sourceTree == PBXSourceTree.Group ? "<group>" : "<absolute>"));
            string guid = NewGuid();
            Objects.Entries.Add(new PEntry { Key = new PStr(guid), Comment = " " + name + " ", Value = f });
            var group = GroupFor(Path.GetDirectoryName(projectPath).Replace('\\', '/'));
            Children(group).Items.Add(new PEntry { Value = new PStr(guid), Comment = " " + name + " " });
            return guid;
        }

        static PArr Children(PDict group)
        {
            var a = group.Get("children") as PArr;
            if (a == null) { a = new PArr(); group.Set("children", a); }
            return a;
        }

        PDict GroupFor(string dir)
        {
            var group = Obj(ProjectObject().Str("mainGroup"));
            if (string.IsNullOrEmpty(dir)) return group;
            foreach (var part in dir.Split('/'))
            {
                PDict next = null;
                foreach (var g in Guids(group, "children"))
                {
                    var c = Obj(g);
                    if (c != null && c.Str("isa") == "PBXGroup" && (c.Str("name") ?? c.Str("path")) == part) { next = c; break; }
                }
                if (next == null)
                {
                    next = new PDict();
                    next.Set("isa", new PStr("PBXGroup"));
                    next.Set("children", new PArr());
                    next.Set("path", new PStr(part));
                    next.Set("sourceTree", new PStr("<group>"));
                    string guid = NewGuid();
                    Objects.Entries.Add(new PEntry { Key = new PStr(guid), Comment = " " + part + " ", Value = next });
                    Children(group).Items.Add(new PEntry { Value = new PStr(guid), Comment = " " + part + " " });
                }
                group = next;
            }
            return group;
        }

        static readonly string[] SourceExts = { ".c", ".cpp", ".mm", ".m", ".cc", ".swift" };

        string PhaseOfIsa(string target, string isa, bool create)
        {
            var t = Target(target);
            foreach (var p in Guids(t, "buildPhases")) if (Obj(p) != null && Obj(p).Str("isa") == isa) return p;
            if (!create) return null;
            var d = new PDict();
            d.Set("isa", new PStr(isa));
            d.Set("buildActionMask", new PStr("2147483647"));
            d.Set("files", new PArr());
            d.Set("runOnlyForDeploymentPostprocessing", new PStr("0"));
            string guid = NewGuid();
            string label = isa.Replace("PBX", "").Replace("BuildPhase", "");
            Objects.Entries.Add(new PEntry { Key = new PStr(guid), Comment = " " + label + " ", Value = d });
            ((PArr)t.Get("buildPhases")).Items.Add(new PEntry { Value = new PStr(guid), Comment = " " + label + " " });
            return guid;
        }

        public void AddFileToBuild(string targetGuid, string fileGuid)
        {
            var file = Obj(fileGuid);
            if (file == null || file.Str("isa") != "PBXFileReference") throw new Exception("Invalid file guid: " + fileGuid);
            string path = file.Str("path") ?? "";
            string isa = SourceExts.Contains(Path.GetExtension(path)) ? "PBXSourcesBuildPhase" : "PBXResourcesBuildPhase";
            string phaseGuid = PhaseOfIsa(targetGuid, isa, true);
            var phase = Obj(phaseGuid);
            foreach (var bf in Guids(phase, "files"))
                if (Obj(bf) != null && Obj(bf).Str("fileRef") == fileGuid) return;  // already built by this target
            string name = Path.GetFileName(path);
            string where = isa == "PBXSourcesBuildPhase" ? "Sources" : "Resources";
            var d = new PDict { Inline = true };
            d.Set("isa", new PStr("PBXBuildFile"));
            d.Set("fileRef", new PStr(fileGuid), " " + name + " ");
            string guid = NewGuid();
            Objects.Entries.Add(new PEntry { Key = new PStr(guid), Comment = " " + name + " in " + where + " ", Value = d });
            ((PArr)phase.Get("files")).Items.Add(new PEntry { Value = new PStr(guid), Comment = " " + name + " in " + where + " " });
        }

        public void RemoveFile(string fileGuid)
        {
            var buildFiles = OfIsa("PBXBuildFile").Where(b => b.Value.Str("fileRef") == fileGuid).Select(b => b.Key).ToList();
            var gone = new HashSet<string>(buildFiles) { fileGuid };
            foreach (var e in Objects.Entries)
                foreach (var key in new[] { "files", "children" })
                {
                    var a = ((PDict)e.Value).Get(key) as PArr;
                    if (a != null) a.Items.RemoveAll(i => gone.Contains(((PStr)i.Value).Value));
                }
            Objects.Entries.RemoveAll(e => gone.Contains(((PStr)e.Key).Value));
        }

        // ------------------------------------------------------------ build settings

        IEnumerable<PDict> Configs(string targetGuid)
        {
            var list = Obj(Target(targetGuid).Str("buildConfigurationList"));
            return Guids(list, "buildConfigurations").Select(Obj);
        }

        static PDict Settings(PDict config)
        {
            var s = config.Get("buildSettings") as PDict;
            if (s == null) { s = new PDict(); config.Set("buildSettings", s); }
            return s;
        }

        public void SetBuildProperty(string targetGuid, string name, string value)
        {
            foreach (var c in Configs(targetGuid))
            {
                var s = Settings(c);
                var old = s.Get(name) as PStr;
                if (old != null && old.Value == value) continue;  // unchanged: keep its source text
                s.Set(name, new PStr(value));
            }
        }

        public string GetBuildPropertyForAnyConfig(string targetGuid, string name)
        {
            foreach (var c in Configs(targetGuid))
            {
                var v = Settings(c).Get(name);
                if (v is PStr) return ((PStr)v).Value;
                if (v is PArr) return string.Join(" ", ((PArr)v).Items.Select(i => ((PStr)i.Value).Value));
            }
            return null;
        }

        public void AddBuildProperty(string targetGuid, string name, string value) { UpdateBuildProperty(targetGuid, name, new[] { value }, new string[0]); }

        public void UpdateBuildProperty(string targetGuid, string name, IEnumerable<string> addValues, IEnumerable<string> removeValues)
        {
            foreach (var c in Configs(targetGuid))
            {
                var s = Settings(c);
                var cur = s.Get(name);
                var values = cur is PStr ? new List<PEntry> { new PEntry { Value = cur } } : cur is PArr ? ((PArr)cur).Items.ToList() : new List<PEntry>();
                var kept = values.Where(v => !removeValues.Contains(((PStr)v.Value).Value)).ToList();
                foreach (var a in addValues)
                    if (!kept.Any(v => ((PStr)v.Value).Value == a)) kept.Add(new PEntry { Value = new PStr(a) });
                if (kept.Count == values.Count && kept.SequenceEqual(values)) continue;
                if (kept.Count == 0) s.Remove(name);
                else if (kept.Count == 1 && !(cur is PArr)) s.Set(name, kept[0].Value);
                else s.Set(name, new PArr { Items = kept });
            }
        }

        // ------------------------------------------------------------ build phases

        public string[] GetAllBuildPhasesForTarget(string targetGuid) { return Guids(Target(targetGuid), "buildPhases").ToArray(); }

        public string GetBuildPhaseName(string phaseGuid)
        {
            var p = Obj(phaseGuid);
            if (p == null) return null;
            string name = p.Str("name");
            if (name != null) return name;
            string isa = p.Str("isa");
            return isa == null ? null : isa.Replace("PBX", "").Replace("BuildPhase", "");
        }

        public string AddShellScriptBuildPhase(string targetGuid, string name, string shellPath, string shellScript)
        {
            var t = Target(targetGuid);
            var d = new PDict();
            d.Set("isa", new PStr("PBXShellScriptBuildPhase"));
            d.Set("buildActionMask", new PStr("2147483647"));
            d.Set("files", new PArr());
            d.Set("inputPaths", new PArr());
            d.Set("name", new PStr(name));
            d.Set("outputPaths", new PArr());
            d.Set("runOnlyForDeploymentPostprocessing", new PStr("0"));
            d.Set("shellPath", new PStr(shellPath));
            d.Set("shellScript", new PStr(shellScript));
            string guid = NewGuid();
            Objects.Entries.Add(new PEntry { Key = new PStr(guid), Comment = " " + name + " ", Value = d });
            ((PArr)t.Get("buildPhases")).Items.Add(new PEntry { Value = new PStr(guid), Comment = " " + name + " " });
            return guid;
        }
    }
}
