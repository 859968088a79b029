// What a user does before any code runs: makes a project as the README
// says and installs the tarball there, runs the README's quick start as
// pasted, follows each guide's install lines, and packs a checkout that has
// no dist/ yet (npm pack builds it).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, npm, root, type Installed } from '../support/packed.js';

describe('a user of the package', () => {
  let installed: Installed;
  let work: string;
  let tarball: string;

  beforeAll(() => {
    installed = installPacked();
    tarball = installed.tarball;
    work = dirname(tarball);
  });
  afterAll(() => installed.remove());

  it("runs the README's quick start as pasted, in a project made as the README says", () => {
    // The README's first blocks: the shell lines (after the one that packs), then the program saved as index.js.
    const fences = [...readFileSync(join(root, 'README.md'), 'utf8').matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)];
    const [shell, program] = [fences[0][2], fences[1][2]];
    const lines = shell.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line !== '' && !line.includes('npm pack'));
    // The checkout beside the new project holds the tarball the README names; installs come from npm's cache.
    const checkout = join(work, 'quick', 'spatialkit');
    cpSync(tarball, join(checkout, /spatialkit-\S+\.tgz/.exec(shell)![0]));
    const script = lines.map((line) => line.replace(/npm (install|init)/g, 'npm $1 --offline --no-audit --no-fund')).join(' && ');
    execFileSync('sh', ['-c', script], { cwd: checkout, stdio: ['ignore', 'pipe', 'pipe'] });
    const project = join(work, 'quick', 'my-game');
    writeFileSync(join(project, 'index.js'), program);
    const run = spawnSync(process.execPath, ['index.js'], { cwd: project, encoding: 'utf8' });
    // No warning either: a project without "type": "module" runs it with one.
    expect({ stdout: run.stdout, stderr: run.stderr, status: run.status }).toEqual({ stdout: '[ 2 ]\n2\n', stderr: '', status: 0 });
  });

  it.each([
    ['docs/colyseus.md', ['spatialkit/colyseus', 'spatialkit/colyseus-regions']],
    ['docs/regions.md', ['spatialkit/regions', 'spatialkit/colyseus-regions', 'spatialkit/colyseus-client', 'ioredis']],
  ])("installs what %s's install lines name, in a project made as the README says, and loads its entries", (guide, entries) => {
    const page = readFileSync(join(root, guide), 'utf8');
    const shell = /^```sh\n([\s\S]*?)^```$/m.exec(page)![1].replace(/\\\n\s*/g, ' ');
    const installs = shell.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter((line) => line.startsWith('npm install'));
    expect(installs.length, guide).toBeGreaterThan(0);
    const checkout = join(work, 'guides', 'spatialkit');
    cpSync(tarball, join(checkout, /spatialkit-\S+\.tgz/.exec(shell)![0]));
    const project = join(work, 'guides', guide.replace(/\W/g, '-'));
    execFileSync('sh', ['-c', `mkdir -p ${project} && cd ${project} && npm init -y && npm pkg set type=module`], { stdio: 'ignore' });
    // Packages come from npm's cache where it holds them (the tests' own), from the registry otherwise.
    for (const line of installs) execFileSync('sh', ['-c', line.replace('npm install', 'npm install --prefer-offline --no-audit --no-fund --loglevel=error')], { cwd: project, stdio: 'ignore' });
    const load = entries.map((entry) => `await import('${entry}');`).join(' ');
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', `${load} console.log('loaded');`], { cwd: project, encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('loaded\n');
  });

  it('builds dist on npm pack from a checkout that has none', () => {
    const checkout = join(work, 'checkout');
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    for (const file of tracked) cpSync(join(root, file), join(checkout, file));
    symlinkSync(join(root, 'node_modules'), join(checkout, 'node_modules'), 'dir');
    const packed = JSON.parse(npm(['pack', '--dry-run', '--json'], checkout)) as Array<{ files: Array<{ path: string }> }>;
    expect(packed[0].files.map((f) => f.path)).toContain('dist/index.js');
    expect(readFileSync(join(checkout, 'dist', 'index.d.ts'), 'utf8')).toContain('export declare class Scene');
  });
});
