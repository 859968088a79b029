// Players with real @colyseus/sdk clients in a world of four region rooms on
// three processes, beside server-side walkers: each client walks across a
// border or around the corner where the four regions meet, and is handed
// from room to room (a seat reserved through the matchmaker, across
// processes). Every view a client's RegionClient presents is the single
// Scene's view of its player at that tick, exactly (lockstep), the player's
// id never changes, and every input sent is applied exactly once, also by
// clients whose connection drops mid-walk and comes back. Meanwhile
// intruders join with ids other players hold, flood their room with inputs,
// send garbage and messages no room handles, trip a hook that throws, and a hook fails in every room:
// each is refused with its code, and nothing they do shows in the honest
// players' views or stops a tick.
import { Client } from '@colyseus/sdk';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket as NodeWebSocket } from 'ws';
import { init, Scene, SpatialError } from '../../src/index.js';
import { RegionClient, type RegionSdkClient, type RegionView } from '../../src/colyseus/client/index.js';
import { applyToScene, byPair, Walkers } from './walkers.js';
import { Cluster } from './rooms/cluster.js';
import { keepWalking, recording, walk, type SdkRoom } from './rooms/player-walks.js';
import { Intruders, type Entry, type Outcome } from './rooms/intruders.js';
import { PLAYER_MARGIN, PLAYER_RANGE, ROOM_LAYOUT, ROOM_SIZES } from './rooms/protocol.js';

/** SDK clients (REGION_CLIENTS to try another number; docs/regions.md gives the times). */
const CLIENTS = Number(process.env.REGION_CLIENTS ?? 200);
const TICKS = 300;
/** Clients stop sending after this tick, so that every input is applied before the last. */
const LAST_INPUT_TICK = 220;
const REGIONS = [0, 1, 2, 3];
/** Three processes: the first hosts two regions. */
const PROCESSES = [[0, 1], [2], [3]];
/** Player ids, apart from the walkers'. */
const FIRST_PLAYER = 100_000;
/** Intruders' own ids, apart from the players'. */
const FIRST_INTRUDER = 200_000;
/** The tick whose beforeTick throws in every room. */
const FAILING_TICK = 50;
/** Inputs the flooding intruder sends at once. */
const FLOOD = 100;

// Colyseus 0.18's SDK reads a global WebSocket, which Node 20 lacks.
(globalThis as { WebSocket?: unknown }).WebSocket ??= NodeWebSocket;

const cluster = new Cluster();
const players: RegionClient[] = [];
const intruders = new Intruders();

beforeAll(async () => {
  await init();
  await cluster.start();
});
afterAll(async () => {
  try {
    await Promise.race([Promise.allSettled([...players.map((p) => p.leave()), intruders.leave()]), new Promise((done) => setTimeout(done, 5000))]);
  } finally {
    cluster.stop();
  }
});
afterEach((context) => {
  if (context.task.result?.state === 'fail') console.log(cluster.output);
});

/**
 * The intruders' attacks, made while the players walk: joins with the id
 * of a player whose walk stays far from the room joined and of one that
 * walks in its ghost band, two joins with one new id at once, a flood of
 * inputs, garbage inputs, and an input that trips applyInput.
 */
async function attack(roomName: string): Promise<Record<string, Outcome | Outcome[]>> {
  const layout = ROOM_LAYOUT();
  const url = (k: number): string => `ws://127.0.0.1:${cluster.ports[k % cluster.ports.length]}`;
  const entry = (k: number, id: number, x: number, y: number): Entry => ({ url: url(k), roomName, region: layout.regionAt(x, y), id, x, y });
  const path = (k: number): Array<{ x: number; y: number }> => Array.from({ length: TICKS }, (_, n) => walk(k)(n));
  // Far: a player whose whole walk keeps beyond region 3's ghost band (x, y >= 60). Near: one pacing across x = 60 below it.
  const band = layout.band;
  const far = Array.from({ length: CLIENTS }, (_, k) => k).find((k) => path(k).every((at) => Math.min(at.x, at.y) < 60 - band))!;
  const near = Array.from({ length: CLIENTS }, (_, k) => k).find((k) => k % 3 === 0 && path(k).every((at) => at.y < 60 - band && Math.abs(at.x - 60) < band))!;
  const [farOutcome, nearOutcome, twins, flood, garbage, stranger, trap] = await Promise.all([
    intruders.steal(entry(1, FIRST_PLAYER + far, 90, 90)),
    intruders.steal(entry(2, FIRST_PLAYER + near, 65, walk(near)(0).y)),
    intruders.twins(entry(0, FIRST_INTRUDER + 1, 20, 20), entry(1, FIRST_INTRUDER + 1, 100, 100)),
    intruders.flood(entry(2, FIRST_INTRUDER + 2, 100, 20), FLOOD),
    intruders.garbage(entry(0, FIRST_INTRUDER + 3, 20, 100)),
    intruders.stranger(entry(2, FIRST_INTRUDER + 4, 20, 20)),
    intruders.trap(entry(1, FIRST_INTRUDER + 5, 100, 100)),
  ]);
  return { far: farOutcome, near: nearOutcome, twins, flood, garbage, stranger, trap };
}

/** Clients whose connection the walk test drops once (from DROP_TICK on), to come back by the SDK's reconnection. */
const dropsConnection = (k: number): boolean => k % 8 === 3;
const DROP_TICK = 100;

/** A view as plain data: sorted [id, x, y] of what the player sees, and its own place. */
function snapshot(view: RegionView): { tick: number; self: number[]; seen: number[][] } {
  return { tick: view.tick, self: [view.self.id, view.self.x, view.self.y], seen: [...view.entities].map(([id, e]) => [id, e.x, e.y]).sort((a, b) => a[0] - b[0]) };
}

describe('players handed from room to room on three processes', () => {
  it('see exactly what one Scene sees at every patch, keep their id, and lose no input', async () => {
    const prefix = `handoff-${process.pid}`;
    const settings = { seed: 5, walkers: 150, ticks: TICKS, prefix, timeoutMs: 10_000, roomName: `region-${prefix}`, tickDelayMs: 20, throwAtTick: FAILING_TICK };
    const reports = await cluster.listen(prefix);
    await Promise.all(PROCESSES.map((regions) => cluster.process({ ...settings, regions })));
    const layout = ROOM_LAYOUT();
    const started = performance.now();

    // Every client joins the room of the region its walk starts in, through any process's matchmaker.
    const views: Array<Array<ReturnType<typeof snapshot>>> = [];
    const errors: SpatialError[] = [];
    const rooms: SdkRoom[][] = [];
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, k) => {
        rooms[k] = [];
        const player = new RegionClient(recording(new Client(`ws://127.0.0.1:${cluster.ports[k % cluster.ports.length]}`), rooms[k]));
        players[k] = player;
        views[k] = [];
        player.onView((view) => views[k].push(snapshot(view)));
        player.onError((error) => errors.push(error));
        const at = walk(k)(0);
        await player.join(settings.roomName, layout.regionAt(at.x, at.y), { id: FIRST_PLAYER + k, x: at.x, y: at.y });
      }),
    );
    // Each client walks on a timer of its own, keeping up to 3 inputs in flight (a room applies one a tick), whether or
    // not a hand-off is under way: inputs sent during one wait in the client's queue.
    // From DROP_TICK on, some clients' connections are closed under them once each (not mid-hand-off): they keep walking.
    let duringHandoffs = 0;
    const droppedAt = new Map<number, number>();
    const walking = setInterval(() => {
      for (let k = 0; k < CLIENTS; k++) {
        if (dropsConnection(k) && !droppedAt.has(k) && reports.of(DROP_TICK).size > 0 && !players[k].handingOff && views[k].length > 0) {
          droppedAt.set(k, views[k].at(-1)!.tick);
          rooms[k].at(-1)!.connection.close();
        }
        if (views[k].length === 0 || players[k].pending >= 3 || reports.of(LAST_INPUT_TICK).size > 0) continue;
        if (players[k].handingOff) duringHandoffs++;
        const next = walk(k)(players[k].nextInput);
        players[k].move(next.x, next.y);
      }
    }, 10);
    let attacks: Promise<Record<string, Outcome | Outcome[]>> = Promise.resolve({});
    try {
      await reports.until(10, REGIONS, 30_000);
      attacks = attack(settings.roomName);
      await reports.until(TICKS - 1, REGIONS, 90_000);
    } finally {
      clearInterval(walking);
    }
    const wall = performance.now() - started;
    const met = await attacks;

    // Replay the world in one Scene: the walkers, and what the rooms applied to players, tick by tick.
    const single = new Scene({ backend: 'js', events: 'net' });
    const walkers = new Walkers(ROOM_SIZES, settings.walkers, settings.seed);
    const applied = new Map<number, number>();
    const byTick = new Map<number, Array<[number, ReturnType<typeof snapshot>]>>();
    views.forEach((list, k) => list.forEach((v) => byTick.set(v.tick, [...(byTick.get(v.tick) ?? []), [k, v]])));
    let compared = 0;
    try {
      for (let t = 0; t < TICKS; t++) {
        const ops = t === 0 ? walkers.start() : walkers.next();
        const got = [...reports.of(t).values()];
        for (const p of got.flatMap((r) => r.players)) {
          if (p.kind === 'add') ops.push({ kind: 'add', id: p.id, x: p.x, y: p.y, range: PLAYER_RANGE, options: { margin: PLAYER_MARGIN } });
          else if (p.kind === 'remove') ops.push({ kind: 'remove', id: p.id });
          else {
            ops.push({ kind: 'move', id: p.id, x: p.x, y: p.y });
            applied.set(p.id, (applied.get(p.id) ?? 0) + 1);
          }
        }
        applyToScene(single, ops);
        expect(byPair(Int32Array.from(got.flatMap((r) => [...r.events]))), `events of tick ${t}`).toEqual(byPair(single.drainArray()));
        for (const [k, view] of byTick.get(t) ?? []) {
          const id = FIRST_PLAYER + k;
          const { x, y } = single.position(id);
          const seen = single
            .query(id)
            .map((target) => [target, single.position(target).x, single.position(target).y])
            .sort((a, b) => a[0] - b[0]);
          expect(view, `client ${k} at tick ${t}`).toEqual({ tick: t, self: [id, x, y], seen });
          compared++;
        }
      }
    } finally {
      single.dispose();
    }

    const handoffs = players.reduce((sum, p) => sum + p.handoffs, 0);
    const sent = players.map((p) => p.nextInput - 1);
    console.log(
      `${CLIENTS} SDK clients, ${settings.walkers} walkers, ${TICKS} ticks on 3 processes: ${compared} views compared, ${handoffs} hand-offs, ` +
        `${sent.reduce((a, b) => a + b, 0)} inputs (${duringHandoffs} sent during a hand-off), ${droppedAt.size} connections dropped, ${(wall / 1000).toFixed(1)} s`,
    );
    expect(errors).toEqual([]);
    // Every dropped client came back to its room and was shown later ticks.
    expect(droppedAt.size).toBe(Array.from({ length: CLIENTS }, (_, k) => k).filter(dropsConnection).length);
    for (const [k, tick] of droppedAt) {
      expect(players[k].reconnecting, `client ${k}`).toBe(false);
      expect(views[k].at(-1)!.tick, `client ${k}, dropped at tick ${tick}`).toBeGreaterThan(tick + 20);
    }
    for (let k = 0; k < CLIENTS; k++) {
      // Views come in tick order, each of the same player; every input sent was applied exactly once.
      const ticks = views[k].map((v) => v.tick);
      expect(ticks).toEqual([...ticks].sort((a, b) => a - b));
      expect(new Set(ticks).size).toBe(ticks.length);
      expect(new Set(views[k].map((v) => v.self[0]))).toEqual(new Set([FIRST_PLAYER + k]));
      expect(players[k].id).toBe(FIRST_PLAYER + k);
      expect(players[k].pending, `client ${k}'s inputs not applied`).toBe(0);
      expect(applied.get(FIRST_PLAYER + k) ?? 0, `client ${k}: inputs applied`).toBe(sent[k]);
      expect(players[k].view.self.seq).toBe(sent[k]);
    }
    expect(handoffs).toBeGreaterThan(CLIENTS);
    expect(duringHandoffs).toBeGreaterThan(0);
    expect(compared).toBeGreaterThan(CLIENTS * 50);

    // Every intruder was refused with its code, and the failing hooks were reported with theirs.
    expect(met.far, 'a join with the id of a player far away').toEqual({ refused: 'DUPLICATE_ID', failures: [] });
    expect(met.near, "a join with the id of a player in the room's ghost band").toEqual({ refused: 'DUPLICATE_ID', failures: [] });
    expect((met.twins as Outcome[]).map((o) => o.refused).sort(), 'two joins with one new id at once').toEqual(['DUPLICATE_ID', null]);
    const flood = met.flood as Outcome;
    expect(flood.refused).toBeNull();
    expect(new Set(flood.failures)).toEqual(new Set(['LIMIT_EXCEEDED']));
    expect(flood.failures.length, 'inputs refused of the flood').toBeGreaterThanOrEqual(FLOOD - 40 - 10);
    const garbage = met.garbage as Outcome;
    expect(garbage.refused).toBeNull();
    expect(new Set(garbage.failures)).toEqual(new Set(['INVALID_NUMBER', 'OUTSIDE_REGIONS']));
    // A message of a type no room handles gets its sender dropped (Colyseus's rule outside dev mode): its client gives up.
    expect(met.stranger).toEqual({ refused: null, failures: ['REGION_TIMEOUT'] });
    expect(met.trap).toEqual({ refused: null, failures: ['HOOK_FAILED'] });
    // The room's error hook hears them too: the trap and the failing beforeTick as HOOK_FAILED, the garbage with its codes.
    expect(reports.hooks.filter((h) => h.code === 'HOOK_FAILED' && h.hook === 'applyInput')).toEqual([{ region: ROOM_LAYOUT().regionAt(100, 100), hook: 'applyInput', code: 'HOOK_FAILED', player: FIRST_INTRUDER + 5 }]);
    expect(reports.hooks.filter((h) => h.hook === 'beforeTick').map((h) => [h.region, h.code]).sort()).toEqual(REGIONS.map((r) => [r, 'HOOK_FAILED']));
    const garbageReports = reports.hooks.filter((h) => h.player === FIRST_INTRUDER + 3);
    expect(garbageReports.map((h) => h.code).sort()).toEqual([...garbage.failures].sort());
  }, 150_000);

  it('go on in the other rooms when a process dies; its clients keep their last view and hear REGION_TIMEOUT', async () => {
    const prefix = `handoff-fault-${process.pid}`;
    const clients = 40;
    const ticks = 200;
    const settings = { seed: 9, walkers: 150, ticks, prefix, timeoutMs: 1000, roomName: `region-${prefix}`, tickDelayMs: 20, reconnectSeconds: 1, seatReservationSeconds: 1 };
    const reports = await cluster.listen(prefix);
    const first = cluster.ports.length;
    const [, , third] = await Promise.all(PROCESSES.map((regions) => cluster.process({ ...settings, regions })));
    const ports = cluster.ports.slice(first);
    const layout = ROOM_LAYOUT();
    const group: RegionClient[] = [];
    const lastView: RegionView[] = [];
    const errors: SpatialError[][] = [];
    const rooms: SdkRoom[][] = [];
    const apart = Array.from({ length: clients }, (_, k) => k).filter((k) => Array.from({ length: 100 }, (_, n) => walk(k)(n)).every((at) => layout.regionAt(at.x, at.y) !== 3));
    // One client away from region 3 loses its connection for good (its SDK does not reconnect): after reconnectSeconds its player leaves the world.
    const gone = apart.pop()!;
    // One client away from region 3 and crossing borders never takes the seat of its first hand-off after tick 30:
    // the room that reserved it tells the new room, which takes the player out of the world.
    const stray = apart.pop()!;
    let strayFrom = Infinity;
    await Promise.all(
      Array.from({ length: clients }, async (_, k) => {
        rooms[k] = [];
        const takesSeats = (): boolean => k !== stray || reports.of(strayFrom).size === 0;
        const player = new RegionClient(recording(new Client(`ws://127.0.0.1:${ports[k % ports.length]}`), rooms[k], takesSeats), { reconnectMs: 1000 });
        group[k] = player;
        players.push(player);
        errors[k] = [];
        player.onView((view) => (lastView[k] = view));
        player.onError((error) => errors[k].push(error));
        const at = walk(k)(0);
        // This test's 1 s reservations can expire before a new client connects on a loaded machine: such a join is tried again.
        for (let attempt = 1; ; attempt++) {
          try {
            await player.join(settings.roomName, layout.regionAt(at.x, at.y), { id: FIRST_PLAYER + k, x: at.x, y: at.y });
            break;
          } catch (error) {
            if (attempt === 3 || !String(error).includes('seat reservation expired')) throw error;
          }
        }
      }),
    );
    const stopWalking = keepWalking(group, (k) => lastView[k] !== undefined);
    let inRegion3: number[] = [];
    try {
      await reports.until(30, REGIONS, 20_000);
      strayFrom = 30;
      while (group[gone].handingOff) await new Promise((resolve) => setTimeout(resolve, 5));
      const room = rooms[gone].at(-1)!;
      room.reconnection.enabled = false;
      room.connection.close();
      await reports.until(60, REGIONS, 20_000);
      inRegion3 = group.flatMap((p, k) => (!p.handingOff && lastView[k]?.region === 3 ? [k] : []));
      third.kill('SIGKILL'); // region 3's process
      await reports.until(ticks - 1, [0, 1, 2], 30_000);
    } finally {
      stopWalking();
    }

    // Every client in region 3's room at its death heard REGION_TIMEOUT (unless it was already on its way to another
    // room, which took it); every client left with a view of region 3 keeps one from before the death.
    // (The process may still hand a client on between the choice of inRegion3 and its death: that client goes on elsewhere.)
    const caught = inRegion3.filter((k) => lastView[k].region === 3);
    expect(caught.length).toBeGreaterThan(0);
    for (const k of caught) expect(errors[k].map((e) => e.code), `client ${k}`).toContain('REGION_TIMEOUT');
    for (const k of group.keys()) {
      if (lastView[k].region !== 3) continue;
      expect(errors[k].map((e) => e.code), `client ${k}`).toContain('REGION_TIMEOUT');
      expect(lastView[k].tick).toBeLessThan(ticks - 10);
    }
    // The other rooms ran to the end: a client whose walk never enters region 3 heard of no failure and is shown a late tick.
    expect(apart.length).toBeGreaterThan(clients / 4);
    for (const k of apart) {
      expect(errors[k], `client ${k}`).toEqual([]);
      expect(lastView[k].tick, `client ${k}`).toBeGreaterThanOrEqual(ticks - 10);
    }
    for (const k of group.keys()) for (const e of errors[k]) expect(e.code).toBe('REGION_TIMEOUT');
    // The client that went for good: its player was in the world when it went, and left it once reconnectSeconds passed.
    const ownerOf = (tick: number, k: number): number[] => [...reports.of(tick).values()].filter((r) => r.owned.includes(FIRST_PLAYER + k)).map((r) => r.region);
    expect(ownerOf(30, gone)).toHaveLength(1);
    const goneOwners = Array.from({ length: ticks }, (_, t) => ownerOf(t, gone).join('/')).join(' ');
    expect(ownerOf(ticks - 1, gone), `the player of client ${gone} by tick: ${goneOwners}`).toEqual([]);
    expect(errors[gone].map((e) => e.code)).toEqual(['REGION_TIMEOUT']);
    // The stray client is stuck on a hand-off whose seat it never took; its player, in the world at tick 30, is gone.
    expect(ownerOf(30, stray)).toHaveLength(1);
    expect(group[stray].handingOff).toBe(true);
    const strayOwners = Array.from({ length: ticks }, (_, t) => ownerOf(t, stray).join('/')).join(' ');
    expect(ownerOf(ticks - 1, stray), `the player of client ${stray} by tick: ${strayOwners}`).toEqual([]);
  }, 120_000);
});
