// Runs bench/room-capacity.ts's search in a process of its own (see
// runRoomCapacity): prints the result as one line of JSON.
import { largestRoom, measureRoom } from './room-capacity.js';

const [from, ticks, bisections] = JSON.parse(process.argv[2]) as number[];
const result = bisections < 0 ? { players: 0, measured: [await measureRoom(from, ticks)] } : await largestRoom(from, ticks, bisections);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
