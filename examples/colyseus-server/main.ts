// Starts the example server: `npm run example:colyseus` (port 2567, or PORT;
// SHARED_CELL=50 shares one view among the clients of each 50-unit cell).
// Then connect bots: `npm run example:colyseus:bots -- 50`.
import { startServer } from './server.js';

const sharedCell = Number(process.env.SHARED_CELL ?? 0);
const running = await startServer({ port: Number(process.env.PORT ?? 2567), world: { sharedCell } });
console.log(`world server on ws://127.0.0.1:${running.port} (room 'world'); Ctrl-C stops it`);
process.on('SIGINT', () => {
  void running.close().then(() => process.exit(0));
});
