import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { init, SpatialError } from '../../src/index.js';
import { isInitialized, resolveBackend, wasmCore } from '../../src/core/wasm.js';

describe('init', () => {
  it('refuses wasm access before init resolves, with NOT_INITIALIZED', () => {
    expect(isInitialized()).toBe(false);
    expect(() => wasmCore()).toThrowError(SpatialError);
    try {
      wasmCore();
    } catch (error) {
      expect((error as SpatialError).code).toBe('NOT_INITIALIZED');
    }
  });

  it('shares one instantiation between concurrent and repeated calls', async () => {
    const first = init();
    const second = init();
    expect(second).toBe(first);
    await Promise.all([first, second]);
    const core = wasmCore();
    await init();
    expect(wasmCore()).toBe(core);
    expect(core.exports.probeNoop(41)).toBe(42);
  });

  it('rejects an unknown backend name', () => {
    expect(resolveBackend(undefined)).toBe('wasm');
    expect(resolveBackend('js')).toBe('js');
    expect(() => resolveBackend('gpu' as never)).toThrowError(/INVALID_ARGUMENT/);
  });

  it('loads from the built bundle in plain Node with no bundler', () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "import {init} from './dist/index.js'; await init(); await init(); console.log('ok')"],
      { encoding: 'utf8' },
    );
    expect(out.trim()).toBe('ok');
  });
});
