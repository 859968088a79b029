// Runs a few lines against the built bundle (dist/) in a child process, for
// calls that might never return: a hang becomes a failed test after
// `timeoutMs` instead of a stalled suite. The lines see `init` and every
// export of the package, top-level await allowed, and hand back a value by
// `return`; the child prints it as JSON.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const entry = fileURLToPath(new URL('../../dist/index.js', import.meta.url));

/** What `body` returns (as JSON), run in a fresh Node process; throws when it does not finish within timeoutMs. */
export function inChild(body: string, timeoutMs = 5000): unknown {
  const source = `import * as sk from ${JSON.stringify(entry)};\nawait sk.init();\nconst out = await (async () => {\n${body}\n})();\nprocess.stdout.write(JSON.stringify(out ?? null));\n`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', timeout: timeoutMs });
  if (run.error !== undefined || run.signal !== null) throw new Error(`did not return within ${timeoutMs} ms`);
  if (run.status !== 0) throw new Error(`exited with ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
