// Colyseus interest management: a server tick (every player takes a step,
// interest is updated, Colyseus's SchemaSerializer encodes and sends each
// client its patch) for N simulated players, each a client that counts the
// bytes it is sent. Three ways: no interest management (everyone gets
// everything), the per-client distance filter written by hand (for each
// client, for each entity: compare, then view.add / view.remove), and
// spatialkit/colyseus over a wasm Scene. The world's density gives each
// player about 50 others in view. Before timing, the hand filter's views and
// the Scene's are checked equal over a few ticks.
import { ClientState, SchemaSerializer, type Client } from '@colyseus/core';
import { Encoder, schema, StateView, t, type SchemaType } from '@colyseus/schema';
import { Interest } from '../src/colyseus.js';
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

// The full state of 5,000 entities outgrows the encoder's default 8 KiB buffer.
Encoder.BUFFER_SIZE = 512 * 1024;

/** A simulated client: what the serializer needs of one, counting what it is sent. */
interface CountingClient {
  state: number;
  view: StateView | undefined;
  bytes: number;
  raw(bytes: Uint8Array): void;
}

/** Wraps the view's add and remove so the time spent inside them is added to time.ms. */
function timeViewChanges(view: StateView, time: { ms: number }): StateView {
  const add = view.add.bind(view);
  const remove = view.remove.bind(view);
  view.add = (...args: Parameters<StateView['add']>) => {
    const start = performance.now();
    const result = add(...args);
    time.ms += performance.now() - start;
    return result;
  };
  view.remove = (...args: Parameters<StateView['remove']>) => {
    const start = performance.now();
    const result = remove(...args);
    time.ms += performance.now() - start;
    return result;
  };
  return view;
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

type Way = 'none' | 'hand' | 'scene';

/** One server: its players' positions and walk, its state, its clients and its interest step. */
class BenchServer {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly bodies: Body[] = [];
  readonly clients: CountingClient[] = [];
  /** Per tick: the whole tick, the interest step, the part of it spent in view.add / view.remove, and encoding plus sending. */
  tickMs: number[] = [];
  interestMs: number[] = [];
  viewChangeMs: number[] = [];
  encodeMs: number[] = [];
  private readonly viewTime = { ms: 0 };
  ticks = 0;
  private readonly headings: Float64Array;
  private readonly random: () => number;
  private readonly serializer = new SchemaSerializer<World>();
  private readonly visible: Array<Set<number>> = [];
  private interest: Interest | undefined;

  constructor(readonly way: Way, readonly players: number, readonly side: number, seed: number) {
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
      this.clients.push(countingClient(way === 'none' ? undefined : timeViewChanges(new StateView(), this.viewTime)));
    }
    if (way === 'scene') {
      this.interest = new Interest(new Scene({ defaultRange: RANGE }));
      for (let i = 0; i < players; i++) {
        this.interest.addClient(i, this.clients[i] as unknown as Client, this.bodies[i], { x: this.xs[i], y: this.ys[i], range: RANGE });
      }
    }
    if (way === 'hand') {
      for (let i = 0; i < players; i++) this.visible.push(new Set());
      this.filterByHand();
    }
    // Everyone is sent the full state when joining; ticks measure the patches after it.
    for (const client of this.clients) client.bytes += this.serializer.getFullState(client as unknown as Client).length;
    this.serializer.applyPatches(this.clients as unknown as Client[]);
    for (const client of this.clients) client.bytes = 0;
  }

  /** One server tick: everybody steps, interest follows, every client gets its patch. */
  tick(): void {
    const begin = performance.now();
    this.walk();
    this.viewTime.ms = 0;
    const start = performance.now();
    if (this.way === 'hand') this.filterByHand();
    else if (this.way === 'scene') this.interest!.update();
    const filtered = performance.now();
    this.serializer.applyPatches(this.clients as unknown as Client[]);
    const end = performance.now();
    this.tickMs.push(end - begin);
    this.interestMs.push(filtered - start);
    this.viewChangeMs.push(this.viewTime.ms);
    this.encodeMs.push(end - filtered);
    this.ticks++;
  }

  /** Forgets the phase times recorded so far. */
  resetTimes(): void {
    this.tickMs = [];
    this.interestMs = [];
    this.viewChangeMs = [];
    this.encodeMs = [];
  }

  /** Ids each client's view holds now, ascending. */
  views(): number[][] {
    if (this.way === 'hand') return this.visible.map((set) => [...set].sort((a, b) => a - b));
    return this.clients.map((_, i) => [i, ...this.interest!.scene.query(i)].sort((a, b) => a - b));
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

function checkSameViews(context: SuiteContext): void {
  const players = 600;
  const hand = new BenchServer('hand', players, sideFor(players), 7);
  const scene = new BenchServer('scene', players, sideFor(players), 7);
  let entries = 0;
  for (let tick = 0; tick < 8; tick++) {
    hand.tick();
    scene.tick();
    const a = hand.views();
    const b = scene.views();
    for (let i = 0; i < players; i++) {
      if (a[i].join() !== b[i].join()) throw new Error(`tick ${tick}: client ${i} holds [${a[i]}] by hand, [${b[i]}] with the Scene`);
      entries += a[i].length;
    }
  }
  if (hand.bytesPerClientPerSecond() !== scene.bytesPerClientPerSecond()) {
    throw new Error('the hand filter and the Scene sent different byte counts for the same views');
  }
  context.note(`views checked equal (hand filter vs Scene): ${players} players, 8 ticks, ${(entries / 8 / players).toFixed(1)} entities per view on average; equal bytes sent`);
  hand.dispose();
  scene.dispose();
}

export const colyseusSuite: Suite = {
  name: 'colyseus',
  title: 'Colyseus interest management: server tick and bytes per client',
  async run(context) {
    await init();
    checkSameViews(context);
    // Only a full run goes on to 5,000 players: one 5,000-player hand-filter tick alone takes seconds.
    const sizes = context.full ? [1000, 5000] : [1000];
    for (const players of sizes) {
      const side = sideFor(players);
      const servers = new Map<Way, BenchServer>();
      const contender = (name: string, way: Way) => ({
        name,
        setup: () => servers.set(way, new BenchServer(way, players, side, 11)),
        run: () => servers.get(way)!.tick(),
      });
      context.bench(
        `${players.toLocaleString('en-US')} players, ~${SEEN} in view each`,
        [contender('no interest management', 'none'), contender('hand-written distance filter', 'hand'), contender('spatialkit/colyseus (Scene, wasm, grid index)', 'scene')],
        {
          opName: 'tick',
          baseline: 'spatialkit/colyseus (Scene, wasm, grid index)',
          minTimeMs: context.quick ? 0 : 2000,
          headline: `Colyseus room (Scene grid index): server tick, ${players.toLocaleString('en-US')} players, ~${SEEN} in view each`,
        },
      );
      const none = servers.get('none')!;
      const hand = servers.get('hand')!;
      const scene = servers.get('scene')!;
      const kb = (server: BenchServer): string => (server.bytesPerClientPerSecond() / 1024).toFixed(1);
      context.note(
        `${players} players: bytes per client per second (at ${PATCHES_PER_SECOND} patches/s): none ${kb(none)} KiB, hand ${kb(hand)} KiB, Scene ${kb(scene)} KiB; ` +
          `none / Scene = ${(none.bytesPerClientPerSecond() / scene.bytesPerClientPerSecond()).toFixed(1)}x`,
      );
      // The phases, measured with the three servers taking turns tick by tick, so a
      // change in the machine's load falls on all three alike.
      const ways = [none, hand, scene];
      for (const server of ways) server.resetTimes();
      const turns = context.pick({ smoke: 4, default: 10, full: players > 2000 ? 10 : 30 });
      for (let k = 0; k < turns; k++) {
        for (let w = 0; w < ways.length; w++) ways[(k + w) % ways.length].tick();
      }
      const ms = (values: number[]): string => median(values).toFixed(1);
      const own = (server: BenchServer): number[] => server.interestMs.map((t, k) => t - server.viewChangeMs[k]);
      const ratio = (a: number[], b: number[]): string => (median(a) / median(b)).toFixed(1);
      context.note(
        `${players} players, phases per tick (median of ${turns} ticks taken in turns, ms; none / hand / Scene): ` +
          `finding who sees whom - / ${ms(own(hand))} / ${ms(own(scene))} (hand / Scene = ${ratio(own(hand), own(scene))}x); ` +
          `Colyseus view.add + view.remove - / ${ms(hand.viewChangeMs)} / ${ms(scene.viewChangeMs)}; ` +
          `interest step in all - / ${ms(hand.interestMs)} / ${ms(scene.interestMs)} (hand / Scene = ${ratio(hand.interestMs, scene.interestMs)}x); ` +
          `Colyseus encoding and sending ${ms(none.encodeMs)} / ${ms(hand.encodeMs)} / ${ms(scene.encodeMs)}; ` +
          `whole tick ${ms(none.tickMs)} / ${ms(hand.tickMs)} / ${ms(scene.tickMs)} (hand / Scene = ${ratio(hand.tickMs, scene.tickMs)}x)`,
      );
      for (const server of servers.values()) server.dispose();
    }
  },
};
