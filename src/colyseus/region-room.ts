// A Colyseus room that simulates one region of a world cut into regions,
// in lockstep with the rooms of the other regions, wherever they run: their
// messages go over a RegionBus (RedisRegionBus between processes).
import { Room } from '@colyseus/core';
import type { PeerTick, RegionBus, RegionLayout, RegionPeerOptions } from '../regions/index.js';
import { RegionPeer } from '../regions/index.js';

/** What a region room is created with (`matchMaker.createRoom(name, { region })`). */
export interface RegionRoomOptions {
  /** The id, in the layout, of the region this room simulates. */
  region: number;
}

/**
 * One region as a Colyseus room. A subclass says which layout and bus to
 * use, submits each tick's operations in {@link beforeTick} (through
 * `this.peer`), and reads the tick's events in {@link afterTick}. The room
 * ticks as soon as every live region has finished the last tick, plus
 * {@link tickDelayMs}; it stays open with no client (its entities live on).
 */
export abstract class RegionRoom extends Room {
  /** The region simulated here, and its link to the others; set in onCreate. */
  peer!: RegionPeer;
  /** Pause between ticks (default 0: as fast as the slowest region). */
  tickDelayMs = 0;
  private running = false;
  private loop: Promise<void> = Promise.resolve();

  /** The layout every region room of the world shares. */
  protected abstract layout(): RegionLayout;

  /** A new bus for this room (each room its own connections). */
  protected abstract bus(): RegionBus;

  /** Options of the peer (Scene backend and index, timeouts, onTimeout). */
  protected peerOptions(): RegionPeerOptions {
    return {};
  }

  /** Called before each tick: submit its operations through `this.peer` here. */
  protected beforeTick(_tick: number): void {}

  /** Called after each tick with what it gave; return false to stop ticking. */
  protected afterTick(_tick: number, _result: PeerTick): boolean | void {}

  /** Called when the tick loop stops on an error (by default, the error is logged). */
  protected onLoopError(error: unknown): void {
    console.error(`region room ${this.peer?.id}:`, error);
  }

  /** Creates the region's peer and starts ticking once every region listens. */
  override onCreate(options: RegionRoomOptions): void {
    this.autoDispose = false;
    this.peer = new RegionPeer(this.layout(), options.region, this.bus(), this.peerOptions());
    this.running = true;
    this.loop = this.run().catch((error: unknown) => this.onLoopError(error));
  }

  /** Stops ticking and closes the peer. */
  override async onDispose(): Promise<void> {
    this.running = false;
    await this.loop;
    await this.peer.close();
  }

  private async run(): Promise<void> {
    await this.peer.start();
    while (this.running) {
      const tick = this.peer.region.ticks;
      this.beforeTick(tick);
      const result = await this.peer.tick();
      if (!this.running || this.afterTick(tick, result) === false) break;
      await new Promise((resolve) => setTimeout(resolve, this.tickDelayMs));
    }
  }
}
