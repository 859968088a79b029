// Writes the published declaration files. dist/index.d.ts is every public type
// of the main entry in one file (no imports, so a project needs neither DOM nor
// Node types). The subpaths declare what is their own (dist/colyseus.d.ts its
// adapter, dist/scene.d.ts and the other concept entries their init()) and
// take the rest from 'spatialkit', as their code takes it from the main
// entry's: one Scene, one SpatialError, whichever entry names them.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import ts from 'typescript';

const require = createRequire(import.meta.url);
execFileSync(
  process.execPath,
  [require.resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js'), '--silent', '--no-check', '--project', 'tsconfig.build.json', '-o', 'dist/index.d.ts', 'src/index.ts'],
  { stdio: 'inherit' },
);
// dist/regions.d.ts: the regions subpath in one file; the few main-entry types it names (ranges, options) are structural, so a copy is the same type.
execFileSync(
  process.execPath,
  [require.resolve('dts-bundle-generator/dist/bin/dts-bundle-generator.js'), '--silent', '--no-check', '--project', 'tsconfig.build.json', '--export-referenced-types=false', '-o', 'dist/regions.d.ts', 'src/regions/index.ts'],
  { stdio: 'inherit' },
);

const subpaths = {
  'src/colyseus.ts': 'dist/colyseus.d.ts',
  'src/colyseus-regions.ts': 'dist/colyseus-regions.d.ts',
  'src/colyseus-client.ts': 'dist/colyseus-client.d.ts',
  'src/scene/index.ts': 'dist/scene.d.ts',
  'src/quadtree/index.ts': 'dist/quadtree.d.ts',
  'src/graph/index.ts': 'dist/graph.d.ts',
  'src/gridmap/index.ts': 'dist/gridmap.d.ts',
};

/**
 * Where a declaration file's relative import goes once published: the
 * adapter's own modules (src/colyseus/x.ts) to their declaration files
 * beside it (dist/colyseus-x.d.ts, written here too), the regions entry to
 * 'spatialkit/regions', and the rest, the main entry's files, to 'spatialkit'.
 */
function published(specifier, adapterFiles) {
  const own = /^\.{1,2}\/(?:colyseus\/)?(region-[\w-]+|shared-views|view-content)\.js$/.exec(specifier);
  if (own !== null && (specifier.startsWith('./colyseus/') || specifier.startsWith('./region-'))) {
    adapterFiles.add(own[1]);
    return `./colyseus-${own[1]}.js`;
  }
  if (/regions\/index\.js$/.test(specifier)) return 'spatialkit/regions';
  return 'spatialkit';
}

const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, declaration: true, emitDeclarationOnly: true, skipLibCheck: true, types: [] };
const program = ts.createProgram(Object.keys(subpaths), options);
const adapterFiles = new Set();
/** Writes source's declarations to target, its relative imports published. */
function writeDeclarations(source, target, required) {
  let declarations = null;
  program.emit(program.getSourceFile(source), (name, text) => {
    if (name.endsWith('.d.ts')) declarations = text;
  }, undefined, true);
  const shared = /from '(\.{1,2}\/[^']*)'/g;
  if (declarations === null || (required && !shared.test(declarations))) throw new Error(`${source}: no declarations emitted, or it no longer takes anything from the main entry's files`);
  writeFileSync(target, declarations.replaceAll(shared, (_, specifier) => `from '${published(specifier, adapterFiles)}'`));
}
for (const [source, target] of Object.entries(subpaths)) writeDeclarations(source, target, true);
for (const done = new Set(); done.size < adapterFiles.size; ) {
  for (const name of [...adapterFiles]) {
    if (done.has(name)) continue;
    done.add(name);
    writeDeclarations(`src/colyseus/${name}.ts`, `dist/colyseus-${name}.d.ts`, false);
  }
}
