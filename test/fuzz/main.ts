// Long random runs on demand: `npm run fuzz [-- operations [seed]]` (which
// builds, then runs this file through scripts/run-ts.mjs) drives
// the differential tests (the wasm backend, the js backend and the
// brute-force oracles of test/, with the same random operations) and the
// snapshot mutations far longer than `npm test` does, then reports how many
// operations ran and how many runs disagreed. Not part of `npm test`; CI runs
// a short one. Each workload gets its share of the operations, in batches
// of random runs; a run that disagrees is counted and its seed and path are
// printed, so fast-check can replay it (the far-end QuadTree and
// StaticQuadTree batches are fc.sample draws from the printed seed). Last,
// clients send region rooms random messages (room.ts).
import fc from 'fast-check';
import { Graph, init, type SceneIndex } from '../../src/index.js';
import { DEFAULT_LIMITS, LIMITS } from '../../src/core/internals.js';
import { run as runScene, opArb as sceneOp, type Op as SceneOp } from '../scene/ops.js';
import { runCapped, type CappedOp } from '../scene/capped.js';
import { config as treeConfig, op as treeOp, run as runTree } from '../quadtree/ops.js';
import { apply as applyGraph, checkAgainstOracle, opArb as graphOp } from '../graph/checks.js';
import { GraphModel } from '../graph/model.js';
import { checkScenario } from '../gridmap/check.js';
import { scenario } from '../gridmap/scenarios.js';
import { fuzzRooms } from './room.js';
import { mutatedSnapshots } from './snapshots.js';
import { caseArb, expectOracleAnswers, searchInChild } from '../quadtree/far-static.js';
import { dynamicCaseArb, expectDynamicAnswers, runDynamicInChild } from '../quadtree/far-dynamic.js';

/** What a batch of random runs of a workload came to. */
interface Outcome {
  failed: boolean;
  numRuns: number;
  seed: number;
  counterexamplePath: string | null;
  errorInstance: unknown;
}

/** A random workload: its share of the operations, and its batches of runs, each adding the operations it ran to `count`. */
interface Workload {
  name: string;
  share: number;
  batches(count: (operations: number) => void): (seed: number, runs: number) => Outcome;
}

/** The batches of a property: fast-check runs of it from a seed, stopping at the first failure unshrunk. */
function checked<Ts extends [unknown, ...unknown[]]>(property: (count: (operations: number) => void) => fc.IProperty<Ts>): Workload['batches'] {
  return (count) => {
    const made = property(count);
    return (seed, runs) => fc.check(made, { numRuns: runs, seed, endOnFailure: true });
  };
}

/**
 * The batches of a workload run in a child process: one child a batch, so a
 * call that never returns fails the batch instead of hanging the run. Each
 * batch draws its cases from the seed (replayed by fc.sample with it),
 * counts `size` operations per case and checks them all with `check`.
 */
function childBatches<C>(draw: (seed: number, runs: number) => C[], size: (c: C) => number, check: (cases: C[]) => void): Workload['batches'] {
  return (count) => (seed, runs) => {
    const cases = draw(seed, runs);
    count(cases.reduce((operations, c) => operations + size(c), 0));
    const outcome = { numRuns: cases.length, seed, counterexamplePath: null };
    try {
      check(cases);
      return { ...outcome, failed: false, errorInstance: null };
    } catch (error) {
      return { ...outcome, failed: true, errorInstance: error };
    }
  };
}

const index = fc.constantFrom<SceneIndex>('lists', 'grid');

/** Scene operations for a 2-D or 3-D scene, `equal` ranges or mixed ones, with the drains of `drains` in every 13. */
const sceneRun = (length: number, drains: boolean) =>
  fc.tuple(fc.constantFrom<2 | 3>(2, 3), fc.boolean()).chain(([d, equal]) =>
    fc.tuple(
      fc.constant(d),
      index,
      fc.array(drains ? fc.oneof({ weight: 12, arbitrary: sceneOp(d, equal) as fc.Arbitrary<CappedOp> }, { weight: 1, arbitrary: fc.constant({ kind: 'drain' as const }) }) : sceneOp(d, equal), { minLength: 1, maxLength: length }),
    ),
  );

const WORKLOADS: Workload[] = [
  {
    name: 'Scene: wasm, js and oracle, every drain and view compared',
    share: 0.3,
    batches: checked((count) =>
      fc.property(sceneRun(120, false), ([d, i, ops]) => {
        count(ops.length);
        runScene(d, ops as SceneOp[], 'abs', i);
      }),
    ),
  },
  {
    name: 'Scene at its limits: small maxPendingEvents, lowered entity limit',
    share: 0.15,
    batches: checked((count) =>
      fc.property(sceneRun(80, true), fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 30 }), ([d, i, ops], maxPending, maxEntities) => {
        count(ops.length);
        LIMITS[i === 'grid' ? 'sceneGridEntities' : 'sceneListsEntities'] = maxEntities;
        try {
          runCapped(d, ops, i, maxPending, maxEntities);
        } finally {
          Object.assign(LIMITS, DEFAULT_LIMITS);
        }
      }),
    ),
  },
  {
    name: 'QuadTree: wasm, js and oracle, every answer compared',
    share: 0.2,
    batches: checked((count) =>
      fc.property(treeConfig, fc.array(treeOp, { maxLength: 120, size: 'max' }), (cfg, ops) => {
        count(ops.length);
        runTree(cfg, ops);
      }),
    ),
  },
  {
    name: 'Graph: wasm, js and Bellman-Ford, every search compared',
    share: 0.15,
    batches: checked((count) =>
      fc.property(fc.boolean(), fc.array(graphOp(fc.integer({ min: -3, max: 9 })), { maxLength: 60 }), fc.array(graphOp(fc.integer({ min: 0, max: 9 })), { maxLength: 60 }), (signed, withNegative, positive) => {
        const ops = signed ? withNegative : positive;
        count(ops.length);
        const model = new GraphModel();
        const graphs = [new Graph({ backend: 'wasm' }), new Graph({ backend: 'js' })];
        try {
          for (const op of ops) applyGraph(op, model, graphs);
          checkAgainstOracle(model, graphs);
        } finally {
          for (const g of graphs) g.dispose();
        }
      }),
    ),
  },
  {
    name: 'GridMap: wasm, js and Dijkstra, every rule and algorithm',
    share: 0.1,
    batches: checked((count) =>
      fc.property(fc.boolean().chain((uniform) => scenario(uniform)), (s) => {
        count(s.ops.length);
        checkScenario(s);
      }),
    ),
  },
  {
    name: 'StaticQuadTree at the far ends (MAX_VALUE, 1e300, subnormals, -0): both layouts, wasm, js and oracle, in a child process',
    share: 0.05,
    batches: childBatches(
      (seed, runs) => [false, true].flatMap((points) => fc.sample(caseArb(points), { seed, numRuns: runs })),
      (c) => c.items.length + c.queries.length,
      (cases) => expectOracleAnswers(cases, searchInChild(cases, 30_000)),
    ),
  },
  {
    name: 'QuadTree at the far ends (MAX_VALUE, 1e300, subnormals, -0, capacity 2^23, maxDepth 32): both modes, wasm, js and oracle, snapshots restored, in a child process',
    share: 0.05,
    batches: childBatches(
      (seed, runs) => fc.sample(dynamicCaseArb, { seed, numRuns: runs }),
      (c) => c.ops.length + c.queries.length,
      (cases) => expectDynamicAnswers(cases, runDynamicInChild(cases, 30_000)),
    ),
  },
  {
    name: 'Snapshots: mutated bytes, both backends alike, SpatialError or a whole object',
    share: 0.1,
    batches: checked((count) => mutatedSnapshots(count)),
  },
];

/** Runs one workload until it has done `budget` operations; returns its operations, runs and failures. */
function fuzz(workload: Workload, budget: number, seed: number): { operations: number; runs: number; failures: number } {
  let operations = 0;
  let runs = 0;
  let failures = 0;
  const batch = workload.batches((n) => (operations += n));
  for (let k = 0; operations < budget; k++) {
    const result = batch((seed + k * 104729) | 0, 25);
    runs += result.numRuns;
    if (!result.failed) continue;
    failures++;
    if (failures <= 3) {
      console.log(`  disagreement: seed ${result.seed}, path "${result.counterexamplePath}"`);
      console.log(`    ${String(result.errorInstance).split('\n').slice(0, 6).join('\n    ')}`);
    }
  }
  return { operations, runs, failures };
}

const [operationsArg, seedArg] = process.argv.slice(2);
const total = operationsArg === undefined ? 1_000_000 : Number(operationsArg);
const seed = seedArg === undefined ? Date.now() | 0 : Number(seedArg);
if (!(total > 0) || !Number.isFinite(seed)) {
  console.error('usage: npm run fuzz -- [operations (default 1000000)] [seed]');
  process.exit(2);
}
await init();
console.log(`# fuzz: ${total.toLocaleString('en-US')} operations, seed ${seed}\n`);
let mismatches = 0;
let done = 0;
const started = performance.now();
for (const workload of WORKLOADS) {
  const t0 = performance.now();
  const { operations, runs, failures } = fuzz(workload, Math.ceil(total * workload.share), seed);
  done += operations;
  mismatches += failures;
  console.log(`${workload.name}: ${operations.toLocaleString('en-US')} operations in ${runs.toLocaleString('en-US')} runs, ${failures} mismatches (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
{
  // The rooms' clients send anything; a message counts as an operation.
  const t0 = performance.now();
  // A watchdog: a room fuzz that never ends is a mismatch, not a hung run.
  const limit = 120_000;
  const hung = new Promise<{ sent: number; problems: string[] }>((done) => setTimeout(() => done({ sent: 0, problems: [`the room fuzz did not end in ${limit / 1000} s`] }), limit).unref());
  const { sent, problems } = await Promise.race([fuzzRooms(seed, Math.max(300, Math.round(total / 200))), hung]);
  done += sent;
  mismatches += problems.length;
  for (const problem of problems.slice(0, 3)) console.log(`  ${problem} (seed ${seed})`);
  console.log(`Region rooms: random messages from 6 clients beside an honest one, rooms ticking, its view the Scene's: ${sent.toLocaleString('en-US')} messages, ${problems.length} mismatches (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log(`\n${done.toLocaleString('en-US')} operations, ${mismatches} mismatches in ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(mismatches === 0 ? 0 : 1);
