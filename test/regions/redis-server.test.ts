// The multi-process region tests start their own redis-server: without one on
// the PATH they fail at once and say what to install.
import { expect, it } from 'vitest';
import { MISSING, startRedisServer } from '../../bench/redis-server.js';

it('fails at once, naming redis-server and how to install it, when it is not on the PATH', async () => {
  const path = process.env.PATH;
  process.env.PATH = '/nonexistent';
  try {
    const started = Date.now();
    await expect(startRedisServer()).rejects.toThrow(MISSING);
    expect(Date.now() - started).toBeLessThan(5_000);
  } finally {
    process.env.PATH = path;
  }
});
