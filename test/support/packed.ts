// The package as a user installs it: packed by npm from the checkout (dist/
// as npm test has just built it) and installed from the tarball into an
// empty project in a temporary folder.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const root = resolve(__dirname, '../..');

export interface Installed {
  /** The tarball npm pack wrote. */
  readonly tarball: string;
  /** The empty project it is installed in; the package is at node_modules/spatialkit. */
  readonly project: string;
  /** Deletes both. */
  remove(): void;
}

/** Runs npm in cwd; its output, or a thrown error with what it printed. */
export function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Packs the checkout (skipping the prepack build) and installs the tarball into a new project. */
export function installPacked(): Installed {
  const work = mkdtempSync(join(tmpdir(), 'spatialkit-installed-'));
  const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', work], root)) as Array<{ filename: string }>;
  const tarball = join(work, packed[0].filename);
  const project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), '{ "name": "project", "private": true }\n');
  npm(['install', '--offline', '--no-audit', '--no-fund', tarball], project);
  return { tarball, project, remove: () => rmSync(work, { recursive: true, force: true }) };
}
