// The package as a user gets it: packed by npm, installed from the tarball into
// an empty project, then imported, required and type-checked there (what a
// user does before that, in as-a-user.test.ts).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npm } from '../support/packed.js';

const root = resolve(__dirname, '../..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

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

/** Whether a caret range (^1.2.3, ^0.18.4) holds version: the same leading numbers up to the first nonzero one, and no lower. */
function caretHolds(range: string, version: string): boolean {
  if (!range.startsWith('^')) return false;
  const [low, got] = [range.slice(1), version].map((v) => v.split('.').map(Number));
  const fixed = low[0] > 0 ? 1 : low[1] > 0 ? 2 : 3;
  if (low.slice(0, fixed).some((n, i) => n !== got[i])) return false;
  const order = low.map((n, i) => got[i] - n).find((d) => d !== 0) ?? 0;
  return order >= 0;
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

  it('ships its entries with their ES module and CommonJS declarations, the chunks they share, README, CHANGELOG, LICENSE, the pages the README links to, and nothing else', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').sort();
    const tracked = execFileSync('git', ['ls-files', ':(glob)docs/*.md', ':(glob)docs/design/*.md', 'docs/demo.png', 'examples'], { cwd: root, encoding: 'utf8' }).trim().split('\n');
    const pages = tracked.map((file) => `package/${file}`);
    const entries = ['colyseus', 'colyseus-client', 'colyseus-regions', 'graph', 'gridmap', 'index', 'quadtree', 'regions', 'scene'].flatMap((name) => ['.d.cts', '.d.ts', '.js'].map((ending) => `package/dist/${name}${ending}`));
    // The Colyseus adapter's region room and client declare their parts in files of their own beside them.
    const adapterParts = ['region-client', 'region-protocol', 'region-room', 'region-state', 'standby'].flatMap((name) => ['.d.cts', '.d.ts'].map((ending) => `package/dist/colyseus-${name}${ending}`));
    const chunks = listed.filter((file) => /^package\/dist\/chunks\/chunk-\w+\.js$/.test(file));
    expect(chunks.length).toBeGreaterThan(0);
    expect(listed).toEqual(['package/CHANGELOG.md', 'package/LICENSE', 'package/README.md', ...chunks, ...entries, ...adapterParts, 'package/package.json', ...pages].sort());
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

  it('loads each concept entry with import and with require, sharing SpatialError and the loaded modules with the main entry', () => {
    const program = (load: (name: string) => string) => `
      Promise.all([${load("'spatialkit'")}, ${load("'spatialkit/scene'")}, ${load("'spatialkit/quadtree'")}, ${load("'spatialkit/graph'")}, ${load("'spatialkit/gridmap'")}])
        .then(async ([main, scene, quadtree, graph, gridmap]) => {
          const before = [];
          try { new quadtree.QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 } }); } catch (error) { before.push(error instanceof main.SpatialError && error.code); }
          await scene.init();
          const s = new scene.Scene({ defaultRange: 5 });
          s.add(1, 0, 0);
          s.add(2, 1, 1);
          await main.init();
          const tree = new quadtree.QuadTree({ bounds: { minX: 0, minY: 0, maxX: 1, maxY: 1 } });
          let caught = null;
          try { tree.remove(-1); } catch (error) { caught = [error instanceof main.SpatialError, error instanceof scene.SpatialError, error.code]; }
          const sameError = [scene, quadtree, graph, gridmap].every((entry) => entry.SpatialError === main.SpatialError);
          const path = new gridmap.GridMap(2, 2).findPath(0, 0, 1, 1).cost;
          process.stdout.write(JSON.stringify({ before, query: s.query(1), sameScene: scene.Scene === main.Scene, sameError, caught, vertices: new graph.Graph().vertexCount, path }));
        });`;
    writeFileSync(join(consumer, 'subpaths-esm.mjs'), program((name) => `import(${name})`));
    writeFileSync(join(consumer, 'subpaths-cjs.cjs'), program((name) => `Promise.resolve(require(${name}))`));
    for (const file of ['subpaths-esm.mjs', 'subpaths-cjs.cjs']) {
      const output = JSON.parse(execFileSync(process.execPath, [file], { cwd: consumer, encoding: 'utf8' }));
      expect(output).toEqual({ before: ['NOT_INITIALIZED'], query: [2], sameScene: true, sameError: true, caught: [true, true, 'INVALID_ID'], vertices: 0, path: Math.SQRT2 });
    }
  });

  it('bundles a worker that uses only the Scene from spatialkit/scene without the other concepts\' wasm modules, in at most 62% of the one-module package\'s 196,889 bytes', async () => {
    const worker = (entry: string) => `import { init, Scene } from '${entry}';\nawait init();\nconst s = new Scene({ defaultRange: 5 });\ns.add(1, 0, 0);\ns.add(2, 1, 1);\nconsole.log(JSON.stringify(s.query(1)));\n`;
    const bundle = async (entry: string) => {
      const file = join(consumer, `worker-${entry.replace('/', '-')}.mjs`);
      writeFileSync(file, worker(entry));
      const result = await build({ entryPoints: [file], bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', write: false, absWorkingDir: consumer, logLevel: 'silent' });
      expect(result.warnings).toEqual([]);
      const code = result.outputFiles[0].text;
      const out = join(consumer, `bundled-${entry.replace('/', '-')}.mjs`);
      writeFileSync(out, code);
      expect(execFileSync(process.execPath, [out], { encoding: 'utf8' }).trim()).toBe('[2]');
      return code.length;
    };
    const fromMain = await bundle('spatialkit');
    const fromScene = await bundle('spatialkit/scene');
    // What the main entry's init() adds: the other three modules, gzipped and inlined as base64.
    const others = ['quadtree', 'graph', 'gridmap'].reduce((sum, name) => sum + Math.ceil(readFileSync(join(root, 'build', `${name}.wasm.gz`)).length / 3) * 4, 0);
    console.log(`worker bundle: ${fromScene} bytes from spatialkit/scene, ${fromMain} from spatialkit (${((100 * fromScene) / fromMain).toFixed(1)}%); the other modules inline as ${others}`);
    expect(fromMain - fromScene).toBeGreaterThanOrEqual(others);
    // 196,889 bytes: this worker bundled from a package that inlined one 94 kB
    // module for all four concepts (192 KiB); a Scene-only bundle, its
    // module with the net fold in the core and the margins' record layout,
    // must weigh at most 62% of it.
    expect(fromScene).toBeLessThanOrEqual(Math.floor(0.62 * 196_889));
  });

  it('bundles a browser client of region rooms from spatialkit/colyseus-client with no server code and no wasm', async () => {
    const file = join(consumer, 'region-client.mjs');
    writeFileSync(file, "import { RegionClient } from 'spatialkit/colyseus-client';\nconst c = new RegionClient({});\ntry { c.move(0, 0); } catch (e) { console.log(e.code); }\n");
    const result = await build({ entryPoints: [file], bundle: true, minify: true, format: 'esm', target: 'es2022', platform: 'browser', write: false, absWorkingDir: consumer, logLevel: 'silent' });
    expect(result.warnings).toEqual([]);
    const code = result.outputFiles[0].text;
    const out = join(consumer, 'bundled-region-client.mjs');
    writeFileSync(out, code);
    expect(execFileSync(process.execPath, [out], { encoding: 'utf8' }).trim()).toBe('NOT_INITIALIZED');
    expect(code).not.toMatch(/@colyseus\/core|matchMaker|WebAssembly/);
    expect(code.length).toBeLessThan(10_000);
  });

  it("throws from spatialkit/colyseus-client the SpatialError class of every other entry", () => {
    const file = join(consumer, 'region-client-error.mjs');
    writeFileSync(file, "import { RegionClient } from 'spatialkit/colyseus-client';\nimport { SpatialError } from 'spatialkit';\ntry { new RegionClient({}).move(0, 0); } catch (e) { console.log(e instanceof SpatialError, e.code); }\n");
    expect(execFileSync(process.execPath, [file], { encoding: 'utf8' }).trim()).toBe('true NOT_INITIALIZED');
  });

  it('declares every package its entries import as an optional peer dependency, in a range that holds the version it is tested with', async () => {
    const installed = join(consumer, 'node_modules', 'spatialkit');
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const entries = readdirSync(join(installed, 'dist')).filter((file) => file.endsWith('.js')).map((file) => join(installed, 'dist', file));
    const { metafile } = await build({ entryPoints: entries, bundle: true, packages: 'external', platform: 'node', format: 'esm', write: false, outdir: join(work, 'peers'), metafile: true, logLevel: 'silent' });
    const imported = new Set(Object.values(metafile.outputs).flatMap((output) => output.imports.filter((i) => i.external && !i.path.startsWith('node:')).map((i) => i.path)));
    expect(imported).toContain('@colyseus/core');
    expect(Object.keys(manifest.peerDependencies).sort()).toEqual([...imported].sort());
    for (const name of imported) {
      expect(manifest.peerDependenciesMeta[name], name).toEqual({ optional: true });
      expect(caretHolds(manifest.peerDependencies[name], manifest.devDependencies[name]), `${name} ${manifest.peerDependencies[name]} holds ${manifest.devDependencies[name]}`).toBe(true);
    }
  });

  it('type-checks ES module and CommonJS programs with neither DOM nor Node types', () => {
    expect(typeCheck(consumer, 'consumer.mts', 'NodeNext', 'NodeNext')).toBe('');
    expect(typeCheck(consumer, 'consumer.cts', 'NodeNext', 'NodeNext')).toBe('');
    expect(typeCheck(consumer, 'consumer.cts', 'CommonJS', 'Node10')).toBe('');
  });

  it('type-checks a program that takes each concept from its own entry and mixes them with the main entry', () => {
    expect(typeCheck(consumer, 'subpath-consumer.mts', 'NodeNext', 'NodeNext')).toBe('');
    expect(typeCheck(consumer, 'subpath-consumer.mts', 'ESNext', 'Bundler')).toBe('');
  });

  it('type-checks a program that uses the Colyseus subpath with the main entry', () => {
    // @colyseus/schema is the user's own (an optional peer): lend it the repo's copy.
    symlinkSync(join(root, 'node_modules', '@colyseus'), join(consumer, 'node_modules', '@colyseus'), 'dir');
    expect(typeCheck(consumer, 'colyseus-consumer.mts', 'NodeNext', 'NodeNext')).toBe('');
  });
});
