// The package as a user gets it: packed by npm, installed from the tarball into
// an empty project, then imported, required and type-checked there.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(__dirname, '../..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs tsc on one file of the consumer project; returns its diagnostics ('' when clean). */
function typeCheck(dir: string, file: string, module: string, moduleResolution: string): string {
  const config = join(dir, `tsconfig.${file}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      compilerOptions: { target: 'ES2022', lib: ['ES2022'], module, moduleResolution, strict: true, noEmit: true, skipLibCheck: false, types: [] },
      files: [file],
    }),
  );
  try {
    execFileSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

describe('the published package', () => {
  let work: string;
  let consumer: string;
  let tarball: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'spatialkit-package-'));
    // npm test has just built dist/; packing skips the prepack build here.
    const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root)) as Array<{ filename: string }>;
    tarball = join(work, packed[0].filename);
    consumer = join(work, 'consumer');
    cpSync(join(root, 'test', 'fixtures'), consumer, { recursive: true, filter: (src) => !src.includes('movingai') });
    writeFileSync(join(consumer, 'package.json'), '{ "name": "consumer", "private": true }\n');
    npm(['install', '--offline', '--no-audit', '--no-fund', tarball], consumer);
  });
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('ships the two entries with their ES module and CommonJS declarations, README, CHANGELOG, LICENSE, the pages the README links to, and nothing else', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    const tracked = execFileSync('git', ['ls-files', ':(glob)docs/*.md', ':(glob)docs/design/*.md', 'docs/demo.png', 'examples'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    const pages = tracked.map((file) => `package/${file}`);
    expect(listed).toEqual(
      [
        'package/CHANGELOG.md',
        'package/LICENSE',
        'package/README.md',
        'package/dist/colyseus.d.cts',
        'package/dist/colyseus.d.ts',
        'package/dist/colyseus.js',
        'package/dist/index.d.cts',
        'package/dist/index.d.ts',
        'package/dist/index.js',
        'package/package.json',
        ...pages,
      ].sort(),
    );
  });

  it('loads with import and with require, and both run a scene', () => {
    const program = (load: string) => `${load}.then(async (sk) => { await sk.init(); const s = new sk.Scene({ defaultRange: 5 }); s.add(1, 0, 0); s.add(2, 1, 1); process.stdout.write(JSON.stringify(s.drain())); });`;
    writeFileSync(join(consumer, 'esm.mjs'), program("import('spatialkit')"));
    writeFileSync(join(consumer, 'cjs.cjs'), program("Promise.resolve(require('spatialkit'))"));
    const expected = [
      { type: 'enter', watcher: 2, target: 1 },
      { type: 'enter', watcher: 1, target: 2 },
    ];
    for (const file of ['esm.mjs', 'cjs.cjs']) {
      const output = execFileSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8' });
      expect(JSON.parse(output)).toEqual(expect.arrayContaining(expected));
      expect(JSON.parse(output)).toHaveLength(expected.length);
    }
  });

  it('type-checks ES module and CommonJS programs with neither DOM nor Node types', () => {
    expect(typeCheck(consumer, 'consumer.mts', 'NodeNext', 'NodeNext')).toBe('');
    expect(typeCheck(consumer, 'consumer.cts', 'NodeNext', 'NodeNext')).toBe('');
    expect(typeCheck(consumer, 'consumer.cts', 'CommonJS', 'Node10')).toBe('');
  });

  it('type-checks a program that uses the Colyseus subpath with the main entry', () => {
    // @colyseus/schema is the user's own (an optional peer): lend it the repo's copy.
    symlinkSync(join(root, 'node_modules', '@colyseus'), join(consumer, 'node_modules', '@colyseus'), 'dir');
    expect(typeCheck(consumer, 'colyseus-consumer.mts', 'NodeNext', 'NodeNext')).toBe('');
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
