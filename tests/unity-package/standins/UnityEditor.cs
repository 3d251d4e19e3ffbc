// Stand-in for UnityEditor.dll (UnityEditor.CoreModule): the members MemTracer's Editor assembly
// uses, written from Unity's public scripting API pages. State that Unity keeps (player settings,
// packages) is internal and set by the fake pipeline (FakeUnity).
using System;
using System.Collections.Generic;
using System.Reflection;
using System.Runtime.CompilerServices;
using UnityEngine;

[assembly: InternalsVisibleTo("FakeUnity")]

namespace UnityEditor
{
    public enum BuildTarget { StandaloneOSX = 2, StandaloneWindows = 5, iOS = 9, Android = 13, StandaloneWindows64 = 19, WebGL = 20, StandaloneLinux64 = 24 }
    public enum BuildTargetGroup { Unknown = 0, Standalone = 1, iOS = 4, Android = 7, WebGL = 13 }
    public enum ScriptingImplementation { Mono2x = 0, IL2CPP = 1 }

    [Flags]
    public enum AndroidArchitecture : uint { None = 0, ARMv7 = 1, ARM64 = 2, X86 = 4, X86_64 = 8, All = 0xffffffff }

    public static class BuildPipeline
    {
        public static BuildTargetGroup GetBuildTargetGroup(BuildTarget platform)
        {
            switch (platform)
            {
                case BuildTarget.iOS: return BuildTargetGroup.iOS;
                case BuildTarget.Android: return BuildTargetGroup.Android;
                case BuildTarget.WebGL: return BuildTargetGroup.WebGL;
                default: return BuildTargetGroup.Standalone;
            }
        }
    }

    public static class PlayerSettings
    {
        internal static readonly Dictionary<BuildTargetGroup, ScriptingImplementation> s_Backend = new Dictionary<BuildTargetGroup, ScriptingImplementation>();
        internal static string s_Il2CppArgs = "";
        public static ScriptingImplementation GetScriptingBackend(BuildTargetGroup group)
        {
            ScriptingImplementation b;
            return s_Backend.TryGetValue(group, out b) ? b : ScriptingImplementation.Mono2x;
        }
        public static void SetScriptingBackend(BuildTargetGroup group, ScriptingImplementation backend) { s_Backend[group] = backend; }
        public static string GetAdditionalIl2CppArgs() { return s_Il2CppArgs; }
        public static void SetAdditionalIl2CppArgs(string additionalArgs) { s_Il2CppArgs = additionalArgs ?? ""; }

        public static class Android
        {
            internal static AndroidArchitecture s_Archs = AndroidArchitecture.ARMv7 | AndroidArchitecture.ARM64;
            public static AndroidArchitecture targetArchitectures { get { return s_Archs; } set { s_Archs = value; } }
        }
    }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = true)]
    public sealed class MenuItem : Attribute
    {
        public string menuItem;
        public MenuItem(string itemName) { menuItem = itemName; }
    }

    public class EditorWindow : ScriptableObject
    {
        internal static readonly List<EditorWindow> s_Open = new List<EditorWindow>();
        public GUIContent titleContent = new GUIContent("");
        public static T GetWindow<T>(string title) where T : EditorWindow, new()
        {
            foreach (var w in s_Open) if (w is T) return (T)w;
            var n = new T();
            n.titleContent = new GUIContent(title);
            s_Open.Add(n);
            return n;
        }
        public void Show() { }
        public void Repaint() { }
    }

    public enum SettingsScope { User = 0, Project = 1 }

    public class SettingsProvider
    {
        public string settingsPath { get; private set; }
        public SettingsScope scope { get; private set; }
        public string label { get; set; }
        public Action<string> guiHandler { get; set; }
        public SettingsProvider(string path, SettingsScope scopes, IEnumerable<string> keywords = null) { settingsPath = path; scope = scopes; }
    }

    [AttributeUsage(AttributeTargets.Method)]
    public sealed class SettingsProviderAttribute : Attribute { }

    public enum MessageType { None = 0, Info = 1, Warning = 2, Error = 3 }

    public static class EditorGUILayout
    {
        public static bool Toggle(string label, bool value, params GUILayoutOption[] options) { return value; }
        public static string TextField(string label, string text, params GUILayoutOption[] options) { return text; }
        public static long LongField(string label, long value, params GUILayoutOption[] options) { return value; }
        public static int Popup(string label, int selectedIndex, string[] displayedOptions, params GUILayoutOption[] options) { return selectedIndex; }
        public static void LabelField(string label, params GUILayoutOption[] options) { }
        public static void HelpBox(string message, MessageType type) { }
        public static void Space() { }
    }
}

namespace UnityEditor.Build
{
    public interface IOrderedCallback { int callbackOrder { get; } }
    public interface IPreprocessBuildWithReport : IOrderedCallback { void OnPreprocessBuild(Reporting.BuildReport report); }
    public interface IPostprocessBuildWithReport : IOrderedCallback { void OnPostprocessBuild(Reporting.BuildReport report); }

    public class BuildFailedException : Exception
    {
        public BuildFailedException(string message) : base(message) { }
        public BuildFailedException(Exception innerException) : base(null, innerException) { }
    }
}

namespace UnityEditor.Build.Reporting
{
    public struct BuildSummary
    {
        internal BuildTarget m_Platform;
        internal string m_OutputPath;
        public BuildTarget platform { get { return m_Platform; } }
        public BuildTargetGroup platformGroup { get { return BuildPipeline.GetBuildTargetGroup(m_Platform); } }
        public string outputPath { get { return m_OutputPath; } }
    }

    public sealed class BuildReport : UnityEngine.Object
    {
        internal BuildSummary m_Summary;
        public BuildSummary summary { get { return m_Summary; } }
    }
}

namespace UnityEditor.Android
{
    public interface IPostGenerateGradleAndroidProject : UnityEditor.Build.IOrderedCallback
    {
        void OnPostGenerateGradleAndroidProject(string path);
    }
}

namespace UnityEditor.PackageManager
{
    public sealed class PackageInfo
    {
        internal static readonly Dictionary<Assembly, PackageInfo> s_ByAssembly = new Dictionary<Assembly, PackageInfo>();
        public string name { get; internal set; }
        public string resolvedPath { get; internal set; }
        public static PackageInfo FindForAssembly(Assembly assembly)
        {
            PackageInfo p;
            return s_ByAssembly.TryGetValue(assembly, out p) ? p : null;
        }
    }
}
