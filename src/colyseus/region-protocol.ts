// What a region room and a client's RegionClient say to each other, besides
// the room state: plain data and message names, with no import, so a browser
// client takes them without any server code.

/** What a client sends to move its player: go to (x, y). `seq` numbers a client's inputs 1, 2, 3, ... across every room it passes through. */
export interface RegionInput {
  /** The input's number: one more than the client's previous input. */
  seq: number;
  /** Where the player goes. */
  x: number;
  /** Where the player goes. */
  y: number;
}

/** Sent by a room when the client's player is in its view and state: the player's entity id and the last input applied. */
export interface RegionWelcome {
  /** The player's entity id, the same in every room. */
  id: number;
  /** The last input applied to the player (0: none yet). */
  seq: number;
  /** With takeovers, a secret of this client's: it claims the player again in the room that takes the region over if this room's process dies. */
  key?: string;
}

/**
 * Sent by a room once it has handed the player to a neighbour: a seat in the
 * neighbour's room, reserved through the Colyseus matchmaker, to be taken
 * with `client.consumeSeatReservation`.
 */
export interface RegionHandoffMessage {
  /** The seat reservation (the matchmaker's, passed on as it is). */
  reservation: unknown;
  /** The player's entity id. */
  id: number;
  /** The last input the old room applied; the next ones go to the new room. */
  seq: number;
  /** The region the player now belongs to. */
  region: number;
  /** The one-use ticket the reservation carries: should the reserved room be gone (taken over), the client joins the region's room with it. */
  ticket: string;
}

/** Sent by a room when something a client asked for failed: a SpatialError code, and why. */
export interface RegionFailure {
  /** The SpatialError code. */
  code: string;
  /** What went wrong. */
  message: string;
  /** The input refused, when it was an input. */
  seq?: number;
}

/** Message types between a region room and its clients. */
export const REGION_MESSAGES = {
  /** client -> room: a {@link RegionInput}. */
  input: 'region:input',
  /** room -> client: a {@link RegionWelcome}. */
  welcome: 'region:welcome',
  /** room -> client: the player has left this room's region; its view here stops at the previous patch. */
  leaving: 'region:leaving',
  /** room -> client: a {@link RegionHandoffMessage}. */
  handoff: 'region:handoff',
  /** room -> client: a {@link RegionFailure} (an input refused, or a hand-off that could not be made). */
  failure: 'region:failure',
} as const;
