// Writes the published declaration files. dist/index.d.ts is every public type
// of the main entry in one file (no imports, so a project needs neither DOM nor
// Node types). The subpaths declare what is their own (dist/colyseus.d.ts its
// adapter, dist/scene.d.ts and the other concept entries their init()) and
// take the rest from 'spatialkit', as their code takes it from the main
// entry's: one Scene, one SpatialError, whichever entry names them.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { posix } from 'node:path';
import { createRequire } from 'node:module';
import ts from 'typescript';
import { ENTRIES } from './entries.mjs';

const require = createRequire(import.meta.url);
execFileSync(
  process.execPath,
  [require.resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js'), '--silent', '--no-check', '--project', 'tsconfig.build.json', '-o', 'dist/index.d.ts', ENTRIES.index],
  { stdio: 'inherit' },
);
// dist/regions.d.ts: the regions subpath in one file; the few main-entry types it names (ranges, options) are structural, so a copy is the same type.
execFileSync(
  process.execPath,
  [require.resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js'), '--silent', '--no-check', '--project', 'tsconfig.build.json', '--export-referenced-types=false', '-o', 'dist/regions.d.ts', ENTRIES.regions],
  { stdio: 'inherit' },
);

// Every other entry: its own declarations, importing the rest from the published entries.
const subpaths = Object.fromEntries(
  Object.entries(ENTRIES)
    .filter(([name]) => name !== 'index' && name !== 'regions')
    .map(([name, source]) => [source, `dist/${name}.d.ts`]),
);

/**
 * Where a declaration file's relative import goes once published: the
 * Colyseus wing's own modules (any x.ts under src/colyseus/ but its entries)
 * to their declaration files beside it (dist/colyseus-x.d.ts, written here
 * too), the regions entry to 'spatialkit/regions', and the rest, the main
 * entry's files, to 'spatialkit'.
 */
function published(source, specifier, adapterFiles) {
  const file = posix.join(posix.dirname(source), specifier).replace(/\.js$/, '.ts');
  if (file.startsWith('src/colyseus/') && !file.endsWith('/index.ts')) {
    const name = posix.basename(file, '.ts');
    adapterFiles.set(name, file);
    return `./colyseus-${name}.js`;
  }
  if (file === ENTRIES.regions) return 'spatialkit/regions';
  return 'spatialkit';
}

const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, declaration: true, emitDeclarationOnly: true, skipLibCheck: true, types: [] };
const program = ts.createProgram(Object.keys(subpaths), options);
const adapterFiles = new Map();
/** Writes source's declarations to target, its relative imports published. */
function writeDeclarations(source, target, required) {
  let declarations = null;
  program.emit(program.getSourceFile(source), (name, text) => {
    if (name.endsWith('.d.ts')) declarations = text;
  }, undefined, true);
  const shared = /from '(\.{1,2}\/[^']*)'/g;
  if (declarations === null || (required && !shared.test(declarations))) throw new Error(`${source}: no declarations emitted, or it no longer takes anything from the main entry's files`);
  writeFileSync(target, declarations.replaceAll(shared, (_, specifier) => `from '${published(source, specifier, adapterFiles)}'`));
}
for (const [source, target] of Object.entries(subpaths)) writeDeclarations(source, target, true);
for (const done = new Set(); done.size < adapterFiles.size; ) {
  for (const [name, source] of [...adapterFiles]) {
    if (done.has(name)) continue;
    done.add(name);
    writeDeclarations(source, `dist/colyseus-${name}.d.ts`, false);
  }
}
