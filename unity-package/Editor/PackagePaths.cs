// Where the package's files are, found through the Package Manager (never a hard-coded
// "Packages/com.memtracer.unity": the package may be embedded, local, from git or a tarball, and
// lives under Library/PackageCache then; sentry-unity #475).
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using UnityEditor.PackageManager;

namespace MemTracer.Editor
{
    public static class PackagePaths
    {
        public const string Name = "com.memtracer.unity";

        public static string Root
        {
            get
            {
                var info = PackageInfo.FindForAssembly(typeof(PackagePaths).Assembly);
                if (info == null) throw new DirectoryNotFoundException("MemTracer: the Package Manager does not know this assembly's package (" + Name + "); reinstall it");
                return info.resolvedPath;
            }
        }

        /// <summary>The runtime's C/C++ sources and headers (assembled from runtime/ and trace/ by the build).</summary>
        public static string Native { get { return Path.Combine(Root, "Plugins", "MemTracer", "Native"); } }

        /// <summary>il2cpp-layouts.json and the headers the patch adds (shared with bdwgc-patches/memtracer-patch-il2cpp).</summary>
        public static string PatchData { get { return Path.Combine(Root, "Editor", "Il2CppPatch"); } }

        /// <summary>Every file under dir (relative, '/' separators, sorted ordinally), .meta files left out.</summary>
        public static List<string> Files(string dir)
        {
            return Directory.GetFiles(dir, "*", SearchOption.AllDirectories)
                .Where(f => !f.EndsWith(".meta"))
                .Select(f => f.Substring(dir.Length + 1).Replace('\\', '/'))
                .OrderBy(f => f, System.StringComparer.Ordinal).ToList();
        }
    }

    /// <summary>File writes that leave an unchanged file untouched (same bytes, same timestamp).</summary>
    public static class Files
    {
        public static bool WriteIfChanged(string path, byte[] data)
        {
            if (File.Exists(path) && File.ReadAllBytes(path).SequenceEqual(data)) return false;
            Directory.CreateDirectory(Path.GetDirectoryName(path));
            File.WriteAllBytes(path, data);
            return true;
        }

        public static bool WriteIfChanged(string path, string text) { return WriteIfChanged(path, new UTF8Encoding(false).GetBytes(text)); }

        /// <summary>Lowercase hex SHA-256 of the bytes (the patch state and the pbxproj guard record files by it).</summary>
        public static string Sha256(byte[] data)
        {
            using (var h = System.Security.Cryptography.SHA256.Create())
                return string.Concat(h.ComputeHash(data).Select(x => x.ToString("x2")));
        }

        /// <summary>Copies every file of src into dst (same relative paths); removes files of dst src no longer has.</summary>
        public static List<string> Mirror(string src, string dst, ICollection<string> keep)
        {
            var changed = new List<string>();
            var want = PackagePaths.Files(src);
            foreach (var rel in want)
                if (WriteIfChanged(Path.Combine(dst, rel), File.ReadAllBytes(Path.Combine(src, rel)))) changed.Add(rel);
            if (Directory.Exists(dst))
                foreach (var rel in PackagePaths.Files(dst))
                    if (!want.Contains(rel) && !keep.Contains(rel)) { File.Delete(Path.Combine(dst, rel)); changed.Add("-" + rel); }
            return changed;
        }

        public static void DeleteTree(string dir)
        {
            if (Directory.Exists(dir)) Directory.Delete(dir, true);
        }
    }
}
