/**
 * `npm run bench`: every benchmark, printing figures (no pass/fail: machines are shared and noisy,
 * compare ratios within one run). Sections: AEP engine, optimizer, runner, shard merge.
 * Pass section names to run a subset: `node dist/bench/run.js aep optimize`.
 */
import os from 'node:os';

// Each section is a module exporting one async function; loaded by name so that one missing or
// failing section does not stop the others.
const SECTIONS: Record<string, [module: string, fn: string]> = {
  aep: ['./aep.js', 'benchAep'],
  optimize: ['./optimize.js', 'benchOptimize'],
  quality: ['./optimizeQuality.js', 'benchOptimizeQuality'],
  runner: ['./runner.js', 'benchRunner'],
  queue: ['./queue.js', 'benchQueue'],
  shards: ['./shardsMerge.js', 'benchShardsMerge'],
  declared: ['./declaredSizes.js', 'benchDeclaredSizes'],
  collect: ['./collect.js', 'benchCollect'],
  views: ['./views.js', 'benchViews'],
  inputs: ['./inputs.js', 'benchInputs'],
  parsing: ['./inputParsing.js', 'benchInputParsing'],
  trust: ['./trust.js', 'benchTrust'],
  gate: ['./gate.js', 'benchGate'],
  command: ['./command.js', 'benchCommand'],
  realfarms: ['./realFarms.js', 'benchRealFarms'],
};
const sections: Record<string, () => Promise<void>> = Object.fromEntries(
  Object.entries(SECTIONS).map(([name, [module, fn]]) => [name, async () => {
    const mod = (await import(module)) as Record<string, () => Promise<void>>;
    await mod[fn]();
  }]),
);

const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(sections);
console.log(`# wflo benchmarks — node ${process.version}, ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${new Date().toISOString()}`);
for (const name of wanted) {
  const run = sections[name];
  if (!run) { console.log(`unknown section '${name}' (known: ${Object.keys(sections).join(', ')})`); process.exitCode = 2; continue; }
  try {
    await run();
  } catch (err) {
    console.log(`\n## ${name}: not available (${(err as Error).message.split('\n')[0]})`);
  }
}
