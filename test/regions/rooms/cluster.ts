// Starts what the multi-process region tests need, on 127.0.0.1 only, and
// stops all of it even when a test fails: a redis-server with no
// persistence on a free port, and room processes (region-process.ts,
// bundled once with esbuild). Their reports arrive over Redis.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { esbuildOptions } from '../../../scripts/esbuild-options.mjs';
import { Redis } from 'ioredis';
import { startRedisServer } from '../../../bench/redis-server.js';
import { decodeReport, type HookReport, type ProcessSettings, type TickReport } from './protocol.js';

const ROOT = resolve(__dirname, '../../..');
const ENTRY = resolve(__dirname, 'region-process.ts');
const BUNDLE = resolve(ROOT, 'build/test-region-process.mjs');

/** Resolves with the match once child prints, from now on, text matching pattern; rejects if it exits first or after ms. */
export function waitForOutput(child: ChildProcess, pattern: RegExp, ms: number, name: string): Promise<RegExpExecArray> {
  let output = '';
  return new Promise((done, fail) => {
    const timer = setTimeout(() => fail(new Error(`${name} printed nothing matching ${pattern} in ${ms} ms:\n${output}`)), ms);
    const read = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = pattern.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        done(match);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`${name} exited with ${String(code)}:\n${output}`));
    });
  });
}

/** Everything one test started, stopped by {@link Cluster.stop}. */
export class Cluster {
  /** The Redis port. */
  port = 0;
  /** The WebSocket port of each room process started, in order. */
  readonly ports: number[] = [];
  private readonly portByChild = new Map<ChildProcess, number>();
  private readonly children: ChildProcess[] = [];
  private readonly clients: Redis[] = [];
  /** What the processes printed, for a failing test to show. */
  output = '';

  /** Starts redis-server on a free port and bundles the room process. */
  async start(): Promise<void> {
    await build({ ...esbuildOptions, entryPoints: [ENTRY], outfile: BUNDLE, platform: 'node', packages: 'external', logLevel: 'error' });
    const redis = await startRedisServer();
    this.children.push(redis.process);
    this.port = redis.port;
  }

  /** Starts a room process; resolves once its rooms are created. */
  async process(settings: Omit<ProcessSettings, 'redisPort'>): Promise<ChildProcess> {
    for (let attempt = 1; ; attempt++) {
      const child = this.spawn(process.execPath, [BUNDLE, JSON.stringify({ ...settings, redisPort: this.port })]);
      try {
        const up = await waitForOutput(child, /(?:regions [\d,]+|standby) up on port (\d+)/, 30_000, `room process ${settings.regions.join(',')}`);
        this.ports.push(Number(up[1]));
        this.portByChild.set(child, Number(up[1]));
        return child;
      } catch (error) {
        // The free port it chose was taken by another process before it listened: it starts again on another.
        if (attempt === 3 || !String(error).includes('EADDRINUSE')) throw error;
      }
    }
  }

  /** The WebSocket port of a room process started. */
  portOf(child: ChildProcess): number {
    return this.portByChild.get(child)!;
  }

  /** A Redis connection to this cluster's server, closed by stop(). */
  redis(): Redis {
    const client = new Redis(this.port, '127.0.0.1', { lazyConnect: false, maxRetriesPerRequest: 1 });
    client.on('error', () => {});
    this.clients.push(client);
    return client;
  }

  /** Collects the rooms' reports of the run with prefix, and the REGION_TIMEOUT reports. */
  async listen(prefix: string): Promise<Reports> {
    const sub = this.redis();
    const reports = new Reports();
    sub.on('messageBuffer', (channel: Buffer, message: Buffer) => {
      if (channel.toString() === `${prefix}:report`) reports.add(decodeReport(message));
      else if (channel.toString() === `${prefix}:hook`) reports.hooks.push(JSON.parse(message.toString()) as HookReport);
      else reports.timeouts.push(JSON.parse(message.toString()) as TimeoutReport);
    });
    await sub.subscribe(`${prefix}:report`, `${prefix}:timeout`, `${prefix}:hook`);
    return reports;
  }

  /** Kills every process started and closes every connection. */
  stop(): void {
    for (const c of this.clients) c.disconnect();
    for (const child of this.children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }

  private spawn(command: string, args: string[]): ChildProcess {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (c: Buffer) => (this.output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (this.output += c.toString()));
    this.children.push(child);
    return child;
  }
}

/** A room's report that regions missed a barrier. */
export interface TimeoutReport {
  /** The reporting region. */
  region: number;
  /** The error's code. */
  code: string;
  /** The regions it gave up on. */
  regions: number[];
  /** The error's message. */
  message: string;
}

/** Tick reports by tick and region. */
export class Reports {
  /** REGION_TIMEOUT reports. */
  readonly timeouts: TimeoutReport[] = [];
  /** What the rooms' hooks threw. */
  readonly hooks: HookReport[] = [];
  private readonly byTick = new Map<number, Map<number, TickReport>>();
  private waiters: Array<() => void> = [];

  /** Records a report. */
  add(r: TickReport): void {
    let at = this.byTick.get(r.tick);
    if (at === undefined) this.byTick.set(r.tick, (at = new Map()));
    at.set(r.region, r);
    for (const w of this.waiters) w();
  }

  /** The reports of tick, by region. */
  of(tick: number): Map<number, TickReport> {
    return this.byTick.get(tick) ?? new Map();
  }

  /** Resolves once tick has reports from every region in regions; rejects after ms. */
  until(tick: number, regions: number[], ms: number): Promise<void> {
    return new Promise((done, fail) => {
      const check = (): boolean => regions.every((r) => this.of(tick).has(r));
      if (check()) return done();
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        fail(new Error(`tick ${tick}: reports from regions ${[...this.of(tick).keys()].join(',')} only, after ${ms} ms`));
      }, ms);
      const waiter = (): void => {
        if (!check()) return;
        clearTimeout(timer);
        this.waiters = this.waiters.filter((w) => w !== waiter);
        done();
      };
      this.waiters.push(waiter);
    });
  }
}
