// Stand-in for UnityEditor.Android.Extensions.dll (present only with Android Build Support).
// MemTracer reaches it by reflection only (the adb path for the Editor window).
namespace UnityEditor.Android
{
    public static class AndroidExternalToolsSettings
    {
        public static string sdkRootPath { get; set; }
        public static string ndkRootPath { get; set; }
        public static string jdkRootPath { get; set; }
    }
}
