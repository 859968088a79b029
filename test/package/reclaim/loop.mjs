// Makes many short-lived objects of one class, disposed or dropped, forcing a
// garbage collection (and letting finalizers run) every `every` objects, and
// prints the process's peak resident memory in MiB. Run with --expose-gc:
//   node --expose-gc loop.mjs <module url> <scene|gridmap|quadtree|static|graph> <dispose|drop>
const [entry, kind, how] = process.argv.slice(2);
const { init, Scene, GridMap, QuadTree, StaticQuadTree, Graph } = await import(entry);
await init();

/** 1,000 rects of side 10 scattered over 1000 x 1000, and two boxes to query them with. */
const ITEMS = {
  ids: Int32Array.from({ length: 1000 }, (_, id) => id),
  rects: Float64Array.from({ length: 4000 }, (_, k) => (((k >> 2) * (k % 2 === 0 ? 37 : 61)) % 990) + (k % 4 >= 2 ? 10 : 0)),
};
const PROBES = [0, 0, 100, 100, 500, 500, 600, 600];

/** One short-lived object of each kind, used as a server would use it for a level, a room or a request. */
const loops = {
  scene: {
    count: 20_000,
    every: 500,
    make() {
      const scene = new Scene({ defaultRange: 10 });
      for (let id = 0; id < 50; id++) scene.add(id, (id * 37) % 100, (id * 61) % 100);
      scene.drainArray();
      return scene;
    },
  },
  gridmap: {
    count: 200,
    every: 1,
    make() {
      const grid = new GridMap(512, 512);
      grid.findPath(0, 0, 511, 511);
      return grid;
    },
  },
  quadtree: {
    count: 2_000,
    every: 50,
    make() {
      const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1000, maxY: 1000 } });
      for (let id = 0; id < ITEMS.ids.length; id++) tree.insert(id, ...ITEMS.rects.subarray(4 * id, 4 * id + 4));
      tree.pairIds();
      tree.queryMany(PROBES);
      return tree;
    },
  },
  static: {
    count: 2_000,
    every: 50,
    make() {
      const tree = StaticQuadTree.build(ITEMS.ids, ITEMS.rects);
      tree.queryMany(PROBES);
      return tree;
    },
  },
  graph: {
    count: 1_000,
    every: 50,
    make() {
      const n = 1000;
      const from = Int32Array.from({ length: 4 * n }, (_, i) => i % n);
      const to = Int32Array.from({ length: 4 * n }, (_, i) => (i * 7 + 1) % n);
      const graph = Graph.fromEdges(from, to, new Float64Array(4 * n).fill(1));
      graph.path(0, n - 1);
      return graph;
    },
  },
};

const loop = loops[kind];
let peak = 0;
for (let i = 1; i <= loop.count; i++) {
  const object = loop.make();
  if (how === 'dispose') object.dispose();
  if (i % loop.every === 0) {
    globalThis.gc();
    await new Promise((resolve) => setTimeout(resolve, 0)); // finalizers run between tasks
    peak = Math.max(peak, process.memoryUsage().rss);
  }
}
process.stdout.write(String(peak / 2 ** 20));
