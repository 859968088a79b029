// Calls from onNpcSight, where NPC AI hooks in: a hook that removes, moves or
// registers entities, changes a range, updates, or throws, in random worlds
// on both backends, with a view per client and with shared views. After every
// call made from outside the hooks, each client's view holds its own entity
// and everything it sees in the Scene (with shared views: and nothing outside
// its cell grown by the range), and what onNpcSight told each NPC is what it
// sees in the Scene.
import { ClientState, SchemaSerializer, type Client } from '@colyseus/core';
import { StateView } from '@colyseus/schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Entity, WorldState } from '../../examples/colyseus-server/schema.js';
import { Interest } from '../../src/colyseus/interest/index.js';
import { init, Scene, type Backend } from '../../src/index.js';
import { mulberry32 } from '../../bench/random.js';
import { codeOf } from '../support/codes.js';

const RANGE = 10;
const NPC_RANGE = 12;
const CELL = 8;
const SIZE = 40;
const TICKS = 30;

type Sight = 'enter' | 'leave';

/** A connection as Colyseus's serializer sees it: patches are encoded for it and dropped. */
interface Connection {
  state: number;
  view?: StateView;
  raw(bytes: Uint8Array): void;
}

/** A room state, its serializer, an Interest with a hook the test sets, and every entity and client ever registered. */
class World {
  readonly state = new WorldState({ frame: 0 });
  readonly serializer = new SchemaSerializer<WorldState>();
  readonly interest: Interest;
  readonly random: () => number;
  /** Every entity ever registered, removed ones included. */
  readonly objects = new Map<number, Entity>();
  /** Every client ever registered, removed ones included. */
  readonly connections = new Map<number, Connection>();
  /** What onNpcSight has told each NPC it sees. */
  readonly told = new Map<number, Set<number>>();
  /** Sights that did not follow from the one before for their pair: an enter of a target seen, a leave of one unseen. */
  readonly repeats: string[] = [];
  /** What NPC AI does with a sight (after it is recorded in told). */
  hook: (type: Sight, watcher: number, target: number) => void = () => {};
  /** Entities hooks may still register this tick. */
  budget = 0;
  private nextId = 0;

  constructor(backend: Backend, readonly shared: boolean, seed: number) {
    this.random = mulberry32(seed);
    this.serializer.reset(this.state);
    this.interest = new Interest(new Scene({ backend, defaultRange: RANGE }), {
      sharedViews: shared ? { cell: CELL } : null,
      onNpcSight: (type, watcher, target) => {
        let seen = this.told.get(watcher);
        if (seen === undefined) this.told.set(watcher, (seen = new Set()));
        if (seen.has(target) === (type === 'enter')) this.repeats.push(`npc ${watcher} told ${type} ${target} twice`);
        if (type === 'enter') seen.add(target);
        else seen.delete(target);
        this.hook(type, watcher, target);
      },
    });
  }

  spawnClient(x: number, y: number): number {
    const id = this.nextId++;
    const connection: Connection = { state: ClientState.JOINED, view: this.shared ? undefined : new StateView(), raw() {} };
    this.connections.set(id, connection);
    this.interest.addClient(id, connection as unknown as Client, this.spawn(id, 'player', x, y), { x, y });
    return id;
  }

  spawnNpc(x: number, y: number, range: number | null): number {
    const id = this.nextId++;
    this.interest.addNpc(id, this.spawn(id, 'npc', x, y), { x, y, range });
    return id;
  }

  isClient(id: number): boolean {
    return this.connections.has(id);
  }

  /** A random position in the world. */
  somewhere(): [number, number] {
    return [this.random() * SIZE, this.random() * SIZE];
  }

  /** A position within 2 of a registered entity's. */
  near(id: number): [number, number] {
    const { x, y } = this.interest.scene.position(id);
    return [x + this.random() * 4 - 2, y + this.random() * 4 - 2];
  }

  /** Registered clients and NPCs up to their numbers, then a step of up to 3 staged for everyone. */
  tick(): void {
    this.budget = 3;
    let clients = 0;
    for (const id of this.connections.keys()) if (this.interest.has(id)) clients++;
    if (clients < 5) this.spawnClient(...this.somewhere());
    if (this.interest.size - clients < 12) this.spawnNpc(...this.somewhere(), this.random() < 0.4 ? NPC_RANGE : null);
    for (const id of this.objects.keys()) {
      if (!this.interest.has(id)) continue;
      const { x, y } = this.interest.scene.position(id);
      const clamp = (v: number): number => Math.min(SIZE, Math.max(0, v + this.random() * 6 - 3));
      this.interest.move(id, clamp(x), clamp(y));
    }
  }

  /** Encodes a patch for every registered client, as Colyseus does on its timer (bridges then settle). */
  patch(): void {
    const live = [...this.connections].filter(([id]) => this.interest.has(id)).map(([, connection]) => connection);
    this.serializer.applyPatches(live as unknown as Client[]);
  }

  /** Where the views or the sights told differ from the Scene; empty when they all agree. */
  mismatches(): string[] {
    const out = [...this.repeats];
    const { scene } = this.interest;
    for (const [id, connection] of this.connections) {
      const registered = this.interest.has(id);
      const wanted = new Set(registered ? [id, ...this.sees(id)] : []);
      const allowed = registered && this.shared ? new Set(this.cellBound(id)) : wanted;
      for (const [other, object] of this.objects) {
        const held = connection.view?.has(object) ?? false;
        if (wanted.has(other) && !held) out.push(`client ${id} lacks ${other}`);
        else if (held && !allowed.has(other)) out.push(`${registered ? 'client' : 'removed client'} ${id} holds ${other}`);
      }
    }
    for (const id of this.objects.keys()) {
      if (this.isClient(id)) continue;
      const told = [...(this.told.get(id) ?? [])].sort((a, b) => a - b).join();
      const sees = (this.interest.has(id) ? scene.query(id) : []).join();
      if (told !== sees) out.push(`npc ${id} was told [${told}], sees [${sees}]`);
    }
    return out;
  }

  private spawn(id: number, kind: string, x: number, y: number): Entity {
    const entity = new Entity({ kind, x, y });
    this.state.entities.set(String(id), entity);
    this.objects.set(id, entity);
    return entity;
  }

  /** What a client sees: its range around it (clients on shared views are markers in the Scene). */
  private sees(id: number): number[] {
    const { scene } = this.interest;
    if (!this.shared) return scene.query(id);
    const { x, y } = scene.position(id);
    return scene.queryBox(x - RANGE, y - RANGE, x + RANGE, y + RANGE);
  }

  /** The documented bound of shared views: what lies in the client's cell grown by the range. */
  private cellBound(id: number): number[] {
    const { x, y } = this.interest.scene.position(id);
    const cx = Math.floor(x / CELL) * CELL;
    const cy = Math.floor(y / CELL) * CELL;
    return this.interest.scene.queryBox(cx - RANGE, cy - RANGE, cx + CELL + RANGE, cy + CELL + RANGE);
  }
}

/** What a hook does with a sight: one call of the adapter, on some sights. */
type HookCall = (world: World, type: Sight, watcher: number, target: number) => void;

const HOOK_CALLS: Record<string, HookCall> = {
  remove: (world, type, _watcher, target) => {
    if (type === 'enter' && !world.isClient(target) && world.interest.has(target) && world.random() < 0.4) world.interest.remove(target);
  },
  move: (world, _type, watcher, target) => {
    const id = world.random() < 0.5 ? target : watcher;
    if (world.interest.has(id) && world.random() < 0.5) world.interest.move(id, ...world.somewhere());
  },
  addNpc: (world, type, _watcher, target) => {
    if (type !== 'enter' || !world.interest.has(target) || world.budget === 0 || world.random() < 0.5) return;
    world.budget--;
    world.spawnNpc(...world.near(target), world.random() < 0.5 ? NPC_RANGE : null);
  },
  addClient: (world, type, _watcher, target) => {
    if (type !== 'enter' || !world.interest.has(target) || world.budget === 0 || world.random() < 0.5) return;
    world.budget--;
    world.spawnClient(...world.near(target));
  },
  removeClient: (world, type, _watcher, target) => {
    if (type === 'enter' && world.isClient(target) && world.interest.has(target) && world.random() < 0.5) world.interest.remove(target);
  },
  setRange: (world, _type, watcher) => {
    if (world.interest.has(watcher) && world.random() < 0.05) world.interest.setRange(watcher, [null, 4, NPC_RANGE, 20][Math.floor(world.random() * 4)]);
  },
  update: (world, _type, _watcher, target) => {
    // Within the tick's budget: nested updates past it would feed each other into HOOK_LOOP, which the tests below cover.
    if (!world.interest.has(target) || world.budget === 0 || world.random() < 0.85) return;
    world.budget--;
    world.interest.move(target, ...world.somewhere());
    world.interest.update();
  },
};

/** Runs random worlds whose hook is `hook`, calling `step` for every call from outside the hooks; fails on the first mismatch. */
function runWorlds(backend: Backend, shared: boolean, hook: HookCall, step: (call: () => void) => void = (call) => call()): void {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
      const world = new World(backend, shared, seed);
      world.hook = (type, watcher, target) => hook(world, type, watcher, target);
      try {
        for (let tick = 0; tick < TICKS; tick++) {
          step(() => world.tick());
          expect(world.mismatches(), `seed ${seed} tick ${tick}, after registering`).toEqual([]);
          step(() => world.interest.update());
          expect(world.mismatches(), `seed ${seed} tick ${tick}, after update()`).toEqual([]);
          world.patch();
        }
        world.hook = () => {};
        world.interest.clear();
        expect(world.mismatches(), `seed ${seed}, after clear()`).toEqual([]);
      } finally {
        world.interest.scene.dispose();
      }
    }),
    { numRuns: 12 },
  );
}

describe('Interest: calls from onNpcSight', () => {
  beforeAll(() => init());

  for (const shared of [false, true]) {
    const mode = shared ? 'shared views' : 'a view per client';
    for (const backend of ['wasm', 'js'] as const) {
      for (const [name, call] of Object.entries(HOOK_CALLS)) {
        it(`${name} from onNpcSight leaves every view and sight equal to the Scene (${backend}, ${mode})`, () => {
          runWorlds(backend, shared, call);
        });
      }

      it(`a throwing onNpcSight: the call applies every view and sight, then rethrows (${backend}, ${mode})`, () => {
        let thrown = 0;
        const failure = new Error('hook failed');
        const hook: HookCall = (world) => {
          if (world.random() < 0.2) throw failure;
        };
        runWorlds(backend, shared, hook, (call) => {
          try {
            call();
          } catch (error) {
            expect(error).toBe(failure);
            thrown++;
          }
        });
        expect(thrown).toBeGreaterThan(20);
      });

      it(`hooks that keep feeding each other end in HOOK_LOOP with the views applied (${backend}, ${mode})`, () => {
        const world = new World(backend, shared, 1);
        const client = world.spawnClient(10, 10);
        const npc = world.spawnNpc(30, 10, NPC_RANGE);
        const marker = world.spawnNpc(30, 30, null);
        world.patch();
        // Whatever the NPC sees, it stops watching; whatever it stops seeing, it watches again.
        world.hook = (type, watcher) => world.interest.setRange(watcher, type === 'enter' ? null : NPC_RANGE);
        world.interest.move(marker, 12, 12); // into the client's view ...
        world.interest.move(npc, 14, 10); // ... and the NPC's
        expect(codeOf(() => world.interest.update())).toBe('HOOK_LOOP');
        expect(world.mismatches().filter((problem) => problem.startsWith('client'))).toEqual([]);
        // The hook calms down: sights flow again and match the Scene from here on.
        world.hook = () => {};
        world.told.set(npc, new Set(world.interest.scene.query(npc)));
        world.repeats.length = 0;
        world.interest.setRange(npc, 3);
        world.interest.move(client, 30, 30);
        world.interest.update();
        expect(world.mismatches()).toEqual([]);
        expect(world.interest.scene.query(npc)).toEqual([marker]);
        world.interest.scene.dispose();
      });

      it(`hooks whose sights multiply end in HOOK_LOOP with the views applied (${backend}, ${mode})`, () => {
        const world = new World(backend, shared, 2);
        world.spawnClient(20, 20);
        const watchers = [0, 1, 2].map((k) => world.spawnNpc(20 + k, 20, null));
        for (let k = 0; k < 20; k++) world.spawnNpc(18 + (k % 5), 18 + Math.floor(k / 5), null);
        world.patch();
        // Every sight switches a watcher on or off, and each switch is twenty sights more.
        let calls = 0;
        world.hook = () => {
          calls++;
          const watcher = watchers[Math.floor(world.random() * watchers.length)];
          world.interest.setRange(watcher, world.interest.scene.query(watcher).length > 0 ? null : NPC_RANGE);
        };
        expect(codeOf(() => world.interest.setRange(watchers[0], NPC_RANGE))).toBe('HOOK_LOOP');
        expect(calls).toBeLessThan(2 ** 18); // stopped by the count of sights, long before 64 rounds of this growth
        expect(world.mismatches().filter((problem) => problem.startsWith('client'))).toEqual([]);
        world.interest.scene.dispose();
      });
    }
  }
});
