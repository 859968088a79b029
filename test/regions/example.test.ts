// The region example as a user runs it: examples/region-server/main.ts,
// bundled once as scripts/run-ts.mjs bundles it (spatialkit from dist/) and
// run as two server processes on a redis-server of the test's own, all on
// 127.0.0.1. Region 0's server starts alone, says what it waits for and
// refuses players; region 1's comes later, and both run; a player joins
// region 0 and gets its view, also after its connection drops; region 1's
// server is killed, and region 0's ticks on.
import { Client } from '@colyseus/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { esbuildOptions } from '../../scripts/esbuild-options.mjs';
import { freePort, startRedisServer } from '../../bench/redis-server.js';
import { RegionClient, type RegionView } from '../../src/colyseus/client/index.js';
import type { SpatialError } from '../../src/index.js';
import { waitForOutput } from './rooms/cluster.js';

const ROOT = resolve(__dirname, '../..');
const BUNDLE = resolve(ROOT, 'build/test-region-example.mjs');
/** How often a waiting room says what it waits for (the example's 5 s, shortened). */
const WAIT_REPORT_MS = 1000;

const children: ChildProcess[] = [];
const servers: ChildProcess[] = [];
const ports: number[] = [];
let redisUrl = '';
let output = '';
let player: RegionClient | undefined;

/** Starts the example's server of region, as `node scripts/run-ts.mjs examples/region-server/main.ts <region> <port>` does. */
function startServer(region: number): ChildProcess {
  const child = spawn(process.execPath, [BUNDLE, String(region), String(ports[region])], {
    cwd: ROOT,
    env: { ...process.env, REDIS_URL: redisUrl, WAIT_REPORT_MS: String(WAIT_REPORT_MS) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = (chunk: Buffer): void => void (output += `[region ${region}] ${chunk.toString()}`);
  child.stdout!.on('data', log);
  child.stderr!.on('data', log);
  children.push(child);
  servers[region] = child;
  return child;
}

/** Resolves with the first view of `of` from now on that satisfies ready; rejects after ms. */
function viewWhere(of: RegionClient, ready: (view: RegionView) => boolean, ms = 5000): Promise<RegionView> {
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`no such view in ${ms} ms:\n${output}`)), ms);
    const stop = of.onView((view) => {
      if (!ready(view)) return;
      clearTimeout(timer);
      stop();
      done(view);
    });
  });
}

beforeAll(async () => {
  const redis = await startRedisServer();
  children.push(redis.process);
  redisUrl = `redis://127.0.0.1:${redis.port}`;
  await build({ ...esbuildOptions, entryPoints: [resolve(ROOT, 'examples/region-server/main.ts')], outfile: BUNDLE, platform: 'node', packages: 'external', logLevel: 'error' });
  ports.push(await freePort(), await freePort());
}, 30_000);

afterAll(async () => {
  await player?.leave().catch(() => undefined);
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
});

describe('the region example, run as its header says', () => {
  it('starts a server alone that says which region it waits for and refuses players until then', async () => {
    await waitForOutput(startServer(0), /region 0 waits for regions 1 \(not heard from in \d+ s\)/, 10_000, 'region 0');
    const early = new RegionClient(new Client(`ws://127.0.0.1:${ports[0]}`));
    const refused = (await early.join('region', 0, { id: 1000, x: 490, y: 250 }).catch((error: unknown) => error)) as SpatialError;
    expect(refused.code).toBe('NOT_INITIALIZED');
    expect(refused.message).toMatch(/region 0 does not run yet: it waits for regions 1/);
  }, 15_000);

  it('runs both regions once the other server starts, and a player joining region 0 gets its view, again after its connection drops', async () => {
    const running = waitForOutput(servers[0], /tick 0: region 0 owns/, 10_000, 'region 0');
    await waitForOutput(startServer(1), /tick 0: region 1 owns/, 10_000, 'region 1');
    await running;
    // The player's SDK room is kept, so that its connection can be dropped under it.
    const sdk = new Client(`ws://127.0.0.1:${ports[0]}`);
    let room: { connection: { close(): void } } | undefined;
    player = new RegionClient({ join: async (name, options) => (room = await sdk.join(name, options)), consumeSeatReservation: (reservation) => sdk.consumeSeatReservation(reservation) });
    const first = viewWhere(player, () => true);
    await player.join('region', 0, { id: 1000, x: 490, y: 250 });
    const view = await first;
    expect([view.region, view.self.id, view.self.x, view.self.y]).toEqual([0, 1000, 490, 250]);
    // The walker, entity 1, paces 480..516 at y = 250: within the player's range 20 most of the time.
    const seen = await viewWhere(player, (v) => v.entities.get(1)?.y === 250);

    // The connection drops; the SDK reconnects by itself (Colyseus reads the WebSocket global the example supplies) and the view goes on.
    room!.connection.close();
    const back = await viewWhere(player, (v) => v.tick > seen.tick + 20);
    expect([back.region, back.self.id, back.self.x, back.self.y]).toEqual([0, 1000, 490, 250]);
    expect(output).not.toMatch(/WebSocket is not defined/);
  }, 20_000);

  it('goes on ticking in region 0, its player still viewing, once the server of region 1 is killed', async () => {
    const timeout = waitForOutput(servers[0], /REGION_TIMEOUT: regions 1 did not answer region 0's [\w-]+ barrier of tick (\d+)/, 10_000, 'region 0');
    servers[1].kill('SIGKILL');
    const lostAt = Number((await timeout)[1]);
    // The walker goes with region 1 within 5 ticks; 20 ticks later, region 0 still ticks and says whom it lost.
    let tick = -1;
    while (tick < lostAt + 20) tick = Number((await waitForOutput(servers[0], /tick (\d+): region 0 owns \d+ entities, regions 1 lost/, 5000, 'region 0'))[1]);
    const view = await viewWhere(player!, (v) => v.tick >= lostAt + 20);
    expect([view.region, view.self.id]).toEqual([0, 1000]);
    expect(servers[0].exitCode).toBeNull();
    expect(output).not.toMatch(/UNKNOWN_ID/);
  }, 15_000);
});
