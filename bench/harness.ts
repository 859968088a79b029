// The measuring method every suite shares: contenders of one case run side by
// side in one process, each timed over repeated samples after a warm-up, and
// reported by median with its ratio to the wasm backend. Absolute times on a
// shared machine are noisy; ratios measured in the same run are what we claim.

/**
 * The column of the headline table (README's layout) a contender fills: a
 * library users would pick instead, a hand-written typed-array baseline, or
 * spatialkit's js backend. Other contenders (another index, another call
 * form) show in their case's table only.
 */
export type ContenderKind = 'library' | 'hand-written' | 'js';

/** One timed contender of a case. */
export interface Contender {
  /** Shown in the table; the contender named `baseline` (default: the first one) is the ratio's reference. */
  name: string;
  /** Its headline column, if it has one. */
  kind?: ContenderKind;
  /** Runs once before timing; its result is not timed (build state here). */
  setup?: () => void;
  /** Runs before each run, untimed: the next run's input (a tick's moves), so that only the contender's own work is timed. */
  prepare?: () => void;
  /** The timed work. Runs many times; it may mutate state set up by `setup`. */
  run: () => void;
  /** Runs once after timing (dispose here). */
  teardown?: () => void;
}

export interface CaseOptions {
  /** Operations one `run` performs, for per-op time and ops/s (default 1). */
  opsPerRun?: number;
  /** Name of the op, for the table header (default 'op'). */
  opName?: string;
  /** Contender whose time the ratios divide by (default: the first contender). */
  baseline?: string;
  /** Timed samples wanted (full 7, default 3, smoke 1); default runs stop short of them once a contender has spent 200 ms. */
  minSamples?: number;
  /** Minimum total time per contender in ms (full 800, default 50, smoke 0). */
  minTimeMs?: number;
  /** Warm-up runs before timing (full 2, default 1, smoke 0). */
  warmup?: number;
  /** Short label: the case joins the headline table printed at the end of a run. */
  headline?: string;
  /**
   * Runs the contenders in rounds, one run each per round, so that every
   * round meets the machine as it is for all of them; each ratio is then the
   * median of its per-round ratios. Rounds go on until every contender has
   * spent 200 ms (full runs: 800 ms) and taken minSamples.
   */
  interleave?: boolean;
}

export interface CaseResult {
  suite: string;
  name: string;
  headline?: string;
  opName: string;
  opsPerRun: number;
  baseline: string;
  contenders: Array<{
    name: string;
    kind?: ContenderKind;
    samples: number;
    medianMs: number;
    msPerOp: number;
    opsPerSec: number;
    /** time / baseline time: above 1 means slower than the baseline. */
    ratio: number;
  }>;
  notes: string[];
}

/**
 * How much a run measures. `full`: every case, many samples. `default`: every
 * suite's main cases at full size, few samples (under two minutes in all).
 * `smoke`: every case at a small size, one sample: proves each suite runs.
 */
export type BenchMode = 'smoke' | 'default' | 'full';

export interface SuiteContext {
  readonly mode: BenchMode;
  /** Smoke mode: suites shrink their data so that every case runs in moments. */
  readonly quick: boolean;
  /** Full mode: suites add their secondary cases. */
  readonly full: boolean;
  /** The value for this run's mode: sizes, query counts, contender lists. */
  pick<T>(values: Record<BenchMode, T>): T;
  /** Times the contenders of one case and records the result. */
  bench(name: string, contenders: Contender[], options?: CaseOptions): CaseResult;
  /** Adds a free-form line under the suite's tables (memory, checks, pair counts). */
  note(line: string): void;
}

export interface Suite {
  /** Short id, used to pick suites on the command line (e.g. `npm run bench -- scene`). */
  name: string;
  title: string;
  run(context: SuiteContext): void | Promise<void>;
}

const now = (): number => performance.now();

/**
 * Sampling per mode; a case may ask for fewer samples than these, never more.
 * A contender takes `minSamples` samples unless it has spent `maxTimeMs` on
 * fewer (then at least one), and more until it has spent `minTimeMs`: in a
 * default run a contender slower than 200 ms a run is timed once after its
 * warm-up, one of 100 ms twice, one of 50 ms three times, one of 1 ms fifty
 * times.
 */
const REPEATS: Record<BenchMode, { warmup: number; minSamples: number; minTimeMs: number; maxTimeMs: number }> = {
  smoke: { warmup: 0, minSamples: 1, minTimeMs: 0, maxTimeMs: 0 },
  default: { warmup: 1, minSamples: 3, minTimeMs: 50, maxTimeMs: 200 },
  full: { warmup: 2, minSamples: 7, minTimeMs: 800, maxTimeMs: Infinity },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One run of a contender, its input prepared first: the run's ms. */
function timedRun(contender: Contender): number {
  contender.prepare?.();
  const start = now();
  contender.run();
  return now() - start;
}

function timeContender(contender: Contender, warmup: number, minSamples: number, minTimeMs: number, maxTimeMs: number): number[] {
  contender.setup?.();
  for (let i = 0; i < warmup; i++) timedRun(contender);
  const samples: number[] = [];
  let total = 0;
  while ((samples.length < minSamples && (total < maxTimeMs || samples.length === 0)) || (total < minTimeMs && samples.length < 1000)) {
    const elapsed = timedRun(contender);
    samples.push(elapsed);
    total += elapsed;
  }
  contender.teardown?.();
  return samples;
}

/** The contenders' samples, taken round by round (see CaseOptions.interleave). */
function timeInterleaved(contenders: Contender[], warmup: number, minSamples: number, budgetMs: number): number[][] {
  for (const c of contenders) c.setup?.();
  for (let i = 0; i < warmup; i++) for (const c of contenders) timedRun(c);
  const samples = contenders.map((): number[] => []);
  const totals = contenders.map(() => 0);
  while (samples[0].length < Math.max(1, minSamples) || (Math.min(...totals) < budgetMs && samples[0].length < 1000)) {
    contenders.forEach((c, k) => {
      const elapsed = timedRun(c);
      samples[k].push(elapsed);
      totals[k] += elapsed;
    });
  }
  for (const c of contenders) c.teardown?.();
  return samples;
}

function plural(word: string): string {
  if (/[^aeiou]y$/.test(word)) return word.slice(0, -1) + 'ies';
  return /(s|x|ch|sh)$/.test(word) ? word + 'es' : word + 's';
}

/** Formats one case as a Markdown table. */
export function formatCase(result: CaseResult): string {
  const fmt = (value: number): string =>
    value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(2) : value.toPrecision(3);
  const lines = [
    `**${result.name}** (${result.opsPerRun} ${result.opsPerRun === 1 ? result.opName : plural(result.opName)} per run; ratio = time / ${result.baseline})`,
    '',
    `| contender | median ms/run | ms/${result.opName} | ${plural(result.opName)}/s | ratio |`,
    '|---|---:|---:|---:|---:|',
    ...result.contenders.map(
      (c) =>
        `| ${c.name} | ${fmt(c.medianMs)} | ${fmt(c.msPerOp)} | ${Math.round(c.opsPerSec).toLocaleString('en-US')} | ${c.ratio.toFixed(2)}x |`,
    ),
  ];
  return lines.join('\n');
}

/** A time in ms as the README's table writes it: 0.32, 3.8, 14, 221. */
function headlineMs(ms: number): string {
  return ms >= 10 ? ms.toFixed(0) : ms >= 1 ? ms.toFixed(1) : ms.toPrecision(2);
}

/** A ratio as the README's table writes it: 0.004x, 0.69x, 1.97x, 16.7x, 181x; bold where spatialkit is slower. */
function headlineRatio(ratio: number): string {
  const text = `${ratio >= 100 ? ratio.toFixed(0) : ratio >= 2 ? ratio.toFixed(1) : ratio >= 0.01 ? ratio.toFixed(2) : ratio.toPrecision(1)}x`;
  return ratio < 1 ? `**${text}**` : text;
}

/**
 * The headline cases of a run as one Markdown table, in the README's layout:
 * the baseline's time per run, the strongest (fastest) library and the
 * fastest hand-written baseline by name and ratio, and the js backend's ratio.
 */
export function formatHeadlines(results: CaseResult[]): string {
  const rows = results.filter((r) => r.headline !== undefined);
  if (rows.length === 0) return '';
  const lines = [
    '| workload | spatialkit wasm | strongest library | hand-written typed-array baseline | spatialkit js backend |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const base = r.contenders.find((c) => c.name === r.baseline)!;
    const fastest = (kind: ContenderKind): CaseResult['contenders'][number] | undefined =>
      r.contenders.filter((c) => c.kind === kind && c !== base).sort((a, b) => a.ratio - b.ratio)[0];
    const named = (kind: ContenderKind): string => {
      const c = fastest(kind);
      return c === undefined ? '' : `${c.name} ${headlineRatio(c.ratio)}`;
    };
    const js = fastest('js');
    const cells = [r.headline!, `${headlineMs(base.medianMs)} ms`, named('library'), named('hand-written'), js === undefined ? '' : headlineRatio(js.ratio)];
    lines.push(`|${cells.map((cell) => (cell === '' ? ' ' : ` ${cell} `)).join('|')}|`);
  }
  return lines.join('\n');
}

/** Runs suites in order in this process; returns every case result. */
export async function runSuites(
  suites: Suite[],
  options: { mode: BenchMode; print: (text: string) => void },
): Promise<{ results: CaseResult[]; suiteNotes: Record<string, string[]> }> {
  const results: CaseResult[] = [];
  const suiteNotes: Record<string, string[]> = {};
  for (const [i, suite] of suites.entries()) {
    options.print(`\n## ${suite.title} (\`${suite.name}\`, suite ${i + 1} of ${suites.length})\n`);
    const notes: string[] = [];
    suiteNotes[suite.name] = notes;
    const context: SuiteContext = {
      mode: options.mode,
      quick: options.mode === 'smoke',
      full: options.mode === 'full',
      pick: (values) => values[options.mode],
      note(line) {
        notes.push(line);
        options.print(`- ${line}`);
      },
      bench(name, contenders, caseOptions = {}) {
        const repeats = REPEATS[options.mode];
        const smoke = options.mode === 'smoke';
        const warmup = smoke ? 0 : caseOptions.warmup ?? repeats.warmup;
        const minSamples = smoke ? 1 : Math.min(caseOptions.minSamples ?? repeats.minSamples, repeats.minSamples);
        const minTimeMs = smoke ? 0 : Math.min(caseOptions.minTimeMs ?? repeats.minTimeMs, repeats.minTimeMs);
        const opsPerRun = caseOptions.opsPerRun ?? 1;
        const baseline = caseOptions.baseline ?? contenders[0].name;
        const interleaved = caseOptions.interleave === true ? timeInterleaved(contenders, warmup, minSamples, smoke ? 0 : Math.max(repeats.minTimeMs, 200)) : null;
        const timed = contenders.map((c, k) => ({
          name: c.name,
          kind: c.kind,
          samples: interleaved?.[k] ?? timeContender(c, warmup, minSamples, minTimeMs, repeats.maxTimeMs),
        }));
        const baseTimed = timed.find((t) => t.name === baseline);
        if (baseTimed === undefined) throw new Error(`baseline ${baseline} is not a contender of ${name}`);
        const baseMedian = median(baseTimed.samples);
        const ratioOf = (samples: number[]): number =>
          interleaved === null ? median(samples) / baseMedian : median(samples.map((ms, round) => ms / baseTimed.samples[round]));
        const result: CaseResult = {
          suite: suite.name,
          name,
          headline: caseOptions.headline,
          opName: caseOptions.opName ?? 'op',
          opsPerRun,
          baseline,
          contenders: timed.map((t) => {
            const medianMs = median(t.samples);
            return {
              name: t.name,
              kind: t.kind,
              samples: t.samples.length,
              medianMs,
              msPerOp: medianMs / opsPerRun,
              opsPerSec: (opsPerRun * 1000) / medianMs,
              ratio: ratioOf(t.samples),
            };
          }),
          notes,
        };
        results.push(result);
        options.print(formatCase(result) + '\n');
        return result;
      },
    };
    const started = now();
    await suite.run(context);
    options.print(`\n(${suite.name}: ${((now() - started) / 1000).toFixed(1)} s)`);
  }
  return { results, suiteNotes };
}
