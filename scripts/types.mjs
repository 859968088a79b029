// Writes the published declaration files. dist/index.d.ts is every public type
// of the main entry in one file (no imports, so a project needs neither DOM nor
// Node types). dist/colyseus.d.ts declares the subpath alone and takes the main
// entry's types from 'spatialkit', as dist/colyseus.js takes its code.
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

const options = { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, strict: true, declaration: true, emitDeclarationOnly: true, skipLibCheck: true, types: [] };
const program = ts.createProgram(['src/colyseus.ts'], options);
let declarations = null;
program.emit(program.getSourceFile('src/colyseus.ts'), (name, text) => {
  if (name.endsWith('colyseus.d.ts')) declarations = text;
}, undefined, true);
if (declarations === null || !declarations.includes("from './index.js'")) throw new Error('src/colyseus.ts: no declarations emitted, or it no longer imports the main entry');
writeFileSync('dist/colyseus.d.ts', declarations.replaceAll("from './index.js'", "from 'spatialkit'"));
