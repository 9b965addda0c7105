/**
 * `npm run bench`: every benchmark, printing figures (no pass/fail: machines are shared and noisy,
 * compare ratios within one run). Sections: AEP engine, optimizer, runner, shard merge.
 * Pass section names to run a subset: `node dist/bench/run.js aep optimize`.
 */
import os from 'node:os';

const sections: Record<string, () => Promise<void>> = {
  aep: async () => (await import('./aep.js')).benchAep(),
  optimize: async () => (await import('./optimize.js')).benchOptimize(),
  runner: async () => (await import('./runner.js')).benchRunner(),
  shards: async () => (await import('./shardsMerge.js')).benchShardsMerge(),
};

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
