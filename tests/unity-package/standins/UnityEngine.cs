// Stand-in for UnityEngine.dll: the members the package's Runtime and Editor assemblies use,
// written from Unity's public scripting API pages (names, namespaces, signatures). The fake
// pipeline (FakeUnity) drives its internal state; package code sees only Unity's public surface.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("FakeUnity")]

namespace UnityEngine
{
    public class Object { }
    public class ScriptableObject : Object { }

    public static class Debug
    {
        internal static readonly List<string> Logged = new List<string>();
        public static void Log(object message) { Logged.Add("log: " + message); Console.WriteLine(message); }
        public static void LogWarning(object message) { Logged.Add("warning: " + message); Console.WriteLine("warning: " + message); }
        public static void LogError(object message) { Logged.Add("error: " + message); Console.Error.WriteLine("error: " + message); }
    }

    public enum RuntimePlatform { OSXEditor = 0, WindowsEditor = 7, IPhonePlayer = 8, Android = 11, LinuxEditor = 16 }

    public static class Application
    {
        internal static string s_DataPath = "";
        public static string dataPath { get { return s_DataPath; } }
        public static RuntimePlatform platform { get { return RuntimePlatform.LinuxEditor; } }
        public static bool isEditor { get { return true; } }
        internal static readonly List<string> OpenedUrls = new List<string>();
        public static void OpenURL(string url) { OpenedUrls.Add(url); }
    }

    public enum RuntimeInitializeLoadType { AfterSceneLoad = 0, BeforeSceneLoad = 1, AfterAssembliesLoaded = 2, BeforeSplashScreen = 3, SubsystemRegistration = 4 }

    [AttributeUsage(AttributeTargets.Method, AllowMultiple = false)]
    public class RuntimeInitializeOnLoadMethodAttribute : Attribute
    {
        public RuntimeInitializeOnLoadMethodAttribute() { loadType = RuntimeInitializeLoadType.AfterSceneLoad; }
        public RuntimeInitializeOnLoadMethodAttribute(RuntimeInitializeLoadType loadType) { this.loadType = loadType; }
        public RuntimeInitializeLoadType loadType { get; set; }
    }

    public struct Vector2
    {
        public float x, y;
        public Vector2(float x, float y) { this.x = x; this.y = y; }
    }

    public sealed class GUILayoutOption { }

    public class GUIContent
    {
        public string text;
        public GUIContent(string text) { this.text = text; }
    }

    public static class GUILayout
    {
        internal static Func<string, bool> s_Clicked = label => false;
        public static bool Button(string text, params GUILayoutOption[] options) { return s_Clicked(text); }
        public static void Label(string text, params GUILayoutOption[] options) { }
        public static void BeginHorizontal(params GUILayoutOption[] options) { }
        public static void EndHorizontal() { }
        public static void FlexibleSpace() { }
    }
}

namespace UnityEngine.SceneManagement
{
    public struct Scene
    {
        internal string m_Name;
        public string name { get { return m_Name; } }
    }

    public enum LoadSceneMode { Single = 0, Additive = 1 }

    public static class SceneManager
    {
        public static event Action<Scene, LoadSceneMode> sceneLoaded;
        public static event Action<Scene> sceneUnloaded;
        internal static void RaiseLoaded(string name) { if (sceneLoaded != null) sceneLoaded(new Scene { m_Name = name }, LoadSceneMode.Single); }
        internal static void RaiseUnloaded(string name) { if (sceneUnloaded != null) sceneUnloaded(new Scene { m_Name = name }); }
    }
}
