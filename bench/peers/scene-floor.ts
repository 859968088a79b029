// The floor of an AOI tick with equal square ranges: assembly/scene/floor.ts,
// compiled here for the benchmark only (the package never ships it), reads
// the cells under each mover's old and new box and writes the events it
// finds. What it leaves out against a Scene is listed at the top of that
// file; it also skips the copy of the events out (drainArray returns a view
// of the kernel's memory, valid until the next move).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import asc from 'assemblyscript/asc';

interface FloorKernel {
  memory: WebAssembly.Memory;
  setup(count: number, world: number, range: number, cellRanges: number): void;
  inputFor(n: number): number;
  addAll(n: number): void;
  moveMany(n: number): void;
  eventData(): number;
  eventLength(): number;
  clearEvents(): void;
}

let compiled: WebAssembly.Module | null = null;

/**
 * Compiles the floor kernel once (asc, release settings, no runtime), and
 * keeps the binary in build/ under a hash of the source, the settings and
 * asc's version, for the next run.
 */
export async function compileFloor(): Promise<void> {
  if (compiled !== null) return;
  const key = createHash('sha256');
  for (const file of ['assembly/scene/floor.ts', 'asconfig.json']) key.update(readFileSync(file));
  key.update(asc.version);
  const cached = `build/bench-floor-${key.digest('hex').slice(0, 16)}.wasm`;
  if (existsSync(cached)) {
    compiled = new WebAssembly.Module(readFileSync(cached));
    return;
  }
  let binary: Uint8Array | null = null;
  const { error, stderr } = await asc.main(['assembly/scene/floor.ts', '--config', 'asconfig.json', '--target', 'release', '--runtime', 'stub', '--outFile', 'floor.wasm'], {
    writeFile: (name: string, contents: Uint8Array | string) => {
      if (name.endsWith('.wasm') && typeof contents !== 'string') binary = contents;
    },
  });
  if (error !== null || binary === null) throw new Error(`asc failed on the floor kernel: ${error?.message}\n${stderr.toString()}`);
  compiled = new WebAssembly.Module(binary);
  mkdirSync('build', { recursive: true });
  writeFileSync(cached, binary);
}

/** The floor kernel behind the calls a tick makes: add everyone, move a batch, drain. */
export class FloorScenePeer {
  private readonly kernel: FloorKernel;

  /** Ids are 0..count-1; positions stay inside [0, world]; cells are `cellRanges` ranges wide. Needs compileFloor() first. */
  constructor(range: number, world: number, count: number, cellRanges = 1) {
    if (compiled === null) throw new Error('compileFloor() first');
    const abort = (): never => {
      throw new Error('floor kernel aborted');
    };
    this.kernel = new WebAssembly.Instance(compiled, { env: { abort } }).exports as unknown as FloorKernel;
    this.kernel.setup(count, world, range, cellRanges);
  }

  /** Copies a batch into the kernel's input: xs, ys, then ids. */
  private stage(ids: Int32Array, xs: Float64Array, ys: Float64Array): number {
    const n = ids.length;
    const at = this.kernel.inputFor(n);
    const buffer = this.kernel.memory.buffer;
    new Float64Array(buffer, at, n).set(xs);
    new Float64Array(buffer, at + 8 * n, n).set(ys);
    new Int32Array(buffer, at + 16 * n, n).set(ids);
    return n;
  }

  addAll(ids: Int32Array, xs: Float64Array, ys: Float64Array): void {
    this.kernel.addAll(this.stage(ids, xs, ys));
  }

  /** One tick's moves in one call. */
  moveMany(ids: Int32Array, xs: Float64Array, ys: Float64Array): void {
    this.kernel.moveMany(this.stage(ids, xs, ys));
  }

  drainArray(): Int32Array {
    const out = new Int32Array(this.kernel.memory.buffer, this.kernel.eventData(), this.kernel.eventLength());
    this.kernel.clearEvents();
    return out;
  }
}
