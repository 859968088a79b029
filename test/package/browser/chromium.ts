// Launching Debian's Chromium (never a downloaded browser) with a throwaway
// profile, headless, with everything that would reach the network turned off.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** The path of the system's chromium, or null when it is not installed. */
export function findChromium(): string | null {
  try {
    const path = execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
    return path === '' ? null : path;
  } catch {
    return null;
  }
}

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A browser context in a fresh profile directory; close() also deletes the profile. */
export async function launchChromium(executablePath: string): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'spatialkit-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: FLAGS,
    viewport: { width: 1460, height: 680 },
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
