// Writes a CommonJS twin (.d.cts) of every declaration file in dist/. The
// package is ES modules, so TypeScript reads dist/*.d.ts as ES module types,
// and a project compiled to CommonJS with `module: node16` would refuse to
// import them (TS1479). Node >= 20.19 loads the ES modules from require(),
// and the package's `require` conditions point TypeScript at these twins.
// A twin takes the types of other packages (ES modules too, such as
// @colyseus/schema) as an ES module import would, with resolution-mode.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * `import { type A, type B } from 'other';` as a type import resolved as ES
 * modules are. An import of values (a class extended, such as
 * @colyseus/core's Room) stays as it is: resolution-mode is for type imports
 * only, and the packages named so resolve their types the same way from require.
 */
function typesAsImported(line, names, from) {
  const specifiers = names.split(',').map((name) => name.trim());
  if (!specifiers.every((name) => name.startsWith('type '))) return line;
  return `import type { ${specifiers.map((name) => name.slice('type '.length)).join(', ')} } from '${from}' with { 'resolution-mode': 'import' };`;
}

for (const file of readdirSync('dist')) {
  if (!file.endsWith('.d.ts')) continue;
  const text = readFileSync(`dist/${file}`, 'utf8');
  const twin = text
    .replace(/^import \{([^}]*)\} from '([^'.][^']*)';$/gm, (line, names, from) => (from === 'spatialkit' || from.startsWith('spatialkit/') ? line : typesAsImported(line, names, from)))
    // A twin's own files beside it (the Colyseus adapter's parts) are their twins too.
    .replace(/from '(\.\/[^']*)\.js'/g, "from '$1.cjs'");
  writeFileSync(`dist/${file.slice(0, -'.d.ts'.length)}.d.cts`, twin);
}
