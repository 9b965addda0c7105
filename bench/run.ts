/**
 * `npm run bench`: benchmark figures (no pass/fail: machines are shared and noisy, compare ratios
 * within one run). With no section named it runs the quick ones (bench/sections.ts: a few minutes on
 * 2 cores) and lists the long ones it left out; `node dist/bench/run.js SECTION...` runs the named
 * sections, `all` (or WFLO_BENCH_ALL=1) every one, the long ones included (hours: `quality` alone
 * is 3 cases × 4 methods × 600 CPU s). Each section ends with its wall time. README.md
 * ("Benchmarks") lists every section (bench/sections.ts).
 */
import os from 'node:os';
import { DEFAULT_SECTIONS, SECTIONS } from './sections.js';

const args = process.argv.slice(2);
const everything = args.includes('all') || process.env.WFLO_BENCH_ALL === '1';
const wanted = everything ? Object.keys(SECTIONS) : args.length > 0 ? args : DEFAULT_SECTIONS;
console.log(`# wflo benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}`);
console.log(`# sections: ${wanted.join(', ')}`);
// The default run says what it left out; a run of named sections does what it was told.
const leftOut = args.length === 0 && !everything ? Object.keys(SECTIONS).filter((name) => SECTIONS[name].long) : [];
if (leftOut.length > 0) {
  console.log('# not run (long; name them, e.g. `node dist/bench/run.js optimize`, or run them all with `node dist/bench/run.js all`):');
  for (const name of leftOut) console.log(`#   ${name.padEnd(10)} ${SECTIONS[name].long}: ${SECTIONS[name].what}`);
}
for (const name of wanted) {
  const section = SECTIONS[name];
  if (!section) {
    console.log(`unknown section '${name}' (known: ${Object.keys(SECTIONS).join(', ')}, all)`);
    process.exitCode = 2;
    continue;
  }
  const t0 = Date.now();
  try {
    const mod = (await import(section.module)) as Record<string, () => Promise<void>>;
    await mod[section.fn]();
  } catch (err) {
    console.log(`\n## ${name}: not available (${(err as Error).message.split('\n')[0]})`);
  }
  console.log(`# ${name}: ${((Date.now() - t0) / 1000).toFixed(0)} s`);
}
