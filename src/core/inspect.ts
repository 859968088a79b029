// How Node's console.log and util.inspect show a spatialkit object: its class
// name and a one-line summary of what it holds and how, instead of the
// typed arrays and handles inside it.

/** The key Node's util.inspect looks up on an object to print it. */
export const INSPECT: unique symbol = Symbol.for('nodejs.util.inspect.custom') as never;

/** `Name { key: value, ... }`, with strings quoted as Node quotes them; `Name { disposed }` for a disposed object. */
export function summary(name: string, fields: Record<string, string | number | boolean> | 'disposed'): string {
  if (fields === 'disposed') return `${name} { disposed }`;
  const shown = Object.entries(fields).map(([key, value]) => `${key}: ${typeof value === 'string' ? `'${value}'` : String(value)}`);
  return `${name} { ${shown.join(', ')} }`;
}

/**
 * Gives a public class the name it is written with, whatever a bundler
 * renames its binding to (esbuild writes `_Scene` for a class that refers to
 * itself), so constructor.name and stack traces say `Scene`.
 */
export function keepName(type: object, name: string): void {
  Object.defineProperty(type, 'name', { value: name, configurable: true });
}
