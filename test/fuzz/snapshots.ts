// Snapshot mutation for npm run fuzz: a small random Scene, QuadTree, Graph
// or StaticQuadTree (rects or points) is written with toBuffer, its bytes are
// mutated (bytes overwritten, cut short, lengthened, a double set to a value
// at the far ends of the number line), and half the time sealed again so the
// checksum agrees and the decoder has to judge the contents. Both backends
// must then answer alike: the same SpatialError (INVALID_SNAPSHOT, or
// LIMIT_EXCEEDED for a count past a limit), or objects that write the very
// same bytes again; a restored StaticQuadTree answers as brute force over
// the items its bytes hold.
import fc from 'fast-check';
import { expect } from 'vitest';
import { Graph, QuadTree, Scene, SpatialError, StaticQuadTree } from '../../src/index.js';
import { sealSnapshot } from '../../src/core/snapshot-bytes.js';
import { FAR, itemsOf, sealed as sealedStatic } from '../quadtree/far-static.js';
import { RectOracle } from '../quadtree/rect-oracle.js';

type Kind = 'scene' | 'quadtree' | 'graph' | 'static' | 'points';
const KINDS: Kind[] = ['scene', 'quadtree', 'graph', 'static', 'points'];
/** Values a double in a snapshot is set to: the far ends, and what no structure holds. */
const FAR_VALUES = [...FAR, NaN, Infinity, -Infinity];
/** Points the restored StaticQuadTrees are searched from. */
const PROBES: Array<[number, number]> = [[0, 0], [30, 20], [1e300, -1e300]];

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
  if (kind === 'static' || kind === 'points') {
    const rects = values.flatMap((v) => (kind === 'points' ? [v % 60, (v >> 2) % 60, v % 60, (v >> 2) % 60] : [v % 60, (v >> 2) % 60, (v % 60) + (v % 5), ((v >> 2) % 60) + (v % 3)]));
    return StaticQuadTree.build(values.map((_, k) => k), rects, { backend: 'js' }).toBuffer();
  }
  const graph = new Graph({ backend: 'js', directed: values[0] % 2 === 0 });
  values.forEach((v, k) => graph.addEdge(v % 7, k % 5 === 0 ? `v${v % 3}` : (v >> 3) % 7, (v % 9) - 1));
  return graph.toBuffer();
}

/** What reading bytes gives on a backend: the error code, or the bytes the restored object writes (and a static tree's nearest answers). */
function read(kind: Kind, bytes: Uint8Array, backend: 'wasm' | 'js'): string | { again: Uint8Array; nearest?: number[][] } {
  try {
    if (kind === 'static' || kind === 'points') {
      const tree = StaticQuadTree.fromBuffer(bytes, { backend });
      const answers = { again: tree.toBuffer(), nearest: PROBES.map(([x, y]) => tree.nearest(x, y, 4)) };
      tree.dispose();
      return answers;
    }
    const restored = kind === 'scene' ? Scene.fromBuffer(bytes, { backend }) : kind === 'quadtree' ? QuadTree.fromBuffer(bytes, { backend }) : Graph.fromBuffer(bytes, { backend });
    const again = restored.toBuffer();
    restored.dispose();
    return { again };
  } catch (error) {
    if (!(error instanceof SpatialError)) throw error;
    return error.code;
  }
}

const edit = fc.record({
  at: fc.nat(),
  bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
  how: fc.constantFrom('overwrite', 'cut', 'lengthen', 'far'),
  far: fc.constantFrom(...FAR_VALUES),
});

/** The property: every mutation of every kind reads alike on both backends. */
export function mutatedSnapshots(count: (operations: number) => void) {
  const lengths = { minLength: 1, maxLength: 12 };
  return fc.property(fc.constantFrom(...KINDS), fc.array(fc.nat(1000), { ...lengths, maxLength: 40 }), fc.array(edit, { minLength: 1, maxLength: 4 }), fc.boolean(), (kind, values, edits, seal) => {
    const isStatic = kind === 'static' || kind === 'points';
    let bytes = written(kind, isStatic ? values : values.slice(0, lengths.maxLength));
    for (const e of edits) {
      const at = e.at % (bytes.length + 1);
      if (e.how === 'cut') bytes = bytes.slice(0, at);
      else if (e.how === 'lengthen') bytes = Uint8Array.from([...bytes.subarray(0, at), ...e.bytes, ...bytes.subarray(at)]);
      else if (e.how === 'overwrite') for (let k = 0; k < e.bytes.length && at + k < bytes.length; k++) bytes[at + k] = e.bytes[k];
      // A far value where a static block keeps its doubles (8-aligned), anywhere in the others; a dynamic
      // QuadTree's own far ends (rects near MAX_VALUE) are left to its tests.
      else if (kind !== 'quadtree' || Math.abs(e.far) <= 1e300 || !Number.isFinite(e.far)) writeDouble(bytes, isStatic ? at - (at % 8) : at, e.far);
    }
    if (seal && bytes.length >= 16) bytes = isStatic ? (bytes.length % 4 === 0 ? sealedStatic(bytes.slice()) : bytes) : sealSnapshot(bytes.slice());
    count(1);
    const [wasm, js] = [read(kind, bytes, 'wasm'), read(kind, bytes, 'js')];
    expect(js).toEqual(wasm);
    if (typeof wasm === 'string') expect(['INVALID_SNAPSHOT', 'LIMIT_EXCEEDED']).toContain(wasm);
    else if (isStatic) expect(wasm.nearest).toEqual(oracleNearest(bytes));
  });
}

/** Sets the double at byte `at` (little-endian), where eight bytes remain. */
function writeDouble(bytes: Uint8Array, at: number, value: number): void {
  if (at + 8 <= bytes.length) new DataView(bytes.buffer, bytes.byteOffset, bytes.length).setFloat64(at, value, true);
}

/** Brute force's 4 nearest from each probe, over the items a static block holds. */
function oracleNearest(bytes: Uint8Array): number[][] {
  const oracle = new RectOracle();
  for (const [id, rect] of itemsOf(bytes)) oracle.insert(id, rect);
  return PROBES.map(([x, y]) => oracle.nearest(x, y, 4));
}
