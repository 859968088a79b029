// Starts the example server: `npm run example:colyseus` (port 2567, or PORT).
// Then connect bots: `npm run example:colyseus:bots -- 50`.
import { startServer } from './server.js';

const running = await startServer({ port: Number(process.env.PORT ?? 2567) });
console.log(`world server on ws://127.0.0.1:${running.port} (room 'world'); Ctrl-C stops it`);
process.on('SIGINT', () => {
  void running.close().then(() => process.exit(0));
});
