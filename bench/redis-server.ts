// A throwaway redis-server for the multi-process region bench and tests:
// 127.0.0.1 only, a free port, no persistence.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
  });
}

/** What a run that needs redis-server says when it is not on the PATH. */
export const MISSING = 'redis-server is not on the PATH: the multi-process region tests start one (Debian and Ubuntu: apt-get install redis-server; macOS: brew install redis)';

/** Starts redis-server and resolves once it accepts connections; the caller kills the process. */
export async function startRedisServer(): Promise<{ port: number; process: ChildProcess }> {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((done, fail) => {
    let text = '';
    const timer = setTimeout(() => fail(new Error(`redis-server did not start:\n${text}`)), 10_000);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      fail(error.code === 'ENOENT' ? new Error(MISSING) : error);
    });
    child.stdout!.on('data', (c: Buffer) => {
      text += c.toString();
      if (/Ready to accept connections/.test(text)) {
        clearTimeout(timer);
        done();
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      fail(new Error(`redis-server exited:\n${text}`));
    });
  });
  return { port, process: child };
}
