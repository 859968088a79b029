// Colyseus 0.18 targets Node >= 22, and its reconnection path reads the
// global WebSocket (for WebSocket.OPEN), which Node 20 lacks. There, the ws
// package's class (the one Colyseus's transport uses) stands in for it.
// A function rather than an import for its side effect: the package declares
// "sideEffects": false, so a bundler drops a bare `import './node20.js'`.
import { WebSocket as NodeWebSocket } from 'ws';

/** Makes `globalThis.WebSocket` the ws package's class where Node has none (Node 20). */
export function supplyWebSocketGlobal(): void {
  const scope = globalThis as { WebSocket?: unknown };
  scope.WebSocket ??= NodeWebSocket;
}
