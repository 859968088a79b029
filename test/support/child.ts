// Runs a few lines against the built bundle (dist/) in a child process, for
// calls that might never return: a hang becomes a failed test after
// `timeoutMs` instead of a stalled suite. The lines see `init` and every
// export of the package, top-level await allowed, and `input`, the text
// given on the child's stdin (larger than a command line may be); they hand
// back a value by `return`, which the child prints as JSON.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The bundle beside this file's checkout; from the checkout's root when this file was bundled elsewhere (npm run fuzz). */
const besideThis = fileURLToPath(new URL('../../dist/index.js', import.meta.url));
const entry = existsSync(besideThis) ? besideThis : resolve('dist/index.js');

/** What `body` returns (as JSON), run in a fresh Node process with `input` on its stdin; throws when it does not finish within timeoutMs. */
export function inChild(body: string, timeoutMs = 5000, input = ''): unknown {
  const source = `import * as sk from ${JSON.stringify(entry)};\nimport { readFileSync } from 'node:fs';\nawait sk.init();\nconst input = readFileSync(0, 'utf8');\nconst out = await (async () => {\n${body}\n})();\nprocess.stdout.write(JSON.stringify(out ?? null));\n`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', source], { encoding: 'utf8', timeout: timeoutMs, input, maxBuffer: 1 << 28 });
  if (run.signal !== null) throw new Error(`did not return within ${timeoutMs} ms`);
  if (run.error !== undefined) throw run.error;
  if (run.status !== 0) throw new Error(`exited with ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}
