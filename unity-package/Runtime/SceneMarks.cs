// Automatic marks on scene load and unload ("scene <name>", "unload <name>"), on unless the
// player's baked setting MEMTRACER_SCENE_MARKS is "0". Registered before the first scene loads.
// MarkParts writes "scene " and the name into one stack buffer: no string is built. On Android the
// IsAvailable probe is also the package's first [DllImport]: it loads libGfxPluginMemTracer.so (and
// Unity calls its UnityPluginLoad) before the first scene, if the player did not preload it.
using System;
using System.Runtime.InteropServices;
using UnityEngine;
using UnityEngine.SceneManagement;

namespace MemTracer
{
    static class SceneMarks
    {
        [RuntimeInitializeOnLoadMethod(RuntimeInitializeLoadType.SubsystemRegistration)]
        static void Register()
        {
#if UNITY_IOS && ENABLE_IL2CPP && !UNITY_EDITOR
            // iOS: the registration source also registers from UIApplicationDidFinishLaunching; this
            // call covers Unity-as-a-Library hosts, where that notification came before Unity.
            try { memtracer_unity_register(); }
            catch (EntryPointNotFoundException) { }  // a player built with MemTracer off
#endif
            if (!Tracer.IsAvailable || Tracer.Setting("MEMTRACER_SCENE_MARKS") == "0") return;
            SceneManager.sceneLoaded += (scene, mode) => Tracer.MarkParts("scene ", scene.name);
            SceneManager.sceneUnloaded += scene => Tracer.MarkParts("unload ", scene.name);
        }

#if UNITY_IOS && ENABLE_IL2CPP && !UNITY_EDITOR
        [DllImport("__Internal")] static extern void memtracer_unity_register();
#endif
    }
}
