#!/bin/bash
# run.sh TEST REPO BUILD — one unity-package test (tests/unity-package/CMakeLists.txt registers each).
# BUILD holds what build_standins.sh made (standins/, package/, editor/, bare/) and xcode-check/
# (the npm xcode package). Every test works in its own folder under BUILD/work and asserts on files.
set -euo pipefail
TEST=$1 REPO=$2 B=$3
HERE=$REPO/tests/unity-package
FIX=$HERE/fixtures
PKG=$B/package/com.memtracer.unity
FAKE="mono $B/editor/FakeUnity.exe"
W=$B/work/$TEST
rm -rf "$W" && mkdir -p "$W"
fail() { echo "FAIL: $*" >&2; exit 1; }
snap() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
same_tree() { diff <(snap "$1") <(snap "$2") >/dev/null || { diff <(snap "$1") <(snap "$2") | head -20 >&2; fail "$3"; }; }

# export FIXTURE OUT: a fixture export with the libil2cpp of its Unity version (tests/patches/fixtures)
export_fixture() {
    cp -r "$FIX/$1/." "$2/"
    local v=${1#*-} lib
    [[ $v == 2022.3 ]] && lib=2022.x || lib=6000.x
    if [[ $1 == ios-* ]]; then lib_dir=$2/Il2CppOutputProject/IL2CPP; else lib_dir=$2/unityLibrary/src/main/Il2CppOutputProject/IL2CPP; fi
    mkdir -p "$lib_dir" && cp -r "$REPO/tests/patches/fixtures/$lib/libil2cpp" "$lib_dir/"
}

build() {  # build TARGET [args...]: the fake pipeline on $W/export -> $W/out
    $FAKE build --target "$1" --project "$W/proj" --package "$PKG" --export "$W/export" --out "$W/out" "${@:2}"
}

case $TEST in
load)
    # The Editor assembly loads with no iOS/Android extension assemblies (an editor without iOS
    # Build Support)...
    out=$(mono "$B/bare/FakeUnity.exe" load) || fail "MemTracer.Editor does not load without the extension assemblies"
    [[ $out == *"iOS support absent"* ]] || fail "the bare editor has iOS support: $out"
    # ...and the check bites: an assembly referencing PBXProject directly does not load there.
    cat > "$W/Direct.cs" <<'CS'
public static class Direct { public static UnityEditor.iOS.Xcode.PBXProject Make() { return new UnityEditor.iOS.Xcode.PBXProject(); } }
CS
    mcs -nologo -target:library -out:"$W/MemTracer.Editor.dll" -r:"$B/standins/UnityEditor.iOS.Extensions.Xcode.dll" "$W/Direct.cs"
    cp "$B"/bare/{UnityEngine,UnityEditor,MemTracer.Runtime}.dll "$B/bare/FakeUnity.exe" "$W/"
    if mono "$W/FakeUnity.exe" load 2>"$W/err"; then fail "control: an assembly referencing the iOS extension loaded without it"; fi
    grep -q "does not load" "$W/err" || fail "control failed for another reason: $(cat "$W/err")"
    echo "ok: loads without iOS/Android support; a direct reference does not"
    ;;
compile)
    # Unity's rules as the stand-in compiler applies them, each shown to bite on a package copy.
    cp -r "$PKG" "$W/pkg"
    mkdir -p "$W/pkg/Broken~" "$W/pkg/.hidden"
    echo 'class Broken { syntax error' > "$W/pkg/Broken~/Broken.cs"
    echo 'class Hidden { syntax error' > "$W/pkg/.hidden/Hidden.cs"
    mono "$B/standins/UnityCompiler.exe" "$W/pkg" "$B/standins" "$W/out" editor >/dev/null || fail "~ or dot folders were compiled"
    cp -r "$PKG" "$W/bad"
    printf 'namespace MemTracer { static class UsesEditor { static object X() { return UnityEditor.BuildTarget.iOS; } } }\n' > "$W/bad/Runtime/UsesEditor.cs"
    cp "$W/bad/Runtime/Tracer.cs.meta" "$W/bad/Runtime/UsesEditor.cs.meta"
    if mono "$B/standins/UnityCompiler.exe" "$W/bad" "$B/standins" "$W/out2" editor >"$W/log" 2>&1; then fail "a Runtime assembly using UnityEditor compiled"; fi
    grep -q "UnityEditor" "$W/log" || fail "refused for another reason: $(cat "$W/log")"
    cp -r "$PKG" "$W/nometa" && rm "$W/nometa/Runtime/Tracer.cs.meta"
    if mono "$B/standins/UnityCompiler.exe" "$W/nometa" "$B/standins" "$W/out3" editor >"$W/log" 2>&1; then fail "a file without .meta was accepted"; fi
    echo "ok: ~ and dot folders ignored; Runtime cannot use UnityEditor; every asset needs its .meta"
    ;;
status)
    $FAKE status "$REPO/runtime/include/memtracer/memtracer.h"
    ;;
editor-tools)
    $FAKE editor-tools "$W"
    ;;
pbxproj)
    for v in ios-2022.3 ios-6000.x; do
        $FAKE pbx-roundtrip "$FIX/$v/Unity-iPhone.xcodeproj/project.pbxproj"
        $FAKE pbx-badtarget "$FIX/$v/Unity-iPhone.xcodeproj/project.pbxproj"
    done
    ;;
patch-parity)
    # The Python CLI and the C# Editor patcher on every layout fixture, LF and CRLF: the same bytes
    # patched, the same bytes reverted, and each reverts what the other patched.
    n=0
    for fx in "$REPO"/tests/patches/fixtures/*/; do
        name=$(basename "$fx")
        for eol in lf crlf; do
            src=$W/$name-$eol/orig && mkdir -p "$src" && cp -r "$fx/libil2cpp/." "$src/"
            [[ $eol == crlf ]] && find "$src" -type f -exec sed -i 's/$/\r/' {} +
            for who in py cs; do
                d=$W/$name-$eol/$who && cp -r "$src" "$d"
                if [[ $who == py ]]; then python3 "$REPO/bdwgc-patches/memtracer-patch-il2cpp" --unity "$d" >/dev/null
                else $FAKE patch "$d" "$PKG/Editor/Il2CppPatch" apply >/dev/null; fi
            done
            same_tree "$W/$name-$eol/py" "$W/$name-$eol/cs" "$name ($eol): the patchers wrote different trees"
            if diff <(snap "$src") <(snap "$W/$name-$eol/py") >/dev/null; then fail "$name ($eol): nothing was patched"; fi
            python3 "$REPO/bdwgc-patches/memtracer-patch-il2cpp" --unity "$W/$name-$eol/cs" --revert >/dev/null
            $FAKE patch "$W/$name-$eol/py" "$PKG/Editor/Il2CppPatch" revert >/dev/null
            same_tree "$src" "$W/$name-$eol/py" "$name ($eol): C# revert of the Python patch is not the original"
            same_tree "$src" "$W/$name-$eol/cs" "$name ($eol): Python revert of the C# patch is not the original"
            n=$((n + 1))
        done
    done
    [[ $n -ge 12 ]] || fail "only $n fixture trees"
    echo "ok: byte-identical patch and revert on $n trees ($(ls "$REPO/tests/patches/fixtures" | grep -v README | tr '\n' ' ')x LF/CRLF)"
    ;;
ios-2022.3|ios-6000.x|android-2022.3|android-6000.x)
    target=${TEST%%-*}
    mkdir -p "$W/export" "$W/proj/Assets/Plugins/iOS" "$W/proj/ProjectSettings"
    export_fixture "$TEST" "$W/export"
    echo '{"symbolStore": "'"$W"'/store"}' > "$W/proj/ProjectSettings/MemTracerSettings.json"
    printf -- "--user-flag" > "$W/proj/ProjectSettings/FakeIl2CppArgs.txt"
    # a game's own plug-ins: one enabled for iOS (exported), one not (left out)
    echo 'void game_plugin(void) {}' > "$W/proj/Assets/Plugins/iOS/GamePlugin.mm"
    echo 'void game_disabled(void) {}' > "$W/proj/Assets/Plugins/iOS/Disabled.mm"
    sed 's/iPhone: iOS\n    second:\n      enabled: 0/X/' "$PKG/Plugins/MemTracer/Native/src/bridge.cpp.meta" > "$W/proj/Assets/Plugins/iOS/Disabled.mm.meta"
    python3 - "$PKG/Plugins/MemTracer/Native/src/bridge.cpp.meta" "$W/proj/Assets/Plugins/iOS/GamePlugin.mm.meta" <<'PY'
import sys
t = open(sys.argv[1]).read().replace("iPhone: iOS\n    second:\n      enabled: 0", "iPhone: iOS\n    second:\n      enabled: 1")
open(sys.argv[2], "w").write(t)
PY
    build "$target" >"$W/on1.log" || { cat "$W/on1.log"; fail "the first build failed"; }
    # iOS: the project as Unity's own export left it (the game's plug-in added), before MemTracer
    [[ $target == ios ]] && cp "$W/out/Libraries/com.memtracer.unity/project.pbxproj.orig" "$W/unity.pbxproj"
    grep -q -- "--user-flag --compiler-flags=-fno-omit-frame-pointer --emit-source-mapping" "$W/proj/ProjectSettings/FakeIl2CppArgs.txt" || fail "IL2CPP args: $(cat "$W/proj/ProjectSettings/FakeIl2CppArgs.txt")"
    snap "$W/out" > "$W/on1.snap"
    build "$target" --append >"$W/on2.log"
    snap "$W/out" > "$W/on2.snap"
    diff "$W/on1.snap" "$W/on2.snap" >&2 || fail "a second build changed the export"
    grep -q "nothing to change" "$W/on2.log" || fail "the second build reported changes: $(cat "$W/on2.log")"
    [[ $(grep -o -- "--emit-source-mapping" "$W/proj/ProjectSettings/FakeIl2CppArgs.txt" | wc -l) == 1 ]] || fail "IL2CPP args added twice"
    if [[ $target == ios ]]; then
        lib=$W/out/Il2CppOutputProject/IL2CPP/libil2cpp
        node "$B/xcode-check/check_pbxproj.js" "$W/out/Unity-iPhone.xcodeproj/project.pbxproj" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj"
        if node "$B/xcode-check/check_pbxproj.js" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj" 2>/dev/null; then
            fail "control: the npm xcode check passed the unpatched export"
        fi
        [[ -f $W/out/Libraries/Plugins/iOS/GamePlugin.mm ]] || fail "the game's iOS-enabled plug-in was not exported"
        [[ ! -e $W/out/Libraries/Plugins/iOS/Disabled.mm ]] || fail "a plug-in whose .meta does not enable iOS was exported"
        [[ ! -e $W/out/Libraries/com.memtracer.unity/Plugins ]] || fail "Unity exported the package's disabled native sources"
        want=$([[ $TEST == ios-6000.x ]] && echo UnityRegisterPlugin || echo UnityRegisterRenderingPluginV5)
        grep -q "    $want(&UnityPluginLoad" "$W/out/Libraries/com.memtracer.unity/MemTracer/MemTracerRegister.mm" || fail "registration does not use $want"
    else
        lib=$W/out/unityLibrary/src/main/Il2CppOutputProject/IL2CPP/libil2cpp
        g=$W/out/unityLibrary/build.gradle
        [[ $(grep -c "^// >>> MemTracer" "$g") == 1 && $(grep -c "tasks.register('memtracerSymbols')" "$g") == 1 ]] || fail "build.gradle: not one MemTracer block"
        grep -q "finalizedBy 'memtracerSymbols'" "$g" || fail "the symbols task is not run after assemble/bundle"
        if [[ $TEST == android-6000.x ]]; then
            [[ $(grep -c "^add_subdirectory(MemTracer)" "$W/out/unityLibrary/src/main/cpp/CMakeLists.txt") == 1 ]] || fail "src/main/cpp/CMakeLists.txt: not one add_subdirectory(MemTracer)"
            ! grep -q "externalNativeBuild { cmake { path" "$g" || fail "a second externalNativeBuild next to the export's"
        else
            [[ $(grep -c 'externalNativeBuild { cmake { path "src/main/cpp/MemTracer/CMakeLists.txt"' "$g") == 1 ]] || fail "no native build of the plug-in"
        fi
        grep -q "add_library(GfxPluginMemTracer SHARED" "$W/out/unityLibrary/src/main/cpp/MemTracer/CMakeLists.txt" || fail "the plug-in is not a GfxPlugin* library"
    fi
    python3 "$REPO/bdwgc-patches/memtracer-patch-il2cpp" --unity "$lib" --check >/dev/null || fail "the export's libil2cpp is not patched"
    grep -q '"MEMTRACER_MODE", "events"' "$(find "$W/out" -name memtracer_settings.c)" || fail "settings not baked"
    # off: the export as it was, byte for byte, and MemTracer's IL2CPP args gone (the user's kept)
    echo '{"ios": false, "android": false}' > "$W/proj/ProjectSettings/MemTracerSettings.json"
    build "$target" --append >"$W/off.log"
    rm -rf "$W/out/Libraries/Plugins"  # the game's own plug-in, exported by Unity, not MemTracer
    [[ $target == ios ]] && node "$B/xcode-check/check_pbxproj.js" "$W/out/Unity-iPhone.xcodeproj/project.pbxproj" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj" off
    if [[ $target == ios ]]; then
        # Unity's export added the game's plug-in to the project: off gives back that project
        grep -q "GamePlugin.mm" "$W/unity.pbxproj" || fail "the project before MemTracer lacks the game's plug-in"
        cmp "$W/unity.pbxproj" "$W/out/Unity-iPhone.xcodeproj/project.pbxproj" || fail "off did not give back Unity's project byte for byte"
        cp "$W/export/Unity-iPhone.xcodeproj/project.pbxproj" "$W/out/Unity-iPhone.xcodeproj/project.pbxproj"
    fi
    same_tree "$W/export" "$W/out" "off did not give back the original export"
    [[ $(cat "$W/proj/ProjectSettings/FakeIl2CppArgs.txt") == "--user-flag" ]] || fail "off: IL2CPP args are '$(cat "$W/proj/ProjectSettings/FakeIl2CppArgs.txt")'"
    echo "ok: $TEST on (checked), twice identical, off = original"
    ;;
compile-export)
    # What the hooks put into an iOS and an Android export compiles for arm64 iOS and aarch64 Linux.
    for fx in ios-6000.x android-2022.3; do
        mkdir -p "$W/$fx/export" "$W/$fx/proj/Assets"
        export_fixture "$fx" "$W/$fx/export"
        $FAKE build --target "${fx%%-*}" --project "$W/$fx/proj" --package "$PKG" --export "$W/$fx/export" --out "$W/$fx/out" >/dev/null
        if [[ $fx == ios-* ]]; then native=$W/$fx/out/Libraries/com.memtracer.unity/MemTracer lib=$W/$fx/out/Il2CppOutputProject/IL2CPP/libil2cpp
        else native=$W/$fx/out/unityLibrary/src/main/cpp/MemTracer lib=$W/$fx/out/unityLibrary/src/main/Il2CppOutputProject/IL2CPP/libil2cpp; fi
        "$HERE/compile_export.sh" "$native" "$lib" "$W/$fx/cc" "$REPO/tests/apple-sdk-shim"
    done
    ;;
ios-prebuilt)
    # An export whose il2cpp phase links Unity's prebuilt libil2cpp.a (--external-lib-il2-cpp, as
    # 2022.3.31f1 exports do): the patch would never be compiled, so the hook leaves libil2cpp as is.
    mkdir -p "$W/export" "$W/proj/Assets"
    export_fixture ios-2022.3 "$W/export"
    sed -i 's|--custom-il2-cpp-root=[^ ]*libil2cpp\\" ||' "$W/export/Unity-iPhone.xcodeproj/project.pbxproj"
    grep -q -- "--external-lib-il2-cpp" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj" || fail "fixture has no prebuilt libil2cpp"
    ! grep -q -- "--custom-il2-cpp-root" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj" || fail "sed left --custom-il2-cpp-root"
    build ios >"$W/log"
    grep -q "prebuilt Libraries/libil2cpp.a" "$W/log" || fail "no note about the prebuilt libil2cpp: $(cat "$W/log")"
    if python3 "$REPO/bdwgc-patches/memtracer-patch-il2cpp" --unity "$W/out/Il2CppOutputProject/IL2CPP/libil2cpp" --check >/dev/null; then fail "patched a libil2cpp the build never compiles"; fi
    node "$B/xcode-check/check_pbxproj.js" "$W/out/Unity-iPhone.xcodeproj/project.pbxproj" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj"
    echo "ok: prebuilt libil2cpp left unpatched, runtime still added"
    ;;
ios-append-edited)
    # On, then the project changes outside MemTracer (an Append build adds a game plug-in), then on
    # again, then off: off must keep that change (the saved original is stale), removing only ours.
    mkdir -p "$W/export" "$W/proj/Assets/Plugins/iOS" "$W/proj/ProjectSettings"
    export_fixture ios-6000.x "$W/export"
    build ios >/dev/null
    echo 'void late_plugin(void) {}' > "$W/proj/Assets/Plugins/iOS/Late.mm"
    python3 - "$PKG/Plugins/MemTracer/Native/src/bridge.cpp.meta" "$W/proj/Assets/Plugins/iOS/Late.mm.meta" <<'PY'
import sys
t = open(sys.argv[1]).read().replace("iPhone: iOS\n    second:\n      enabled: 0", "iPhone: iOS\n    second:\n      enabled: 1")
open(sys.argv[2], "w").write(t)
PY
    build ios --append >/dev/null
    echo '{"ios": false}' > "$W/proj/ProjectSettings/MemTracerSettings.json"
    build ios --append >"$W/off.log"
    grep -q "Late.mm" "$W/out/Unity-iPhone.xcodeproj/project.pbxproj" || fail "off dropped a plug-in added after MemTracer's first build"
    node "$B/xcode-check/check_pbxproj.js" "$W/out/Unity-iPhone.xcodeproj/project.pbxproj" "$W/export/Unity-iPhone.xcodeproj/project.pbxproj" off 2>"$W/err" \
        || grep -q "symbols phase is left" "$W/err" || { cat "$W/err" >&2; fail "off left more than the symbols phase"; }
    [[ ! -e $W/out/Libraries/com.memtracer.unity ]] || fail "off left Libraries/com.memtracer.unity"
    echo "ok: an Append-edited project keeps its own change when MemTracer is turned off"
    ;;
refuse)
    mkdir -p "$W/export" "$W/proj/Assets"
    export_fixture android-6000.x "$W/export"
    if build android --backend mono 2>"$W/err"; then fail "a Mono build with MemTracer on was not refused"; fi
    grep -q "Mono scripting backend" "$W/err" || fail "unclear refusal: $(cat "$W/err")"
    if build android --archs armv7 2>"$W/err"; then fail "an armv7-only build with MemTracer on was not refused"; fi
    grep -q "ARM64" "$W/err" || fail "unclear refusal: $(cat "$W/err")"
    mkdir -p "$W/proj/ProjectSettings" && echo '{"android": false}' > "$W/proj/ProjectSettings/MemTracerSettings.json"
    build android --backend mono >/dev/null || fail "MemTracer off still refused a Mono build"
    echo "ok: Mono and armv7-only builds refused with a BuildFailedException when on, built when off"
    ;;
*)
    fail "unknown test $TEST"
    ;;
esac
