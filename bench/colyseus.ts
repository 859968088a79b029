// Colyseus interest management: a server tick (every player takes a step,
// interest is updated, Colyseus's SchemaSerializer encodes and sends each
// client its patch) for N simulated players, each a client that counts the
// bytes it is sent. Four ways: no interest management (everyone gets
// everything), the per-client distance filter written by hand (for each
// client, for each entity: compare, then view.add / view.remove),
// spatialkit/colyseus with a view per client (exact), and spatialkit/colyseus
// with shared views (one StateView per occupied cell). The world's density
// gives each player about 50 others in view. Before timing, the hand filter's
// views and the exact adapter's are checked equal over a few ticks, and every
// shared view is checked to hold its clients' exact views and nothing beyond
// the documented bound.
import { ClientState, SchemaSerializer, type Client } from '@colyseus/core';
import { Encoder, schema, StateView, t, type SchemaType } from '@colyseus/schema';
import { Interest } from '../src/colyseus/interest/index.js';
import { init, Scene } from '../src/index.js';
import type { Suite, SuiteContext } from './harness.js';
import { mulberry32 } from './random.js';

const Body = schema({ x: t.number(), y: t.number() }, 'BenchBody');
type Body = SchemaType<typeof Body>;
const OpenWorld = schema({ entities: t.map(Body) }, 'BenchOpenWorld');
const FilteredWorld = schema({ entities: t.map(Body).view() }, 'BenchFilteredWorld');
type World = SchemaType<typeof OpenWorld> | SchemaType<typeof FilteredWorld>;

/** Half-extent of every player's view box. */
const RANGE = 50;
/** Others a player sees on average: the world's side follows from it. */
const SEEN = 50;
/** Largest step a player takes per tick. */
const STEP = 4;
/** Patches per second (Colyseus's default patch rate, 50 ms). */
const PATCHES_PER_SECOND = 20;
/**
 * Cell side of the shared views: 1.2 times the range, the largest cell whose
 * bytes per client stayed within 2.5 times the exact adapter's when measured
 * (see docs/colyseus.md, "Picking the cell").
 */
const CELL = 1.2 * RANGE;

// The full state of 20,000 entities outgrows the encoder's default 8 KiB buffer.
Encoder.BUFFER_SIZE = 2 * 1024 * 1024;

/** A simulated client: what the serializer needs of one, counting what it is sent. */
interface CountingClient {
  state: number;
  view: StateView | undefined;
  bytes: number;
  raw(bytes: Uint8Array): void;
}

function countingClient(view: StateView | undefined): CountingClient {
  return {
    state: ClientState.JOINED,
    view,
    bytes: 0,
    raw(bytes: Uint8Array) {
      this.bytes += bytes.length;
    },
  };
}

type Way = 'none' | 'hand' | 'exact' | 'shared';
const WAYS: Way[] = ['none', 'hand', 'exact', 'shared'];
const WAY_NAMES: Record<Way, string> = {
  none: 'no interest management',
  hand: 'hand-written distance filter',
  exact: 'spatialkit/colyseus, a view per client',
  shared: `spatialkit/colyseus, shared views (cell ${CELL})`,
};

/** One server: its players' positions and walk, its state, its clients and its interest step. */
export class BenchServer {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly bodies: Body[] = [];
  readonly clients: CountingClient[] = [];
  /** Per tick: the whole tick, the interest step, and encoding plus sending. */
  tickMs: number[] = [];
  interestMs: number[] = [];
  encodeMs: number[] = [];
  /** Per tick: the distinct StateViews Colyseus encoded. */
  encodedViews: number[] = [];
  ticks = 0;
  private readonly headings: Float64Array;
  private readonly random: () => number;
  private readonly serializer = new SchemaSerializer<World>();
  private readonly visible: Array<Set<number>> = [];
  readonly interest: Interest | undefined;

  constructor(readonly way: Way, readonly players: number, readonly side: number, seed: number, cell = CELL) {
    const random = mulberry32(seed);
    this.random = random;
    this.xs = Float64Array.from({ length: players }, () => random() * side);
    this.ys = Float64Array.from({ length: players }, () => random() * side);
    this.headings = Float64Array.from({ length: players }, () => random() * 2 * Math.PI);
    const state: World = way === 'none' ? new OpenWorld() : new FilteredWorld();
    for (let i = 0; i < players; i++) {
      const body = new Body({ x: this.xs[i], y: this.ys[i] });
      state.entities.set(String(i), body);
      this.bodies.push(body);
    }
    this.serializer.reset(state);
    for (let i = 0; i < players; i++) {
      this.clients.push(countingClient(way === 'hand' || way === 'exact' ? new StateView() : undefined));
    }
    if (way === 'exact' || way === 'shared') {
      this.interest = new Interest(new Scene({ defaultRange: RANGE }), way === 'shared' ? { sharedViews: { cell } } : {});
      for (let i = 0; i < players; i++) {
        const at = way === 'shared' ? { x: this.xs[i], y: this.ys[i] } : { x: this.xs[i], y: this.ys[i], range: RANGE };
        this.interest.addClient(i, this.clients[i] as unknown as Client, this.bodies[i], at);
      }
    }
    if (way === 'hand') {
      for (let i = 0; i < players; i++) this.visible.push(new Set());
      this.filterByHand();
    }
    // Every client is sent its view's content with the first patch; ticks
    // measure the patches after it. (A joining client would get it as a full
    // state; the bench skips that step, which no tick repeats.)
    this.serializer.applyPatches(this.clients as unknown as Client[]);
    this.interest?.update();
    for (const client of this.clients) client.bytes = 0;
  }

  /** One server tick: everybody steps, interest follows, every client gets its patch. */
  tick(): void {
    const begin = performance.now();
    this.walk();
    const start = performance.now();
    if (this.way === 'hand') this.filterByHand();
    else this.interest?.update();
    const filtered = performance.now();
    this.serializer.applyPatches(this.clients as unknown as Client[]);
    const end = performance.now();
    this.tickMs.push(end - begin);
    this.interestMs.push(filtered - start);
    this.encodeMs.push(end - filtered);
    this.encodedViews.push(this.way === 'none' ? 1 : new Set(this.clients.map((client) => client.view)).size);
    this.ticks++;
  }

  /** Forgets the phase times and byte counts recorded so far. */
  reset(): void {
    this.tickMs = [];
    this.interestMs = [];
    this.encodeMs = [];
    this.encodedViews = [];
    this.ticks = 0;
    for (const client of this.clients) client.bytes = 0;
  }

  /** Ids each client's view holds now, ascending. */
  views(): number[][] {
    if (this.way === 'hand') return this.visible.map((set) => [...set].sort((a, b) => a - b));
    return this.clients.map((client) => this.bodies.flatMap((body, id) => (client.view!.has(body) ? [id] : [])));
  }

  /** Mean bytes one client is sent per second at the default patch rate. */
  bytesPerClientPerSecond(): number {
    const total = this.clients.reduce((sum, client) => sum + client.bytes, 0);
    return (total / this.players / this.ticks) * PATCHES_PER_SECOND;
  }

  dispose(): void {
    this.interest?.clear();
    this.interest?.scene.dispose();
  }

  private walk(): void {
    const { xs, ys, headings, random, side } = this;
    for (let i = 0; i < this.players; i++) {
      headings[i] += (random() - 0.5) * 0.8;
      const step = random() * STEP;
      let x = xs[i] + Math.cos(headings[i]) * step;
      let y = ys[i] + Math.sin(headings[i]) * step;
      if (x < 0 || x > side || y < 0 || y > side) {
        headings[i] += Math.PI;
        x = Math.min(side, Math.max(0, x));
        y = Math.min(side, Math.max(0, y));
      }
      xs[i] = x;
      ys[i] = y;
      this.bodies[i].x = x;
      this.bodies[i].y = y;
      this.interest?.move(i, x, y);
    }
  }

  /** The loop a developer writes without an AOI structure: every client against every entity. */
  private filterByHand(): void {
    const { xs, ys, bodies } = this;
    for (let i = 0; i < this.players; i++) {
      const seen = this.visible[i];
      const view = this.clients[i].view!;
      for (let j = 0; j < this.players; j++) {
        const inside = Math.abs(xs[j] - xs[i]) <= RANGE && Math.abs(ys[j] - ys[i]) <= RANGE;
        if (inside === seen.has(j)) continue;
        if (inside) {
          seen.add(j);
          view.add(bodies[j]);
        } else {
          seen.delete(j);
          view.remove(bodies[j]);
        }
      }
    }
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted[sorted.length >> 1];
}

/** Side of a square world where a player's view box holds about SEEN others. */
function sideFor(players: number): number {
  return 2 * RANGE * Math.sqrt(players / SEEN);
}

/** Players inside the closed box, ascending. */
function within(server: BenchServer, minX: number, minY: number, maxX: number, maxY: number): number[] {
  const ids: number[] = [];
  for (let j = 0; j < server.players; j++) {
    if (server.xs[j] >= minX && server.xs[j] <= maxX && server.ys[j] >= minY && server.ys[j] <= maxY) ids.push(j);
  }
  return ids;
}

/**
 * Entities Colyseus encodes per patch: for each distinct view, what it holds
 * (every entity moves every tick, so each one held is encoded). A view per
 * client holds its client's range; a shared view (or a bridge) the box of
 * its cell, found here from the position of one of its clients.
 */
function entityEncodes(server: BenchServer): number {
  if (server.way === 'none') return server.players;
  if (server.way !== 'shared') return server.views().reduce((sum, ids) => sum + ids.length, 0);
  const seen = new Set<StateView | undefined>();
  let sum = 0;
  server.clients.forEach((client, i) => {
    if (seen.has(client.view)) return;
    seen.add(client.view);
    const cx = Math.floor(server.xs[i] / CELL) * CELL;
    const cy = Math.floor(server.ys[i] / CELL) * CELL;
    sum += within(server, cx - RANGE, cy - RANGE, cx + CELL + RANGE, cy + CELL + RANGE).length;
  });
  return sum;
}

function checkViews(context: SuiteContext): void {
  const players = context.quick ? 300 : 600;
  const ticks = context.full ? 8 : 4;
  const side = sideFor(players);
  const hand = new BenchServer('hand', players, side, 7);
  const exact = new BenchServer('exact', players, side, 7);
  const shared = new BenchServer('shared', players, side, 7);
  let entries = 0;
  let sharedEntries = 0;
  for (let tick = 0; tick < ticks; tick++) {
    for (const server of [hand, exact, shared]) server.tick();
    const a = hand.views();
    const b = exact.views();
    const c = shared.views();
    for (let i = 0; i < players; i++) {
      if (a[i].join() !== b[i].join()) throw new Error(`tick ${tick}: client ${i} holds [${a[i]}] by hand, [${b[i]}] with the adapter`);
      const x = shared.xs[i];
      const y = shared.ys[i];
      const own = within(shared, x - RANGE, y - RANGE, x + RANGE, y + RANGE);
      const cx = Math.floor(x / CELL) * CELL;
      const cy = Math.floor(y / CELL) * CELL;
      const bound = new Set(within(shared, cx - RANGE, cy - RANGE, cx + CELL + RANGE, cy + CELL + RANGE));
      const held = new Set(c[i]);
      if (own.some((id) => !held.has(id)) || c[i].some((id) => !bound.has(id))) {
        throw new Error(`tick ${tick}: client ${i}'s shared view [${c[i]}] misses part of [${own}] or holds more than its cell's bound`);
      }
      entries += a[i].length;
      sharedEntries += c[i].length;
    }
  }
  if (hand.bytesPerClientPerSecond() !== exact.bytesPerClientPerSecond()) {
    throw new Error('the hand filter and the adapter sent different byte counts for the same views');
  }
  context.note(
    `views checked (${players} players, ${ticks} ticks): the hand filter's equal the exact adapter's, ${(entries / ticks / players).toFixed(1)} entities per view on average, equal bytes sent; ` +
      `every shared view holds its clients' exact views and nothing beyond their cell's bound, ${(sharedEntries / ticks / players).toFixed(1)} entities per client on average`,
  );
  for (const server of [hand, exact, shared]) server.dispose();
}

/**
 * The largest player count whose whole tick stays within 50 ms (20 ticks a
 * second on one core) for one way: counts doubled or halved from 1,000
 * until 50 ms lies between two of them, then three geometric bisections.
 * Each count's tick is the median of three after a warm-up tick, in a world
 * of the same density (~50 in view).
 */
function largestAt20Hz(way: Way): { players: number; beyond: '' | 'at least' | 'under' } {
  const budget = 1000 / PATCHES_PER_SECOND;
  const [fewest, most] = [125, 64000];
  const holds = (players: number): boolean => {
    const server = new BenchServer(way, players, sideFor(players), 13);
    server.tick();
    server.reset();
    for (let k = 0; k < 3; k++) server.tick();
    server.dispose();
    return median(server.tickMs) <= budget;
  };
  let held = 0;
  let failed = 0;
  let players = 1000;
  if (holds(players)) {
    for (held = players; failed === 0 && players < most; ) {
      players *= 2;
      if (holds(players)) held = players;
      else failed = players;
    }
    if (failed === 0) return { players: held, beyond: 'at least' };
  } else {
    for (failed = players; held === 0 && players > fewest; ) {
      players /= 2;
      if (holds(players)) held = players;
      else failed = players;
    }
    if (held === 0) return { players: failed, beyond: 'under' };
  }
  for (let k = 0; k < 3; k++) {
    const middle = Math.round(Math.sqrt(held * failed));
    if (holds(middle)) held = middle;
    else failed = middle;
  }
  return { players: held, beyond: '' };
}

export const colyseusSuite: Suite = {
  name: 'colyseus',
  title: 'Colyseus interest management: server tick and bytes per client',
  async run(context) {
    await init();
    checkViews(context);
    // At 20,000 players a tick of the hand filter or of the exact adapter
    // takes tens of seconds, and so does registering that many clients on
    // shared views: only a full run measures that size. At 5,000, building
    // the rooms (Colyseus encodes every view's first patch over the whole
    // state) takes most of the suite's time: a full run's size too.
    const sizes = context.pick({ smoke: [200, 500], default: [1000], full: [1000, 5000, 20000] });
    for (const players of sizes) {
      const side = sideFor(players);
      const largest = players >= 20000;
      const servers = new Map<Way, BenchServer>();
      const build = (way: Way): BenchServer => {
        const server = new BenchServer(way, players, side, 11);
        servers.set(way, server);
        return server;
      };
      if (!largest) {
        const few = players > 2000;
        const contender = (way: Way) => ({
          name: WAY_NAMES[way],
          kind: way === 'hand' ? ('hand-written' as const) : undefined,
          setup: () => build(way),
          run: () => servers.get(way)!.tick(),
        });
        context.bench(`${players.toLocaleString('en-US')} players, ~${SEEN} in view each`, WAYS.map(contender), {
          opName: 'tick',
          baseline: WAY_NAMES.shared,
          minTimeMs: context.quick || few ? 0 : 1000,
          minSamples: few ? 1 : undefined,
          warmup: few ? 0 : undefined,
          headline: `Colyseus room: server tick, ${players.toLocaleString('en-US')} players, ~${SEEN} in view each`,
        });
      } else {
        for (const way of WAYS) build(way);
      }
      // The phases and bytes, measured with the servers taking turns tick by
      // tick, so a change in the machine's load falls on all of them alike.
      const turnTakers = WAYS.map((way) => servers.get(way)!);
      for (const server of turnTakers) server.reset();
      const turns = context.pick({ smoke: 3, default: 10, full: largest ? 3 : players > 2000 ? 10 : 30 });
      for (let k = 0; k < turns; k++) {
        for (let w = 0; w < turnTakers.length; w++) turnTakers[(k + w) % turnTakers.length].tick();
      }
      const label = `${players.toLocaleString('en-US')} players${largest ? ` (${turns} ticks each, fewer at this size)` : ''}`;
      noteSize(context, label, turns, servers);
      // The cell sizes side by side set up four more rooms of 5,000: a full run only.
      if (context.full && players === sizes[1]) noteCells(context, players, servers.get('exact')!, turns);
      for (const server of servers.values()) server.dispose();
    }
    // The search builds rooms up to 64,000 players: full runs only.
    if (!context.full) return;
    const at20Hz = WAYS.map((way) => {
      const { players, beyond } = largestAt20Hz(way);
      return `${way} ${beyond === '' ? '' : `${beyond} `}${players.toLocaleString('en-US')}`;
    });
    context.note(
      `largest player count whose whole tick stays within 50 ms (20 ticks a second on one core), searched by doubling or halving from 1,000 players then bisecting (median of 3 ticks per count): ${at20Hz.join(', ')}`,
    );
  },
};

/** Shared views with cells of several sizes, taking turns tick by tick: their tick, views and bytes per client against the exact adapter's. */
function noteCells(context: SuiteContext, players: number, exact: BenchServer, turns: number): void {
  const cells = [0.8, 1, 1.2, 1.4].map((times) => times * RANGE);
  const servers = cells.map((cell) => new BenchServer('shared', players, sideFor(players), 11, cell));
  for (let k = 0; k < turns; k++) {
    for (let w = 0; w < servers.length; w++) servers[(k + w) % servers.length].tick();
  }
  const reference = median(servers[cells.indexOf(CELL)].tickMs);
  const rows = servers.map((server, w) => {
    const bytes = server.bytesPerClientPerSecond() / exact.bytesPerClientPerSecond();
    const tick = median(server.tickMs);
    return `cell ${cells[w]}: tick ${tick.toFixed(1)} ms (${(tick / reference).toFixed(2)}x cell ${CELL}'s), ${median(server.encodedViews)} views (${server.interest!.sharedViewCount} cells), bytes ${bytes.toFixed(2)}x exact`;
  });
  context.note(`${players.toLocaleString('en-US')} players, shared views by cell size (range ${RANGE}; median of ${turns} ticks taken in turns): ${rows.join('; ')}`);
  for (const server of servers) server.dispose();
}

/** The notes of one size: phases, bytes and views of each way, and where the shared-view tick goes. */
function noteSize(context: SuiteContext, label: string, turns: number, servers: Map<Way, BenchServer>): void {
  const [none, hand, exact, shared] = WAYS.map((way) => servers.get(way)!);
  const ms = (values: number[]): string => median(values).toFixed(1);
  const ratio = (a: BenchServer, b: BenchServer): string => `${a.way} / ${b.way} = ${(median(a.tickMs) / median(b.tickMs)).toFixed(1)}x`;
  const kb = (server: BenchServer): string => `${(server.bytesPerClientPerSecond() / 1024).toFixed(1)} KiB`;
  context.note(
    `${label}, per tick (median of ${turns} ticks taken in turns, ms; none / hand / exact / shared): ` +
      `interest step - / ${ms(hand.interestMs)} / ${ms(exact.interestMs)} / ${ms(shared.interestMs)}; ` +
      `Colyseus encoding and sending ${ms(none.encodeMs)} / ${ms(hand.encodeMs)} / ${ms(exact.encodeMs)} / ${ms(shared.encodeMs)}; ` +
      `whole tick ${ms(none.tickMs)} / ${ms(hand.tickMs)} / ${ms(exact.tickMs)} / ${ms(shared.tickMs)}; ` +
      `${ratio(hand, shared)}, ${ratio(exact, shared)}, ${ratio(hand, exact)}`,
  );
  context.note(
    `${label}, bytes per client per second (at ${PATCHES_PER_SECOND} patches/s): none ${kb(none)}, hand ${kb(hand)}, exact ${kb(exact)}, shared ${kb(shared)} ` +
      `(shared / exact = ${(shared.bytesPerClientPerSecond() / exact.bytesPerClientPerSecond()).toFixed(2)}x); ` +
      `StateViews encoded per tick: exact ${ms(exact.encodedViews)}, shared ${ms(shared.encodedViews)} (${shared.interest!.sharedViewCount} cells occupied, the rest bridges)`,
  );
  // The least the shared views' tick could cost: the entities their views
  // encode, priced at what one costs in the hand filter's own encode (the
  // same Colyseus pass over the same kind of views), against the 8x bar.
  const encodes = { hand: entityEncodes(hand), shared: entityEncodes(shared) };
  const perEncode = median(hand.encodeMs) / encodes.hand;
  const cellShare = shared.interest!.sharedViewCount / median(shared.encodedViews);
  context.note(
    `${label}, where the shared-view tick goes: interest step ${ms(shared.interestMs)} ms and Colyseus encoding ${ms(shared.encodeMs)} ms of the whole ${ms(shared.tickMs)} ms; ` +
      `entities encoded per tick (each view's content, summed): none ${none.players.toLocaleString('en-US')} (one view), hand and exact ${encodes.hand.toLocaleString('en-US')}, shared ${encodes.shared.toLocaleString('en-US')}; ` +
      `at the hand filter's own ${(perEncode * 1000).toFixed(2)} us per entity encoded, the shared views' encoding alone costs ${(encodes.shared * perEncode).toFixed(1)} ms ` +
      `(its cells alone about ${(encodes.shared * cellShare * perEncode).toFixed(1)} ms), against the 8x bar of ${(median(hand.tickMs) / 8).toFixed(1)} ms (hand filter's tick / 8; the no-filter room's whole tick: ${ms(none.tickMs)} ms)`,
  );
}
