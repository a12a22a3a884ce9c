// `npm run build` (also run by `npm ci`/`npm install` through `prepare`, and before `npm pack`):
// the compiled package in dist/.
//
//   dist/js/     the JavaScript, bundled by esbuild: one file per entry point (cli, index, sim,
//                and the two worker entries) plus shared chunks. Dependencies stay imports of the
//                installed packages. Two levels below the package root, like the sources
//                (sim/scenario/load.ts), so a path a module computes from its own URL, such as
//                `../../scenarios`, resolves the same compiled or not; and every worker entry sits
//                beside the chunk that starts it (see sim/workers/workerEntry.ts).
//   dist/types/  the type declarations of `lockstep` and `lockstep/sim`, from tsc; tsc-alias
//                adds the `.js` extensions that consumers on moduleResolution node16/nodenext need.
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');

rmSync(dist, { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: {
    cli: 'src/cli/main.ts',
    index: 'src/index.ts',
    sim: 'sim/index.ts',
    'sidechainDomain.worker': 'sim/workers/sidechainDomain.worker.ts',
    fuzzTask: 'sim/campaign/fuzzTask.ts',
  },
  outdir: 'dist/js',
  bundle: true,
  // One copy of every module however many entry points a process loads (the CLI starts the
  // worker entries; a script may import both `lockstep` and `lockstep/sim`).
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.19',
  packages: 'external',
  logLevel: 'warning',
});

const bin = (name) => join(root, 'node_modules', '.bin', name);
const project = join(root, 'tsconfig.build.json');
execFileSync(bin('tsc'), ['-p', project], { stdio: 'inherit' });
execFileSync(bin('tsc-alias'), ['-p', project], { stdio: 'inherit' });
// tsc-alias only adds an extension where it finds the emitted .js beside the declaration, so tsc
// emits both; the bundle in dist/js is the package's JavaScript, these copies go.
for (const f of readdirSync(join(dist, 'types'), { recursive: true })) {
  if (f.endsWith('.js')) rmSync(join(dist, 'types', f));
}
