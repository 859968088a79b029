// Colyseus 0.18 targets Node >= 22, and its reconnection path reads the
// global WebSocket (for WebSocket.OPEN), which Node 20 lacks. There, the ws
// package's class (the one Colyseus's transport uses) stands in for it.
import { WebSocket as NodeWebSocket } from 'ws';

const scope = globalThis as { WebSocket?: unknown };
scope.WebSocket ??= NodeWebSocket;
