// Connects N bots to the example server with the Colyseus SDK; each walks at
// random and the script prints, every second, how many entities the bots see.
// `npm run example:colyseus:bots -- [N=20] [seconds=0: until Ctrl-C] [url=ws://127.0.0.1:2567]`
import { connectBot, walk } from './bot.js';

const count = Number(process.argv[2] ?? 20);
const seconds = Number(process.argv[3] ?? 0);
const url = process.argv[4] ?? 'ws://127.0.0.1:2567';
const bots = await Promise.all(Array.from({ length: count }, () => connectBot(url, Math.random() * 1000, Math.random() * 1000)));
console.log(`${count} bots joined ${url}`);
const walking = setInterval(() => bots.forEach((bot) => walk(bot, 4, 1000)), 100);
const report = setInterval(() => {
  const seen = bots.map((bot) => bot.room.state.entities?.size ?? 0);
  const mean = seen.reduce((a, b) => a + b, 0) / seen.length;
  console.log(`entities in view per bot: mean ${mean.toFixed(1)}, min ${Math.min(...seen)}, max ${Math.max(...seen)}`);
}, 1000);
const stop = async (): Promise<void> => {
  clearInterval(walking);
  clearInterval(report);
  await Promise.all(bots.map((bot) => bot.room.leave()));
  process.exit(0);
};
process.on('SIGINT', () => void stop());
if (seconds > 0) setTimeout(() => void stop(), seconds * 1000);
