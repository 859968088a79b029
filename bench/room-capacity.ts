// How many players one region room holds at 20 ticks a second on one core:
// a RegionRoom (one region, the whole world) in a process of its own, paced
// at 20 ticks a second, with Colyseus encoding every client's view (or, with
// a cell side, every shared view) and sending its patch, and that many
// @colyseus/sdk clients in this process, each sending its player's next step
// whenever its view advances (so a step a tick, while this process keeps
// up: the room reports the inputs it applied). The room's process reports
// its CPU time (user and system) every few ticks; a count holds when the
// room spends at most 50 ms of CPU a tick. The world grows with the count,
// so each player sees about SEEN others at every count.
import type { ChildProcess } from 'node:child_process';
import { bundled, joinShown, resultOf, sdkClients, startRoom } from './region-processes.js';
import { mulberry32 } from './random.js';
import { startRedisServer } from './redis-server.js';
import { RANGE, STEP } from './region-process-walkers.js';

/** Others in a player's view box on average: the world's side follows from it. */
export const SEEN = 50;
/** The CPU a tick may take at 20 ticks a second on one core. */
const BUDGET_MS = 50;

/** What one count measured. */
export interface RoomLoad {
  players: number;
  /** The room process's CPU time per tick, ms (median over the measured windows). */
  cpuMsPerTick: number;
  /** Of a tick (wall time, ms, over all the measured windows): the region's own work (its Scene and the layer), and Colyseus's broadcastPatch. */
  regionMsPerTick: number;
  patchMsPerTick: number;
  /** Players' inputs applied a tick: the players that moved (all of them when the clients keep up). */
  movesPerTick: number;
}

/** The side of the square world where `players` see about SEEN others each. */
export function sideFor(players: number): number {
  return Math.sqrt((players * (2 * RANGE) ** 2) / SEEN);
}

/** A room of `players` walking players, measured over `ticks` ticks after every client has a view; with `sharedCell`, on shared views of that cell side. */
export async function measureRoom(players: number, ticks: number, sharedCell?: number): Promise<RoomLoad> {
  const { Client, RegionClient } = await sdkClients();
  const size = sideFor(players);
  const reportEvery = 5;
  const { port: redisPort, process: redis } = await startRedisServer();
  const prefix = `bench-capacity-${process.pid}-${players}`;
  const children: ChildProcess[] = [];
  const clients: Array<InstanceType<typeof RegionClient>> = [];
  let walking = true;
  try {
    const reports: Array<{ ticks: number; cpuMs: number; regionMs: number; patchMs: number; inputs: number; players: number }> = [];
    // Paced at 20 ticks a second, as a server would be: clients then take no more patches than they would.
    const settings = { redisPort, region: 0, columns: 1, rows: 1, walkers: 0, size, prefix, reportEvery, sharedCell, ticksPerSecond: 20 };
    const port = await startRoom(await bundled('bench/region-process-room.ts'), settings, children, (line) => {
      if (line.startsWith('cpu ')) reports.push(JSON.parse(line.slice(4)));
    });
    const draw = mulberry32(players);
    const roomName = `region-${prefix}`;
    // Joins in groups, so the matchmaker is not asked for thousands of seats at once.
    for (let k = 0; k < players; k += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, players - k) }, async (_, j) => {
          const player = new RegionClient(new Client(`ws://127.0.0.1:${port}`));
          clients.push(player);
          await joinShown(player, roomName, 0, { id: k + j, x: draw() * size, y: draw() * size });
        }),
      );
    }
    // Every player takes a step whenever its view advances: one input a tick.
    const clamp = (v: number): number => Math.min(size, Math.max(0, v));
    for (const [k, player] of clients.entries()) {
      const walk = mulberry32(1000 + k);
      player.onView((view) => {
        if (!walking || player.pending > 1) return;
        player.move(clamp(view.self.x + (walk() * 2 - 1) * STEP), clamp(view.self.y + (walk() * 2 - 1) * STEP));
      });
      player.move(clamp(player.view.self.x + STEP), player.view.self.y);
    }
    // Windows of reportEvery ticks once the room counts every player, after a few ticks of warm-up.
    const wanted = (): number => reports.filter((r) => r.players === players).length;
    const start = Date.now();
    while (wanted() < 3 + Math.ceil(ticks / reportEvery)) {
      if (Date.now() - start > 120_000) throw new Error(`the room of ${players} players reported ${wanted()} windows in 120 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const full = reports.filter((r) => r.players === players).slice(3);
    const perTick = full.slice(1).map((r, k) => (r.cpuMs - full[k].cpuMs) / (r.ticks - full[k].ticks));
    perTick.sort((a, b) => a - b);
    const [first, last] = [full[0], full[full.length - 1]];
    const ticksMeasured = last.ticks - first.ticks;
    return {
      players,
      cpuMsPerTick: perTick[perTick.length >> 1],
      regionMsPerTick: (last.regionMs - first.regionMs) / ticksMeasured,
      patchMsPerTick: (last.patchMs - first.patchMs) / ticksMeasured,
      movesPerTick: (last.inputs - first.inputs) / ticksMeasured,
    };
  } finally {
    walking = false;
    await Promise.race([Promise.allSettled(clients.map((c) => c.leave())), new Promise((done) => setTimeout(done, 2000))]);
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    redis.kill('SIGKILL');
  }
}

/**
 * The largest count whose room stays within 50 ms of CPU a tick: counts
 * doubled from `from` until one does not, then `bisections` geometric
 * bisections; every count measured, in order.
 */
export async function largestRoom(from: number, ticks: number, bisections: number, sharedCell?: number): Promise<{ players: number; measured: RoomLoad[] }> {
  const measured: RoomLoad[] = [];
  const holds = async (players: number): Promise<boolean> => {
    const load = await measureRoom(players, ticks, sharedCell);
    measured.push(load);
    return load.cpuMsPerTick <= BUDGET_MS;
  };
  let held = 0;
  let failed = 0;
  for (let players = from; failed === 0 && players <= 64_000; players *= 2) {
    if (await holds(players)) held = players;
    else failed = players;
  }
  for (let k = 0; k < bisections && held > 0 && failed > 0; k++) {
    const middle = Math.round(Math.sqrt(held * failed));
    if (await holds(middle)) held = middle;
    else failed = middle;
  }
  return { players: held, measured };
}

/**
 * {@link largestRoom} (or, with bisections < 0, {@link measureRoom} of
 * `from` players) in a process of its own, so that what earlier suites leave
 * in the bench's process cannot starve the clients' sockets.
 */
export async function runRoomCapacity(from: number, ticks: number, bisections: number, sharedCell?: number): Promise<{ players: number; measured: RoomLoad[] }> {
  return resultOf('bench/room-capacity-run.ts', [from, ticks, bisections, sharedCell], "the room capacity's process");
}
