#!/bin/sh
# build_standins.sh REPO OUT — builds what the unity-package tests run, with Debian's mono (mcs):
#   OUT/standins/   UnityEngine.dll, UnityEditor.dll, UnityEditor.iOS.Extensions.Xcode.dll,
#                   UnityEditor.Android.Extensions.dll (tests/unity-package/standins) and
#                   UnityCompiler.exe (Compiler.cs: Unity's script compilation of asmdefs)
#   OUT/package/com.memtracer.unity   the package as tools/unity-package/assemble makes it
#   OUT/ios/, OUT/android/   the package's player assemblies (UNITY_IOS / UNITY_ANDROID, IL2CPP)
#   OUT/editor/     its Editor assemblies, every stand-in and FakeUnity.exe (the fake pipeline)
#   OUT/bare/       the same without the iOS/Android extension assemblies (an editor without
#                   iOS/Android Build Support)
set -eu
REPO=$1 OUT=$2
HERE=$REPO/tests/unity-package
S=$HERE/standins
MCS="mcs -nologo -warnaserror+"
rm -rf "$OUT/standins" "$OUT/editor" "$OUT/bare" "$OUT/ios" "$OUT/android"
mkdir -p "$OUT/standins"
cd "$OUT/standins"
$MCS -target:library -out:UnityEngine.dll "$S/UnityEngine.cs"
$MCS -target:library -out:UnityEditor.dll -r:UnityEngine.dll "$S/UnityEditor.cs"
$MCS -target:library -out:UnityEditor.iOS.Extensions.Xcode.dll -r:System.Core.dll "$S/PbxModel.cs" "$S/PBXProject.cs"
$MCS -target:library -out:UnityEditor.Android.Extensions.dll "$S/AndroidExtensions.cs"
$MCS -out:UnityCompiler.exe -r:System.Core.dll "$HERE/Compiler.cs" "$REPO/unity-package/Editor/MiniJson.cs"
python3 "$REPO/tools/unity-package/assemble" "$OUT/package" >/dev/null
PKG=$OUT/package/com.memtracer.unity
for flavor in ios android editor; do
    mono "$OUT/standins/UnityCompiler.exe" "$PKG" "$OUT/standins" "$OUT/$flavor" $flavor
done
cd "$OUT/editor"
cp "$OUT"/standins/*.dll .
$MCS -unsafe -out:FakeUnity.exe -r:System.Core.dll -r:UnityEngine.dll -r:UnityEditor.dll -r:UnityEditor.iOS.Extensions.Xcode.dll \
    -r:MemTracer.Runtime.dll -r:MemTracer.Editor.dll "$HERE/FakeUnity.cs" "$HERE/Pipeline.cs" "$HERE/Xcode.cs"
mkdir -p "$OUT/bare"
cp UnityEngine.dll UnityEditor.dll MemTracer.Runtime.dll MemTracer.Editor.dll FakeUnity.exe "$OUT/bare/"
echo "build_standins: $OUT"
