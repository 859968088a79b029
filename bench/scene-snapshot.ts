// Scene snapshots: a 100,000-entity open world (10,000², range 50) written
// to bytes and restored (the lists index too in full runs), against what a server writes
// without them: its entity list as JSON, parsed back and added in one
// addMany, its events drained. Every restored scene is checked to answer
// queries as the original before timing.
import { init, Scene, type SceneIndex } from '../src/index.js';
import type { Contender, Suite } from './harness.js';
import { mulberry32 } from './random.js';

const WORLD = 10_000;
const RANGE = 50;

export const sceneSnapshotSuite: Suite = {
  name: 'scene-snapshot',
  title: 'Scene snapshots against JSON and a rebuild',
  async run(context) {
    await init();
    const n = context.quick ? 5_000 : 100_000;
    const world = WORLD * Math.sqrt(n / 100_000);
    const random = mulberry32(21);
    const ids = Int32Array.from({ length: n }, (_, i) => i);
    const xs = Float64Array.from({ length: n }, () => random() * world);
    const ys = Float64Array.from({ length: n }, () => random() * world);
    const probes = [0, 1, 2, n >> 1, n - 1];
    const answers = (scene: Scene): string => probes.map((id) => scene.query(id).join()).join(';');
    const contenders: Contender[] = [];
    const originals: Scene[] = [];
    for (const index of (context.full ? ['grid', 'lists'] : ['grid']) as SceneIndex[]) {
      const scene = new Scene({ index, defaultRange: RANGE });
      scene.addMany(ids, xs, ys);
      scene.drainArray();
      originals.push(scene);
      const expected = answers(scene);
      const viaBytes = (): Scene => Scene.fromBuffer(scene.toBuffer());
      const viaJson = (): Scene => {
        const list = JSON.parse(JSON.stringify({ ids: Array.from(ids), xs: Array.from(xs), ys: Array.from(ys) })) as { ids: number[]; xs: number[]; ys: number[] };
        const copy = new Scene({ index, defaultRange: RANGE });
        copy.addMany(list.ids, list.xs, list.ys);
        copy.drainArray();
        return copy;
      };
      for (const [name, restore] of [['toBuffer', viaBytes], ['JSON', viaJson]] as const) {
        const copy = restore();
        if (answers(copy) !== expected) throw new Error(`${name} (${index}): the restored scene answers differently`);
        copy.dispose();
      }
      contenders.push(
        { name: `spatialkit toBuffer + fromBuffer (${index})`, run: () => viaBytes().dispose() },
        { name: `entity list as JSON + addMany + drain (${index})`, kind: 'hand-written', run: () => viaJson().dispose() },
      );
    }
    context.note(`${n.toLocaleString('en-US')} entities, range ${RANGE}; every restored scene answers ${probes.length} queries as the original`);
    context.bench(`snapshot round trip: ${n.toLocaleString('en-US')} entities`, contenders, {
      opName: 'round trip',
      minSamples: 3,
      headline: `Scene: snapshot round trip, ${n.toLocaleString('en-US')} entities (grid index)`,
    });
    for (const scene of originals) scene.dispose();
  },
};
