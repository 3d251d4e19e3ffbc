// Bundles the page with esbuild into one folder the server serves (--out). Run from the folder
// holding node_modules (CMake copies this file next to the `npm ci` it ran), with --src pointing
// at viewer-api/web. No CDN, no network at run time: everything the page needs is in --out.
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const arg = (name) => {
  const i = process.argv.indexOf(name);
  if (i < 0 || i + 1 >= process.argv.length) throw new Error(`build.mjs: missing ${name}`);
  return resolve(process.argv[i + 1]);
};
const src = arg('--src');
const out = arg('--out');
mkdirSync(out, { recursive: true });

await esbuild.build({
  entryPoints: { app: join(src, 'src', 'main.js') },
  bundle: true,
  minify: true,
  sourcemap: true,
  format: 'esm',
  target: ['chrome110', 'firefox110', 'safari16'],
  outdir: out,
  nodePaths: [resolve('node_modules')],
  logLevel: 'warning',
  legalComments: 'linked',
});
copyFileSync(join(src, 'index.html'), join(out, 'index.html'));
copyFileSync(join(src, 'favicon.svg'), join(out, 'favicon.svg'));
console.log(`page bundled into ${out}`);
