// Shared views through Colyseus's own encoder and decoder, without sockets:
// a room state encoded by SchemaSerializer, clients that decode every frame
// they are sent with @colyseus/schema's Decoder (as the SDK does), and random
// joins, leaves, walks back and forth across cell borders, NPCs coming and
// going, drops and reconnections. After every patch each connected client's
// decoded state must hold everything inside its own range and nothing outside
// the box of the cell it stands in, grown by the range.
import { ClientState, SchemaSerializer, type Client } from '@colyseus/core';
import { Decoder } from '@colyseus/schema';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { Entity, WorldState } from '../../examples/colyseus-server/schema.js';
import { Interest } from '../../src/colyseus/interest/index.js';
import { init, Scene, type Backend } from '../../src/index.js';
import { codeOf } from '../support/codes.js';
import { mulberry32 } from '../../bench/random.js';

const RANGE = 10;
const CELL = 8;
const SIZE = 60;

/** A connection as the serializer sees it, decoding what it is sent. */
class DecodingClient {
  state: number = ClientState.JOINING;
  view: unknown;
  decoder = new Decoder(new WorldState());
  bytes = 0;

  /** A patch (the serializer sends them to joined clients only). */
  raw(bytes: Uint8Array): void {
    this.bytes += bytes.length;
    this.decoder.decode(bytes, { offset: 1 });
  }

  /**
   * What Colyseus does when the client acknowledges its join: it sends the
   * full state of the client's view, which the SDK decodes as a resync when
   * it already holds a state (a reconnection).
   */
  acknowledge(serializer: SchemaSerializer<WorldState>): void {
    const full = serializer.getFullState(this as unknown as Client);
    if (this.decoder.state.entities.size > 0) this.decoder.decodeResync(full, { offset: 1 });
    else this.decoder.decode(full, { offset: 1 });
    this.state = ClientState.JOINED;
  }

  held(): number[] {
    return [...this.decoder.state.entities.keys()].map(Number).sort((a, b) => a - b);
  }
}

/** A room: the state, its serializer, an Interest with shared views, and who is where. */
function sharedRoom(backend: Backend) {
  const state = new WorldState({ frame: 0 });
  const serializer = new SchemaSerializer<WorldState>();
  serializer.reset(state);
  const interest = new Interest(new Scene({ backend, defaultRange: RANGE }), { sharedViews: { cell: CELL } });
  const positions = new Map<number, { x: number; y: number }>();
  const connections = new Map<number, DecodingClient>();
  const spawn = (id: number, kind: string, x: number, y: number): Entity => {
    const entity = new Entity({ kind, x, y });
    state.entities.set(String(id), entity);
    positions.set(id, { x, y });
    return entity;
  };
  const patch = (): void => {
    state.frame++;
    serializer.applyPatches([...connections.values()] as unknown as Client[]);
  };
  return { state, serializer, interest, positions, connections, spawn, patch };
}

/** Ids inside the closed box [min, max] around nothing but positions. */
function inBox(positions: Map<number, { x: number; y: number }>, minX: number, minY: number, maxX: number, maxY: number): number[] {
  const ids: number[] = [];
  for (const [id, at] of positions) if (at.x >= minX && at.x <= maxX && at.y >= minY && at.y <= maxY) ids.push(id);
  return ids.sort((a, b) => a - b);
}

/** Schema numbers travel as float32 when that loses less than 1e-4. */
function nearlyEqual(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-4 * Math.max(1, Math.abs(a));
}

/** The documented bound: what a client at (x, y) may hold, the box of its cell grown by the range. */
function boundOf(x: number, y: number): [number, number, number, number] {
  const cx = Math.floor(x / CELL) * CELL;
  const cy = Math.floor(y / CELL) * CELL;
  return [cx - RANGE, cy - RANGE, cx + CELL + RANGE, cy + CELL + RANGE];
}

describe('Interest with shared views, through Colyseus encoding', () => {
  beforeAll(() => init());

  for (const backend of ['wasm', 'js'] as const) {
    it(`keeps every client's decoded state within its range and its cell's bound (${backend})`, () => {
      let checked = 0;
      let switches = 0;
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 2 ** 30 }), (seed) => {
          const random = mulberry32(seed);
          const room = sharedRoom(backend);
          const { interest, positions, connections } = room;
          let nextId = 0;
          const players = new Set<number>();
          const npcs = new Set<number>();
          const away = new Map<number, DecodingClient>(); // dropped, may reconnect
          const borders = new Map<number, number>(); // half the players pace across this cell border
          const join = (): void => {
            const id = nextId++;
            const x = random() * SIZE;
            const y = random() * SIZE;
            const entity = room.spawn(id, 'player', x, y);
            const client = new DecodingClient();
            interest.addClient(id, client as unknown as Client, entity, { x, y });
            connections.set(id, client);
            players.add(id);
            if (id % 2 === 0) borders.set(id, Math.max(CELL, Math.round(x / CELL) * CELL));
          };
          const despawn = (id: number): void => {
            if (interest.has(id)) interest.remove(id);
            room.state.entities.delete(String(id));
            positions.delete(id);
            connections.delete(id);
            away.delete(id);
            players.delete(id);
            npcs.delete(id);
          };
          for (let k = 0; k < 8; k++) join();
          for (let k = 0; k < 20; k++) {
            const id = nextId++;
            const x = random() * SIZE;
            const y = random() * SIZE;
            interest.addNpc(id, room.spawn(id, 'npc', x, y), { x, y });
            npcs.add(id);
          }
          for (let tick = 0; tick < 40; tick++) {
            // Clients that joined (or came back) acknowledge: full state, then patches.
            for (const [id, client] of connections) {
              if (client.state === ClientState.JOINING) client.acknowledge(room.serializer);
            }
            for (const id of [...positions.keys()]) {
              const at = positions.get(id)!;
              // Pacing players cross their border every tick; everyone else wanders.
              const border = borders.get(id);
              const x = border !== undefined ? border + (tick % 2 === 0 ? -0.5 : 0.5) : at.x + (random() - 0.5) * 6;
              const y = Math.min(SIZE, Math.max(0, at.y + (random() - 0.5) * 6));
              const moved = { x: Math.min(SIZE, Math.max(0, x)), y };
              if (players.has(id) && Math.floor(moved.x / CELL) !== Math.floor(at.x / CELL)) switches++;
              positions.set(id, moved);
              const entity = room.state.entities.get(String(id))!;
              entity.x = moved.x;
              entity.y = moved.y;
              interest.move(id, moved.x, moved.y);
            }
            const roll = random();
            if (roll < 0.15) join();
            else if (roll < 0.25 && players.size > 2) despawn([...players][Math.floor(random() * players.size)]);
            else if (roll < 0.35) {
              const id = nextId++;
              const x = random() * SIZE;
              const y = random() * SIZE;
              interest.addNpc(id, room.spawn(id, 'npc', x, y), { x, y });
              npcs.add(id);
            } else if (roll < 0.42 && npcs.size > 0) despawn([...npcs][0]);
            else if (roll < 0.52) {
              // A connection drops: its client misses patches until a new client object takes over.
              const id = [...connections.keys()][Math.floor(random() * connections.size)];
              const client = connections.get(id)!;
              if (client.state === ClientState.JOINED && !away.has(id)) {
                client.state = ClientState.RECONNECTING;
                away.set(id, client);
              }
            } else if (roll < 0.62 && away.size > 0) {
              const [id, old] = away.entries().next().value!;
              away.delete(id);
              const fresh = new DecodingClient();
              fresh.decoder = old.decoder; // the SDK keeps its state across a reconnection
              fresh.view = old.view; // Colyseus hands the dropped client's view over
              interest.reconnect(id, fresh as unknown as Client);
              connections.set(id, fresh);
            }
            interest.update();
            room.patch();
            for (const [id, client] of connections) {
              if (client.state !== ClientState.JOINED || away.has(id)) continue;
              const at = positions.get(id)!;
              const held = client.held();
              const own = inBox(positions, at.x - RANGE, at.y - RANGE, at.x + RANGE, at.y + RANGE);
              const [minX, minY, maxX, maxY] = boundOf(at.x, at.y);
              const bound = new Set(inBox(positions, minX, minY, maxX, maxY));
              const missing = own.filter((t) => !held.includes(t));
              const beyond = held.filter((t) => !bound.has(t));
              const misplaced = held.filter((t) => {
                const seen = client.decoder.state.entities.get(String(t))!;
                return !nearlyEqual(seen.x, positions.get(t)?.x ?? NaN) || !nearlyEqual(seen.y, positions.get(t)?.y ?? NaN);
              });
              if (missing.length > 0 || beyond.length > 0 || misplaced.length > 0) {
                throw new Error(`seed ${seed} tick ${tick} client ${id}: missing [${missing}] beyond bound [${beyond}] misplaced [${misplaced}]`);
              }
              checked++;
            }
          }
          // Every player's entity is removed while its client stays connected: its decoded state empties.
          for (const id of [...players]) {
            const client = connections.get(id)!;
            interest.remove(id);
            room.patch();
            if (client.state === ClientState.JOINED) expect(client.held()).toEqual([]);
            despawn(id);
          }
          expect(interest.sharedViewCount).toBe(0);
          interest.scene.dispose();
        }),
        { numRuns: 25 },
      );
      expect(checked).toBeGreaterThan(2000);
      expect(switches).toBeGreaterThan(1000);
    });
  }

  it('groups by cubes in a 3-D scene: height decides the cell and what it holds', () => {
    const state = new WorldState({ frame: 0 });
    const serializer = new SchemaSerializer<WorldState>();
    serializer.reset(state);
    const interest = new Interest(new Scene({ dimensions: 3, defaultRange: 5 }), { sharedViews: { cell: 10 } });
    const spawn = (id: number, kind: string): Entity => {
      const entity = new Entity({ kind, x: 1, y: 1 });
      state.entities.set(String(id), entity);
      return entity;
    };
    const client = new DecodingClient();
    interest.addClient(1, client as unknown as Client, spawn(1, 'player'), { x: 1, y: 1, z: 1 });
    interest.addNpc(2, spawn(2, 'npc'), { x: 1, y: 1, z: 13 }); // beyond the range, inside the cell's bound (z up to 15)
    interest.addNpc(3, spawn(3, 'npc'), { x: 1, y: 1, z: 31 }); // beyond the bound
    client.acknowledge(serializer);
    expect(client.held()).toEqual([1, 2]);
    expect(codeOf(() => interest.move(1, 1, 1))).toBe('INVALID_NUMBER');
    interest.move(1, 1, 1, 28); // up two cells: 3 is in range, 2 is beyond the new cell's bound (z from 15)
    interest.update();
    serializer.applyPatches([client as unknown as Client]);
    expect(client.held()).toEqual([1, 3]);
    interest.update(); // the client moves onto its cell's shared view
    interest.move(3, 1, 1, 29);
    interest.update();
    serializer.applyPatches([client as unknown as Client]);
    expect(client.held()).toEqual([1, 3]);
    expect(interest.sharedViewCount).toBe(1);
    interest.scene.dispose();
  });

  it('follows NPCs registered before views were shared as they walk in and out of a cell', () => {
    const state = new WorldState({ frame: 0 });
    const serializer = new SchemaSerializer<WorldState>();
    serializer.reset(state);
    const interest = new Interest(new Scene({ backend: 'js', defaultRange: RANGE }));
    const spawn = (id: number, kind: string, x: number): Entity => {
      const entity = new Entity({ kind, x, y: 1 });
      state.entities.set(String(id), entity);
      return entity;
    };
    interest.addNpc(2, spawn(2, 'npc', 40), { x: 40, y: 1 });
    interest.addNpc(3, spawn(3, 'npc', 5), { x: 5, y: 1, range: 30 });
    interest.setSharedViews({ cell: CELL });
    const client = new DecodingClient();
    interest.addClient(1, client as unknown as Client, spawn(1, 'player', 1), { x: 1, y: 1 });
    client.acknowledge(serializer);
    expect(client.held()).toEqual([1, 3]); // the cell [0, 8) grown by 10 ends at 18
    const walk = (id: number, x: number, held: number[]): void => {
      interest.move(id, x, 1);
      interest.update();
      serializer.applyPatches([client as unknown as Client]);
      expect(client.held()).toEqual(held);
    };
    walk(2, 12, [1, 2, 3]); // into the client's range
    walk(3, 30, [1, 2]); // out of the cell's bound
    walk(2, 18, [1, 2]); // on the bound's edge
    walk(2, 18.5, [1]);
    walk(3, 17, [1, 3]);
    interest.scene.dispose();
  });

  it('refuses bad settings with a code and keeps the room as it was', () => {
    const room = sharedRoom('js');
    const { interest } = room;
    for (const cell of [0, -4]) expect(codeOf(() => interest.setSharedViews({ cell }))).toBe('INVALID_ARGUMENT');
    for (const cell of [Number.NaN, Infinity]) expect(codeOf(() => interest.setSharedViews({ cell }))).toBe('INVALID_NUMBER');
    expect(codeOf(() => new Interest(new Scene({ backend: 'js' }), { sharedViews: { cell: 0 } }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => new Interest(new Scene({ backend: 'js' }), { sharedViews: { cell: 5 }, seeSelf: false }))).toBe('INVALID_ARGUMENT');
    expect(interest.sharedViews).toEqual({ cell: CELL });

    const entity = room.spawn(1, 'player', 5, 5);
    const client = new DecodingClient();
    expect(codeOf(() => interest.addClient(1, client as unknown as Client, entity, { x: 5, y: 5, range: 3 }))).toBe('INVALID_ARGUMENT');
    expect(interest.has(1)).toBe(false);
    interest.addClient(1, client as unknown as Client, entity, { x: 5, y: 5 });
    expect(codeOf(() => interest.setSharedViews(null))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => interest.setSharedViews({ cell: 4 }))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => interest.setRange(1, 30))).toBe('INVALID_ARGUMENT');
    expect(codeOf(() => interest.reconnect(99, client as unknown as Client))).toBe('UNKNOWN_ID');
    expect(interest.sharedViews).toEqual({ cell: CELL });

    // The room carries on: the client still gets what it sees.
    client.acknowledge(room.serializer);
    const npc = room.spawn(2, 'npc', 7, 7);
    interest.addNpc(2, npc, { x: 7, y: 7 });
    room.connections.set(1, client);
    interest.update();
    room.patch();
    expect(client.held()).toEqual([1, 2]);
    interest.remove(1);
    expect(codeOf(() => interest.setSharedViews(null))).toBe(null);
    expect(interest.sharedViews).toBe(null);
    interest.scene.dispose();
  });
});
