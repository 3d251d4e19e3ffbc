// Why a capture is empty or short, read from the counters alone: the same words for the game's
// log (Tracer.Diagnose) and the Editor window.
namespace MemTracer
{
    public static class Diagnosis
    {
        /// <summary>One line per problem the counters show; empty when none.</summary>
        public static string[] Explain(Counters c)
        {
            var why = new System.Collections.Generic.List<string>();
            if (c.Disabled != 0) why.Add("the runtime disabled itself: see Tracer.LastError");
            if (c.Running == 0 && c.FramesWritten == 0) why.Add("no capture running: the plug-in was not loaded (iOS: registration; Android: libGfxPluginMemTracer.so missing) or MEMTRACER_DISABLE is set");
            if (c.Running != 0 && c.FramesWritten == 0) why.Add("no frames: Unity's frame callback never ran (IUnityProfilerCallbacks unavailable?) and nothing calls mt_frame_end");
            if (c.Running != 0 && c.FramesWritten > 0 && c.AllocationsSeen == 0) why.Add("frames but no allocations: no hook attached (libil2cpp not patched and il2cpp's profiler API not found)");
            if (c.Paused != 0) why.Add("paused: Tracer.Resume() or Resume on the viewer page");
            if (c.EventsDropped > 0)
                why.Add(c.EventsDropped + " of " + (c.EventsRecorded + c.EventsDropped) + " allocations dropped: rings full (raise ring bytes, or sample)");
            return why.ToArray();
        }
    }
}
