// An in-process RegionBus for regions run apart in one process: each message
// reaches its subscribers on a later turn, in the order sent.
import type { RegionBus } from '../../src/regions/index.js';

/** The bus every region of one world shares; for() gives one region's end of it. */
export class MemoryBus {
  private readonly handlers = new Map<number, (bytes: Uint8Array) => void>();

  /** The bus one region uses. */
  for(): RegionBus {
    return {
      publish: (to, bytes) => {
        const copy = bytes.slice();
        setImmediate(() => {
          for (const [id, handler] of this.handlers) if (to === 'all' || to === id) handler(copy);
        });
      },
      subscribe: async (id, handler) => {
        this.handlers.set(id, handler);
      },
      close: async () => {},
    };
  }
}
