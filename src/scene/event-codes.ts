// The type codes of a Scene's flat event streams ([type, watcher, target, ...]),
// defined once for the TypeScript side; the wasm cores write the same values
// (assembly/scene/codes.ts).

/** Type code of an `enter` event in flat event arrays: the watcher starts seeing the target. */
export const ENTER = 0;
/** Type code of a `leave` event in flat event arrays: the watcher stops seeing the target. */
export const LEAVE = 1;
/** Type code of a `move` event in flat event arrays: the target moved and the watcher saw it before and after. */
export const MOVE = 2;
