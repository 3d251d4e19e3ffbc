// XcodeProject: UnityEditor.iOS.Xcode.PBXProject through reflection. The Editor assembly must load
// in editors without iOS Build Support (Windows, Linux): a compile-time reference to
// UnityEditor.iOS.Extensions.Xcode breaks them (sentry-unity #309, #559), so the type is looked
// up by name only when an iOS build runs. Only members of Unity's public PBXProject API are used.
using System;
using System.Reflection;

namespace MemTracer.Editor
{
    public sealed class XcodeProject
    {
        const string TypeName = "UnityEditor.iOS.Xcode.PBXProject, UnityEditor.iOS.Extensions.Xcode";
        readonly Type m_Type;
        readonly object m_Project;

        XcodeProject(Type type) { m_Type = type; m_Project = Activator.CreateInstance(type); }

        /// <summary>null when iOS Build Support is not installed.</summary>
        public static XcodeProject TryCreate()
        {
            var t = Type.GetType(TypeName, false);
            return t == null ? null : new XcodeProject(t);
        }

        public static string ProjectPath(string buildPath)
        {
            var t = Type.GetType(TypeName, true);
            return (string)t.GetMethod("GetPBXProjectPath", BindingFlags.Public | BindingFlags.Static).Invoke(null, new object[] { buildPath });
        }

        // The public instance method of that name whose leading parameters take args and whose
        // others have defaults (AddFile's sourceTree), called with those defaults.
        object Call(string name, params object[] args)
        {
            foreach (var m in m_Type.GetMethods(BindingFlags.Public | BindingFlags.Instance))
            {
                var ps = m.GetParameters();
                if (m.Name != name || ps.Length < args.Length) continue;
                bool fits = true;
                for (int i = 0; i < ps.Length && fits; ++i)
                    fits = i < args.Length ? ps[i].ParameterType.IsInstanceOfType(args[i]) : ps[i].IsOptional;
                if (!fits) continue;
                var full = new object[ps.Length];
                for (int i = 0; i < ps.Length; ++i) full[i] = i < args.Length ? args[i] : ps[i].DefaultValue;
                try { return m.Invoke(m_Project, full); }
                catch (TargetInvocationException e) { throw e.InnerException; }
            }
            throw new MissingMethodException("PBXProject." + name + " (this Unity's iOS support lacks it)");
        }

        public void ReadFromString(string text) { Call("ReadFromString", text); }
        public string WriteToString() { return (string)Call("WriteToString"); }
        public string FrameworkTarget() { return (string)Call("GetUnityFrameworkTargetGuid"); }
        public string MainTarget() { return (string)Call("GetUnityMainTargetGuid"); }
        public string FindFileByProjectPath(string path) { return (string)Call("FindFileGuidByProjectPath", path); }
        public string AddFile(string path, string projectPath) { return (string)Call("AddFile", path, projectPath); }
        public void AddFileToBuild(string target, string file) { Call("AddFileToBuild", target, file); }
        public void RemoveFile(string file) { Call("RemoveFile", file); }
        public bool ContainsFileByProjectPath(string path) { return (bool)Call("ContainsFileByProjectPath", path); }
        public void SetBuildProperty(string target, string name, string value) { Call("SetBuildProperty", target, name, value); }
        public string GetBuildPropertyForAnyConfig(string target, string name) { return (string)Call("GetBuildPropertyForAnyConfig", target, name); }
        public void UpdateBuildProperty(string target, string name, string[] add, string[] remove) { Call("UpdateBuildProperty", target, name, add, remove); }
        public string[] BuildPhases(string target) { return (string[])Call("GetAllBuildPhasesForTarget", target); }
        public string BuildPhaseName(string phase) { return (string)Call("GetBuildPhaseName", phase); }
        public string AddShellScriptBuildPhase(string target, string name, string shell, string script) { return (string)Call("AddShellScriptBuildPhase", target, name, shell, script); }
    }
}
