// Every options object of every public constructor and method: an unknown key
// is rejected with INVALID_ARGUMENT naming it and the valid key it most likely
// meant, anything but a plain object or undefined is rejected, and the valid
// keys are accepted. (That a rejected call leaves its object unchanged is
// checked with the other bad input of each class.)
import { beforeAll, describe, expect, it } from 'vitest';
import { Graph, GridMap, init, QuadTree, Scene, type Backend } from '../../src/index.js';
import { Interest } from '../../src/colyseus/interest/index.js';
import { errorOf } from '../support/codes.js';

beforeAll(() => init());

const bounds = { minX: 0, minY: 0, maxX: 10, maxY: 10 };
const MAP = 'type octile\nheight 2\nwidth 2\nmap\n..\n..\n';

type Options = Record<string, unknown> | undefined;

/** Each options bag: a call that hands it over, the valid options every call starts from, and a valid extra set. */
function bags(backend: Backend): Array<{ where: string; call: (options: unknown) => unknown; valid: Options }> {
  const graph = new Graph({ backend });
  graph.addEdge(0, 1, 1);
  const grid = new GridMap(3, 3, { backend });
  const flat = new Scene({ backend });
  const solid = new Scene({ backend, dimensions: 3 });
  const ranged = new Scene({ backend });
  ranged.add(0, 0, 0, 1);
  let fresh = 0;
  return [
    { where: 'add', call: (o) => flat.add(fresh++, 0, 0, 1, o as never), valid: { layer: 2, sees: 3, margin: 1 } },
    { where: 'add3', call: (o) => solid.add3(fresh++, 0, 0, 0, { radius: 1 }, o as never), valid: { layer: -1, sees: 0xffffffff, margin: 0.5 } },
    { where: 'setRange', call: (o) => ranged.setRange(0, 2, o as never), valid: { margin: 2 } },
    { where: 'Scene', call: (o) => new Scene(o as never), valid: { backend, dimensions: 2, defaultRange: 3, index: 'lists', cellSize: 4, events: 'net', moveEvents: false } },
    { where: 'QuadTree', call: (o) => new QuadTree(o as never), valid: { bounds, backend, capacity: 4, maxDepth: 6, mode: 'split', depth: 3 } },
    { where: 'Graph', call: (o) => new Graph(o as never), valid: { backend, directed: false } },
    { where: 'Graph.fromEdges', call: (o) => Graph.fromEdges([0], [1], [1], o as never), valid: { backend, vertexCount: 2, x: [0, 1], y: [0, 0] } },
    { where: 'Graph.path', call: (o) => graph.path(0, 1, o as never), valid: { algorithm: 'dijkstra', heuristic: 'zero' } },
    { where: 'GridMap', call: (o) => new GridMap(2, 2, o as never), valid: { backend } },
    { where: 'GridMap.fromMovingAI', call: (o) => GridMap.fromMovingAI(MAP, o as never), valid: { backend } },
    { where: 'GridMap.fromArray', call: (o) => GridMap.fromArray(2, 2, [0, 0, 0, 1], o as never), valid: { backend, walkable: (v: number) => v !== 1, costs: [1, 2, 1, 1] } },
    { where: 'GridMap.findPath', call: (o) => grid.findPath(0, 0, 2, 2, o as never), valid: { diagonal: 'always', algorithm: 'jps', maxExpansions: 100, fractional: 'floor', smooth: true } },
    { where: 'QuadTree.fromBuffer', call: (o) => QuadTree.fromBuffer(new QuadTree({ bounds, backend }).toBuffer(), o as never), valid: { backend } },
    { where: 'QuadTree.querySegment', call: (o) => new QuadTree({ bounds, backend }).querySegment(0, 0, 1, 1, o as never), valid: { first: true } },
    { where: 'Scene.fromBuffer', call: (o) => Scene.fromBuffer(new Scene({ backend }).toBuffer(), o as never), valid: { backend } },
    { where: 'Graph.fromBuffer', call: (o) => Graph.fromBuffer(graph.toBuffer(), o as never), valid: { backend } },
    { where: 'Scene.nearest', call: (o) => new Scene({ backend }).nearest(0, 0, 1, o as never), valid: { maxDistance: 3, layer: 1 } },
    { where: 'Scene.nearest3', call: (o) => new Scene({ backend, dimensions: 3 }).nearest3(0, 0, 0, 1, o as never), valid: { maxDistance: 3, layer: 1 } },
    { where: 'Interest', call: (o) => new Interest(new Scene({ backend }), o as never), valid: { seeSelf: false, onNpcSight: () => {} } },
  ];
}

// [where, mistaken key, the key the message should suggest]
const MISTAKES: Array<[string, string, string]> = [
  ['Scene', 'viewRange', 'defaultRange'],
  ['Scene', 'range', 'defaultRange'],
  ['Scene', 'dimension', 'dimensions'],
  ['add', 'layers', 'layer'],
  ['add3', 'see', 'sees'],
  ['setRange', 'margins', 'margin'],
  ['Scene', 'moveEvent', 'moveEvents'],
  ['QuadTree', 'maxObjects', 'capacity'],
  ['QuadTree', 'maxLevels', 'maxDepth'],
  ['QuadTree', 'capcity', 'capacity'],
  ['Graph', 'Backend', 'backend'],
  ['Graph.fromEdges', 'vertexcont', 'vertexCount'],
  ['Graph.fromEdges', 'xs', 'x'],
  ['Graph.path', 'algo', 'algorithm'],
  ['GridMap', 'backed', 'backend'],
  ['GridMap.fromMovingAI', 'backnd', 'backend'],
  ['GridMap.findPath', 'allowDiagonal', 'diagonal'],
  ['GridMap.findPath', 'algoritm', 'algorithm'],
  ['GridMap.findPath', 'smoothen', 'smooth'],
  ['GridMap.fromArray', 'cost', 'costs'],
  ['Interest', 'seeSelve', 'seeSelf'],
  ['QuadTree.querySegment', 'firstOnly', 'first'],
  ['Graph', 'undirected', 'directed'],
  ['Scene.nearest', 'maxDist', 'maxDistance'],
  ['Scene.nearest3', 'layers', 'layer'],
];

describe.each(['wasm', 'js'] as const)('options objects (%s backend)', (backend) => {
  it('accept their valid keys, undefined, and objects without a prototype', () => {
    for (const { call, valid } of bags(backend)) {
      expect(() => call(valid)).not.toThrow();
      expect(() => call(Object.assign(Object.create(null) as object, valid))).not.toThrow();
    }
    for (const { where, call } of bags(backend)) {
      if (where !== 'QuadTree') expect(() => call(undefined)).not.toThrow();
    }
  });

  it.each(MISTAKES)('%s rejects %s, suggesting %s', (where, key, meant) => {
    const bag = bags(backend).find((b) => b.where === where)!;
    const error = errorOf(() => bag.call({ ...bag.valid, [key]: 1 }));
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain(`${where}: unknown option '${key}' (did you mean '${meant}'?)`);
  });

  it('reject an unknown key even when its value is undefined', () => {
    for (const { where, call, valid } of bags(backend)) {
      const error = errorOf(() => call({ ...valid, extra: undefined }));
      expect(error.code).toBe('INVALID_ARGUMENT');
      expect(error.message).toContain(`${where}: unknown option 'extra'`);
    }
  });

  it('reject options that are not plain objects', () => {
    class Settings {
      backend = backend;
    }
    const notPlain: unknown[] = [null, [], 5, 'js', true, new Map([['backend', backend]]), new Settings(), () => ({})];
    for (const { where, call } of bags(backend)) {
      for (const options of notPlain) {
        const error = errorOf(() => call(options));
        expect(error.code, `${where} with ${String(options)}`).toBe('INVALID_ARGUMENT');
      }
    }
  });
});
