// A generated tile map for the paths panel: a recursive-backtracker maze with
// extra openings (so there are many routes to compare) and a few open rooms
// (where the diagonal rules make a visible difference).
import { mulberry32 } from '../bench/random.js';

/** A tile map: walkable[y * width + x] is 1 for open tiles, 0 for walls. */
export interface TileMap {
  readonly width: number;
  readonly height: number;
  readonly walkable: Uint8Array;
}

/** A maze of odd width and height (rounded up), reproducible from the seed. */
export function generateMaze(width: number, height: number, seed: number): TileMap {
  width |= 1;
  height |= 1;
  const random = mulberry32(seed);
  const walkable = new Uint8Array(width * height);
  const open = (x: number, y: number) => {
    walkable[y * width + x] = 1;
  };

  // Carve corridors between the odd cells with a depth-first walk.
  const stack: Array<[number, number]> = [[1, 1]];
  open(1, 1);
  const steps: Array<[number, number]> = [[2, 0], [-2, 0], [0, 2], [0, -2]];
  while (stack.length > 0) {
    const [x, y] = stack[stack.length - 1]!;
    const choices = steps.filter(([dx, dy]) => {
      const nx = x + dx;
      const ny = y + dy;
      return nx > 0 && ny > 0 && nx < width - 1 && ny < height - 1 && walkable[ny * width + nx] === 0;
    });
    if (choices.length === 0) {
      stack.pop();
      continue;
    }
    const [dx, dy] = choices[Math.floor(random() * choices.length)]!;
    open(x + dx / 2, y + dy / 2);
    open(x + dx, y + dy);
    stack.push([x + dx, y + dy]);
  }

  // Knock out some inner walls so the maze has loops.
  for (let i = 0; i < (width * height) / 14; i++) {
    const x = 1 + Math.floor(random() * (width - 2));
    const y = 1 + Math.floor(random() * (height - 2));
    open(x, y);
  }

  // A few rectangular rooms, with a pillar or two left standing inside.
  for (let room = 0; room < 5; room++) {
    const w = 5 + Math.floor(random() * 8);
    const h = 4 + Math.floor(random() * 6);
    const x0 = 1 + Math.floor(random() * (width - w - 2));
    const y0 = 1 + Math.floor(random() * (height - h - 2));
    for (let y = y0; y < y0 + h; y++) for (let x = x0; x < x0 + w; x++) open(x, y);
    walkable[(y0 + (h >> 1)) * width + x0 + (w >> 1)] = 0;
  }
  return { width, height, walkable };
}

/** The map in the Moving AI Lab .map format ('.' open, '@' wall). */
export function toMovingAI(map: TileMap): string {
  const rows: string[] = [];
  for (let y = 0; y < map.height; y++) {
    let row = '';
    for (let x = 0; x < map.width; x++) row += map.walkable[y * map.width + x] === 1 ? '.' : '@';
    rows.push(row);
  }
  return `type octile\nheight ${map.height}\nwidth ${map.width}\nmap\n${rows.join('\n')}\n`;
}
