// Running out of memory for real, without gigabytes: each structure is
// filled in a child process whose wasm memory may not pass 128 MiB
// (node --wasm-max-mem-pages), until a call fails. The call must fail with
// OUT_OF_MEMORY, leave the object answering as it did before the call, and
// let it go on. Runs the built bundle.
import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

const PAGES = (128 * 2 ** 20) / 65536;

it.each(['scene-lists', 'scene-grid', 'quadtree', 'graph', 'gridmap'])('%s: the call that runs out of memory throws OUT_OF_MEMORY and changes nothing', (kind) => {
  const out = execFileSync(process.execPath, [`--wasm-max-mem-pages=${PAGES}`, 'test/fixtures/out-of-memory.mjs', kind], { encoding: 'utf8' });
  expect(JSON.parse(out)).toEqual({ code: 'OUT_OF_MEMORY', same: true, goesOn: true });
}, 300_000);
