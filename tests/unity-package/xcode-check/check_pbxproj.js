// check_pbxproj.js PATCHED ORIGINAL [off]: reads the Xcode project MemTracer's iOS hook wrote with the
// npm `xcode` parser (independent of the stand-in PBXProject that wrote it) and checks:
//   - every runtime source under Libraries/com.memtracer.unity/MemTracer is built by UnityFramework,
//     exactly once, and by no other target;
//   - UnityFramework's HEADER_SEARCH_PATHS hold the runtime's include folders, in every configuration,
//     beside the export's own paths;
//   - UnityFramework's DEBUG_INFORMATION_FORMAT is dwarf-with-dsym in every configuration;
//   - exactly one "MemTracer symbols" Run Script phase, on the app target (Unity-iPhone);
//   - GameAssembly's il2cpp phase is the original's, field for field.
// With "off": nothing of MemTracer's is left (no file, no search path, no phase).
'use strict';
const xcode = require('xcode');

const [patchedPath, originalPath, mode] = process.argv.slice(2);
const failures = [];
const fail = (m) => failures.push(m);
const unq = (s) => (typeof s === 'string' ? s.replace(/^"(.*)"$/, '$1') : s);

function load(p) {
  const proj = xcode.project(p);
  proj.parseSync();
  return proj.hash.project.objects;
}

const objs = load(patchedPath);
const orig = load(originalPath);
const entries = (section) => Object.entries(objs[section] || {}).filter(([k]) => !k.endsWith('_comment'));
const targetByName = (o, name) => Object.entries(o.PBXNativeTarget).find(([k, t]) => !k.endsWith('_comment') && unq(t.name) === name);

const PREFIX = 'Libraries/com.memtracer.unity/MemTracer/';
const ours = entries('PBXFileReference').filter(([, f]) => unq(f.path || '').startsWith(PREFIX));
const compiled = ours.filter(([, f]) => /\.(c|cpp|mm)$/.test(unq(f.path)));

// build files per target
const builtBy = {};  // fileRef -> [target names]
for (const [, t] of entries('PBXNativeTarget')) {
  for (const ph of t.buildPhases) {
    const phase = objs.PBXSourcesBuildPhase && objs.PBXSourcesBuildPhase[ph.value];
    if (!phase) continue;
    for (const f of phase.files) {
      const bf = objs.PBXBuildFile[f.value];
      (builtBy[bf.fileRef] = builtBy[bf.fileRef] || []).push(unq(t.name));
    }
  }
}

function configs(o, targetName) {
  const [, t] = targetByName(o, targetName);
  const list = o.XCConfigurationList[t.buildConfigurationList];
  return list.buildConfigurations.map((c) => o.XCBuildConfiguration[c.value]);
}
const asList = (v) => (v === undefined ? [] : Array.isArray(v) ? v.map(unq) : [unq(v)]);
const INCLUDES = ['$(SRCROOT)/' + PREFIX + 'include', '$(SRCROOT)/' + PREFIX + 'src'];
const phases = entries('PBXShellScriptBuildPhase').filter(([, p]) => unq(p.name) === 'MemTracer symbols');

if (mode === 'off') {
  if (ours.length) fail(`${ours.length} MemTracer file references left`);
  for (const c of configs(objs, 'UnityFramework'))
    for (const i of INCLUDES) if (asList(c.buildSettings.HEADER_SEARCH_PATHS).includes(i)) fail(`search path ${i} left`);
  if (phases.length) fail('the MemTracer symbols phase is left');
} else {
  if (compiled.length < 20) fail(`only ${compiled.length} runtime sources in the project`);
  if (!compiled.some(([, f]) => unq(f.path).endsWith('memtracer_settings.c'))) fail('memtracer_settings.c is not in the project');
  if (!compiled.some(([, f]) => unq(f.path).endsWith('MemTracerRegister.mm'))) fail('MemTracerRegister.mm is not in the project');
  for (const [guid, f] of compiled) {
    const by = builtBy[guid] || [];
    if (by.length !== 1 || by[0] !== 'UnityFramework') fail(`${unq(f.path)} built by [${by.join(', ')}], not by UnityFramework exactly once`);
  }
  const refsByPath = {};
  for (const [, f] of ours) refsByPath[unq(f.path)] = (refsByPath[unq(f.path)] || 0) + 1;
  for (const [p, n] of Object.entries(refsByPath)) if (n !== 1) fail(`${p} referenced ${n} times`);
  for (const c of configs(objs, 'UnityFramework')) {
    const paths = asList(c.buildSettings.HEADER_SEARCH_PATHS);
    for (const i of INCLUDES) if (paths.filter((p) => p === i).length !== 1) fail(`${unq(c.name)}: HEADER_SEARCH_PATHS has ${i} ${paths.filter((p) => p === i).length} times`);
    if (!paths.includes('$(SRCROOT)/Classes')) fail(`${unq(c.name)}: the export's own search paths are gone`);
    if (unq(c.buildSettings.DEBUG_INFORMATION_FORMAT) !== 'dwarf-with-dsym') fail(`${unq(c.name)}: DEBUG_INFORMATION_FORMAT is ${c.buildSettings.DEBUG_INFORMATION_FORMAT}`);
  }
  if (phases.length !== 1) fail(`${phases.length} "MemTracer symbols" phases, want 1`);
  else {
    const [, app] = targetByName(objs, 'Unity-iPhone');
    if (!app.buildPhases.some((p) => p.value === phases[0][0])) fail('the symbols phase is not on Unity-iPhone');
    for (const name of ['UnityFramework', 'GameAssembly'])
      if (targetByName(objs, name)[1].buildPhases.some((p) => p.value === phases[0][0])) fail(`the symbols phase is on ${name}`);
    if (!/dwarfdump --uuid/.test(phases[0][1].shellScript)) fail('the symbols phase does not key the store by UUID');
  }
}

// GameAssembly's phases: the same objects, field for field, as in the original export.
const [, gaNew] = targetByName(objs, 'GameAssembly');
const [, gaOld] = targetByName(orig, 'GameAssembly');
if (JSON.stringify(gaNew.buildPhases) !== JSON.stringify(gaOld.buildPhases)) fail("GameAssembly's build phases changed");
for (const p of gaOld.buildPhases) {
  const a = JSON.stringify(objs.PBXShellScriptBuildPhase[p.value]), b = JSON.stringify(orig.PBXShellScriptBuildPhase[p.value]);
  if (a !== b) fail(`GameAssembly's phase ${p.value} changed`);
}
if (!/--compile-cpp/.test(JSON.stringify(orig.PBXShellScriptBuildPhase))) fail('fixture check: no il2cpp phase in the original');

if (failures.length) {
  for (const f of failures) console.error('FAIL: ' + f);
  process.exit(1);
}
console.log(mode === 'off' ? 'xcode (npm) check off: no MemTracer file, search path or phase left; GameAssembly untouched'
  : `xcode (npm) check on: ${compiled.length} runtime sources in UnityFramework once each, ` +
    `search paths, dwarf-with-dsym, ${phases.length} symbols phase, GameAssembly untouched`);
