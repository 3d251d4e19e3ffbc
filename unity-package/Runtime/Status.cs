// Status and Counters: the C# faces of mt_status and mt_counters (runtime/include/memtracer/memtracer.h).
// The values are the C enum's, one for one; tests/unity-package checks them against the header.
using System.Runtime.InteropServices;

namespace MemTracer
{
    /// <summary>The result of every call: mt_status, plus Unavailable where no runtime is loaded.</summary>
    public enum Status
    {
        /// <summary>Not an mt_status: the Editor, Mono, an unsupported platform, or a player built without MemTracer.</summary>
        Unavailable = -1,
        Ok = 0,
        AlreadyStarted = 1,
        NotStarted = 2,
        Disabled = 3,
        NoopBuild = 4,
        ConfigNull = 10,
        ConfigSize = 11,
        OutputPath = 12,
        RingCapacity = 13,
        MaxDepth = 14,
        Unwinder = 15,
        Mode = 16,
        Sampling = 17,
        MaxThreads = 18,
        FullPolicy = 19,
        DrainInterval = 20,
        Flags = 21,
        Live = 22,
        OpenOutput = 30,
        NoMemory = 31,
        Thread = 32,
        Argument = 33,
        MarksFull = 34,
        Il2cppNotFound = 40,
    }

    /// <summary>mt_counters: every field monotonic over a capture, readable at any moment.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct Counters
    {
        public ulong AllocationsSeen;
        public ulong EventsRecorded;
        public ulong EventsDropped;
        public ulong EventsSampledOut;
        public ulong EventsWritten;
        public ulong BytesWritten;
        public ulong FramesWritten;
        public ulong StacksKnown;
        public ulong ClassesKnown;
        public ulong ThreadsKnown;
        public ulong LastFlushUnixNs;
        public ulong LastFlushDurationNs;
        public ulong ReentrantSkipped;
        public uint Running;
        public uint Paused;
        public uint Disabled;
        public uint Reserved;
    }
}
