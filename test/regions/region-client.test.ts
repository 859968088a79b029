// RegionClient's bad input and failures, against stand-ins of the SDK's
// Client and Room that play what a region room sends: a client used before
// it has joined or after it has left, a join the room refuses, and a
// reservation for a room that has gone. Each is a coded SpatialError, and
// no input is lost.
import { describe, expect, it } from 'vitest';
import { SpatialError } from '../../src/index.js';
import { REGION_MESSAGES, RegionClient, type RegionSdkClient, type RegionSdkRoom } from '../../src/colyseus/client/index.js';
import { codeOf } from '../support/codes.js';

/** A room as the SDK gives it, whose messages and states a test plays. */
class PlayedRoom implements RegionSdkRoom {
  state: unknown = {};
  readonly sent: Array<[string, unknown]> = [];
  left = false;
  private readonly handlers = new Map<string, (message: unknown) => void>();
  private stateListener: (state: unknown) => void = () => {};
  private dropListener: (code: number) => void = () => {};
  private reconnectListener: () => void = () => {};
  readonly reconnection = { minUptime: 5000, enabled: true };

  onStateChange(listener: (state: unknown) => void): void {
    this.stateListener = listener;
  }
  onMessage(type: string, listener: (message: unknown) => void): void {
    this.handlers.set(type, listener);
  }
  onLeave(): void {}
  onDrop(listener: (code: number) => void): void {
    this.dropListener = listener;
  }
  onReconnect(listener: () => void): void {
    this.reconnectListener = listener;
  }

  /** The connection drops (the SDK reconnects by itself), then comes back. */
  drop(): void {
    this.dropListener(1006);
  }
  reconnect(): void {
    this.reconnectListener();
  }
  send(type: string, message: unknown): void {
    this.sent.push([type, message]);
  }
  async leave(): Promise<void> {
    this.left = true;
  }

  /** The room sends message of type. */
  message(type: string, message: unknown): void {
    this.handlers.get(type)?.(message);
  }

  /** A patch: the state at tick, the player (id) at (x, y) having applied inputs up to seq, seeing others. */
  patch(tick: number, id: number, x: number, y: number, seq: number, others: Array<[number, number, number]> = []): void {
    const entities = new Map([[String(id), { x, y, seq }], ...others.map(([o, ox, oy]) => [String(o), { x: ox, y: oy, seq: 0 }] as const)]);
    this.stateListener({ tick, entities });
  }
}

/** A Client whose join gives room (or throws refusal), and whose seat reservations throw `gone`. */
function client(room: PlayedRoom, refusal: Error | null = null, gone: Error | null = null): RegionSdkClient {
  return {
    join: async () => {
      if (refusal !== null) throw refusal;
      return room;
    },
    consumeSeatReservation: async () => {
      if (gone !== null) throw gone;
      return new PlayedRoom();
    },
  };
}

describe('RegionClient', () => {
  it('refuses to move or show a view before it has joined, and anything after it has left', async () => {
    const room = new PlayedRoom();
    const player = new RegionClient(client(room));
    expect(codeOf(() => player.move(1, 1))).toBe('NOT_INITIALIZED');
    expect(codeOf(() => player.view)).toBe('NOT_INITIALIZED');
    expect(player.pending).toBe(0);
    await player.join('region', 0, { id: 7 });
    expect(codeOf(() => player.id)).toBe('NOT_INITIALIZED'); // no view yet
    expect(codeOf(() => player.move(Number.NaN, 1))).toBe('INVALID_NUMBER');
    expect(player.pending).toBe(0);
    expect(player.move(2, 3)).toBe(1);
    expect(room.sent).toEqual([[REGION_MESSAGES.input, { seq: 1, x: 2, y: 3 }]]);
    await player.leave();
    expect(room.left).toBe(true);
    expect(codeOf(() => player.move(1, 1))).toBe('DISPOSED');
    await expect(player.join('region', 0)).rejects.toThrow(expect.objectContaining({ code: 'DISPOSED' }));
  });

  it("rejects a join the room refuses with the room's code", async () => {
    const player = new RegionClient(client(new PlayedRoom(), new Error('DUPLICATE_ID: entity 7 is already in the world')));
    const error = await player.join('region', 0, { id: 7 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SpatialError);
    expect((error as SpatialError).code).toBe('DUPLICATE_ID');
    expect(codeOf(() => player.move(1, 1))).toBe('NOT_INITIALIZED');
  });

  it('keeps its view and its queued inputs when the reserved room has gone, and tells onError REGION_TIMEOUT', async () => {
    const room = new PlayedRoom();
    const player = new RegionClient(client(room, null, new Error('process 3 is not available.')));
    const errors: SpatialError[] = [];
    player.onError((e) => errors.push(e));
    await player.join('region', 0, { id: 7 });
    room.message(REGION_MESSAGES.welcome, { id: 7, seq: 0 });
    room.patch(5, 7, 10, 10, 0, [[8, 11, 10]]);
    player.move(11, 10);
    player.move(12, 10);
    room.patch(6, 7, 11, 10, 1, [[8, 11, 10]]);
    expect(player.view).toEqual({ tick: 6, self: { id: 7, x: 11, y: 10, seq: 1 }, entities: new Map([[8, { x: 11, y: 10 }]]), region: 0 });
    expect(player.pending).toBe(1);

    // The player crosses: the room says its view has ended, then sends a reservation that cannot be taken.
    room.message(REGION_MESSAGES.leaving, { tick: 7 });
    room.patch(7, 7, 12, 10, 2); // the old room no longer holds the player's view: not shown
    room.message(REGION_MESSAGES.handoff, { reservation: {}, id: 7, seq: 2, region: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors.map((e) => e.code)).toEqual(['REGION_TIMEOUT']);
    expect(player.view.tick).toBe(6);
    expect(player.handingOff).toBe(true);
    expect(player.move(13, 10)).toBe(3); // queued, not sent to a room that no longer has the player
    expect(player.pending).toBe(2);
    expect(room.sent.map(([, m]) => (m as { seq: number }).seq)).toEqual([1, 2]);
  });

  it('follows a reservation: sends the new room the inputs not applied yet, leaves the old one, keeps its id', async () => {
    const old = new PlayedRoom();
    const next = new PlayedRoom();
    const player = new RegionClient({ join: async () => old, consumeSeatReservation: async () => next });
    const ticks: number[] = [];
    player.onView((v) => ticks.push(v.tick));
    await player.join('region', 0, { id: 7 });
    old.message(REGION_MESSAGES.welcome, { id: 7, seq: 0 });
    old.patch(1, 7, 10, 10, 0);
    for (const x of [11, 12, 13]) player.move(x, 10);
    old.patch(2, 7, 11, 10, 1);
    old.message(REGION_MESSAGES.leaving, { tick: 3 });
    player.move(14, 10); // during the switch
    old.message(REGION_MESSAGES.handoff, { reservation: {}, id: 7, seq: 2, region: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(old.left).toBe(true);
    expect(next.sent.map(([, m]) => (m as { seq: number }).seq)).toEqual([3, 4]);
    next.patch(4, 7, 12, 10, 2); // not welcomed here yet, but the player is known: shown
    next.patch(5, 7, 13, 10, 3);
    expect(ticks).toEqual([1, 2, 4, 5]);
    expect(player.id).toBe(7);
    expect(player.view.region).toBe(1);
    expect(player.pending).toBe(1);
    expect(player.handoffs).toBe(1);
  });

  it('after a dropped connection comes back, sends again the inputs not applied, and follows a hand-off sent twice once', async () => {
    const old = new PlayedRoom();
    const next = new PlayedRoom();
    let reservations = 0;
    const player = new RegionClient({ join: async () => old, consumeSeatReservation: async () => (reservations++, next) });
    await player.join('region', 0, { id: 7 });
    expect(old.reconnection.minUptime).toBe(0); // a stay between two hand-offs is short: the SDK may reconnect after any
    old.message(REGION_MESSAGES.welcome, { id: 7, seq: 0 });
    old.patch(1, 7, 10, 10, 0);
    player.move(11, 10);
    player.move(12, 10);
    old.drop();
    expect(player.reconnecting).toBe(true);
    player.move(13, 10);
    old.reconnect();
    expect(player.reconnecting).toBe(false);
    // Inputs 1 and 2 went before the drop and may be lost with it: all three go again, and the room drops repeats.
    expect(old.sent.map(([, m]) => (m as { seq: number }).seq)).toEqual([1, 2, 3, 1, 2, 3]);
    old.patch(2, 7, 11, 10, 1);
    expect(player.pending).toBe(2);

    // The room handed the player on while the connection was down, and sends the reservation again on its return.
    old.message(REGION_MESSAGES.leaving, { tick: 3 });
    old.message(REGION_MESSAGES.handoff, { reservation: {}, id: 7, seq: 2, region: 1 });
    old.message(REGION_MESSAGES.handoff, { reservation: {}, id: 7, seq: 2, region: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(reservations).toBe(1);
    expect(next.sent.map(([, m]) => (m as { seq: number }).seq)).toEqual([3]);
    expect(player.handoffs).toBe(1);
  });

  it('gives up on a connection that does not come back in reconnectMs: REGION_TIMEOUT once, the last view kept', async () => {
    expect(codeOf(() => new RegionClient(client(new PlayedRoom()), { reconnectMs: -1 }))).toBe('INVALID_NUMBER');
    const room = new PlayedRoom();
    const player = new RegionClient(client(room), { reconnectMs: 20 });
    const errors: SpatialError[] = [];
    player.onError((e) => errors.push(e));
    await player.join('region', 0, { id: 7 });
    room.message(REGION_MESSAGES.welcome, { id: 7, seq: 0 });
    room.patch(1, 7, 10, 10, 0);
    room.drop();
    room.drop(); // a failed attempt: the clock is not restarted
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(errors.map((e) => e.code)).toEqual(['REGION_TIMEOUT']);
    expect(room.reconnection.enabled).toBe(false);
    expect(player.reconnecting).toBe(false);
    expect(player.view.tick).toBe(1);
  });
});
