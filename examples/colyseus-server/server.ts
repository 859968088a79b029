// The example game server: one world room over Colyseus's WebSocket
// transport, bound to 127.0.0.1 only.
import { Server, type Room } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import type { AddressInfo } from 'node:net';
import { supplyWebSocketGlobal } from './node20.js';
import { WorldRoom, type WorldOptions } from './room.js';

/** A running example server. */
export interface RunningServer {
  /** The port it listens on, on 127.0.0.1. */
  port: number;
  /** Disconnects every client, disposes the rooms and closes the port. */
  close(): Promise<void>;
}

export interface ServerSettings {
  /** Port on 127.0.0.1 (0 picks a free one; default 2567). */
  port?: number;
  /** Options of the world room. */
  world?: WorldOptions;
  /** Room class registered as 'world' (default WorldRoom). */
  room?: new () => Room;
}

/** Starts the server with one room type, 'world', and resolves once it listens. */
export async function startServer(settings: ServerSettings = {}): Promise<RunningServer> {
  supplyWebSocketGlobal();
  const transport = new WebSocketTransport();
  const server = new Server({ transport, greet: false, gracefullyShutdown: false });
  server.define('world', settings.room ?? WorldRoom, settings.world ?? {});
  await server.listen(settings.port ?? 2567, '127.0.0.1');
  const address = transport.server?.address() as AddressInfo;
  return {
    port: address.port,
    close: () => server.gracefullyShutdown(false),
  };
}
