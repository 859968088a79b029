// Before init(): the js backend works, the wasm backend refuses clearly.
import { describe, expect, it } from 'vitest';
import { Graph } from '../../src/index.js';
import { codeOf } from '../support/codes.js';

describe('Graph before init()', () => {
  it('throws NOT_INITIALIZED for the wasm backend, in the constructor and in fromEdges', () => {
    expect(codeOf(() => new Graph())).toBe('NOT_INITIALIZED');
    expect(codeOf(() => Graph.fromEdges(Int32Array.of(0), Int32Array.of(1), Float64Array.of(1)))).toBe('NOT_INITIALIZED');
  });

  it('needs no init() for the js backend', () => {
    const g = Graph.fromEdges(Int32Array.of(0, 1), Int32Array.of(1, 2), Float64Array.of(1, 2), { backend: 'js' });
    expect(g.path(0, 2)).toEqual({ path: [0, 1, 2], cost: 3 });
  });
});
