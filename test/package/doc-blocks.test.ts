// Every TypeScript example of the README, the pages under docs/ and the doc
// comments' @example tags runs as pasted, alone, and gives the values its
// comments claim (the convention is described in test/support/doc-blocks.ts).
// Each block is written out as a module of its own and imported, with
// 'spatialkit' resolved to src/ by the vitest config; blocks that read a file
// read it relative to the checkout's root, as a user in a checkout would.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SpatialError } from '../../src/index.js';
import { ENTRIES } from '../../scripts/entries.mjs';
import {
  CHECK,
  CHECK_THROWS,
  exampleBlocks,
  expectedValue,
  markdownBlocks,
  markdownPages,
  sortedEntries,
  withClaimsChecked,
  type DocBlock,
} from '../support/doc-blocks.js';

const root = resolve(__dirname, '../..');
/** Where the blocks are written as modules (test/artifacts is left out of the project's type-check). */
const scratch = join(root, 'test', 'artifacts', 'doc-blocks');

/** Source files of src/, for their @example blocks. */
function sourceFiles(dir = 'src'): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const pages = markdownPages(root).flatMap((page) => markdownBlocks(page, readFileSync(join(root, page), 'utf8')));
const examples = sourceFiles().flatMap((file) => exampleBlocks(file, readFileSync(join(root, file), 'utf8')));

/** Claims checked so far, by where. */
const checked = new Set<string>();

beforeAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(scratch, { recursive: true });
  const globals = globalThis as Record<string, unknown>;
  globals[CHECK] = (actual: unknown, claim: string, where: string): unknown => {
    const { value, unordered } = expectedValue(claim, (number, digits) => expect.closeTo(number, digits), where);
    expect(unordered ? sortedEntries(actual) : actual, `${where}: // -> ${claim}`).toEqual(value);
    checked.add(where);
    return actual;
  };
  globals[CHECK_THROWS] = (call: () => void, code: string, where: string): void => {
    expect(call, `${where}: // -> throws ${code}`).toThrow(expect.objectContaining({ code }));
    expect(call).toThrow(SpatialError);
    checked.add(where);
  };
  // The examples' console.log lines print what they claim; keep the test's output for the test.
  vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterAll(() => vi.restoreAllMocks());

/** Runs one block as a module of its own; resolves once it has run to its end. */
async function run(block: DocBlock, index: number): Promise<void> {
  const { program, claims } = withClaimsChecked(block);
  const file = join(scratch, `${String(index).padStart(3, '0')}-${block.where.replace(/[^\w]+/g, '-')}.ts`);
  writeFileSync(file, `${program}\nexport {};\n`);
  await import(pathToFileURL(file).href);
  const unchecked = claims.filter((claim) => !checked.has(claim.where)).map((claim) => claim.where);
  expect(unchecked, 'claims the block never reached').toEqual([]);
}

describe('examples in the README and docs/', () => {
  it('are many, and only a few are not run, each saying why', () => {
    expect(pages.length).toBeGreaterThan(40);
    const notRun = pages.filter((block) => block.notRun !== null);
    expect(notRun.length).toBeLessThanOrEqual(4);
    for (const block of notRun) expect(block.notRun, block.where).toMatch(/\w{4,}/);
  });

  it.each(pages.filter((block) => block.notRun === null).map((block, index) => [block.where, block, index] as const))(
    '%s runs alone and gives what its comments claim',
    async (_, block, index) => run(block, index),
  );
});

describe('every example', () => {
  it('type-checks as pasted into a strict TypeScript project', () => {
    const dir = join(scratch, 'as-pasted');
    mkdirSync(dir, { recursive: true });
    const files = [...pages, ...examples].map((block, index) => {
      const file = join(dir, `${String(index).padStart(3, '0')}.ts`);
      writeFileSync(file, `${block.code}\nexport {};\n`);
      return { file, block };
    });
    const program = ts.createProgram(
      files.map(({ file }) => file),
      {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
        types: ['node'],
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        // The package's entries as the vitest config resolves them: their sources, from the build's list.
        paths: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name === 'index' ? 'spatialkit' : `spatialkit/${name}`, [join(root, file)]])),
      },
    );
    const whereOf = new Map(files.map(({ file, block }) => [file, block]));
    const problems = ts.getPreEmitDiagnostics(program).flatMap((diagnostic) => {
      const block = diagnostic.file === undefined ? undefined : whereOf.get(diagnostic.file.fileName);
      if (block === undefined || block.notRun !== null) return [];
      const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
      const [page, first] = [block.where.slice(0, block.where.lastIndexOf(':')), Number(block.where.slice(block.where.lastIndexOf(':') + 1))];
      return [`${page}:${first + line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`];
    });
    expect(problems).toEqual([]);
  });
});

describe('@example blocks of the doc comments', () => {
  it('exist on the members a user starts with', () => {
    for (const start of ['await init()', 'new Scene(', 'new QuadTree(', 'new Graph', 'GridMap.fromArray(', '.findPath(', '.path(', '.pairIds()', '.moveMany(']) {
      expect(examples.some((block) => block.code.includes(start)), start).toBe(true);
    }
  });

  it.each(examples.map((block, index) => [block.where, block, 1000 + index] as const))('%s runs alone and gives what its comments claim', async (_, block, index) =>
    run(block, index),
  );
});
