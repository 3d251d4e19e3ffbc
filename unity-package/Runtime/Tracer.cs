// MemTracer.Tracer: the game-facing C# API over the native runtime's C API (memtracer.h).
//
// Game code calls it unconditionally: in the Editor, on Mono, on platforms MemTracer does not
// build for, and in players built with MemTracer off, IsAvailable is false and every call returns
// Status.Unavailable without touching native code. Mark encodes its label into a stack buffer, so
// it allocates nothing managed (it runs inside what it measures).
using System;
using System.Runtime.InteropServices;

namespace MemTracer
{
    public static class Tracer
    {
        /// <summary>mt_mark keeps at most this many bytes of a label (MT_MAX_MARK_LABEL).</summary>
        public const int MaxMarkLabel = 63;

#if (UNITY_IOS || UNITY_ANDROID) && ENABLE_IL2CPP && !UNITY_EDITOR
        const bool kBuiltIn = true;
#else
        const bool kBuiltIn = false;
#endif
        // iOS links the runtime into UnityFramework; Android loads the GfxPlugin library the
        // Gradle export builds (docs/integration.md explains the name).
#if UNITY_IOS && !UNITY_EDITOR
        const string Lib = "__Internal";
#else
        const string Lib = "GfxPluginMemTracer";
#endif

        static int s_available = -1;  // -1 unknown, 0 no, 1 yes: probed once

        /// <summary>True in a player that has the MemTracer runtime linked in.</summary>
        public static bool IsAvailable
        {
            get
            {
                if (s_available < 0) s_available = kBuiltIn && Probe() ? 1 : 0;
                return s_available == 1;
            }
        }

        static bool Probe()
        {
            try
            {
                Counters c;
                return mt_get_counters(out c) == (int)Status.Ok;
            }
            catch (DllNotFoundException) { return false; }
            catch (EntryPointNotFoundException) { return false; }
        }

        /// <summary>Starts a capture with the settings baked into the player (Project Settings &gt; MemTracer).</summary>
        public static Status Start() { return IsAvailable ? (Status)memtracer_unity_start() : Status.Unavailable; }
        public static Status Stop() { return IsAvailable ? (Status)mt_stop() : Status.Unavailable; }
        public static Status Pause() { return IsAvailable ? (Status)mt_pause() : Status.Unavailable; }
        public static Status Resume() { return IsAvailable ? (Status)mt_resume() : Status.Unavailable; }

        /// <summary>Labels the frame open now. Allocates nothing managed; keeps MaxMarkLabel UTF-8 bytes.</summary>
        public static Status Mark(string label) { return MarkParts(label, null); }

        /// <summary>A mark now and "label end" when disposed: <c>using (Tracer.Scope("load")) { ... }</c>.</summary>
        public static MarkScope Scope(string label) { return new MarkScope(label); }

        /// <summary>The live counters; false where the runtime is unavailable.</summary>
        public static bool TryGetCounters(out Counters counters)
        {
            counters = default(Counters);
            return IsAvailable && mt_get_counters(out counters) == (int)Status.Ok;
        }

        /// <summary>Why the last call failed or the runtime disabled itself ("" if nothing went wrong).</summary>
        public static string LastError
        {
            get
            {
                if (!IsAvailable) return "MemTracer is not in this player (Editor, Mono, unsupported platform or turned off)";
                return Marshal.PtrToStringAnsi(mt_last_error()) ?? "";
            }
        }

        /// <summary>A setting baked into the player (or its environment override); null if unset.</summary>
        public static string Setting(string name)
        {
            if (!IsAvailable || name == null) return null;
            return Marshal.PtrToStringAnsi(memtracer_unity_setting(name));
        }

        // Two parts so callers can mark "scene " + name without building a string.
        internal static unsafe Status MarkParts(string first, string second)
        {
            if (!IsAvailable) return Status.Unavailable;
            if (first == null) return Status.Argument;
            byte* buf = stackalloc byte[MaxMarkLabel + 1];
            int n = Utf8.Encode(first, buf, 0, MaxMarkLabel);
            if (second != null) n = Utf8.Encode(second, buf, n, MaxMarkLabel);
            buf[n] = 0;
            return (Status)mt_mark(buf);
        }

        [DllImport(Lib)] static extern int mt_stop();
        [DllImport(Lib)] static extern int mt_pause();
        [DllImport(Lib)] static extern int mt_resume();
        [DllImport(Lib)] static extern unsafe int mt_mark(byte* label);
        [DllImport(Lib)] static extern int mt_get_counters(out Counters counters);
        [DllImport(Lib)] static extern IntPtr mt_last_error();
        [DllImport(Lib)] static extern int memtracer_unity_start();
        [DllImport(Lib)] static extern IntPtr memtracer_unity_setting(string name);
    }

    /// <summary>Marks its label when created and "label end" when disposed; a struct, so no allocation.</summary>
    public struct MarkScope : IDisposable
    {
        readonly string m_Label;
        internal MarkScope(string label)
        {
            m_Label = label;
            Tracer.MarkParts(label, null);
        }
        public void Dispose() { Tracer.MarkParts(m_Label, " end"); }
    }

    static class Utf8
    {
        /// <summary>Appends s as UTF-8 at buf[at..limit), never splitting a character; returns the new length.</summary>
        internal static unsafe int Encode(string s, byte* buf, int at, int limit)
        {
            for (int i = 0; i < s.Length; ++i)
            {
                int c = s[i];
                if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.Length && s[i + 1] >= 0xDC00 && s[i + 1] <= 0xDFFF)
                    c = 0x10000 + ((c - 0xD800) << 10) + (s[++i] - 0xDC00);
                else if (c >= 0xD800 && c <= 0xDFFF)
                    c = 0xFFFD;  // a lone surrogate
                int len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
                if (at + len > limit) break;
                if (len == 1) buf[at++] = (byte)c;
                else if (len == 2) { buf[at++] = (byte)(0xC0 | (c >> 6)); buf[at++] = (byte)(0x80 | (c & 0x3F)); }
                else if (len == 3)
                {
                    buf[at++] = (byte)(0xE0 | (c >> 12));
                    buf[at++] = (byte)(0x80 | ((c >> 6) & 0x3F));
                    buf[at++] = (byte)(0x80 | (c & 0x3F));
                }
                else
                {
                    buf[at++] = (byte)(0xF0 | (c >> 18));
                    buf[at++] = (byte)(0x80 | ((c >> 12) & 0x3F));
                    buf[at++] = (byte)(0x80 | ((c >> 6) & 0x3F));
                    buf[at++] = (byte)(0x80 | (c & 0x3F));
                }
            }
            return at;
        }
    }
}
