// The QuadTree's wasm module, built from assembly/quadtree/exports.ts: the
// dynamic tree, its batch searches and the static tree all live in it.
import bytes from '../../build/quadtree.wasm.gz';
import { instantiate } from '../../build/quadtree.js';
import { WasmModule, type CoreOf } from '../core/wasm.js';

export const quadtreeModule = new WasmModule('quadtree', bytes, instantiate);

/** The loaded QuadTree module: its exports and the views over its memory. */
export type QuadTreeCore = CoreOf<typeof quadtreeModule>;
