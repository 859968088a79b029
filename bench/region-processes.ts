// The multi-process case of bench `regions`: the same walkers on one region
// in one process, then on 2 × 2 regions in four processes, each a RegionPeer
// on Redis (a redis-server started here, on 127.0.0.1, with no
// persistence). Every process measures its own ticks (region-process.ts);
// this file starts them, collects their lines, and stops everything.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '../scripts/esbuild-options.mjs';
import type { RegionProcessResult, RegionProcessSettings } from './region-process.js';
import { startRedisServer } from './redis-server.js';

const BUNDLE = resolve('build/bench-region-process.mjs');

/** True when a redis-server can be started. */
export function hasRedis(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** Resolves with everything child printed once it exits with 0. */
function outputOf(child: ChildProcess, name: string): Promise<string> {
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((done, fail) => child.once('exit', (code) => (code === 0 ? done(output) : fail(new Error(`${name} exited with ${String(code)}:\n${output}`)))));
}

/** Runs the walkers on columns × rows regions, one process each; the result of every region. */
async function runLayout(redisPort: number, columns: number, rows: number, walkers: number, ticks: number, children: ChildProcess[]): Promise<RegionProcessResult[]> {
  const prefix = `bench-${columns}x${rows}-${process.pid}`;
  const runs = Array.from({ length: columns * rows }, (_, region) => {
    const settings: RegionProcessSettings = { redisPort, region, columns, rows, walkers, ticks, prefix };
    const child = spawn(process.execPath, [BUNDLE, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return outputOf(child, `region ${region}`);
  });
  const lines = await Promise.all(runs);
  return lines.map((text) => JSON.parse(text.trim().split('\n').pop()!) as RegionProcessResult);
}

/** One region in one process against 2 × 2 regions in four, over one redis-server. */
export async function runRegionProcesses(walkers: number, ticks: number): Promise<{ one: RegionProcessResult; four: RegionProcessResult[] }> {
  await build({ ...esbuildOptions, entryPoints: ['bench/region-process.ts'], outfile: BUNDLE, platform: 'node', packages: 'external', logLevel: 'error' });
  const children: ChildProcess[] = [];
  const { port, process: redis } = await startRedisServer();
  try {
    const [one] = await runLayout(port, 1, 1, walkers, ticks, children);
    const four = await runLayout(port, 2, 2, walkers, ticks, children);
    return { one, four };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    redis.kill('SIGKILL');
  }
}
