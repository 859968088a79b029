// AOI panel: thousands of entities wander through a Scene. Clicking one
// selects it: its view range is drawn, what it sees is highlighted and its
// watchers are marked. Both sets are kept from the scene's enter / leave
// events alone (seeded once by query / watchers on selection), so the picture
// is the event stream made visible.
import type { ScenePanelSnapshot, DemoHook } from './hook.js';
import type { Components, SceneApi } from './library.js';
import { createPanelFrame, element, labelled, select, selectedBackend, type Panel } from './panel.js';
import { mulberry32 } from '../bench/random.js';

const WIDTH = 440;
const HEIGHT = 320;
const SPEED = 0.6;
const LOG_LINES = 60;

export function createScenePanel(parent: HTMLElement, Scene: Components['Scene']): { panel: Panel; hook: NonNullable<DemoHook['scene']> } {
  const frame = createPanelFrame(
    parent,
    'scene',
    'AOI: who sees whom',
    'Scene (its default cell-grid index). Click an entity: its range box, what it sees (green), who sees it (orange rings), and its enter / leave events.',
    WIDTH,
    HEIGHT,
  );
  const countSelect = select('scene-count', [
    ['1000', '1,000'],
    ['3000', '3,000'],
    ['5000', '5,000'],
    ['10000', '10,000'],
  ]);
  countSelect.value = '3000';
  frame.controls.prepend(labelled('entities', countSelect));
  const log = element('div', 'log');
  log.id = 'scene-log';
  frame.root.append(log);

  let ids = new Int32Array(0);
  let xs = new Float64Array(0);
  let ys = new Float64Array(0);
  let headings = new Float64Array(0);
  let ranges = new Float64Array(0);
  let scene: SceneApi | null = null;
  let selected: number | null = null;
  const seen = new Set<number>();
  const watchers = new Set<number>();
  const logLines: string[] = [];
  let tick = 0;

  /** New random world of `count` entities with per-entity ranges (so seeing is not symmetric). */
  function populate(count: number): void {
    const random = mulberry32(count);
    ids = new Int32Array(count);
    xs = new Float64Array(count);
    ys = new Float64Array(count);
    headings = new Float64Array(count);
    ranges = new Float64Array(count);
    const scale = Math.sqrt(3000 / count); // keep about the same number in view at any density
    for (let i = 0; i < count; i++) {
      ids[i] = i;
      xs[i] = random() * WIDTH;
      ys[i] = random() * HEIGHT;
      headings[i] = random() * Math.PI * 2;
      ranges[i] = (8 + random() * 14) * scale;
    }
    selected = null;
  }

  /** (Re)creates the scene on the selected backend from the current positions. */
  function rebuild(): void {
    scene?.dispose();
    scene = new Scene({ backend: selectedBackend(frame) });
    scene.addMany(ids, xs, ys, undefined, ranges);
    scene.drainArray();
    frame.timer.reset();
    choose(selected);
  }

  function choose(id: number | null): void {
    selected = id;
    seen.clear();
    watchers.clear();
    if (id === null || scene === null) return;
    for (const other of scene.query(id)) seen.add(other);
    for (const other of scene.watchers(id)) watchers.add(other);
    note(`selected ${id}: sees ${seen.size}, seen by ${watchers.size}`);
  }

  function note(line: string): void {
    logLines.push(line);
    if (logLines.length > LOG_LINES) logLines.shift();
    const row = element('div');
    row.textContent = line;
    log.append(row);
    while (log.childElementCount > LOG_LINES) log.firstElementChild?.remove();
    log.scrollTop = log.scrollHeight;
  }

  /** Random walk with reflection at the borders. */
  function wander(): void {
    for (let i = 0; i < ids.length; i++) {
      let heading = headings[i]! + (Math.random() - 0.5) * 0.4;
      let x = xs[i]! + Math.cos(heading) * SPEED;
      let y = ys[i]! + Math.sin(heading) * SPEED;
      if (x < 0 || x > WIDTH) {
        heading = Math.PI - heading;
        x = Math.min(WIDTH, Math.max(0, x));
      }
      if (y < 0 || y > HEIGHT) {
        heading = -heading;
        y = Math.min(HEIGHT, Math.max(0, y));
      }
      headings[i] = heading;
      xs[i] = x;
      ys[i] = y;
    }
  }

  /** Applies the selected entity's enter / leave events to the drawn sets. */
  function follow(events: Int32Array): void {
    if (selected === null) return;
    for (let i = 0; i < events.length; i += 3) {
      const type = events[i]!;
      if (type === 2) continue;
      const watcher = events[i + 1]!;
      const target = events[i + 2]!;
      const set = watcher === selected ? seen : target === selected ? watchers : null;
      if (set === null) continue;
      const other = watcher === selected ? target : watcher;
      if (type === 0) set.add(other);
      else set.delete(other);
      note(`tick ${tick} ${type === 0 ? 'enter' : 'leave'}: ${watcher} ${type === 0 ? 'sees' : 'lost'} ${target}`);
    }
  }

  function draw(): void {
    const g = frame.context;
    g.fillStyle = '#0f172a';
    g.fillRect(0, 0, WIDTH, HEIGHT);
    g.fillStyle = '#94a3b8';
    for (let i = 0; i < ids.length; i++) g.fillRect(xs[i]! - 1, ys[i]! - 1, 2, 2);
    if (selected === null) return;
    const x = xs[selected]!;
    const y = ys[selected]!;
    const r = ranges[selected]!;
    g.fillStyle = 'rgba(56, 189, 248, 0.15)';
    g.fillRect(x - r, y - r, 2 * r, 2 * r);
    g.strokeStyle = '#38bdf8';
    g.lineWidth = 1;
    g.strokeRect(x - r, y - r, 2 * r, 2 * r);
    g.fillStyle = '#4ade80';
    for (const id of seen) g.fillRect(xs[id]! - 2, ys[id]! - 2, 4, 4);
    g.strokeStyle = '#fb923c';
    for (const id of watchers) {
      g.beginPath();
      g.arc(xs[id]!, ys[id]!, 4, 0, Math.PI * 2);
      g.stroke();
    }
    g.fillStyle = '#f8fafc';
    g.fillRect(x - 3, y - 3, 6, 6);
    frame.info.textContent = `entity ${selected}: sees ${seen.size}, seen by ${watchers.size}`;
  }

  /** The entity nearest (x, y) within `reach` on both axes, found with scene.queryBox. */
  function nearest(x: number, y: number, reach: number): number | null {
    let best: number | null = null;
    let bestDistance = Infinity;
    for (const id of scene?.queryBox(x - reach, y - reach, x + reach, y + reach) ?? []) {
      const distance = Math.hypot(xs[id]! - x, ys[id]! - y);
      if (distance < bestDistance) {
        bestDistance = distance;
        best = id;
      }
    }
    return best;
  }

  frame.canvas.addEventListener('click', (event) => {
    if (scene === null) return;
    const rect = frame.canvas.getBoundingClientRect();
    const px = event.clientX - rect.left;
    const py = event.clientY - rect.top;
    const best = nearest(px, py, 8);
    choose(best);
    if (best === null) frame.info.textContent = 'nothing here: click an entity';
    draw();
  });
  frame.backend.addEventListener('change', rebuild);
  countSelect.addEventListener('change', () => {
    populate(Number(countSelect.value));
    rebuild();
  });

  populate(Number(countSelect.value));
  rebuild();
  choose(nearest(WIDTH / 2, HEIGHT / 2, WIDTH));

  const panel: Panel = {
    frame(paused) {
      if (!paused && scene !== null) {
        wander();
        tick++;
        const events = frame.timer.measure(() => {
          scene!.moveMany(ids, xs, ys);
          return scene!.drainArray();
        });
        follow(events);
      }
      draw();
    },
  };

  const hook = {
    snapshot(): ScenePanelSnapshot {
      return {
        backend: selectedBackend(frame),
        index: scene?.index ?? '',
        ids: Array.from(ids),
        xs: Array.from(xs),
        ys: Array.from(ys),
        ranges: Array.from(ranges),
        selected,
        seen: [...seen].sort((a, b) => a - b),
        watchers: [...watchers].sort((a, b) => a - b),
        log: [...logLines],
      };
    },
    pointOf(id: number) {
      return { x: xs[id]!, y: ys[id]! };
    },
  };
  return { panel, hook };
}
