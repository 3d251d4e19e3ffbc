// Window › Analysis › MemTracer: the tools, the devices, port forwarding, the live viewer with the
// store's symbols, pulling the last capture, comparing with a baseline, and why a run is empty.
// Pause/Resume/Mark/Stop are on the viewer's page (memtracer-viewer --live serves them). Why a run
// is empty comes from the player's counters (MemTracer.Diagnosis, for the game's own log); the
// window does not read them from the device yet.
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using UnityEditor;
using UnityEngine;

namespace MemTracer.Editor
{
    public sealed class MemTracerWindow : EditorWindow
    {
        const int Port = 34999;
        string m_Platform = "Android", m_Serial = "", m_Package = "", m_Baseline = "", m_Status = "";
        List<string> m_Devices = new List<string>();
        Process m_Viewer;

        [MenuItem("Window/Analysis/MemTracer")]
        public static void Open() { GetWindow<MemTracerWindow>("MemTracer").Show(); }

        string Db { get { return Path.Combine(Project.Dir, "Library", "MemTracer", "run.db"); } }

        void OnGUI()
        {
            var s = Project.Settings;
            foreach (var tool in EditorTools.HostTools)
                if (EditorTools.Find(tool, s.toolsDir, System.Environment.GetEnvironmentVariable("PATH")) == null)
                    EditorGUILayout.HelpBox(EditorTools.Missing(tool, s.toolsDir), MessageType.Warning);
            m_Platform = EditorGUILayout.Popup("Device platform", m_Platform == "iOS" ? 1 : 0, new[] { "Android", "iOS" }) == 1 ? "iOS" : "Android";
            if (GUILayout.Button("Find devices")) FindDevices();
            m_Serial = EditorGUILayout.TextField("Device", m_Serial);
            m_Package = EditorGUILayout.TextField("Android package", m_Package);
            if (GUILayout.Button("Forward port " + Port)) Report(m_Platform == "Android" ? EditorTools.Run("adb", EditorTools.ForwardArgs("Android", Port, m_Serial)) : EditorTools.Run("iproxy", EditorTools.ForwardArgs("iOS", Port, m_Serial)));
            if (GUILayout.Button(m_Viewer == null || m_Viewer.HasExited ? "Start live viewer" : "Live viewer running")) StartViewer(s);
            if (GUILayout.Button("Open page")) Application.OpenURL("http://127.0.0.1:8080/");
            if (GUILayout.Button("Pull last capture (Android)")) Report(EditorTools.Run("adb", EditorTools.PullArgs(m_Serial, m_Package, Path.Combine(Project.Dir, "Library", "MemTracer", "run.mt"))));
            m_Baseline = EditorGUILayout.TextField("Baseline run.db", m_Baseline);
            if (GUILayout.Button("Compare with baseline")) Report(EditorTools.Run(Tool("memtracer-report", s), EditorTools.CompareArgs(m_Baseline, Db)));
            if (m_Status != "") EditorGUILayout.HelpBox(m_Status, MessageType.None);
        }

        static string Tool(string name, MemTracerSettings s)
        {
            return EditorTools.Find(name, s.toolsDir, System.Environment.GetEnvironmentVariable("PATH")) ?? name;
        }

        void FindDevices()
        {
            var r = m_Platform == "Android" ? EditorTools.Run("adb", new[] { "devices" }) : EditorTools.Run("idevice_id", new[] { "-l" });
            m_Devices = m_Platform == "Android" ? EditorTools.ParseAdbDevices(r.Value) : new List<string>(r.Value.Split(new[] { '\n' }, System.StringSplitOptions.RemoveEmptyEntries));
            if (m_Devices.Count > 0 && m_Serial == "") m_Serial = m_Devices[0];
            m_Status = r.Key != 0 ? r.Value : m_Devices.Count + " device(s): " + string.Join(", ", m_Devices.ToArray());
        }

        void StartViewer(MemTracerSettings s)
        {
            if (m_Viewer != null && !m_Viewer.HasExited) return;
            Directory.CreateDirectory(Path.GetDirectoryName(Db));
            string error;
            m_Viewer = EditorTools.Start(Tool("memtracer-viewer", s), EditorTools.LiveViewerArgs(Db, Port, s.token, s.SymbolStorePath(Project.Dir)), out error);
            m_Status = error ?? "memtracer-viewer --live 127.0.0.1:" + Port + " -> " + Db;
        }

        void Report(KeyValuePair<int, string> r) { m_Status = (r.Key == 0 ? "" : "failed (" + r.Key + "): ") + r.Value; }
    }
}
