// The multi-process case of bench `regions`: the same walkers on one region
// in one process, then on 2 × 2 regions in four processes, each a RegionPeer
// on Redis (a redis-server started here, on 127.0.0.1, with no
// persistence). Every process measures its own ticks (region-process.ts);
// this file starts them, collects their lines, and stops everything.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { basename, resolve } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '../scripts/esbuild-options.mjs';
import type { RegionClient } from '../src/colyseus/client/index.js';
import type { RegionProcessResult, RegionProcessSettings } from './region-process.js';
import type { RoomProcessSettings } from './region-process-room.js';
import { startRedisServer } from './redis-server.js';

/** True when a redis-server can be started. */
export function hasRedis(): boolean {
  return spawnSync('redis-server', ['--version']).status === 0;
}

/** Bundles a bench script for node, its packages left to node_modules; the bundle's path. */
export async function bundled(entry: string): Promise<string> {
  const outfile = resolve(`build/bench-${basename(entry, '.ts')}.mjs`);
  await build({ ...esbuildOptions, entryPoints: [entry], outfile, platform: 'node', packages: 'external', logLevel: 'error' });
  return outfile;
}

/** Resolves with everything child printed once it exits with 0. */
function outputOf(child: ChildProcess, name: string): Promise<string> {
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((done, fail) => child.once('exit', (code) => (code === 0 ? done(output) : fail(new Error(`${name} exited with ${String(code)}:\n${output}`)))));
}

/** The SDK's Client and RegionClient for clients in Node (Colyseus 0.18's SDK reads a global WebSocket, which Node 20 lacks). */
export async function sdkClients() {
  const [{ Client }, { WebSocket: NodeWebSocket }, { RegionClient }] = await Promise.all([import('@colyseus/sdk'), import('ws'), import('../src/colyseus/client/index.js')]);
  (globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;
  return { Client, RegionClient };
}

/**
 * Starts a room process (bundle: region-process-room.ts, added to
 * children) and resolves with its port once it is up; every other line it
 * prints, whole, goes to onLine.
 */
export function startRoom(bundle: string, settings: RoomProcessSettings, children: ChildProcess[], onLine: (line: string) => void = () => {}): Promise<number> {
  const child = spawn(process.execPath, [bundle, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise<number>((done, fail) => {
    let output = '';
    let partial = '';
    child.stdout!.on('data', (c: Buffer) => {
      output += c.toString();
      const lines = (partial + c.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const up = /up on port (\d+)/.exec(line);
        if (up !== null) done(Number(up[1]));
        else onLine(line);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    child.once('exit', (code) => fail(new Error(`room ${settings.region} exited with ${String(code)}:\n${output.slice(-2000)}`)));
  });
}

/** Joins the player (its id and place in spawn) to region's room, and resolves once it is shown its first view. */
export async function joinShown(player: RegionClient, roomName: string, region: number, spawn: { id: number; x: number; y: number }): Promise<void> {
  await player.join(roomName, region, spawn);
  await new Promise<void>((done) => {
    const off = player.onView(() => {
      off();
      done();
    });
  });
}

/** Runs the walkers on columns × rows regions, one process each; the result of every region. */
async function runLayout(bundle: string, redisPort: number, columns: number, rows: number, walkers: number, ticks: number, warmup: number, children: ChildProcess[]): Promise<RegionProcessResult[]> {
  const prefix = `bench-${columns}x${rows}-${process.pid}`;
  const runs = Array.from({ length: columns * rows }, (_, region) => {
    const settings: RegionProcessSettings = { redisPort, region, columns, rows, walkers, ticks, warmup, prefix };
    const child = spawn(process.execPath, [bundle, JSON.stringify(settings)], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    return outputOf(child, `region ${region}`);
  });
  const lines = await Promise.all(runs);
  return lines.map((text) => JSON.parse(text.trim().split('\n').pop()!) as RegionProcessResult);
}

/** One region in one process against 2 × 2 regions in four, over one redis-server: `ticks` measured after `warmup`. */
export async function runRegionProcesses(walkers: number, ticks: number, warmup: number): Promise<{ one: RegionProcessResult; four: RegionProcessResult[] }> {
  const bundle = await bundled('bench/region-process.ts');
  const children: ChildProcess[] = [];
  const { port, process: redis } = await startRedisServer();
  try {
    const [one] = await runLayout(bundle, port, 1, 1, walkers, ticks, warmup, children);
    const four = await runLayout(bundle, port, 2, 2, walkers, ticks, warmup, children);
    return { one, four };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    redis.kill('SIGKILL');
  }
}

/** What the client case measured. */
export interface RoomClientsResult {
  /** Milliseconds per tick, as the clients' views advanced. */
  tickMs: number;
  /** End-to-end delays, ms, sorted: from a player's input to the first view of a client in the neighbouring region that shows it. */
  delays: number[];
  /** The same in ticks: the view's tick minus the tick the watcher's view stood at when the input left. */
  delayTicks: number[];
  /** Hand-offs completed per second by the pacing clients. */
  handoffsPerSecond: number;
  /** How long, ms, a pacing client's view stood still across each hand-off (sorted). */
  switchGaps: number[];
}

/**
 * Runs {@link measureRoomClients} in a process of its own, so that what earlier
 * suites leave in the bench's process (a large heap, module state) cannot
 * starve the clients' sockets.
 */
export async function runRoomClients(walkers: number, pairs: number, pacers: number, seconds: number): Promise<RoomClientsResult> {
  return resultOf<RoomClientsResult>('bench/region-clients.ts', [walkers, pairs, pacers, seconds], "the region clients' process");
}

/** Runs a bench script (entry, given args as JSON) in a process of its own; the last line of JSON it prints. */
export async function resultOf<T>(entry: string, args: unknown, name: string): Promise<T> {
  const child = spawn(process.execPath, [await bundled(entry), JSON.stringify(args)], { stdio: ['ignore', 'pipe', 'pipe'] });
  const output = await outputOf(child, name);
  const result = output.split('\n').filter((line) => line.startsWith('{')).pop();
  if (result === undefined) throw new Error(`${name} printed no result:\n${output}`);
  return JSON.parse(result) as T;
}

/**
 * The walkers on 2 × 2 region rooms in four processes, with @colyseus/sdk
 * clients: `pairs` movers near the border x = size / 2 in region 0, each
 * watched by a client standing across it in region 1 (one input in flight
 * at a time, its delay timed until the watcher's view shows it), and
 * `pacers` clients walking across that border and back, for `seconds`.
 */
export async function measureRoomClients(walkers: number, pairs: number, pacers: number, seconds: number): Promise<RoomClientsResult> {
  const { Client, RegionClient } = await sdkClients();
  const { worldSize } = await import('./region-process-walkers.js');
  const bundle = await bundled('bench/region-process-room.ts');
  const children: ChildProcess[] = [];
  const clients: Array<InstanceType<typeof RegionClient>> = [];
  const { port: redisPort, process: redis } = await startRedisServer();
  const prefix = `bench-rooms-${process.pid}`;
  try {
    const ports = await Promise.all([0, 1, 2, 3].map((region) => startRoom(bundle, { redisPort, region, columns: 2, rows: 2, walkers, prefix }, children)));
    const size = worldSize(walkers);
    const half = size / 2;
    const roomName = `region-${prefix}`;
    const join = async (id: number, x: number, y: number): Promise<InstanceType<typeof RegionClient>> => {
      const player = new RegionClient(new Client(`ws://127.0.0.1:${ports[id % ports.length]}`));
      clients.push(player);
      await joinShown(player, roomName, x < half ? 0 : 1, { id, x, y });
      return player;
    };
    const firstId = walkers + 1;
    // Rows of players along the border, all within regions 0 and 1.
    const rowY = (k: number): number => half / 4 + (k * 0.65 * half) / (pairs + pacers);
    // Everyone joins at once: each join waits for its room's next tick.
    const [movers, watchers, walkersOfPacers] = await Promise.all([
      Promise.all(Array.from({ length: pairs }, (_, k) => join(firstId + k, half - 3, rowY(k)))),
      Promise.all(Array.from({ length: pairs }, (_, k) => join(firstId + pairs + k, half + 3, rowY(k)))),
      Promise.all(Array.from({ length: pacers }, (_, k) => join(firstId + 2 * pairs + k, half - 2, rowY(pairs + k)))),
    ]);

    const delays: number[] = [];
    const delayTicks: number[] = [];
    const switchGaps: number[] = [];
    const started = performance.now();
    const firstTick = watchers[0].view.tick;
    const until = started + seconds * 1000;
    // Each pair: one input in flight, timed until the watcher shows the mover where the input put it.
    const probes = movers.map(async (mover, k) => {
      for (let s = 1; performance.now() < until; s++) {
        const x = half - 3 - s * 1e-3;
        const sentAt = performance.now();
        const tickAt = watchers[k].view.tick;
        await new Promise<void>((done, fail) => {
          const timer = setTimeout(() => fail(new Error(`watcher ${k} never saw input ${s} of its mover`)), 20_000);
          const off = watchers[k].onView((view) => {
            if (view.entities.get(mover.view.self.id)?.x !== x) return;
            delays.push(performance.now() - sentAt);
            delayTicks.push(view.tick - tickAt);
            clearTimeout(timer);
            off();
            done();
          });
          mover.move(x, rowY(k));
        });
      }
    });
    // The pacers: across x = half and back, one unit an input, up to 3 inputs in flight; the view's stand-still across each hand-off timed.
    const handoffsBefore = walkersOfPacers.map((p) => p.handoffs);
    for (const pacer of walkersOfPacers) {
      let last = { region: pacer.view.region, at: performance.now() };
      pacer.onView((view) => {
        const now = performance.now();
        if (view.region !== last.region) switchGaps.push(now - last.at);
        last = { region: view.region, at: now };
      });
    }
    const pacing = setInterval(() => {
      walkersOfPacers.forEach((pacer, k) => {
        if (pacer.pending >= 3) return;
        const n = pacer.nextInput;
        pacer.move(half - 2 + (n % 8 < 4 ? n % 8 : 8 - (n % 8)), rowY(pairs + k));
      });
    }, 5);
    await Promise.all(probes);
    clearInterval(pacing);
    const elapsed = (performance.now() - started) / 1000;
    const handoffs = walkersOfPacers.reduce((sum, p, k) => sum + p.handoffs - handoffsBefore[k], 0);
    return {
      tickMs: (elapsed * 1000) / Math.max(1, watchers[0].view.tick - firstTick),
      delays: delays.sort((a, b) => a - b),
      delayTicks: delayTicks.sort((a, b) => a - b),
      handoffsPerSecond: handoffs / elapsed,
      switchGaps: switchGaps.sort((a, b) => a - b),
    };
  } finally {
    // Leave before the rooms go: a client cut off would try to reconnect.
    await Promise.race([Promise.allSettled(clients.map((c) => c.leave())), new Promise((done) => setTimeout(done, 2000))]);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    redis.kill('SIGKILL');
  }
}
