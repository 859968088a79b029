// Runs every suite (or those named on the command line) in one process,
// prints a Markdown table per case and the headline table at the end (in the
// README's layout), and writes bench/results/latest.json. On 2 shared cores:
//   npm run bench                  every suite's main cases at full size, few samples (91 and 98 s in two runs, the build's 15 s included)
//   npm run bench -- --full        every case, more samples (about 45 minutes, half of it the Colyseus rooms of 20,000 players)
//   npm run bench -- --smoke       every case at a small size, one sample: does each suite run? (26 s with the build)
//   npm run bench -- scene quadtree  only the suites named
import { mkdirSync, writeFileSync } from 'node:fs';
import { formatHeadlines, runSuites, type BenchMode, type Suite } from './harness.js';
import { boundarySuite } from './boundary.js';
import { pathsGraphSuite } from './paths-graph.js';
import { pathsGridSuite } from './paths-grid.js';
import { quadtreeSuite } from './quadtree.js';
import { quadtreeCapacitySuite } from './quadtree-capacity.js';
import { quadtreeSearchSuite } from './quadtree-search.js';
import { quadtreeCastsSuite } from './quadtree-casts.js';
import { quadtreeUnboundedSuite } from './quadtree-unbounded.js';
import { sceneSnapshotSuite } from './scene-snapshot.js';
import { sceneSuite } from './scene.js';
import { colyseusSuite } from './colyseus.js';
import { sceneNearestSuite } from './scene-nearest.js';
import { queriesSuite } from './queries.js';
import { regionsSuite } from './regions.js';
import { takeoverSuite } from './takeover.js';
import { adversarialSuite } from './adversarial.js';

const suites: Suite[] = [boundarySuite, sceneSuite, sceneNearestSuite, sceneSnapshotSuite, quadtreeSuite, quadtreeCapacitySuite, quadtreeSearchSuite, queriesSuite, quadtreeCastsSuite, quadtreeUnboundedSuite, pathsGraphSuite, pathsGridSuite, colyseusSuite, regionsSuite, takeoverSuite, adversarialSuite];
const MODES: Record<string, BenchMode> = { '--full': 'full', '--smoke': 'smoke' };

const args = process.argv.slice(2);
const flags = args.filter((arg) => arg.startsWith('-'));
const unknown = flags.filter((flag) => !(flag in MODES));
if (unknown.length > 0 || flags.length > 1) {
  console.error(`unknown or conflicting flags ${flags.join(' ')}; use at most one of ${Object.keys(MODES).join(', ')}`);
  process.exit(1);
}
const mode: BenchMode = flags.length === 1 ? MODES[flags[0]] : 'default';
const wanted = args.filter((arg) => !arg.startsWith('-'));
const missing = wanted.filter((name) => !suites.some((s) => s.name === name));
if (missing.length > 0) {
  console.error(`no suite named ${missing.join(', ')}; suites: ${suites.map((s) => s.name).join(', ')}`);
  process.exit(1);
}

const selected = wanted.length === 0 ? suites : suites.filter((s) => wanted.includes(s.name));
const started = performance.now();
console.log(`# spatialkit benchmarks\n\nNode ${process.version}, ${new Date().toISOString()}, ${mode} mode`);
const { results, suiteNotes } = await runSuites(selected, { mode, print: (text) => console.log(text) });
const headlines = formatHeadlines(results);
if (headlines !== '') console.log(`\n## Headline (${mode} mode; ratio above 1: spatialkit is faster)\n\n${headlines}`);
mkdirSync('bench/results', { recursive: true });
const report = { node: process.version, date: new Date().toISOString(), mode, results, notes: suiteNotes };
writeFileSync('bench/results/latest.json', JSON.stringify(report, null, 2) + '\n');
console.log(`\nwrote bench/results/latest.json (${((performance.now() - started) / 1000).toFixed(0)} s)`);
