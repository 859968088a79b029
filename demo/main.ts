// The demo page: loads the wasm core, builds a panel for every component this
// build of the library exports, and drives them all from one animation loop.
import { createScenePanel } from './scene-panel.js';
import type { DemoHook } from './hook.js';
import { component, library, type Components } from './library.js';
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
  /** Builds a component's panel if the library exports it; returns the panel's test hook. */
  function mount<K extends keyof Components, H>(
    name: K,
    panelName: string,
    create: (parent: HTMLElement, constructor: Components[K]) => { panel: Panel; hook: H },
  ): H | undefined {
    const constructor = component(name);
    if (constructor === undefined) {
      hook.missing.push(name);
      return undefined;
    }
    const built = create(container, constructor);
    panels.push(built.panel);
    hook.panels.push(panelName);
    return built.hook;
  }
  hook.scene = mount('Scene', 'scene', createScenePanel);
  hook.quadtree = mount('QuadTree', 'quadtree', createQuadTreePanel);
  hook.paths = mount('GridMap', 'paths', createPathsPanel);

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
