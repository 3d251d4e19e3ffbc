// Project Settings > MemTracer: the settings page over MemTracerSettings (saved on every change).
using System;
using UnityEditor;

namespace MemTracer.Editor
{
    static class SettingsUI
    {
        static readonly string[] Modes = { "events", "aggregate" };
        static readonly string[] Hooks = { "auto", "patch", "profiler" };

        [SettingsProvider]
        public static SettingsProvider Create()
        {
            return new SettingsProvider("Project/MemTracer", SettingsScope.Project) { label = "MemTracer", guiHandler = Draw };
        }

        static void Draw(string search)
        {
            MemTracerSettings s;
            try { s = Project.Settings; }
            catch (FormatException e) { EditorGUILayout.HelpBox(e.Message, MessageType.Error); return; }
            string before = s.ToJson();
            s.ios = EditorGUILayout.Toggle("iOS builds", s.ios);
            s.android = EditorGUILayout.Toggle("Android builds", s.android);
            s.mode = Modes[Math.Max(0, EditorGUILayout.Popup("Mode", Array.IndexOf(Modes, s.mode), Modes))];
            s.depth = EditorGUILayout.LongField("Stack depth", s.depth);
            s.ringBytes = EditorGUILayout.LongField("Ring bytes per thread", s.ringBytes);
            s.sampleBytes = EditorGUILayout.LongField("Sample every N bytes (0: all)", s.sampleBytes);
            s.hook = Hooks[Math.Max(0, EditorGUILayout.Popup("Hook", Array.IndexOf(Hooks, s.hook), Hooks))];
            s.patchIl2cpp = EditorGUILayout.Toggle("Patch the export's libil2cpp", s.patchIl2cpp);
            s.gcEvents = EditorGUILayout.Toggle("GC events", s.gcEvents);
            s.lifetimes = EditorGUILayout.Toggle("Lifetimes", s.lifetimes);
            s.sceneMarks = EditorGUILayout.Toggle("Marks on scene load", s.sceneMarks);
            s.listen = EditorGUILayout.TextField("Live: listen on", s.listen);
            s.connect = EditorGUILayout.TextField("Live: connect to", s.connect);
            s.token = EditorGUILayout.TextField("Live: token", s.token);
            s.symbolStore = EditorGUILayout.TextField("Symbol store", s.symbolStore);
            s.toolsDir = EditorGUILayout.TextField("MemTracer tools folder (empty: PATH)", s.toolsDir);
            if (s.ToJson() != before) s.Save(Project.Dir);
        }
    }
}
