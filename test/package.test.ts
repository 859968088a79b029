import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(__dirname, '..');

describe('the published package', () => {
  it('type-checks a user program against exactly the files npm publishes', () => {
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    ) as Array<{ files: Array<{ path: string }> }>;
    const files = packed[0].files.map((f) => f.path);
    expect(files).toContain('dist/index.js');
    expect(files).toContain('dist/index.d.ts');

    const consumer = mkdtempSync(join(tmpdir(), 'spatialkit-consumer-'));
    try {
      const installed = join(consumer, 'node_modules', 'spatialkit');
      for (const file of files) {
        mkdirSync(dirname(join(installed, file)), { recursive: true });
        cpSync(join(root, file), join(installed, file));
      }
      cpSync(join(root, 'test', 'fixtures', 'consumer.ts'), join(consumer, 'main.ts'));
      writeFileSync(join(consumer, 'package.json'), '{"type":"module"}\n');
      writeFileSync(
        join(consumer, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, skipLibCheck: false, types: [] },
          files: ['main.ts'],
        }),
      );
      const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
      let output = '';
      try {
        execFileSync(process.execPath, [tsc, '-p', consumer], { encoding: 'utf8' });
      } catch (error) {
        output = String((error as { stdout?: string }).stdout ?? error);
      }
      expect(output).toBe('');
    } finally {
      rmSync(consumer, { recursive: true, force: true });
    }
  });
});
