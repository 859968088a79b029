// A bot: a Colyseus SDK client in the world room that walks at random.
import { Client, type Room } from '@colyseus/sdk';
import type { MoveMessage } from './room.js';
import type { WorldState } from './schema.js';

/** One connected bot: its room, and a walk it takes one step of at a time. */
export interface Bot {
  room: Room<unknown, WorldState>;
  x: number;
  y: number;
  heading: number;
}

/** Joins the world room as a bot standing at (x, y). */
export async function connectBot(url: string, x: number, y: number): Promise<Bot> {
  const start: MoveMessage = { x, y };
  const room = await new Client(url).joinOrCreate<WorldState>('world', start);
  return { room, x, y, heading: Math.random() * 2 * Math.PI };
}

/** Sends the bot's next step (at most `step` long, inside [0, size]). */
export function walk(bot: Bot, step: number, size: number): void {
  bot.heading += (Math.random() - 0.5) * 0.8;
  bot.x = Math.min(size, Math.max(0, bot.x + Math.cos(bot.heading) * step));
  bot.y = Math.min(size, Math.max(0, bot.y + Math.sin(bot.heading) * step));
  const message: MoveMessage = { x: bot.x, y: bot.y };
  bot.room.send('move', message);
}
