// The frame every panel shares: a title, a canvas, a row of controls with the
// wasm/js backend switch, and the live ms-per-tick readout.
import type { Backend } from './library.js';

/** One live panel of the page. */
export interface Panel {
  /** Advances the simulation one step (unless paused) and redraws. */
  frame(paused: boolean): void;
}

/** The DOM of one panel. */
export interface PanelFrame {
  readonly root: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  readonly context: CanvasRenderingContext2D;
  readonly controls: HTMLElement;
  readonly info: HTMLElement;
  readonly backend: HTMLSelectElement;
  readonly timer: TickTimer;
}

/** Builds a panel's frame inside `parent`; `name` prefixes element ids. */
export function createPanelFrame(
  parent: HTMLElement,
  name: string,
  title: string,
  blurb: string,
  width: number,
  height: number,
): PanelFrame {
  const root = element('section', 'panel');
  root.id = `${name}-panel`;
  const heading = element('h2');
  heading.textContent = title;
  const description = element('p', 'blurb');
  description.textContent = blurb;

  const canvas = element('canvas');
  canvas.id = `${name}-canvas`;
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;
  const context = canvas.getContext('2d');
  if (context === null) throw new Error('canvas 2d context unavailable');
  context.scale(ratio, ratio);

  const controls = element('div', 'controls');
  const backend = select(`${name}-backend`, [
    ['wasm', 'wasm'],
    ['js', 'js'],
  ]);
  controls.append(labelled('backend', backend));
  const readout = element('output', 'readout');
  readout.id = `${name}-ms`;
  controls.append(readout);

  const info = element('div', 'info');
  info.id = `${name}-info`;
  root.append(heading, description, canvas, controls, info);
  parent.append(root);
  return { root, canvas, context, controls, info, backend, timer: new TickTimer(readout, backend) };
}

/** Smooths the measured time of the library's work per tick and shows it. */
export class TickTimer {
  private average = 0;
  private lastShown = 0;

  constructor(
    private readonly readout: HTMLOutputElement,
    private readonly backend: HTMLSelectElement,
  ) {}

  /** Runs `work`, folds its duration into the average and returns its result. */
  measure<T>(work: () => T): T {
    const start = performance.now();
    const result = work();
    const ms = performance.now() - start;
    this.average = this.average === 0 ? ms : this.average * 0.9 + ms * 0.1;
    if (start - this.lastShown > 250) {
      this.lastShown = start;
      this.readout.textContent = `${this.backend.value} · ${this.average.toFixed(2)} ms/tick`;
    }
    return result;
  }

  /** The smoothed time per tick, in milliseconds. */
  get milliseconds(): number {
    return this.average;
  }

  /** Forgets the average, e.g. after the backend or the workload changed. */
  reset(): void {
    this.average = 0;
    this.lastShown = 0;
  }
}

/** The backend a panel's switch currently selects. */
export function selectedBackend(frame: PanelFrame): Backend {
  return frame.backend.value === 'js' ? 'js' : 'wasm';
}

/** Creates an element with an optional class. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== undefined) node.className = className;
  return node;
}

/** A <select> with the given [value, label] options, the first selected. */
export function select(id: string, options: Array<[string, string]>): HTMLSelectElement {
  const node = element('select');
  node.id = id;
  for (const [value, label] of options) {
    const option = element('option');
    option.value = value;
    option.textContent = label;
    node.append(option);
  }
  return node;
}

/** An <input type=range> showing its value next to it. */
export function slider(id: string, min: number, max: number, value: number, step = 1): HTMLInputElement {
  const node = element('input');
  node.type = 'range';
  node.id = id;
  node.min = String(min);
  node.max = String(max);
  node.step = String(step);
  node.value = String(value);
  return node;
}

/** Wraps a control in a <label> with a caption; sliders also show their (formatted) value. */
export function labelled(
  caption: string,
  control: HTMLElement,
  format: (value: number) => string = (value) => value.toLocaleString('en-US'),
): HTMLLabelElement {
  const label = element('label');
  label.append(`${caption} `, control);
  if (control instanceof HTMLInputElement && control.type === 'range') {
    const value = element('span', 'value');
    const show = () => {
      value.textContent = format(Number(control.value));
    };
    control.addEventListener('input', show);
    show();
    label.append(value);
  }
  return label;
}
