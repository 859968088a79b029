// Runs bench/room-capacity.ts's search in a process of its own (see
// runRoomCapacity): prints the result as one line of JSON.
import { largestRoom, measureRoom } from './room-capacity.js';

// A shared views' cell side left out arrives as null (JSON has no undefined).
const [from, ticks, bisections, sharedCell] = JSON.parse(process.argv[2]) as [number, number, number, number | null];
const cell = sharedCell ?? undefined;
const result = bisections < 0 ? { players: 0, measured: [await measureRoom(from, ticks, cell)] } : await largestRoom(from, ticks, bisections, cell);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
