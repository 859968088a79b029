// Loading the wasm modules: each concept has its own, loaded by its entry's
// init() or all together by the main entry's. The tests run in order: this
// file starts with nothing loaded (vitest gives each file a fresh module state).
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { init, Graph, GridMap, QuadTree, Scene } from '../../src/index.js';
import { init as initScene } from '../../src/scene/index.js';
import { codeOf } from '../support/codes.js';

const bounds = { minX: 0, minY: 0, maxX: 10, maxY: 10 };

describe('init', () => {
  it('refuses a wasm-backed object before its module is loaded, with NOT_INITIALIZED, and the js backend needs nothing', () => {
    expect(codeOf(() => new Scene())).toBe('NOT_INITIALIZED');
    expect(() => new Scene()).toThrowError(/the scene module is not loaded/);
    expect(codeOf(() => new QuadTree({ bounds }))).toBe('NOT_INITIALIZED');
    expect(new Scene({ backend: 'js' }).size).toBe(0);
  });

  it('loads only the Scene\'s module through the scene entry', async () => {
    await initScene();
    const scene = new Scene({ defaultRange: 5 });
    scene.add(1, 0, 0);
    scene.add(2, 1, 1);
    expect(scene.query(1)).toEqual([2]);
    expect(codeOf(() => new QuadTree({ bounds }))).toBe('NOT_INITIALIZED');
    expect(codeOf(() => new Graph())).toBe('NOT_INITIALIZED');
    expect(codeOf(() => new GridMap(2, 2))).toBe('NOT_INITIALIZED');
  });

  it('loads every module through the main entry, concurrent and repeated calls sharing one load', async () => {
    const first = init();
    const second = init();
    expect(second).toBe(first);
    await Promise.all([first, second]);
    await init();
    expect(new QuadTree({ bounds }).size).toBe(0);
    expect(new Graph().vertexCount).toBe(0);
    expect(new GridMap(2, 2).findPath(0, 0, 1, 1)?.cost).toBe(Math.SQRT2);
    expect(new Scene().size).toBe(0);
  });

  it('rejects an unknown backend name', () => {
    expect(codeOf(() => new Scene({ backend: 'gpu' as never }))).toBe('INVALID_ARGUMENT');
  });

  it('loads from the built bundles in plain Node with no bundler, the main entry and a subpath', () => {
    const program = [
      "import { init } from './dist/index.js';",
      "import { init as initTree, QuadTree } from './dist/quadtree.js';",
      'await initTree(); await initTree();',
      'const tree = new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 } });',
      'await init();',
      'console.log(tree.size === 0 ? "ok" : "wrong");',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
    expect(out.trim()).toBe('ok');
  });
});
