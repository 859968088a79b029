// The Colyseus example as a user runs it: `npm run example:colyseus` in a
// process of its own (it builds the package, bundles the server and starts
// it on 127.0.0.1), then an SDK client joins, learns its entity id from the
// welcome message, loses its connection without leaving, and comes back with
// its reconnection token. On Node 20 that reconnection needs the WebSocket
// global the example supplies; the client must then see its own entity and
// its surroundings move on.
import { Client, type Room } from '@colyseus/sdk';
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WelcomeMessage } from '../../examples/colyseus-server/room.js';
import type { WorldState } from '../../examples/colyseus-server/schema.js';

const ROOT = resolve(__dirname, '../..');
/** The example's defaults: a player sees 60 units on each axis. */
const PLAYER_RANGE = 60;

let server: ChildProcess | undefined;
let output = '';
let url = '';

/** Stops the example and everything it started (npm, the shell, node). */
function stop(): void {
  if (server?.pid !== undefined && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

beforeAll(async () => {
  // PORT=0: a free port, which the server prints.
  server = spawn('npm', ['run', 'example:colyseus'], { cwd: ROOT, env: { ...process.env, PORT: '0' }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  process.on('exit', stop);
  url = await new Promise<string>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`the example did not start:\n${output}`)), 240_000);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /world server on (ws:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolvePort(match[1]);
      }
    };
    server!.stdout!.on('data', read);
    server!.stderr!.on('data', read);
    server!.on('exit', (code) => reject(new Error(`the example exited with ${String(code)}:\n${output}`)));
  });
}, 300_000);

afterAll(() => {
  stop();
  process.off('exit', stop);
});

/** Resolves once the room's state satisfies `ready`, checked at every state change. */
function until(room: Room<unknown, WorldState>, ready: (state: WorldState) => boolean): Promise<void> {
  return new Promise((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error('state never got there')), 20_000);
    const check = (state: WorldState): void => {
      if (!ready(state)) return;
      clearTimeout(timer);
      room.onStateChange.remove(check);
      resolveReady();
    };
    room.onStateChange(check);
  });
}

describe('the Colyseus example, started as the README says', () => {
  it('starts without warnings and lets a dropped client reconnect with its token to the view it had', async () => {
    expect(output).not.toMatch(/WARNING|sideEffects/);

    const room = await new Client(url).joinOrCreate<WorldState>('world', { x: 500, y: 500 });
    const welcome = await new Promise<WelcomeMessage>((resolveWelcome) => room.onMessage('welcome', resolveWelcome));
    const self = String(welcome.id);
    await until(room, (state) => state.entities?.get(self) !== undefined && state.frame > 2);
    const me = room.state.entities.get(self)!;
    expect([me.kind, me.x, me.y]).toEqual(['player', 500, 500]);

    // The connection drops without a leave; the client comes back with its token.
    room.reconnection.enabled = false;
    const token = room.reconnectionToken;
    const dropped = new Promise<void>((resolveDrop) => {
      room.onDrop(() => resolveDrop());
      room.onLeave(() => resolveDrop());
    });
    (room.connection.transport as unknown as { ws: { terminate(): void } }).ws.terminate();
    await dropped;
    const back = await new Client(url).reconnect<WorldState>(token);
    expect(back.sessionId).toBe(room.sessionId);

    // Its view: its own player where it left it, and only what that player sees, moving on.
    const frame = await new Promise<number>((resolveFrame) => back.onStateChange.once((state) => resolveFrame(state.frame)));
    await until(back, (state) => state.frame > frame + 5);
    const entities = back.state.entities;
    const mine = entities.get(self)!;
    expect([mine.kind, mine.x, mine.y]).toEqual(['player', 500, 500]);
    for (const entity of entities.values()) {
      expect(Math.abs(entity.x - 500)).toBeLessThanOrEqual(PLAYER_RANGE + 1e-3);
      expect(Math.abs(entity.y - 500)).toBeLessThanOrEqual(PLAYER_RANGE + 1e-3);
    }
    await back.leave();
  });
});
