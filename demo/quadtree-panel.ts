// QuadTree panel: moving rectangles re-indexed every tick, colliding pairs
// from the tree's broad-phase highlighted in red, the tree's cells (its
// leaves, from tree.cells()) drawn under them, and a range query under the
// pointer.
import type { DemoHook, QuadTreeSnapshot } from './hook.js';
import type { Components, QuadTreeApi } from './library.js';
import { createPanelFrame, labelled, selectedBackend, slider, type Panel } from './panel.js';
import { mulberry32 } from '../bench/random.js';

const WIDTH = 440;
const HEIGHT = 320;
const COUNTS = [100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000];
const BOUNDS = { minX: 0, minY: 0, maxX: WIDTH, maxY: HEIGHT };
const PROBE = 30; // half-extent of the query box under the pointer

export function createQuadTreePanel(
  parent: HTMLElement,
  QuadTree: Components['QuadTree'],
): { panel: Panel; hook: NonNullable<DemoHook['quadtree']> } {
  const frame = createPanelFrame(
    parent,
    'quadtree',
    'QuadTree: what collides',
    'Capacity-split quadtree as a collision broad-phase: every rectangle moves each tick; colliding pairs in red, the tree\'s cells in grey.',
    WIDTH,
    HEIGHT,
  );
  const countSlider = slider('quadtree-count', 0, COUNTS.length - 1, COUNTS.indexOf(2000));
  // The slider starts at the library's default capacity, so the page shows a tree as users get it.
  const defaultCapacity = new QuadTree({ bounds: BOUNDS, backend: 'js' }).capacity;
  const capacitySlider = slider('quadtree-capacity', 1, 64, defaultCapacity);
  frame.controls.prepend(
    labelled('rects', countSlider, (index) => COUNTS[index]!.toLocaleString('en-US')),
    labelled('capacity', capacitySlider),
  );

  let count = 0;
  let rects = new Float64Array(0); // [minX, minY, maxX, maxY] per id
  let ids = new Int32Array(0); // 0 .. count - 1, for updateMany
  let velocities = new Float64Array(0); // [vx, vy] per id
  let colliding = new Uint8Array(0);
  let pairs: Int32Array = new Int32Array(0);
  let tree: QuadTreeApi | null = null;
  let pointer: { x: number; y: number } | null = null;
  let probed: QuadTreeSnapshot['probe'] = null;
  let cells: Float64Array = new Float64Array(0); // as last drawn
  let cellsDrawn = 0;

  function populate(n: number): void {
    const random = mulberry32(n);
    count = n;
    rects = new Float64Array(4 * n);
    ids = Int32Array.from({ length: n }, (_, i) => i);
    velocities = new Float64Array(2 * n);
    colliding = new Uint8Array(n);
    const scale = Math.sqrt(2000 / n); // similar coverage at any count
    for (let i = 0; i < n; i++) {
      const w = Math.max(0.5, (1.5 + random() * 5) * scale);
      const h = Math.max(0.5, (1.5 + random() * 5) * scale);
      const x = random() * (WIDTH - w);
      const y = random() * (HEIGHT - h);
      rects.set([x, y, x + w, y + h], 4 * i);
      velocities[2 * i] = (random() - 0.5) * 1.2;
      velocities[2 * i + 1] = (random() - 0.5) * 1.2;
    }
  }

  function rebuild(): void {
    tree?.dispose();
    tree = new QuadTree({ bounds: BOUNDS, capacity: Number(capacitySlider.value), backend: selectedBackend(frame) });
    for (let i = 0; i < count; i++) tree.insert(i, rects[4 * i]!, rects[4 * i + 1]!, rects[4 * i + 2]!, rects[4 * i + 3]!);
    pairs = tree.pairIds();
    markColliding();
    frame.timer.reset();
  }

  /** Moves every rectangle, bouncing off the borders. */
  function step(): void {
    for (let i = 0; i < count; i++) {
      for (let axis = 0; axis < 2; axis++) {
        const limit = axis === 0 ? WIDTH : HEIGHT;
        const v = velocities[2 * i + axis]!;
        const min = rects[4 * i + axis]! + v;
        const max = rects[4 * i + axis + 2]! + v;
        const shift = min < 0 ? -min : max > limit ? limit - max : 0;
        if (shift !== 0) velocities[2 * i + axis] = -v;
        rects[4 * i + axis] = min + shift;
        rects[4 * i + axis + 2] = max + shift;
      }
    }
  }

  function markColliding(): void {
    colliding.fill(0);
    for (let i = 0; i < pairs.length; i++) colliding[pairs[i]!] = 1;
  }

  function draw(): void {
    const g = frame.context;
    g.fillStyle = '#0f172a';
    g.fillRect(0, 0, WIDTH, HEIGHT);
    drawCells();
    const outline = count <= 5000;
    for (let pass = 0; pass < 2; pass++) {
      // Quiet rectangles first, colliding ones on top.
      g.fillStyle = pass === 0 ? 'rgba(96, 165, 250, 0.45)' : 'rgba(248, 113, 113, 0.8)';
      g.strokeStyle = pass === 0 ? '#60a5fa' : '#fca5a5';
      for (let i = 0; i < count; i++) {
        if (colliding[i] !== pass) continue;
        const x = rects[4 * i]!;
        const y = rects[4 * i + 1]!;
        const w = rects[4 * i + 2]! - x;
        const h = rects[4 * i + 3]! - y;
        g.fillRect(x, y, Math.max(w, 0.75), Math.max(h, 0.75));
        if (outline) g.strokeRect(x, y, w, h);
      }
    }
    probed = pointer === null || tree === null ? null : probe(pointer.x, pointer.y, tree);
    frame.info.textContent =
      `${count.toLocaleString('en-US')} rects, ${(pairs.length / 2).toLocaleString('en-US')} colliding pairs, ` +
      `tree depth ${tree?.depth ?? 0}, ${cellsDrawn.toLocaleString('en-US')} cells. ` +
      (probed === null ? 'Point at the field to query a box.' : `Query box: ${probed.ids.length} rects.`);
  }

  /**
   * Outlines the tree's cells in one path, one stroke whatever their number.
   * The leaves tile the bounds, so each cell's left and top edges plus the
   * border draw every line: half the segments of whole rectangles (at 100,000
   * rects the tree has some 60,000 cells).
   */
  function drawCells(): void {
    cells = tree === null ? new Float64Array(0) : tree.cells();
    const g = frame.context;
    g.beginPath();
    for (let i = 0; i < cells.length; i += 4) {
      g.moveTo(cells[i]!, cells[i + 3]!);
      g.lineTo(cells[i]!, cells[i + 1]!);
      g.lineTo(cells[i + 2]!, cells[i + 1]!);
    }
    g.rect(BOUNDS.minX, BOUNDS.minY, BOUNDS.maxX - BOUNDS.minX, BOUNDS.maxY - BOUNDS.minY);
    g.strokeStyle = 'rgba(148, 163, 184, 0.45)';
    g.lineWidth = 0.75;
    g.stroke();
    g.lineWidth = 1;
    cellsDrawn = cells.length / 4;
  }

  /** Draws the query box around (x, y) and outlines what tree.queryIds finds in it. */
  function probe(x: number, y: number, index: QuadTreeApi): NonNullable<QuadTreeSnapshot['probe']> {
    const g = frame.context;
    const box: [number, number, number, number] = [x - PROBE, y - PROBE, x + PROBE, y + PROBE];
    const found = index.queryIds(...box);
    g.strokeStyle = '#facc15';
    g.lineWidth = 1;
    g.strokeRect(x - PROBE, y - PROBE, 2 * PROBE, 2 * PROBE);
    for (const id of found) {
      g.strokeRect(rects[4 * id]! - 1, rects[4 * id + 1]! - 1, rects[4 * id + 2]! - rects[4 * id]! + 2, rects[4 * id + 3]! - rects[4 * id + 1]! + 2);
    }
    return { box, ids: Array.from(found).sort((a, b) => a - b) };
  }

  frame.canvas.addEventListener('mousemove', (event) => {
    const box = frame.canvas.getBoundingClientRect();
    pointer = { x: event.clientX - box.left, y: event.clientY - box.top };
  });
  frame.canvas.addEventListener('mouseleave', () => {
    pointer = null;
  });
  countSlider.addEventListener('input', () => {
    populate(COUNTS[Number(countSlider.value)]!);
    rebuild();
  });
  capacitySlider.addEventListener('input', () => {
    tree?.setCapacity(Number(capacitySlider.value));
    frame.timer.reset();
  });
  frame.backend.addEventListener('change', rebuild);
  populate(COUNTS[Number(countSlider.value)]!);
  rebuild();

  const panel: Panel = {
    frame(paused) {
      if (!paused && tree !== null) {
        step();
        pairs = frame.timer.measure(() => {
          tree!.updateMany(ids, rects);
          return tree!.pairIds();
        });
        markColliding();
      }
      draw();
    },
  };

  const hook = {
    snapshot(): QuadTreeSnapshot {
      const sorted: Array<[number, number]> = [];
      for (let i = 0; i < pairs.length; i += 2) sorted.push([pairs[i]!, pairs[i + 1]!]);
      sorted.sort((p, q) => p[0] - q[0] || p[1] - q[1]);
      return {
        backend: selectedBackend(frame),
        capacity: Number(capacitySlider.value),
        rects: Array.from(rects),
        pairs: sorted.flat(),
        probe: probed,
        cellsDrawn,
        cells: Array.from(cells),
      };
    },
    treeCells(): number[] {
      return tree === null ? [] : Array.from(tree.cells());
    },
  };
  return { panel, hook };
}
