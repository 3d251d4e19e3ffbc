// What the MemTracer window runs: the host tools (found in the tools folder setting or on PATH,
// and named plainly when missing), adb and iproxy. Pure functions where possible, so they are
// tested without Unity (tests/unity-package).
using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Linq;

namespace MemTracer.Editor
{
    public static class EditorTools
    {
        public static readonly string[] HostTools = { "memtracer-viewer", "memtracer-capture", "memtracer-symbolize", "memtracer-report" };

        /// <summary>The tool's path: in toolsDir if set, else the first on PATH; null when absent.</summary>
        public static string Find(string tool, string toolsDir, string path)
        {
            var dirs = !string.IsNullOrEmpty(toolsDir) ? new[] { toolsDir } : (path ?? "").Split(Path.PathSeparator);
            foreach (var d in dirs.Where(d => d != ""))
                foreach (var name in new[] { tool, tool + ".exe" })
                    if (File.Exists(Path.Combine(d, name))) return Path.Combine(d, name);
            return null;
        }

        public static string Missing(string tool, string toolsDir)
        {
            return tool + " not found " + (string.IsNullOrEmpty(toolsDir) ? "on PATH" : "in " + toolsDir) +
                   ": build the MemTracer host tools (cmake --build build) and set Project Settings › MemTracer › tools folder";
        }

        /// <summary>Serials of the devices `adb devices` lists as ready ("device" state).</summary>
        public static List<string> ParseAdbDevices(string output)
        {
            var serials = new List<string>();
            foreach (var line in output.Split('\n').Select(l => l.Trim()))
            {
                if (line.Length == 0 || line.StartsWith("List of devices") || line.StartsWith("*")) continue;
                var parts = line.Split(new[] { ' ', '\t' }, StringSplitOptions.RemoveEmptyEntries);
                if (parts.Length >= 2 && parts[1] == "device") serials.Add(parts[0]);
            }
            return serials;
        }

        public static string[] ForwardArgs(string platform, int port, string serial)
        {
            return platform == "Android"
                ? new[] { "-s", serial, "forward", "tcp:" + port, "tcp:" + port }
                : new[] { "-u", serial, port.ToString(), port.ToString() };  // iproxy LOCAL DEVICE
        }

        public static string[] LiveViewerArgs(string db, int port, string token, string symbolStore)
        {
            var a = new List<string> { db, "--live", "127.0.0.1:" + port };
            if (!string.IsNullOrEmpty(token)) { a.Add("--token"); a.Add(token); }
            if (Directory.Exists(symbolStore)) { a.Add("--symbols"); a.Add(symbolStore); }
            return a.ToArray();
        }

        public static string[] PullArgs(string serial, string package, string dest)
        {
            return new[] { "-s", serial, "pull", "/sdcard/Android/data/" + package + "/files/run.mt", dest };
        }

        public static string[] CompareArgs(string baselineDb, string db) { return new[] { "compare", baselineDb, db }; }

        public static string Quote(string a) { return a.IndexOfAny(new[] { ' ', '"' }) < 0 ? a : "\"" + a.Replace("\"", "\\\"") + "\""; }

        /// <summary>Runs a command to the end; (exit code, stdout + stderr). A missing program is exit -1 with why.</summary>
        public static KeyValuePair<int, string> Run(string program, string[] args)
        {
            try
            {
                var psi = new ProcessStartInfo(program, string.Join(" ", args.Select(Quote))) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
                using (var p = Process.Start(psi))
                {
                    string o = p.StandardOutput.ReadToEnd() + p.StandardError.ReadToEnd();
                    p.WaitForExit();
                    return new KeyValuePair<int, string>(p.ExitCode, o);
                }
            }
            catch (System.ComponentModel.Win32Exception e) { return new KeyValuePair<int, string>(-1, program + ": " + e.Message); }
        }

        /// <summary>Starts a long-running tool (the live viewer) and returns it; null with why in error.</summary>
        public static Process Start(string program, string[] args, out string error)
        {
            error = null;
            try { return Process.Start(new ProcessStartInfo(program, string.Join(" ", args.Select(Quote))) { UseShellExecute = false }); }
            catch (System.ComponentModel.Win32Exception e) { error = program + ": " + e.Message; return null; }
        }
    }
}
