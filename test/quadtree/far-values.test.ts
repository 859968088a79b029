// QuadTree at the far ends of the number line, both modes, both backends:
// items, bounds and query points at ±MAX_VALUE and its neighbours, ±1e300,
// subnormals and -0, capacity up to 2^23 and maxDepth up to 32, against the
// brute-force oracle. Every call runs in a child process
// (test/support/child.ts), so a call that never returns fails the test
// instead of stalling the run; every tree is restored from its snapshot on
// the other backend there too.
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { runs } from '../support/sweep.js';
import { dynamicCaseArb, expectDynamicAnswers, runDynamicInChild } from './far-dynamic.js';

describe('QuadTree at the far ends of the number line', () => {
  it('answers every call as brute force does, on both backends, restored or built, and never hangs', () => {
    const cases = fc.sample(dynamicCaseArb, runs(400));
    expectDynamicAnswers(cases, runDynamicInChild(cases));
  });
});
