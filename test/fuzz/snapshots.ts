// Snapshot mutation for npm run fuzz: a small random Scene, QuadTree or Graph
// is written with toBuffer, its bytes are mutated (bytes overwritten, cut
// short, lengthened), and half the time sealed again so the checksum agrees
// and the decoder has to judge the contents. Both backends must then answer
// alike: the same SpatialError (INVALID_SNAPSHOT, or LIMIT_EXCEEDED for a
// count past a limit), or objects that write the very same bytes again.
import fc from 'fast-check';
import { expect } from 'vitest';
import { Graph, QuadTree, Scene, SpatialError } from '../../src/index.js';
import { sealSnapshot } from '../../src/core/snapshot-bytes.js';

type Kind = 'scene' | 'quadtree' | 'graph';

/** A small structure of each kind, from a few numbers, written on the js backend. */
function written(kind: Kind, values: number[]): Uint8Array {
  if (kind === 'scene') {
    const scene = new Scene({ backend: 'js', dimensions: values[0] % 2 === 0 ? 2 : 3, index: values[0] % 3 === 0 ? 'grid' : 'lists' });
    values.forEach((v, k) => {
      const range = v % 3 === 0 ? null : v % 3 === 1 ? (v % 4) / 2 : { radius: (v % 4) / 2 };
      if (scene.dimensions === 3) scene.add3(k, v % 17, (v >> 3) % 13, v % 5, range);
      else scene.add(k, v % 17, (v >> 3) % 13, range, { margin: v % 2 });
    });
    return scene.toBuffer();
  }
  if (kind === 'quadtree') {
    const tree = new QuadTree({ backend: 'js', bounds: { minX: 0, minY: 0, maxX: 64, maxY: 64 }, capacity: 1 + (values[0] % 4) });
    values.forEach((v, k) => tree.insert(k, v % 60, (v >> 2) % 60, (v % 60) + (v % 5), ((v >> 2) % 60) + (v % 3)));
    return tree.toBuffer();
  }
  const graph = new Graph({ backend: 'js', directed: values[0] % 2 === 0 });
  values.forEach((v, k) => graph.addEdge(v % 7, k % 5 === 0 ? `v${v % 3}` : (v >> 3) % 7, (v % 9) - 1));
  return graph.toBuffer();
}

/** What reading bytes gives on a backend: the error code, or the bytes the restored object writes. */
function read(kind: Kind, bytes: Uint8Array, backend: 'wasm' | 'js'): string | Uint8Array {
  try {
    const restored = kind === 'scene' ? Scene.fromBuffer(bytes, { backend }) : kind === 'quadtree' ? QuadTree.fromBuffer(bytes, { backend }) : Graph.fromBuffer(bytes, { backend });
    const again = restored.toBuffer();
    restored.dispose();
    return again;
  } catch (error) {
    if (!(error instanceof SpatialError)) throw error;
    return error.code;
  }
}

const edit = fc.record({
  at: fc.nat(),
  bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  how: fc.constantFrom('overwrite', 'cut', 'lengthen'),
});

/** The property: every mutation of every kind reads alike on both backends. */
export function mutatedSnapshots(count: (operations: number) => void) {
  return fc.property(fc.constantFrom<Kind>('scene', 'quadtree', 'graph'), fc.array(fc.nat(1000), { minLength: 1, maxLength: 12 }), fc.array(edit, { minLength: 1, maxLength: 4 }), fc.boolean(), (kind, values, edits, seal) => {
    let bytes = written(kind, values);
    for (const e of edits) {
      const at = e.at % (bytes.length + 1);
      if (e.how === 'cut') bytes = bytes.slice(0, at);
      else if (e.how === 'lengthen') bytes = Uint8Array.from([...bytes.subarray(0, at), ...e.bytes, ...bytes.subarray(at)]);
      else for (let k = 0; k < e.bytes.length && at + k < bytes.length; k++) bytes[at + k] = e.bytes[k];
    }
    if (seal && bytes.length >= 16) bytes = sealSnapshot(bytes.slice());
    count(1);
    const [wasm, js] = [read(kind, bytes, 'wasm'), read(kind, bytes, 'js')];
    expect(js).toEqual(wasm);
    if (typeof wasm === 'string') expect(['INVALID_SNAPSHOT', 'LIMIT_EXCEEDED']).toContain(wasm);
  });
}
