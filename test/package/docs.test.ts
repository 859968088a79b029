// The API reference is generated from the doc comments by TypeDoc
// (`npm run docs`). These tests keep it buildable without a warning, keep
// every public export documented, and keep the hand-written pages in step
// with the code they describe.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { QuadTree, Scene } from '../../src/index.js';
import { markdownPages } from '../support/doc-blocks.js';
import { ENTRIES } from '../../scripts/entries.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const typedoc = join(root, 'node_modules', 'typedoc', 'bin', 'typedoc');

/** Runs TypeDoc with a configuration file, writing nothing unless `args` names an output folder. */
function runTypedoc(options: string, args = ['--emit', 'none']): { status: number | null; output: string } {
  const run = spawnSync(process.execPath, [typedoc, '--options', options, ...args], { cwd: root, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}\n${run.stderr}` };
}

const read = (path: string): string => readFileSync(join(root, path), 'utf8');

/** The codes of the SpatialErrorCode union in src/core/errors.ts. */
function errorCodes(): string[] {
  const union = /export type SpatialErrorCode =([^;]*);/.exec(read('src/core/errors.ts'));
  if (union === null) throw new Error('SpatialErrorCode not found in src/core/errors.ts');
  return [...union[1].matchAll(/'([A-Z_]+)'/g)].map((match) => match[1]);
}


describe('API reference', () => {
  it("builds from the doc comments with no warning, every export documented, opening on the README's introduction with working links to the guides and the doc comments' examples", () => {
    const out = mkdtempSync(join(tmpdir(), 'spatialkit-api-'));
    try {
      const { status, output } = runTypedoc(join(root, 'typedoc.json'), ['--out', out]);
      expect(output).not.toMatch(/warning|error/i);
      expect(status).toBe(0);
      const index = readFileSync(join(out, 'index.html'), 'utf8');
      expect(index).toContain('The spatial core of a game world');
      expect(index).toContain('Quick start');
      const guides = [...index.matchAll(/href="(media\/[^"#]+\.md)"/g)].map((match) => match[1]);
      for (const guide of ['scene', 'quadtree', 'graph', 'gridmap', 'errors']) expect(guides, guide).toContain(`media/${guide}.md`);
      for (const guide of guides) expect(existsSync(join(out, guide)), guide).toBe(true);
      // With several entry points, a class's page is named for its module: spatialkit.Scene.html.
      const scene = readFileSync(join(out, 'classes', 'spatialkit.Scene.html'), 'utf8').replace(/<[^>]+>/g, '');
      expect(scene).toContain('Example');
      expect(scene).toContain('new Scene({ defaultRange: 50 })');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("documents every entry of the package, and package.json exports each of them, as the build's list has them", () => {
    const exported = Object.keys(JSON.parse(read('package.json')).exports).filter((entry) => entry !== './package.json');
    expect(exported.map((entry) => (entry === '.' ? 'index' : entry.slice(2))).sort()).toEqual(Object.keys(ENTRIES).sort());
    const documented: string[] = JSON.parse(read('typedoc.json')).entryPoints;
    expect([...documented].sort()).toEqual(Object.values(ENTRIES).sort());
  });

  it('fails on an exported symbol without a doc comment', () => {
    // The same configuration over a one-file project whose export has no
    // comment: this is what keeps the first test from passing vacuously.
    const scratch = mkdtempSync(join(tmpdir(), 'spatialkit-docs-'));
    try {
      writeFileSync(join(scratch, 'index.ts'), 'export function undocumentedExport(): number {\n  return 1;\n}\n');
      writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, types: [] }, files: ['index.ts'] }));
      const config = { extends: [join(root, 'typedoc.json')], entryPoints: ['index.ts'], tsconfig: 'tsconfig.json', intentionallyNotDocumented: [] };
      writeFileSync(join(scratch, 'typedoc.json'), JSON.stringify(config));
      const { status, output } = runTypedoc(join(scratch, 'typedoc.json'));
      expect(output).toMatch(/undocumentedExport.*does not have any documentation/);
      expect(status).not.toBe(0);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('the README', () => {
  /** The README's fenced blocks in order: info string and code. */
  const blocks = (): Array<{ lang: string; code: string[] }> =>
    [...read('README.md').matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ lang: match[1], code: match[2].trimEnd().split('\n') }));

  it('opens with a quick start: the tarball installed, then ten lines of code that await init() and use one Scene', () => {
    const [install, first] = blocks();
    expect(install.lang).toBe('sh');
    expect(install.code.join('\n')).toMatch(/npm pack/);
    expect(install.code.join('\n')).toMatch(/npm install \S*spatialkit-\S+\.tgz/);
    expect(first.lang).toBe('ts');
    expect(first.code.filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(10);
    expect(first.code.join('\n')).toMatch(/await init\(\)/);
    expect(first.code.join('\n')).toMatch(/new Scene\(/);
    expect(first.code.join('\n')).toMatch(/dispose\(\)/);
  });

  it('says how long the test run takes and that the package is not on the registry yet', () => {
    const text = read('README.md');
    expect(text).toMatch(/npm test .*about \d+ minutes/);
    expect(text).toMatch(/not on the npm registry/);
    expect(text).toMatch(/integers in \[0, 2\^31 - 1\]/);
  });
});

describe('hand-written documentation', () => {
  it('lists every error code of SpatialErrorCode', () => {
    const codes = errorCodes();
    expect(codes.length).toBeGreaterThan(0);
    for (const page of ['README.md', 'docs/errors.md']) {
      const text = read(page);
      const missing = codes.filter((code) => !text.includes(`\`${code}\``));
      expect(missing, `${page} lacks these codes`).toEqual([]);
    }
  });

  it('states the same GridMap bytes per cell as the doc comment of MAX_GRID_CELLS', () => {
    // Every "N bytes per cell" figure in the pages must be one the code's doc comment gives.
    const comment = /\/\*\*((?:(?!\*\/)[\s\S])*)\*\/\s*export const MAX_GRID_CELLS/.exec(read('src/gridmap/gridmap.ts'));
    expect(comment).not.toBeNull();
    const stated = (text: string): number[] =>
      [...text.replace(/\s*\*\s*/g, ' ').matchAll(/(\d+)\s+(?:bytes|once)\b/g)].map((m) => Number(m[1]));
    const fromCode = new Set(stated(comment![1]));
    expect(fromCode.size).toBeGreaterThan(0);
    for (const page of ['README.md', 'docs/gridmap.md', 'docs/design/grid-search.md']) {
      const figures = [...read(page).matchAll(/(\d+) bytes per cell/g)].map((m) => Number(m[1]));
      expect(figures.length, `${page} states bytes per cell`).toBeGreaterThan(0);
      for (const figure of figures) expect(fromCode, `${page}: ${figure} bytes per cell`).toContain(figure);
    }
  });

  it('states the defaults the constructors use', () => {
    /** The default column of an options table row: | `name` | `value` | ... */
    const documented = (page: string, option: string): number => {
      const row = new RegExp(`^\\| \`${option}\` \\| \`([^\`]+)\` \\|`, 'm').exec(read(page));
      if (row === null) throw new Error(`${page} has no default for ${option}`);
      return Number(row[1]);
    };
    const bounds = { minX: 0, minY: 0, maxX: 100, maxY: 100 };
    expect(documented('docs/scene.md', 'defaultRange')).toBe(new Scene({ backend: 'js' }).defaultRange);
    expect(documented('docs/quadtree.md', 'capacity')).toBe(new QuadTree({ bounds, backend: 'js' }).capacity);
    expect(documented('docs/quadtree.md', 'depth')).toBe(new QuadTree({ bounds, mode: 'fixed', backend: 'js' }).depth);
    expect(read('docs/scene.md')).toMatch(new RegExp(`^\\| \`index\` \\| \`'${new Scene({ backend: 'js' }).index}'\` \\|`, 'm'));
  });

  it('has no relative link to a file that does not exist', () => {
    const broken: string[] = [];
    for (const page of markdownPages(root)) {
      for (const match of read(page).matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = resolve(root, dirname(page), match[1]);
        // docs/api is generated by `npm run docs`, so links into it are checked against the source instead.
        if (!existsSync(target) && !target.startsWith(join(root, 'docs', 'api'))) broken.push(`${page} -> ${match[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
