// The TypeScript examples users read: every ```ts block of the README and of
// the pages under docs/, and every @example of a doc comment in src/. Each
// block is a program on its own, and its claims are comments of the form
//
//   scene.query(1);           // -> [2, 3]: what 1 sees
//   const cost = route.cost;  // -> 23.728
//   tree.rect(9);             // -> throws UNKNOWN_ID
//   tree.queryIds(0, 0, 9, 9); // -> Int32Array [1, 4] in any order
//
// after a statement: the value the statement's expression (or the variable it
// declares) holds, as a JavaScript literal, up to a colon that starts prose;
// a value left open continues on the next comment lines. A number written
// with decimals is checked to those decimals; "in any order" compares the
// entries as a set; `console.log(x); // -> v` checks x.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface DocBlock {
  /** page:line of the block's first line of code. */
  readonly where: string;
  readonly code: string;
  /** Why the block is not run (an HTML comment `<!-- not run: why -->` on the line before its fence), or null. */
  readonly notRun: string | null;
}

export interface Claim {
  /** page:line of the claim. */
  readonly where: string;
  /** The expected value's source, as written. */
  readonly expected: string;
}

/** Markdown pages a user reads: the README and every page under docs/ but the generated docs/api. */
export function markdownPages(root: string): string[] {
  const pages = ['README.md'];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory() && path !== 'docs/api') walk(path);
      else if (entry.name.endsWith('.md')) pages.push(path);
    }
  };
  walk('docs');
  return pages;
}

/** The ```ts blocks of a Markdown page. */
export function markdownBlocks(page: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i])) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${page}:${i + 1}: a code block that never closes`);
    const marker = /^<!--\s*not run:\s*(.*?)\s*-->$/.exec(lines[i - 1] ?? '');
    blocks.push({ where: `${page}:${i + 2}`, code: lines.slice(i + 1, end).join('\n'), notRun: marker === null ? null : marker[1] });
    i = end;
  }
  return blocks;
}

/** The ```ts blocks after @example tags in the doc comments of a source file. */
export function exampleBlocks(file: string, text: string): DocBlock[] {
  const lines = text.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^\s*\*\s*@example\s*$/.test(lines[i])) continue;
    if (!/^\s*\*\s*```ts\s*$/.test(lines[i + 1] ?? '')) throw new Error(`${file}:${i + 1}: an @example that is not a \`\`\`ts block`);
    const code: string[] = [];
    let k = i + 2;
    for (; !/^\s*\*\s*```\s*$/.test(lines[k]); k++) {
      if (k >= lines.length || /\*\//.test(lines[k])) throw new Error(`${file}:${i + 1}: an @example block that never closes`);
      code.push(lines[k].replace(/^\s*\* ?/, ''));
    }
    blocks.push({ where: `${file}:${i + 3}`, code: code.join('\n'), notRun: null });
    i = k;
  }
  return blocks;
}

/** Claims whose value never got checked when a block ran, and checks that failed, are reported by the runner through these calls. */
export const CHECK = '__docClaim';
export const CHECK_THROWS = '__docClaimThrows';

/**
 * The block rewritten to check its claims: each claimed statement hands its
 * value to `CHECK(value, expected, where)` (or its call to
 * `CHECK_THROWS(call, code, where)`). Returns the program and its claims.
 */
export function withClaimsChecked(block: DocBlock): { program: string; claims: Claim[] } {
  const [page, first] = splitWhere(block.where);
  const source = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const lines = block.code.split('\n');
  const edits: Array<{ start: number; end: number; text: string }> = [];
  const claims: Claim[] = [];
  const claimed = new Set<number>();

  const visit = (node: ts.Node): void => {
    if (ts.isExpressionStatement(node) || ts.isVariableStatement(node)) {
      const line = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const claim = claimAt(lines, line);
      if (claim !== null) {
        const where = `${page}:${first + line}`;
        claimed.add(line);
        claims.push({ where, expected: claim });
        edits.push(checkEdit(node, claim, where));
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);

  // A comment that reads like a claim but follows no statement (or lacks the arrow) would go unchecked.
  lines.forEach((text, line) => {
    if (/\/\/ ->/.test(text) && !claimed.has(line) && !/^\s*\/\//.test(text)) {
      throw new Error(`${page}:${first + line}: a claim after something that is not a statement`);
    }
    if (/[;)]\s*\/\/\s*(\[|\{|Int32Array|Float64Array)/.test(text)) {
      throw new Error(`${page}:${first + line}: a comment that states a value without '// -> ': ${text.trim()}`);
    }
  });

  let program = block.code;
  for (const edit of edits.sort((a, b) => b.start - a.start)) program = program.slice(0, edit.start) + edit.text + program.slice(edit.end);
  return { program, claims };
}

function splitWhere(where: string): [string, number] {
  const at = where.lastIndexOf(':');
  return [where.slice(0, at), Number(where.slice(at + 1))];
}

/** The claim of the comment ending `line` (and continuing on comment lines below while its brackets are open), or null. */
function claimAt(lines: string[], line: number): string | null {
  const start = /\/\/ -> (.*)$/.exec(lines[line]);
  if (start === null) return null;
  let text = start[1];
  for (let next = line + 1; depthAfter(text) > 0 && /^\s*\/\//.test(lines[next] ?? ''); next++) {
    text += ` ${lines[next].replace(/^\s*\/\/\s?/, '')}`;
  }
  return valuePart(text);
}

/** The claim's value: the text before the first colon outside brackets and quotes (prose follows it). */
function valuePart(text: string): string {
  let depth = 0;
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if ('[{('.includes(c)) depth++;
    else if (']})'.includes(c)) depth--;
    else if (c === ':' && depth === 0) return text.slice(0, i).trim();
  }
  return text.trim();
}

/** Open brackets at the end of text (quotes skipped). */
function depthAfter(text: string): number {
  let depth = 0;
  let quote: string | null = null;
  for (const c of text) {
    if (quote !== null) {
      if (c === quote) quote = null;
    } else if (c === "'" || c === '"') quote = c;
    else if ('[{('.includes(c)) depth++;
    else if (']})'.includes(c)) depth--;
  }
  return depth;
}

/** The edit that makes a claimed statement check its claim. */
function checkEdit(node: ts.ExpressionStatement | ts.VariableStatement, claim: string, where: string): { start: number; end: number; text: string } {
  const args = `${JSON.stringify(claim)}, ${JSON.stringify(where)}`;
  if (ts.isVariableStatement(node)) {
    const [declaration] = node.declarationList.declarations;
    if (node.declarationList.declarations.length !== 1 || !ts.isIdentifier(declaration.name)) {
      throw new Error(`${where}: a claim on a declaration must follow one variable`);
    }
    return { start: node.getEnd(), end: node.getEnd(), text: ` ${CHECK}(${declaration.name.text}, ${args});` };
  }
  const expression = node.expression;
  const throws = /^throws (\w+)$/.exec(claim);
  if (throws !== null) {
    return { start: node.getStart(), end: node.getEnd(), text: `${CHECK_THROWS}(() => { ${expression.getText()}; }, ${JSON.stringify(throws[1])}, ${JSON.stringify(where)});` };
  }
  const logged = ts.isCallExpression(expression) && expression.expression.getText() === 'console.log' && expression.arguments.length === 1;
  const checked = logged ? expression.arguments[0] : expression;
  return { start: checked.getStart(), end: checked.getEnd(), text: `${CHECK}(${checked.getText()}, ${args})` };
}

const TYPED_ARRAYS = ['Int8Array', 'Uint8Array', 'Int16Array', 'Uint16Array', 'Int32Array', 'Uint32Array', 'Float32Array', 'Float64Array'];

/**
 * A claim's value as a matcher: the literal evaluated, with `Int32Array [..]`
 * (as Node prints one) a typed array, numbers written with decimals matched
 * to those decimals, and a trailing "in any order" giving the entries as a
 * sorted list together with the sorter to apply to the actual value.
 */
export function expectedValue(claim: string, closeTo: (value: number, digits: number) => unknown, where: string): { value: unknown; unordered: boolean } {
  const unordered = / in any order$/.test(claim);
  let text = unordered ? claim.replace(/ in any order$/, '') : claim;
  text = typedArraysAsCalls(text);
  text = text.replace(/(?<![\w.'"])(-?\d+)\.(\d+)(?![\w.])/g, (_, whole: string, decimals: string) => `__closeTo(${whole}.${decimals}, ${decimals.length})`);
  let value: unknown;
  try {
    value = new Function('__closeTo', ...TYPED_ARRAYS, `return (${text});`)(closeTo, ...TYPED_ARRAYS.map((name) => (globalThis as Record<string, unknown>)[name]));
  } catch (error) {
    throw new Error(`${where}: the claim '${claim}' is not a value (${String(error)}); prose after a value starts with a colon`);
  }
  return { value: unordered ? sortedEntries(value) : value, unordered };
}

/** `Int32Array [1, 2]` (as Node prints a typed array), anywhere in a claim, as `Int32Array.from([1, 2])`. */
function typedArraysAsCalls(text: string): string {
  const start = new RegExp(`\\b(${TYPED_ARRAYS.join('|')}) \\[`).exec(text);
  if (start === null) return text;
  const open = start.index + start[0].length - 1;
  let depth = 0;
  let close = open;
  for (; close < text.length; close++) {
    if (text[close] === '[') depth++;
    else if (text[close] === ']' && --depth === 0) break;
  }
  const rest = typedArraysAsCalls(text.slice(close + 1));
  return `${text.slice(0, start.index)}${start[1]}.from(${text.slice(open, close + 1)})${rest}`;
}

/** The entries of an array or typed array, sorted by their JSON text (numbers by value). */
export function sortedEntries(value: unknown): unknown[] {
  if (!ArrayBuffer.isView(value) && !Array.isArray(value)) throw new Error(`"in any order" needs an array, got ${String(value)}`);
  const entries = Array.from(value as ArrayLike<unknown>);
  return entries.sort((a, b) => (typeof a === 'number' && typeof b === 'number' ? a - b : JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}
