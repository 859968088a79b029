// A player of the two-region world of main.ts: joins region 0 near the
// border, walks east across x = 500 and back, and prints what it sees. The
// RegionClient follows the hand-off to region 1's room (on the other
// process) by itself; the view and the input numbering go on unbroken.
//
//   node scripts/run-ts.mjs examples/region-server/client.ts 2567
import { Client } from '@colyseus/sdk';
import { RegionClient } from 'spatialkit/colyseus-client';

const port = Number(process.argv[2] ?? 2567);
const player = new RegionClient(new Client(`ws://127.0.0.1:${port}`));
player.onError((error) => console.warn(error.code, error.message)); // an input refused, a hand-off that failed
player.onView((view) => {
  const seen = [...view.entities].map(([id, e]) => `${id}@${e.x},${e.y}`).join(' ');
  console.log(`tick ${view.tick} region ${view.region}: me ${view.self.x},${view.self.y} sees ${seen}`);
});
await player.join('region', 0, { id: 1000 + Math.floor(Math.random() * 1e6), x: 490, y: 250 });

let x = 490;
let step = -1;
const walk = setInterval(() => {
  if (x >= 510 || x <= 490) step = -step;
  x += step;
  player.move(x, 250); // queued until applied; sent on to the new room across a hand-off
}, 50);
setTimeout(async () => {
  clearInterval(walk);
  await player.leave();
  console.log(`hand-offs: ${player.handoffs}`);
}, 10_000);
