/**
 * Record runs (not a `npm run bench` section: a record campaign takes hours). Two steps:
 *
 *   node dist/bench/optimizeRecords.js run CAMPAIGN [--nice N] [-- extra `wflo run` options]
 *     runs `wflo run CAMPAIGN --workers 1` (unless the extra options give --workers) under
 *     `nice -n N` (default 15) and appends the CPU time
 *     the run used (the coordinator and every worker process: bash's `times` for its children) to
 *     OUTPUT/cpu.jsonl; rerun it to resume an interrupted campaign (each run adds a line);
 *   node dist/bench/optimizeRecords.js write CAMPAIGN [--results DIR] [--name FILE]
 *     writes the best task's layout as DIR/<case>-best.yaml (default examples/results/; or DIR/FILE,
 *     for a campaign whose case already has a record on another rose or measure): the
 *     self-contained case file of `wflo optimize --out` (turbine, the task's wind, site, model,
 *     layout inline), its AEP recomputed on the task's case, plus in the `wflo:` block the task id,
 *     the campaign file, the number of tasks done and the CPU time of all runs of the campaign
 *     (`cpu_s_total`). It refuses a layout that is not feasible.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { loadCampaign } from '../src/campaign/loadCampaign.js';
import { caseForTask } from '../src/campaign/caseForTask.js';
import { LedgerReader } from '../src/runner/ledgerReader.js';
import { createFarmEvaluator } from '../src/physics/aep.js';
import { checkFeasibility } from '../src/geometry/feasibility.js';
import { layoutResultYaml } from '../src/io/layoutResultYaml.js';
import { writeFileAtomic } from '../src/io/atomicWrite.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The wflo CLI that runs the campaign: this checkout's, or a frozen copy (WFLO_RECORDS_CLI) so that rebuilding `dist/` cannot change a long campaign's code mid-run. */
const CLI = process.env.WFLO_RECORDS_CLI ?? path.join(REPO, 'dist', 'src', 'cli', 'main.js');

interface CpuLine {
  started: string;
  ended: string;
  cpu_s: number;
  wall_s: number;
  exit: number;
}

/** Seconds from bash's `times` format `1m2.345s`. */
const seconds = (t: string): number => {
  const m = /^(\d+)m([\d.]+)s$/.exec(t.trim());
  return m ? Number(m[1]) * 60 + Number(m[2]) : NaN;
};

function runCampaign(campaignFile: string, niceness: number, extra: string[]): void {
  const campaign = loadCampaign(campaignFile);
  if (!campaign.outputDir) throw new Error(`${campaignFile}: no output folder`);
  fs.mkdirSync(campaign.outputDir, { recursive: true });
  const started = new Date();
  // `times` prints the shell's own and its children's user/system CPU time; the children's line
  // covers wflo and every worker it reaped.
  const script = `nice -n ${niceness} "$0" "$@"; status=$?; times 1>&2; exit $status`;
  const workers = extra.includes('--workers') ? [] : ['--workers', '1'];
  const r = spawnSync('bash', ['-c', script, process.execPath, CLI, 'run', campaignFile, ...workers, ...extra], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const lines = r.stderr.trimEnd().split('\n');
  const times = lines.slice(-2);
  process.stderr.write(lines.slice(0, -2).join('\n') + (lines.length > 2 ? '\n' : ''));
  const [user, system] = (times[1] ?? '').split(/\s+/).map(seconds);
  const line: CpuLine = {
    started: started.toISOString(),
    ended: new Date().toISOString(),
    cpu_s: Number(((user ?? NaN) + (system ?? NaN)).toFixed(2)),
    wall_s: Number(((Date.now() - started.getTime()) / 1000).toFixed(1)),
    exit: r.status ?? -1,
  };
  fs.appendFileSync(path.join(campaign.outputDir, 'cpu.jsonl'), JSON.stringify(line) + '\n');
  console.log(
    `run ended (exit ${line.exit}): ${line.cpu_s} CPU s, ${line.wall_s} s wall; total ${totalCpu(campaign.outputDir).toFixed(1)} CPU s over all runs`,
  );
  process.exitCode = line.exit;
}

function totalCpu(outputDir: string): number {
  const file = path.join(outputDir, 'cpu.jsonl');
  if (!fs.existsSync(file)) return NaN;
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .reduce((sum, l) => sum + (JSON.parse(l) as CpuLine).cpu_s, 0);
}

function writeBest(campaignFile: string, resultsDir: string, name?: string): void {
  const campaign = loadCampaign(campaignFile);
  const raw = parse(fs.readFileSync(campaignFile, 'utf8')) as { farms: { id: number; case?: string; wind?: unknown; directions?: unknown }[] };
  const ledger = LedgerReader.open(campaign.outputDir!);
  let best: ReturnType<LedgerReader['doneRecords']> extends Generator<infer R> ? R | null : never = null;
  let done = 0;
  try {
    for (const r of ledger.doneRecords()) {
      done++;
      if (!best || r.aep > best.aep) best = r;
    }
  } finally {
    ledger.close();
  }
  if (!best) throw new Error(`${campaignFile}: no task done yet`);
  const farm = campaign.farms.find((f) => f.id === best!.farmId)!;
  const type = campaign.farmTypes.find((t) => t.id === best!.farmType)!;
  const rawFarm = raw.farms.find((f) => f.id === best!.farmId)!;
  const caseName = rawFarm.case ?? `farm_${farm.id}`;
  const c = caseForTask(farm, type);
  const x = Float64Array.from(best.x),
    y = Float64Array.from(best.y);
  const feasibility = checkFeasibility(c.boundary, x, y, c.minSpacing, 1e-6);
  if (!feasibility.feasible) throw new Error(`task ${best.taskId}: layout is not feasible: ${feasibility.worst}`);
  const aep = createFarmEvaluator(c.turbine, c.wind, c.model).aep(x, y);
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, name ?? `${caseName}-best.yaml`);
  const campaignRel = path.relative(REPO, path.resolve(campaignFile));
  const cpu = Number(totalCpu(campaign.outputDir!).toFixed(1));
  writeFileAtomic(
    file,
    layoutResultYaml({
      case: c,
      caseSpec: caseName,
      seed: best.seed,
      method: String(campaign.optimizer.method),
      settings: campaign.optimizer,
      x,
      y,
      aepMwh: aep.aepMwh,
      perDirectionMwh: aep.perDirectionMwh,
      aepInitialMwh: best.aepInitial,
      iterations: best.iterations,
      evaluations: best.evaluations,
      wallS: best.wallS,
      feasible: true,
      maxViolationM: feasibility.maxViolationM,
      // The measure of a robust record (issue 28): its `directions:` say it to wflo; `wflo.directions` to the checkers.
      extra: {
        task: best.taskId,
        campaign: campaignRel,
        tasks_done: done,
        cpu_s_total: cpu,
        ...(rawFarm.directions !== undefined && rawFarm.directions !== 'bins' ? { directions: rawFarm.directions } : {}),
      },
      header: [
        `Written by wflo's bench/optimizeRecords.ts: the best of ${done} tasks of the record campaign ${campaignRel},`,
        `task ${best.taskId} (${caseName}, seed ${best.seed}), AEP ${aep.aepMwh.toFixed(5)} MWh${rawFarm.directions !== undefined && rawFarm.directions !== 'bins' ? ` on the treated rose (directions: ${JSON.stringify(rawFarm.directions)}), not the benchmark bins` : ''}; ${cpu} CPU s for the whole campaign.`,
        'A complete wflo case file: turbine, wind, site, wake model and the layout are all here, so `wflo aep FILE`',
        'and `wflo plot FILE` need nothing else; `wflo:` says how it was made.',
      ],
    }),
  );
  console.log(
    `${file}: task ${best.taskId}, AEP ${aep.aepMwh.toFixed(2)} MWh (ledger ${best.aep.toFixed(2)}), ${done} tasks, ${totalCpu(campaign.outputDir!).toFixed(1)} CPU s in all runs`,
  );
}

const [command, campaignFile, ...rest] = process.argv.slice(2);
const option = (name: string, def: string): string => {
  const i = rest.indexOf(name);
  return i >= 0 && rest[i + 1] !== undefined ? rest[i + 1]! : def;
};
if (command === 'run' && campaignFile) {
  const dash = rest.indexOf('--');
  runCampaign(campaignFile, Number(option('--nice', '15')), dash >= 0 ? rest.slice(dash + 1) : []);
} else if (command === 'write' && campaignFile) {
  writeBest(
    campaignFile,
    path.resolve(option('--results', path.join(REPO, 'examples', 'results'))),
    rest.includes('--name') ? option('--name', '') : undefined,
  );
} else {
  console.error('usage: node dist/bench/optimizeRecords.js run|write CAMPAIGN [--nice N] [--results DIR] [--name FILE] [-- wflo run options]');
  process.exitCode = 2;
}
