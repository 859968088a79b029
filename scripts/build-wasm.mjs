// Compiles each wasm module with asc, one after another: a module per concept
// (each entry is assembly/<concept>/exports.ts and the module its own linear
// memory), the probe module the tests and the boundary benchmark load, and
// the floor module of the Scene benchmark (neither in the package).
// Writes build/<name>.wasm with asc's raw bindings (build/<name>.js, .d.ts),
// and build/<name>.wasm.gz, the gzipped bytes the package embeds (about 40%
// of the module's size; init() unpacks them); with --debug,
// build/<name>.debug.wasm with assertions and a source map.
// Settings common to all modules are in asconfig.json.
import asc from 'assemblyscript/asc';
import { readFileSync, writeFileSync } from 'node:fs';
import { constants, gzipSync } from 'node:zlib';

/** Each module's entry, then any asc options of its own. */
const modules = {
  scene: ['assembly/scene/exports.ts'],
  quadtree: ['assembly/quadtree/exports.ts'],
  graph: ['assembly/graph/exports.ts'],
  gridmap: ['assembly/gridmap/exports.ts'],
  probe: ['assembly/probe.ts'],
  floor: ['assembly/floor.ts', '--runtime', 'stub'],
};

const debug = process.argv.includes('--debug');
for (const [name, [entry, ...options]] of Object.entries(modules)) {
  const outFile = `build/${name}${debug ? '.debug' : ''}.wasm`;
  const { error, stderr } = await asc.main([entry, ...options, '--target', debug ? 'debug' : 'release', '--outFile', outFile]);
  if (error !== null) {
    process.stderr.write(stderr.toString());
    throw new Error(`asc failed on ${entry}: ${error.message}`);
  }
  if (!debug) writeFileSync(`${outFile}.gz`, gzipSync(readFileSync(outFile), { level: constants.Z_BEST_COMPRESSION }));
}
