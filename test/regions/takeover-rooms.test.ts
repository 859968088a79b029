// Region rooms with takeovers, on three processes and a standby, with
// @colyseus/sdk clients walking across the borders and around the corner:
// a region whose process is killed runs again in the standby's process,
// with every entity and every player, and each of its clients is back with
// its id; a process stopped past its lease is taken over, and once resumed
// it stops itself and publishes nothing more into the world.
import { Client } from '@colyseus/sdk';
import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { init, Scene } from '../../src/index.js';
import { RegionClient, type RegionView } from '../../src/colyseus/client/index.js';
import { applyToScene, Walkers } from './walkers.js';
import { Cluster, type Reports } from './rooms/cluster.js';
import { keepWalking, recording, walk, type SdkRoom } from './rooms/player-walks.js';
import { ROOM_LAYOUT, ROOM_SIZES, type ProcessSettings } from './rooms/protocol.js';

const REGIONS = [0, 1, 2, 3];
/** Three processes (the first hosts two regions), then a standby. */
const PROCESSES = [[0, 1], [2], [3]];
const FIRST_PLAYER = 100_000;

// Colyseus 0.18's SDK reads a global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

const cluster = new Cluster();
const everyone: RegionClient[] = [];

beforeAll(async () => {
  await init();
  await cluster.start();
});
afterAll(async () => {
  try {
    await Promise.race([Promise.allSettled(everyone.map((p) => p.leave())), new Promise((done) => setTimeout(done, 5000))]);
  } finally {
    cluster.stop();
  }
});
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.log(cluster.output);
});

/** A world of four region rooms with takeovers, a standby, and `count` walking clients. */
async function world(prefix: string, count: number, ticks: number) {
  const settings: Omit<ProcessSettings, 'redisPort' | 'regions'> = { seed: 11, walkers: 150, ticks, prefix, timeoutMs: 1000, roomName: `region-${prefix}`, tickDelayMs: 20, takeover: true };
  const reports = await cluster.listen(prefix);
  const processes = await Promise.all(PROCESSES.map((regions) => cluster.process({ ...settings, regions })));
  const standby = await cluster.process({ ...settings, regions: [], standby: true });
  // Clients matchmake through servers that stay up (as behind a load balancer): region 3's process is the one stopped.
  const ports = [processes[0], processes[1], standby].map((child) => cluster.portOf(child));
  const layout = ROOM_LAYOUT();
  const clients: RegionClient[] = [];
  const last: RegionView[] = [];
  const errors: string[] = [];
  await Promise.all(
    Array.from({ length: count }, async (_, k) => {
      const rooms: SdkRoom[] = [];
      const player = new RegionClient(recording(new Client(`ws://127.0.0.1:${ports[k % ports.length]}`), rooms));
      clients[k] = player;
      everyone.push(player);
      player.onView((view) => (last[k] = view));
      player.onError((error) => errors.push(`${k}: ${error.code} ${error.message.slice(0, 120)}`));
      const at = walk(k)(0);
      await player.join(settings.roomName!, layout.regionAt(at.x, at.y), { id: FIRST_PLAYER + k, x: at.x, y: at.y });
    }),
  );
  await until(() => clients.every((_, k) => last[k] !== undefined), 20_000, 'every client shown a view');
  const stop = keepWalking(clients, (k) => last[k] !== undefined);
  return { settings, reports, processes, clients, last, errors, stop };
}

/** The walkers' ids alive after tick, as one Scene of the walkers' operations has them. */
function walkersAfter(seed: number, count: number, tick: number): number[] {
  const scene = new Scene({ backend: 'js', events: 'net' });
  const walkers = new Walkers(ROOM_SIZES, count, seed);
  for (let t = 0; t <= tick; t++) applyToScene(scene, t === 0 ? walkers.start() : walkers.next());
  const ids = [...scene.ids()].sort((a, b) => a - b);
  scene.dispose();
  return ids;
}

/** Resolves once check() holds, polling; rejects after ms. */
async function until(check: () => boolean, ms: number, what: string): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/** The latest tick every region has reported. */
function reportedTick(reports: Reports, regions: number[]): number {
  let tick = -1;
  while (regions.every((r) => reports.of(tick + 1).has(r))) tick++;
  return tick;
}

describe('region rooms with takeovers', () => {
  it("run a killed process's region again in the standby, with every entity and every player, whose clients come back with their ids", async () => {
    const prefix = `takeover-kill-${process.pid}`;
    const count = 100;
    const ticks = 5000;
    const w = await world(prefix, count, ticks);
    try {
      await w.reports.until(40, REGIONS, 30_000);
      // The process dies at a moment when region 3's room holds several players whose clients are not between rooms.
      const settled = (): number[] => w.clients.flatMap((c, k) => (!c.handingOff && w.last[k]?.region === 3 ? [k] : []));
      await until(() => settled().length > 5, 10_000, 'clients settled in region 3');
      const inRegion3 = settled();
      const moves = (k: number): number => w.clients[k].takeovers + w.clients[k].handoffs;
      const before = inRegion3.map(moves);
      const killedAt = reportedTick(w.reports, [3]);
      const killed = Date.now();
      w.processes[2].kill('SIGKILL'); // region 3's process
      // Region 3 runs again: the standby's room reports ticks past the death.
      const backMs = await until(() => w.reports.of(killedAt + 1).has(3) && reportedTick(w.reports, REGIONS) > killedAt + 1, 20_000, 'region 3 ticking again');
      // Every client that was in region 3 is shown its player again, with its id: by the new room, or by the room
      // its player was being handed to when the process died.
      // (Ticks are reported late: the old room may still have sent views past killedAt, so a view counts once the client moved.)
      const back = (k: number): boolean => moves(k) > before[inRegion3.indexOf(k)] && (w.last[k]?.tick ?? -1) > killedAt + 1;
      const viewed = await Promise.all(inRegion3.map((k) => until(() => back(k), 20_000, `client ${k}'s next view`).then(() => Date.now() - killed, () => Infinity)));
      const behind = inRegion3.filter((k) => !back(k));
      expect(behind, `clients left behind: ${w.errors.join('; ')}`).toEqual([]);
      const after = reportedTick(w.reports, REGIONS);
      await w.reports.until(after + 5, REGIONS, 20_000);
      const check = after + 5;
      // Every entity exists once: the walkers one Scene of their operations has, and every player.
      const owned = REGIONS.flatMap((r) => w.reports.of(check).get(r)!.owned);
      expect(owned.length, 'no entity owned twice').toBe(new Set(owned).size);
      const players = Array.from({ length: count }, (_, k) => FIRST_PLAYER + k);
      const missing = players.filter((id) => !owned.includes(id));
      // A missing player's client, and its player's owners from 15 ticks before the kill on (killed at the first '|').
      const about = (id: number): string => {
        const k = id - FIRST_PLAYER;
        const owners = Array.from({ length: check + 1 - (killedAt - 15) }, (_, n) => REGIONS.filter((r) => w.reports.of(killedAt - 15 + n).get(r)?.owned.includes(id)).join('/'));
        owners.splice(16, 0, '|');
        return `client ${k} (${w.clients[k].handingOff ? 'handing off' : 'in a room'}, last view ${w.last[k]?.tick} in region ${w.last[k]?.region}): owners ${owners.join(' ')}`;
      };
      expect(missing, `players missing: ${missing.map(about).join('; ')}`).toEqual([]);
      expect(owned.filter((id) => id < FIRST_PLAYER).sort((a, b) => a - b)).toEqual(walkersAfter(w.settings.seed, w.settings.walkers, check));
      expect(inRegion3.length).toBeGreaterThan(5);
      // Each came back by claiming its player in the new room, or by following a hand-off the new room sent it.
      for (const k of inRegion3) expect(w.clients[k].id, `client ${k}`).toBe(FIRST_PLAYER + k);
      expect(inRegion3.filter((k) => w.clients[k].takeovers > 0).length, `clients back by claiming their player (takeovers ${inRegion3.map((k) => w.clients[k].takeovers)}, hand-offs ${inRegion3.map((k) => w.clients[k].handoffs)})`).toBeGreaterThan(0);
      const sorted = viewed.filter(Number.isFinite).sort((a, b) => a - b);
      console.log(`region 3 ticked again ${backMs} ms after its process was killed (at tick ${killedAt}); ${sorted.length} of its ${inRegion3.length} clients' next views came after ${sorted[0]} to ${sorted.at(-1)} ms (median ${sorted[sorted.length >> 1]})`);
      expect(backMs).toBeLessThan(3000);
      expect(w.errors, 'what the clients heard fail').toEqual([]);
      expect(Date.now() - killed).toBeLessThan(30_000);
    } finally {
      w.stop();
    }
  }, 120_000);

  it('stop a process stalled past its lease once it resumes: it publishes nothing more, and its clients follow', async () => {
    const prefix = `takeover-stop-${process.pid}`;
    const count = 20;
    const w = await world(prefix, count, 5000);
    const frames: Array<{ at: number; epoch: number }> = [];
    const listener = cluster.redis();
    listener.on('messageBuffer', (_channel: Buffer, m: Buffer) => {
      if (m.readInt32LE(1) === 3) frames.push({ at: Date.now(), epoch: m.readInt32LE(5) });
    });
    await listener.subscribe(`${prefix}:all`);
    const epochOf3 = async (): Promise<number> => Number(await cluster.redis().get(`${prefix}:epoch:3`));
    let stopped: ChildProcess | null = null;
    try {
      await w.reports.until(30, REGIONS, 30_000);
      const inRegion3 = w.clients.flatMap((c, k) => (!c.handingOff && w.last[k]?.region === 3 ? [k] : []));
      stopped = w.processes[2];
      stopped.kill('SIGSTOP');
      const stalledAt = reportedTick(w.reports, [3]);
      // Taken over: region 3 has a new epoch, and ticks again.
      await until(() => reportedTick(w.reports, REGIONS) > stalledAt + 5, 20_000, 'region 3 ticking in the standby');
      expect(await epochOf3()).toBe(2);
      const resumed = Date.now();
      stopped.kill('SIGCONT');
      await w.reports.until(reportedTick(w.reports, REGIONS) + 20, REGIONS, 20_000);
      // The old holder found its epoch superseded: nothing of epoch 1 reached the world after it resumed.
      expect(frames.filter((f) => f.at >= resumed && f.epoch === 1)).toEqual([]);
      expect(frames.filter((f) => f.epoch === 2).length).toBeGreaterThan(20);
      expect(cluster.output).toContain('REGION_SUPERSEDED');
      expect(await epochOf3()).toBe(2);
      for (const k of inRegion3) {
        await until(() => (w.last[k]?.tick ?? -1) > stalledAt + 5, 10_000, `client ${k}'s view`);
        expect(w.clients[k].id).toBe(FIRST_PLAYER + k);
      }
    } finally {
      if (stopped !== null && stopped.exitCode === null) stopped.kill('SIGCONT');
      w.stop();
    }
  }, 120_000);
});
