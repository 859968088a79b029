// The demo page: loads the wasm core, builds a panel for every component this
// build of the library exports, and drives them all from one animation loop.
import { createAoiPanel } from './aoi-panel.js';
import type { DemoHook } from './hook.js';
import { component, library } from './library.js';
import type { Panel } from './panel.js';
import { createPathsPanel } from './paths-panel.js';
import { createQuadTreePanel } from './quadtree-panel.js';

const status = document.getElementById('status')!;
const pauseButton = document.getElementById('pause') as HTMLButtonElement;
const container = document.getElementById('panels')!;

async function start(): Promise<void> {
  const began = performance.now();
  await library.init();
  const loaded = performance.now() - began;

  const hook: DemoHook = { lib: library, panels: [], missing: [], frames: 0, setPaused };
  const panels: Panel[] = [];
  const Scene = component('Scene');
  const QuadTree = component('QuadTree');
  const GridMap = component('GridMap');
  if (Scene) {
    const { panel, hook: aoi } = createAoiPanel(container, Scene);
    panels.push(panel);
    hook.aoi = aoi;
    hook.panels.push('aoi');
  } else hook.missing.push('Scene');
  if (QuadTree) {
    const { panel, hook: quadtree } = createQuadTreePanel(container, QuadTree);
    panels.push(panel);
    hook.quadtree = quadtree;
    hook.panels.push('quadtree');
  } else hook.missing.push('QuadTree');
  if (GridMap) {
    const { panel, hook: paths } = createPathsPanel(container, GridMap);
    panels.push(panel);
    hook.paths = paths;
    hook.panels.push('paths');
  } else hook.missing.push('GridMap');

  status.textContent =
    `wasm core ready in ${loaded.toFixed(1)} ms.` +
    (hook.missing.length > 0 ? ` Not in this build: ${hook.missing.join(', ')}.` : '');

  let paused = false;
  function setPaused(value: boolean): void {
    paused = value;
    pauseButton.textContent = paused ? 'run' : 'pause';
  }
  pauseButton.addEventListener('click', () => setPaused(!paused));
  pauseButton.disabled = false;

  const loop = () => {
    for (const panel of panels) panel.frame(paused);
    hook.frames++;
    requestAnimationFrame(loop);
  };
  window.__demo = hook;
  requestAnimationFrame(loop);
}

start().catch((error: unknown) => {
  status.textContent = `failed to start: ${String(error)}`;
  status.classList.add('error');
  console.error(error);
});
