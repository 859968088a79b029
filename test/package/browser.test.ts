// End to end in Debian's Chromium: the bundle loads as a plain ES module, and
// the demo page shows each structure working, checked against the library.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenePanelSnapshot } from '../../demo/hook.js';
import { component, type Components } from '../../demo/library.js';
import { init } from '../../src/index.js';
import { bruteQuery, bruteSeen, brutePairs, bruteWatchers } from './browser/brute-force.js';
import { findChromium, launchChromium } from './browser/chromium.js';
import { serveFiles, startDemoServer, type Served } from './browser/servers.js';

const chromiumPath = findChromium();
const inCI = process.env.CI === 'true';
const Scene = component('Scene');
const QuadTree = component('QuadTree');
const GridMap = component('GridMap');
/** Test-name suffix saying why a panel's checks are skipped. */
const absent = (name: string, present: unknown) => (present ? '' : ` (skipped: this build exports no ${name})`);

const PLAIN_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>plain module</title></head>
<body><script type="module">
  import * as spatialkit from './index.js';
  const result = { errorClass: typeof spatialkit.SpatialError };
  try {
    if (spatialkit.Scene) {
      try {
        new spatialkit.Scene();
      } catch (error) {
        result.beforeInit = error.code;
      }
    }
    await Promise.all([spatialkit.init(), spatialkit.init()]);
    await spatialkit.init();
    result.ok = true;
    if (spatialkit.Scene) {
      const scene = new spatialkit.Scene({ defaultRange: 50 });
      scene.add(1, 0, 0);
      scene.add(2, 30, 10);
      result.events = scene.drain().map((e) => e.type + ' ' + e.watcher + ' ' + e.target).sort();
    }
  } catch (error) {
    result.ok = false;
    result.error = String(error);
  }
  window.__plain = result;
</script></body></html>`;

const skipBrowser = chromiumPath === null && !inCI;
/** A Moving AI map of rooms: walls with doors, pillars, trees, and every passable letter. */
function roomsMap(width: number, height: number): string {
  const rows: string[] = [];
  for (let y = 0; y < height; y++) {
    let row = '';
    for (let x = 0; x < width; x++) {
      const wall = (x === 16 && y !== 22) || (x === 32 && y !== 4) || (y === 15 && x > 16 && x < 32 && x !== 24);
      const pillar = x % 6 === 3 && y % 6 === 3;
      row += wall ? '@' : pillar ? 'T' : (x * 7 + y) % 13 === 0 ? 'G' : (x + y * 5) % 17 === 0 ? 'S' : '.';
    }
    rows.push(row);
  }
  return ['type octile', `height ${height}`, `width ${width}`, 'map', ...rows].join('\n') + '\n';
}

describe.skipIf(skipBrowser)(`in Chromium${skipBrowser ? ' (skipped: no chromium on PATH and CI is not set)' : ''}`, () => {
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let demo: Served;
  let page: Page;
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    if (chromiumPath === null) throw new Error('CI=true but chromium is not installed: apt-get install -y chromium');
    await init();
    [browser, demo] = await Promise.all([launchChromium(chromiumPath), startDemoServer()]);
  });

  afterAll(async () => {
    await browser?.close();
    await demo?.close();
  });

  /** A new page whose console errors and uncaught exceptions are collected. */
  async function openPage(url: string): Promise<Page> {
    const opened = await browser.context.newPage();
    opened.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(`${url}: ${message.text()}`);
    });
    opened.on('pageerror', (error) => consoleErrors.push(`${url}: ${error.message}`));
    await opened.goto(url);
    return opened;
  }

  it('loads dist/index.js as a plain ES module, with no bundler and no file but its own modules: init() resolves and a wasm-backed Scene works', async () => {
    // dist/index.js imports what it shares with the concept entries from dist/chunks/; the wasm is inlined in them.
    const modules = ['index.js', ...readdirSync('dist/chunks').map((name) => `chunks/${name}`)];
    const files: Record<string, { body: string | Buffer; type: string }> = { '/': { body: PLAIN_PAGE, type: 'text/html' } };
    for (const name of modules) files[`/${name}`] = { body: readFileSync(`dist/${name}`), type: 'text/javascript' };
    const server = await serveFiles(files);
    try {
      const plain = await openPage(server.url);
      await plain.waitForFunction(() => (window as { __plain?: unknown }).__plain !== undefined);
      const withScene = Scene ? { beforeInit: 'NOT_INITIALIZED', events: ['enter 1 2', 'enter 2 1'] } : {};
      expect(await plain.evaluate(() => (window as { __plain?: unknown }).__plain)).toEqual({ ok: true, errorClass: 'function', ...withScene });
      expect(server.requests.filter((path) => !(path in files))).toEqual([]);
      expect(server.requests).toContain('/index.js');
      await plain.close();
    } finally {
      await server.close();
    }
  });

  it('serves the demo, shows a panel per exported component, and draws on every canvas', async () => {
    page = await openPage(demo.url);
    await page.waitForFunction(() => (window.__demo?.frames ?? 0) > 10, undefined, { timeout: 30_000 });
    const { panels, missing } = await page.evaluate(() => ({ panels: window.__demo!.panels, missing: window.__demo!.missing }));
    const expected = [Scene && 'scene', QuadTree && 'quadtree', GridMap && 'paths'].filter(Boolean);
    expect(panels).toEqual(expected);
    expect(missing.length + panels.length).toBe(3);
    for (const name of panels) {
      const colours = await page.evaluate((id) => {
        const canvas = document.getElementById(id) as HTMLCanvasElement;
        const { data } = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height);
        const seen = new Set<number>();
        for (let i = 0; i < data.length && seen.size < 10; i += 4) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
        return seen.size;
      }, `${name}-canvas`);
      expect(colours, `${name} canvas has drawing on it`).toBeGreaterThan(2);
    }
    for (const name of missing) expect(await page.locator(`#${name.toLowerCase()}-panel`).count()).toBe(0);
  });

  it('starts every panel on the library defaults: the Scene on the default index, the QuadTree at the default capacity', async () => {
    const shown = await page.evaluate(() => {
      const { Scene, QuadTree } = window.__demo!.lib as unknown as Components;
      const defaults = {
        index: Scene ? new Scene({ backend: 'js' }).index : null,
        capacity: QuadTree ? new QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 }, backend: 'js' }).capacity : null,
      };
      return { defaults, index: window.__demo!.scene?.snapshot().index ?? null, capacity: window.__demo!.quadtree?.snapshot().capacity ?? null };
    });
    expect(shown.defaults).toEqual({ index: Scene ? 'grid' : null, capacity: QuadTree ? 32 : null });
    expect([shown.index, shown.capacity]).toEqual([shown.defaults.index, shown.defaults.capacity]);
  });

  /** Frames drawn so far. */
  const frames = () => page.evaluate(() => window.__demo!.frames);
  /** Lets the page run `n` more frames. */
  async function runFrames(n: number): Promise<void> {
    const target = (await frames()) + n;
    await page.evaluate(() => window.__demo!.setPaused(false));
    await page.waitForFunction((t) => window.__demo!.frames >= t, target, { timeout: 30_000 });
  }
  const pause = () => page.evaluate(() => window.__demo!.setPaused(true));
  /** Clicks a point given in CSS pixels from a canvas' top-left corner. */
  async function clickCanvas(id: string, point: { x: number; y: number }): Promise<void> {
    const box = (await page.locator(`#${id}`).boundingBox())!;
    await page.mouse.click(box.x + point.x, box.y + point.y);
  }

  /** The selected entity's highlighted sets against the library in the page and a brute-force count here. */
  async function expectSceneMatchesLibrary(s: ScenePanelSnapshot): Promise<void> {
    const selected = s.selected!;
    expect(s.seen).toEqual(bruteSeen(s, selected));
    expect(s.watchers).toEqual(bruteWatchers(s, selected));
    for (const backend of ['wasm', 'js'] as const) {
      const fromLibrary = await page.evaluate(
        ({ snap, backend }) => {
          const { Scene } = window.__demo!.lib as unknown as Components;
          const scene = new Scene({ backend });
          snap.ids.forEach((id, i) => scene.add(id, snap.xs[i]!, snap.ys[i]!, snap.ranges[i]!));
          const answer = { seen: scene.query(snap.selected!), watchers: scene.watchers(snap.selected!) };
          scene.dispose();
          return answer;
        },
        { snap: s, backend },
      );
      expect(s.seen, `highlighted set equals scene.query on ${backend}`).toEqual(fromLibrary.seen);
      expect(s.watchers, `watchers marked equal scene.watchers on ${backend}`).toEqual(fromLibrary.watchers);
    }
  }

  it.skipIf(!Scene)(`AOI: a clicked entity's highlighted set follows the events and equals scene.query, on both backends${absent('Scene', Scene)}`, async () => {
    await pause();
    const before = await page.evaluate(() => window.__demo!.scene!.snapshot());
    // The entity nearest the centre of the canvas.
    const centre = before.ids.reduce((best, id) =>
      Math.hypot(before.xs[id]! - 220, before.ys[id]! - 160) < Math.hypot(before.xs[best]! - 220, before.ys[best]! - 160) ? id : best,
    );
    await clickCanvas('scene-canvas', await page.evaluate((id) => window.__demo!.scene!.pointOf(id), centre));
    const picked = await page.evaluate(() => window.__demo!.scene!.snapshot());
    expect(picked.selected).toBe(centre);
    await expectSceneMatchesLibrary(picked);

    // Let it wander: the drawn sets are now kept from enter / leave events only.
    await runFrames(40);
    await pause();
    const moved = await page.evaluate(() => window.__demo!.scene!.snapshot());
    expect(moved.xs).not.toEqual(picked.xs);
    await expectSceneMatchesLibrary(moved);

    await page.selectOption('#scene-backend', 'js');
    await runFrames(40);
    await pause();
    const onJs = await page.evaluate(() => window.__demo!.scene!.snapshot());
    expect(onJs.backend).toBe('js');
    expect(onJs.selected).toBe(centre);
    expect(onJs.xs).not.toEqual(moved.xs);
    await expectSceneMatchesLibrary(onJs);
    expect(await page.locator('#scene-ms').textContent()).toMatch(/^js · \d+\.\d\d ms\/tick$/);
  });

  it.skipIf(!QuadTree)(`QuadTree: the highlighted colliding pairs are every intersecting pair and the cells drawn are tree.cells(), on both backends and capacities${absent('QuadTree', QuadTree)}`, async () => {
    await page.evaluate(() => {
      const count = document.getElementById('quadtree-count') as HTMLInputElement;
      count.value = '2'; // 500 rectangles, few enough for the brute force here
      count.dispatchEvent(new Event('input'));
    });
    for (const [backend, capacity] of [['wasm', '8'], ['wasm', '1'], ['js', '3']] as const) {
      await page.selectOption('#quadtree-backend', backend);
      await page.evaluate((value) => {
        const slider = document.getElementById('quadtree-capacity') as HTMLInputElement;
        slider.value = value;
        slider.dispatchEvent(new Event('input'));
      }, capacity);
      await runFrames(20);
      await pause();
      const s = await page.evaluate(() => window.__demo!.quadtree!.snapshot());
      expect([s.backend, s.capacity, s.rects.length]).toEqual([backend, Number(capacity), 2000]);
      const pairs = brutePairs(s);
      expect(pairs.length).toBeGreaterThan(0);
      expect(s.pairs, `pairs on ${backend}, capacity ${capacity}`).toEqual(pairs);
      // The cells outlined are the tree's own, asked of it in the page; its leaves tile the canvas.
      const treeCells = await page.evaluate(() => window.__demo!.quadtree!.treeCells());
      expect(s.cellsDrawn, `cells drawn on ${backend}, capacity ${capacity}`).toBe(treeCells.length / 4);
      expect(s.cellsDrawn).toBeGreaterThan(1);
      expect(s.cells).toEqual(treeCells);
      let area = 0;
      for (let i = 0; i < s.cells.length; i += 4) area += (s.cells[i + 2]! - s.cells[i]!) * (s.cells[i + 3]! - s.cells[i + 1]!);
      const field = (await page.locator('#quadtree-canvas').boundingBox())!; // the tree's bounds, in CSS pixels
      expect(area).toBeCloseTo(field.width * field.height, 6);
      expect(await page.locator('#quadtree-info').textContent()).toContain(`, ${s.cellsDrawn.toLocaleString('en-US')} cells.`);
    }
    expect(await page.locator('#quadtree-ms').textContent()).toMatch(/^js · \d+\.\d\d ms\/tick$/);
  });

  it.skipIf(!GridMap)(`Paths: clicked start and goal give the cost findPath gives, for every algorithm, on both backends and on a loaded .map${absent('GridMap', GridMap)}`, async () => {
    await pause();
    const mapText = await page.evaluate(() => window.__demo!.paths!.mapText());
    const rows = mapText.trimEnd().split('\n').slice(4);
    // The open tiles nearest the top-right and bottom-left corners: a long way round.
    const open = rows.flatMap((row, y) => [...row].flatMap((c, x) => (c === '.' ? [[x, y] as [number, number]] : [])));
    const near = (cx: number, cy: number) => open.reduce((a, b) => (Math.hypot(b[0] - cx, b[1] - cy) < Math.hypot(a[0] - cx, a[1] - cy) ? b : a));
    const start = near(rows[0]!.length - 3, 2);
    const goal = near(2, rows.length - 3);
    for (const cell of [start, goal]) {
      await clickCanvas('paths-canvas', await page.evaluate(([x, y]) => window.__demo!.paths!.pointOf(x, y), cell));
    }
    const grid = GridMap!.fromMovingAI(mapText);
    const combos = [
      ['wasm', 'astar', 'no-corner-cutting'],
      ['wasm', 'jps', 'no-corner-cutting'],
      ['wasm', 'dijkstra', 'never'],
      ['wasm', 'spfa', 'one-obstacle'],
      ['js', 'astar', 'always'],
      ['js', 'jps', 'no-corner-cutting'],
      ['js', 'dijkstra', 'one-obstacle'],
      ['js', 'spfa', 'never'],
    ] as const;
    for (const [backend, algorithm, diagonal] of combos) {
      await page.selectOption('#paths-backend', backend);
      await page.selectOption('#paths-algorithm', algorithm);
      await page.selectOption('#paths-diagonal', diagonal);
      await runFrames(3);
      await pause();
      const s = await page.evaluate(() => window.__demo!.paths!.snapshot());
      expect([s.backend, s.algorithm, s.diagonal, s.start, s.goal]).toEqual([backend, algorithm, diagonal, start, goal]);
      const expected = grid.findPath(start[0], start[1], goal[0], goal[1], { algorithm, diagonal });
      expect(expected).not.toBeNull();
      expect(s.cost, `${algorithm} / ${diagonal} on ${backend}`).toBeCloseTo(expected!.cost, 9);
      expect(s.costText).toBe(expected!.cost.toFixed(3));
      expect(await page.locator('#paths-cost').textContent()).toBe(expected!.cost.toFixed(3));
      expect(s.path![0]).toEqual(start);
      expect(s.path![s.path!.length - 1]).toEqual(goal);
    }
    grid.dispose();

    // A Moving AI map loaded from a file: the page's cost equals findPath's on the file's own text.
    const rooms = roomsMap(48, 30);
    await page.selectOption('#paths-backend', 'wasm');
    await page.selectOption('#paths-algorithm', 'jps');
    await page.selectOption('#paths-diagonal', 'no-corner-cutting');
    await page.setInputFiles('#paths-file', { name: 'rooms.map', mimeType: 'text/plain', buffer: Buffer.from(rooms) });
    await page.waitForFunction(() => (document.getElementById('paths-map') as HTMLSelectElement).value === 'file');
    const fileGrid = GridMap!.fromMovingAI(rooms);
    const corners: Array<[number, number]> = [[1, 28], [46, 1]];
    for (const cell of corners) {
      await clickCanvas('paths-canvas', await page.evaluate(([x, y]) => window.__demo!.paths!.pointOf(x, y), cell));
    }
    await runFrames(3);
    await pause();
    const fromFile = await page.evaluate(() => window.__demo!.paths!.snapshot());
    expect([fromFile.start, fromFile.goal]).toEqual(corners);
    const expected = fileGrid.findPath(1, 28, 46, 1, { algorithm: 'jps', diagonal: 'no-corner-cutting' });
    expect(expected).not.toBeNull();
    expect(fromFile.cost).toBeCloseTo(expected!.cost, 9);
    expect(fromFile.costText).toBe(expected!.cost.toFixed(3));
    fileGrid.dispose();
    await page.selectOption('#paths-map', 'coarse');
  });

  it('keeps running after the checks, back on the defaults, with no console errors, and saves a screenshot', async () => {
    // Back to the page's initial settings, so the screenshot shows what a visitor sees.
    await page.evaluate(() => {
      const set = (id: string, value: string, event: string) => {
        const control = document.getElementById(id) as HTMLInputElement | HTMLSelectElement | null;
        if (control === null || control.value === value) return;
        control.value = value;
        control.dispatchEvent(new Event(event));
      };
      for (const panel of ['scene', 'quadtree', 'paths']) set(`${panel}-backend`, 'wasm', 'change');
      set('quadtree-count', '4', 'input');
      set('quadtree-capacity', '32', 'input');
      set('paths-algorithm', 'astar', 'change');
      set('paths-diagonal', 'no-corner-cutting', 'change');
    });
    await runFrames(30);
    if (QuadTree) {
      const box = (await page.locator('#quadtree-canvas').boundingBox())!;
      await page.mouse.move(box.x + 150, box.y + 120);
      await runFrames(5);
      await pause();
      const s = await page.evaluate(() => window.__demo!.quadtree!.snapshot());
      expect(s.probe!.ids.length).toBeGreaterThan(0);
      expect(s.probe!.ids, 'rects outlined in the query box').toEqual(bruteQuery(s, s.probe!.box));
      expect(await page.locator('#quadtree-info').textContent()).toMatch(new RegExp(`Query box: ${s.probe!.ids.length} rects\\.$`));
      await runFrames(5);
    }
    mkdirSync('test/artifacts', { recursive: true });
    await page.screenshot({ path: 'test/artifacts/demo.png', fullPage: true });
    expect(consoleErrors).toEqual([]);
  });
});
