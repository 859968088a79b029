// Runs every suite (or those named on the command line) in one process,
// prints a Markdown table per case and writes bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { runSuites, type Suite } from './harness.js';
import { boundarySuite } from './boundary.js';
import { pathsGraphSuite } from './paths-graph.js';
import { pathsGridSuite } from './paths-grid.js';
import { quadtreeSuite } from './quadtree.js';
import { quadtreeSearchSuite } from './quadtree-search.js';
import { aoiSuite } from './aoi.js';

const suites: Suite[] = [boundarySuite, aoiSuite, quadtreeSuite, quadtreeSearchSuite, pathsGraphSuite, pathsGridSuite];

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const selected = wanted.length === 0 ? suites : suites.filter((s) => wanted.includes(s.name));
if (selected.length === 0) {
  console.error(`no suite named ${wanted.join(', ')}; suites: ${suites.map((s) => s.name).join(', ')}`);
  process.exit(1);
}
const quick = process.env.BENCH_QUICK !== undefined && process.env.BENCH_QUICK !== '0';

console.log(`# spatialkit benchmarks\n\nNode ${process.version}, ${new Date().toISOString()}${quick ? ', quick mode' : ''}`);
const { results, suiteNotes } = await runSuites(selected, { quick, print: (text) => console.log(text) });
mkdirSync('bench/results', { recursive: true });
const report = { node: process.version, date: new Date().toISOString(), quick, results, notes: suiteNotes };
writeFileSync('bench/results/latest.json', JSON.stringify(report, null, 2) + '\n');
console.log('\nwrote bench/results/latest.json');
