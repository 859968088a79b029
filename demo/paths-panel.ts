// Paths panel: a generated maze (or a Moving AI .map file) on a GridMap.
// Clicks set the start and the goal in turn; the path is searched again every tick with the chosen
// algorithm and diagonal rule, and drawn with its cost and search time.
import type { DemoHook, PathsSnapshot } from './hook.js';
import type { Components, DiagonalRule, GridAlgorithm, GridMapApi } from './library.js';
import { generateMaze, toMovingAI, type TileMap } from './maze.js';
import { createPanelFrame, element, labelled, select, selectedBackend, type Panel } from './panel.js';

const WIDTH = 440;
const HEIGHT = 320;
const TILE_SIZES: Record<string, number> = { coarse: 6, fine: 2 };

type SearchResult = { path: Array<[number, number]>; cost: number } | null;

export function createPathsPanel(
  parent: HTMLElement,
  GridMap: Components['GridMap'],
): { panel: Panel; hook: NonNullable<DemoHook['paths']> } {
  const frame = createPanelFrame(
    parent,
    'paths',
    'Paths: how to get there',
    'GridMap over a generated maze or your own Moving AI .map. Click to set the start, click again for the goal; the search reruns every tick.',
    WIDTH,
    HEIGHT,
  );
  const mapSelect = select('paths-map', [
    ['coarse', 'maze 73×53'],
    ['fine', 'maze 219×159'],
  ]);
  const algorithmSelect = select('paths-algorithm', [
    ['astar', 'A*'],
    ['jps', 'JPS'],
    ['dijkstra', 'Dijkstra'],
    ['spfa', 'SPFA'],
  ]);
  const diagonalSelect = select('paths-diagonal', [
    ['no-corner-cutting', 'no corner cutting'],
    ['never', 'never'],
    ['always', 'always'],
    ['one-obstacle', 'one obstacle'],
  ]);
  const fileInput = element('input');
  fileInput.type = 'file';
  fileInput.id = 'paths-file';
  fileInput.accept = '.map';
  frame.controls.prepend(
    labelled('map', mapSelect),
    labelled('or load a .map', fileInput),
    labelled('search', algorithmSelect),
    labelled('diagonal', diagonalSelect),
  );
  const costOutput = element('output');
  costOutput.id = 'paths-cost';
  const details = element('span');
  const problem = element('div', 'problem');
  frame.info.append('cost ', costOutput, ' ', details, problem);

  let tile = 6;
  let map: TileMap = { width: 0, height: 0, walkable: new Uint8Array(0) };
  let loaded: TileMap | null = null;
  const background = element('canvas');
  let grid: GridMapApi | null = null;
  let start: [number, number] = [1, 1];
  let goal: [number, number] = [1, 1];
  let settingGoal = false;
  let result: SearchResult = null;

  /** Shows the map the selector names: a maze of its tile size, or the loaded file. */
  function chooseMap(): void {
    const size = TILE_SIZES[mapSelect.value];
    if (size !== undefined) {
      // Odd sizes (a maze's walls sit on even rows and columns) that fit the canvas.
      const odd = (n: number) => (n % 2 === 1 ? n : n - 1);
      useMap(generateMaze(odd(Math.floor(WIDTH / size)), odd(Math.floor(HEIGHT / size)), 7));
    } else if (loaded !== null) useMap(loaded);
  }

  /** Fits the map to the canvas and puts start and goal on the open tiles nearest two corners. */
  function useMap(next: TileMap): void {
    map = next;
    const fit = Math.min(WIDTH / map.width, HEIGHT / map.height);
    tile = fit >= 1 ? Math.floor(fit) : fit; // whole pixels leave no seams between wall tiles
    const open = (i: number): [number, number] => [i % map.width, Math.floor(i / map.width)];
    start = open(Math.max(0, map.walkable.indexOf(1)));
    goal = open(Math.max(0, map.walkable.lastIndexOf(1)));
    settingGoal = false;
    paintBackground();
  }

  /** Reads a Moving AI map with the library's own parser. */
  function readMovingAI(text: string): TileMap {
    const parsed = GridMap.fromMovingAI(text, { backend: 'js' });
    const walkable = new Uint8Array(parsed.width * parsed.height);
    for (let y = 0; y < parsed.height; y++) {
      for (let x = 0; x < parsed.width; x++) walkable[y * parsed.width + x] = parsed.isWalkable(x, y) ? 1 : 0;
    }
    parsed.dispose();
    return { width: parsed.width, height: parsed.height, walkable };
  }

  /** Walls are drawn once into an offscreen canvas, then copied every frame. */
  function paintBackground(): void {
    background.width = Math.ceil(map.width * tile);
    background.height = Math.ceil(map.height * tile);
    const g = background.getContext('2d')!;
    g.fillStyle = '#e2e8f0';
    g.fillRect(0, 0, background.width, background.height);
    g.fillStyle = '#1e293b';
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        if (map.walkable[y * map.width + x] === 0) g.fillRect(x * tile, y * tile, tile, tile);
      }
    }
  }

  function rebuild(): void {
    grid?.dispose();
    grid = new GridMap(map.width, map.height, { backend: selectedBackend(frame) });
    for (let y = 0; y < map.height; y++) {
      for (let x = 0; x < map.width; x++) {
        if (map.walkable[y * map.width + x] === 0) grid.setWalkable(x, y, false);
      }
    }
    frame.timer.reset();
    search();
  }

  function search(): void {
    if (grid === null) return;
    const options = { algorithm: algorithmSelect.value as GridAlgorithm, diagonal: diagonalSelect.value as DiagonalRule };
    result = frame.timer.measure(() => grid!.findPath(start[0], start[1], goal[0], goal[1], options));
    costOutput.textContent = result === null ? 'unreachable' : result.cost.toFixed(3);
    details.textContent =
      (result === null ? '' : `· ${result.path.length} tiles `) +
      // Smoothed over the ticks: one search is often below the page's clock resolution.
      `· search ${frame.timer.milliseconds.toFixed(3)} ms · next click sets the ${settingGoal ? 'goal' : 'start'}`;
  }

  function draw(): void {
    const g = frame.context;
    g.fillStyle = '#0f172a';
    g.fillRect(0, 0, WIDTH, HEIGHT);
    g.drawImage(background, 0, 0);
    if (result !== null && result.path.length > 1) {
      g.strokeStyle = '#e11d48';
      g.lineWidth = Math.max(1.5, tile / 2);
      g.lineJoin = 'round';
      g.beginPath();
      result.path.forEach(([x, y], i) => {
        const cx = (x + 0.5) * tile;
        const cy = (y + 0.5) * tile;
        if (i === 0) g.moveTo(cx, cy);
        else g.lineTo(cx, cy);
      });
      g.stroke();
    }
    marker(start, '#16a34a');
    marker(goal, '#2563eb');
  }

  function marker([x, y]: [number, number], colour: string): void {
    const g = frame.context;
    const size = Math.max(tile, 5);
    g.fillStyle = colour;
    g.fillRect((x + 0.5) * tile - size / 2, (y + 0.5) * tile - size / 2, size, size);
  }

  frame.canvas.addEventListener('click', (event) => {
    const rect = frame.canvas.getBoundingClientRect();
    const x = Math.floor((event.clientX - rect.left) / tile);
    const y = Math.floor((event.clientY - rect.top) / tile);
    if (x < 0 || y < 0 || x >= map.width || y >= map.height || map.walkable[y * map.width + x] === 0) return;
    if (settingGoal) goal = [x, y];
    else start = [x, y];
    settingGoal = !settingGoal;
    search();
    draw();
  });
  for (const control of [algorithmSelect, diagonalSelect]) {
    control.addEventListener('change', () => {
      frame.timer.reset();
      search();
    });
  }
  frame.backend.addEventListener('change', rebuild);
  mapSelect.addEventListener('change', () => {
    chooseMap();
    rebuild();
  });
  fileInput.addEventListener('change', async () => {
    const file = fileInput.files?.[0];
    if (file === undefined) return;
    try {
      loaded = readMovingAI(await file.text());
    } catch (error) {
      problem.textContent = `${file.name} is not a Moving AI map: ${String(error)}`;
      return;
    }
    problem.textContent = '';
    for (const option of Array.from(mapSelect.options)) if (!(option.value in TILE_SIZES)) option.remove();
    const option = element('option');
    option.value = 'file';
    option.textContent = `${file.name} ${loaded.width}×${loaded.height}`;
    mapSelect.append(option);
    mapSelect.value = 'file';
    chooseMap();
    rebuild();
  });
  chooseMap();
  rebuild();

  const panel: Panel = {
    frame(paused) {
      if (!paused) search();
      draw();
    },
  };

  const hook = {
    snapshot(): PathsSnapshot {
      return {
        backend: selectedBackend(frame),
        algorithm: algorithmSelect.value,
        diagonal: diagonalSelect.value,
        start: [...start],
        goal: [...goal],
        cost: result === null ? null : result.cost,
        path: result === null ? null : result.path.map(([x, y]): [number, number] => [x, y]),
        costText: costOutput.textContent ?? '',
      };
    },
    mapText: () => toMovingAI(map),
    pointOf: (x: number, y: number) => ({ x: (x + 0.5) * tile, y: (y + 0.5) * tile }),
  };
  return { panel, hook };
}
