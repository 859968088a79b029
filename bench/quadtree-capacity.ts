// How the QuadTree's default capacity is chosen: the wasm tree at several
// split capacities on the quadtree suite's data (100,000 rects, uniform and
// clustered), timed on a build, 1,000 range queries of 1% of the world and a
// frame (move 10%, then all pairs). Ratios are to capacity 8.
import { init } from '../src/index.js';
import type { Contender, Suite, SuiteContext } from './harness.js';
import type { Rects } from './peers/quadtree-types.js';
import { clustered, frameContender, makeQueries, spatialkitIndex, uniform } from './quadtree.js';

const CAPACITIES = [4, 8, 16, 32, 64, 128];

function sweep(context: SuiteContext, label: string, data: Rects, queryCount: number): void {
  const queries = makeQueries(queryCount);
  const each = (make: (capacity: number) => Contender): Contender[] => CAPACITIES.map(make);
  const options = { baseline: 'capacity 8', minSamples: 5 };
  context.bench(`${label}: build`, each((c) => {
    const index = spatialkitIndex('wasm', c);
    return { name: `capacity ${c}`, run: () => index.build(data), teardown: () => index.dispose!() };
  }), { ...options, opsPerRun: data.n, opName: 'item' });
  context.bench(`${label}: ${queryCount} queries`, each((c) => {
    const index = spatialkitIndex('wasm', c);
    return {
      name: `capacity ${c}`,
      setup: () => index.build(data),
      run: () => {
        for (let k = 0; k < queryCount; k++) index.query!(data, queries[k * 4], queries[k * 4 + 1], queries[k * 4 + 2], queries[k * 4 + 3]);
      },
      teardown: () => index.dispose!(),
    };
  }), { ...options, opsPerRun: queryCount, opName: 'query' });
  context.bench(`${label}: frame (move 10%, all pairs)`, each((c) => frameContender(spatialkitIndex('wasm', c), `capacity ${c}`, data)), { ...options, opsPerRun: 1, opName: 'frame' });
}

export const quadtreeCapacitySuite: Suite = {
  name: 'quadtree-capacity',
  title: 'QuadTree: the split capacity behind the default',
  async run(context) {
    await init();
    const n = context.quick ? 20_000 : 100_000;
    const queryCount = context.quick ? 200 : 1_000;
    sweep(context, 'uniform', uniform(n), queryCount);
    if (context.full) sweep(context, 'clustered', clustered(n), queryCount);
  },
};
