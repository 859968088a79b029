// The package embeds each wasm module gzipped; init() unpacks it with Node's
// zlib, or with DecompressionStream where there is no Node (browsers). The
// tests run in order: this file starts with nothing loaded (vitest gives each
// file a fresh module state), and each test hides what a platform lacks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { init, Scene, SpatialError } from '../../src/scene/index.js';
import { codeOf } from '../support/codes.js';

/** Runs the rest of a test as on a platform without Node's process.getBuiltinModule. */
function withoutNodeZlib(): void {
  Object.assign(process, { getBuiltinModule: undefined });
}

const { getBuiltinModule } = process;
afterEach(() => {
  vi.unstubAllGlobals();
  Object.assign(process, { getBuiltinModule });
});

describe('unpacking the embedded wasm module', () => {
  it('rejects init() with NOT_INITIALIZED, naming DecompressionStream, on a platform that has no way to unpack it; the js backend still runs', async () => {
    withoutNodeZlib();
    vi.stubGlobal('DecompressionStream', undefined);
    const failed = await init().then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toBeInstanceOf(SpatialError);
    expect((failed as SpatialError).code).toBe('NOT_INITIALIZED');
    expect((failed as SpatialError).message).toMatch(/no DecompressionStream.*backend: 'js'/);
    expect(codeOf(() => new Scene())).toBe('NOT_INITIALIZED');
    const scene = new Scene({ backend: 'js', defaultRange: 5 });
    scene.add(1, 0, 0);
    scene.add(2, 1, 1);
    expect(scene.query(1)).toEqual([2]);
  });

  it('loads with DecompressionStream where Node\'s zlib is absent, as in a browser, after a failed init()', async () => {
    withoutNodeZlib();
    await init();
    const scene = new Scene({ defaultRange: 5 });
    scene.add(1, 0, 0);
    scene.add(2, 1, 1);
    expect(scene.query(1)).toEqual([2]);
  });
});
