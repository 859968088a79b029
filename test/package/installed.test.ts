// The installed package as two kinds of users meet it: a TypeScript server
// compiled to CommonJS, with the two module settings such servers commonly
// use, and a reader following the README's links inside node_modules.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installPacked, root, type Installed } from '../support/packed.js';

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs tsc over one file with these module settings; returns its diagnostics ('' when clean). */
function typeCheck(project: string, file: string, options: Record<string, unknown>): string {
  const config = join(project, `tsconfig.${String(options.module)}.json`);
  const compilerOptions = { target: 'ES2022', lib: ['ES2022'], strict: true, skipLibCheck: false, types: [], ...options };
  writeFileSync(config, JSON.stringify({ compilerOptions, files: [file] }));
  try {
    execFileSync(process.execPath, [tsc, '-p', config], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** Relative link targets of a Markdown text, without anchors (links to web pages and to anchors of the same page left out). */
function relativeLinks(markdown: string): string[] {
  const targets = [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
  return targets.filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith('#')).map((target) => target.replace(/#.*$/, ''));
}

let installed: Installed;
beforeAll(() => {
  installed = installPacked();
  // @colyseus/schema is the user's own (an optional peer): lend it the repo's copy.
  symlinkSync(join(root, 'node_modules', '@colyseus'), join(installed.project, 'node_modules', '@colyseus'), 'dir');
  copyFileSync(join(root, 'test', 'fixtures', 'commonjs-consumer.ts'), join(installed.project, 'server.ts'));
});
afterAll(() => installed.remove());

describe('a TypeScript project compiled to CommonJS', () => {
  it("type-checks `import { Scene } from 'spatialkit'` and the Colyseus subpath with module node16", () => {
    expect(typeCheck(installed.project, 'server.ts', { module: 'Node16', moduleResolution: 'Node16' })).toBe('');
  });

  it('type-checks them with module commonjs and moduleResolution node10', () => {
    expect(typeCheck(installed.project, 'server.ts', { module: 'CommonJS', moduleResolution: 'Node10' })).toBe('');
  });

  it('runs what node16 compiles: require() of the package gives the same scene as import', () => {
    expect(typeCheck(installed.project, 'server.ts', { module: 'Node16', moduleResolution: 'Node16', noEmit: false, outDir: 'out' })).toBe('');
    const program = "require('./out/server.js').start().then((events) => process.stdout.write(JSON.stringify(events)))";
    const events = JSON.parse(execFileSync(process.execPath, ['-e', program], { cwd: installed.project, encoding: 'utf8' })) as unknown[];
    expect(events).toEqual(
      expect.arrayContaining([
        { type: 'enter', watcher: 1, target: 2 },
        { type: 'enter', watcher: 2, target: 1 },
      ]),
    );
    expect(events).toHaveLength(2);
  });
});

describe("the README's links, read in node_modules", () => {
  it('lead to files the package holds, and so do the links of the pages they lead to', () => {
    const installedRoot = join(installed.project, 'node_modules', 'spatialkit');
    const pending = ['README.md'];
    const seen = new Set<string>();
    const broken: string[] = [];
    while (pending.length > 0) {
      const page = pending.pop()!;
      if (seen.has(page)) continue;
      seen.add(page);
      for (const target of relativeLinks(readFileSync(join(installedRoot, page), 'utf8'))) {
        const file = join(dirname(page), target);
        if (!existsSync(join(installedRoot, file))) broken.push(`${page} -> ${target}`);
        else if (file.endsWith('.md')) pending.push(file);
      }
    }
    expect(broken).toEqual([]);
    expect(seen.size).toBeGreaterThan(10);
  });
});

describe('the shipped CHANGELOG', () => {
  it("has a section for the package's version", () => {
    const installedRoot = join(installed.project, 'node_modules', 'spatialkit');
    const { version } = JSON.parse(readFileSync(join(installedRoot, 'package.json'), 'utf8')) as { version: string };
    expect(readFileSync(join(installedRoot, 'CHANGELOG.md'), 'utf8')).toMatch(new RegExp(`^## ${version.replaceAll('.', '\\.')}\\b`, 'm'));
  });
});
