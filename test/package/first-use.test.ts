// What a new user meets first: the error for a forgotten init(), the hover
// text of init() and the constructors, a rectangle written in another
// library's x, y, width, height habit, an object printed in a console.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { Graph, GridMap, init, QuadTree, Scene, StaticQuadTree } from '../../src/index.js';
import { errorOf } from '../support/codes.js';

const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };

const constructors: Array<[string, (backend?: 'js') => unknown]> = [
  ['new Scene()', (backend) => new Scene({ backend })],
  ['new QuadTree()', (backend) => new QuadTree({ bounds, backend })],
  ['new Graph()', (backend) => new Graph({ backend })],
  ['new GridMap()', (backend) => new GridMap(2, 2, { backend })],
  ['StaticQuadTree.build()', (backend) => StaticQuadTree.build([1], [0, 0, 1, 1], { backend })],
];

describe('before init()', () => {
  it.each(constructors)("%s throws NOT_INITIALIZED naming both ways out: await init(), or backend: 'js'", (_, make) => {
    const error = errorOf(() => make());
    expect(error.code).toBe('NOT_INITIALIZED');
    expect(error.message).toContain('await init()');
    expect(error.message).toContain("backend: 'js'");
    expect(() => make('js')).not.toThrow();
  });
});

describe('hover text in an editor (the published declarations)', () => {
  const declarations = readFileSync(resolve(__dirname, '../../dist/index.d.ts'), 'utf8');
  /** The doc comment just before the first line matching `declaration`. */
  const docBefore = (declaration: RegExp): string => {
    const at = declarations.search(declaration);
    expect(at, String(declaration)).toBeGreaterThan(0);
    const start = declarations.lastIndexOf('/**', at);
    return declarations.slice(start, declarations.indexOf('*/', start));
  };

  it.each([
    ['init()', /export declare function init\(/],
    ['new Scene()', /constructor\(options\?: SceneOptions\)/],
    ['new QuadTree()', /constructor\(options\?: QuadTreeOptions\)/],
    ['new Graph()', /constructor\(options\?: GraphOptions\)/],
    ['new GridMap()', /constructor\(width: number, height: number, options\?: GridMapOptions\)/],
    ['StaticQuadTree.build()', /static build\(ids: ArrayLike<number>, rects: ArrayLike<number>, options\?: StaticQuadTreeOptions\)/],
  ])("of %s says that backend: 'js' needs no init()", (_, declaration) => {
    const doc = docBefore(declaration);
    expect(doc).toContain('init()');
    expect(doc).toContain("`backend: 'js'`");
    expect(doc).toContain('NOT_INITIALIZED');
  });
});

describe('a rectangle in the x, y, width, height habit', () => {
  it.each(['wasm', 'js'] as const)('QuadTree.insert(1, 10, 10, 5, 5) on %s names the argument order and the corners meant, and adds nothing', async (backend) => {
    await init();
    const tree = new QuadTree({ bounds, backend });
    const error = errorOf(() => tree.insert(1, 10, 10, 5, 5));
    expect(error.code).toBe('INVALID_RECT');
    expect(error.message).toContain('minX, minY, maxX, maxY');
    expect(error.message).toContain('not by x, y, width, height');
    expect(error.message).toContain('10, 10, 15, 15');
    expect(tree.size).toBe(0);
    tree.insert(1, 10, 10, 15, 15);
    expect(tree.query(0, 0, 100, 100)).toEqual([1]);
  });
});

describe('printed in a console (the built package)', () => {
  it('shows each class by its name with a one-line summary, not its internal arrays', async () => {
    const sk = (await import(pathToFileURL(resolve(__dirname, '../../dist/index.js')).href)) as typeof import('../../src/index.js');
    await sk.init();
    const scene = new sk.Scene({ defaultRange: 5 });
    scene.add(1, 0, 0);
    scene.add(2, 3, 4);
    const tree = new sk.QuadTree({ bounds, backend: 'js' });
    tree.insert(7, 1, 1, 2, 2);
    const graph = new sk.Graph({ directed: false });
    graph.addEdge('inn', 'ford', 5);
    const grid = sk.GridMap.fromArray(3, 2, [0, 1, 0, 0, 0, 0], { backend: 'js' });
    const still = sk.StaticQuadTree.build([1, 2], [0, 0, 1, 1, 5, 5, 6, 6]);
    expect([scene, tree, graph, grid, still].map((object) => object.constructor.name)).toEqual(['Scene', 'QuadTree', 'Graph', 'GridMap', 'StaticQuadTree']);
    expect(inspect(scene)).toBe("Scene { size: 2, dimensions: 2, index: 'grid', backend: 'wasm' }");
    expect(inspect(tree)).toBe("QuadTree { size: 1, mode: 'split', capacity: 32, backend: 'js' }");
    expect(inspect(graph)).toBe("Graph { vertexCount: 2, edgeCount: 1, directed: false, backend: 'wasm' }");
    expect(inspect(grid)).toBe("GridMap { width: 3, height: 2, backend: 'js' }");
    expect(inspect(still)).toBe("StaticQuadTree { size: 2, backend: 'wasm' }");
    expect(inspect({ scene }, { breakLength: Infinity })).toBe("{ scene: Scene { size: 2, dimensions: 2, index: 'grid', backend: 'wasm' } }");
    scene.dispose();
    expect(inspect(scene)).toBe('Scene { disposed }');
  });
});
