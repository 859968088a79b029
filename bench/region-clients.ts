// The SDK clients of the regions bench, in a process of their own (see
// runRoomClients): prints the measurement as one line of JSON.
import { measureRoomClients } from './region-processes.js';

const [walkers, pairs, pacers, seconds] = JSON.parse(process.argv[2]) as number[];
const result = await measureRoomClients(walkers, pairs, pacers, seconds);
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
