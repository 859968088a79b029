// The floor of an AOI tick with equal square ranges: assembly/floor.ts, the
// floor module (build/floor.wasm, for the benchmark only: the package never
// ships it), reads the cells under each mover's old and new box and writes
// the events it finds. What it leaves out against a Scene is listed at the
// top of that file; it also skips the copy of the events out (drainArray
// returns a view of the kernel's memory, valid until the next move).
import floorBytes from '../../build/floor.wasm';

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

/** Compiles the floor kernel once (build/floor.wasm: release settings, no runtime). */
export async function compileFloor(): Promise<void> {
  if (compiled === null) compiled = await WebAssembly.compile(floorBytes as Uint8Array<ArrayBuffer>);
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
