// Graph's id types, as a TypeScript user of the built package meets them: test/fixtures/graph-types.ts
// must compile without errors, and each of its @ts-expect-error lines must
// really be an error (an unused one is reported as an error itself).
import ts from 'typescript';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

describe('Graph id types', () => {
  it('types fromEdges graphs as Graph<number>, string graphs as Graph<string>, plain graphs as both', () => {
    const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
    const config = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
    expect(config).toBeDefined();
    const file = fileURLToPath(new URL('../fixtures/graph-types.ts', import.meta.url));
    const program = ts.createProgram([file], config!.options);
    const messages = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(messages).toEqual([]);
  });
});
