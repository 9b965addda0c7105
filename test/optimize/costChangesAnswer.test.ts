/**
 * A cost objective changes the answer, with the real DTU offshore cost model (cost/dtuOffshore.ts,
 * checked against TOPFARM's own code in test/cost/): the two worked examples of docs/cost.md, run
 * as a user runs them: the `./wflo optimize` lines of docs/cost.md, read from the page and run as
 * written with `--json` added (the doc-command test leaves these four lines to this file, so the
 * long optimizations run once: test/helpers/docCommands.ts).
 *  - cs4 offshore (bathymetry grid, substation, three cable types): the LCOE run is the AEP run of
 *    the same start plus a cost stage kept only when it lowers the LCOE (optimizeLayout.ts), whose
 *    network is the one the stage designed with the layout (the AEP layout's network, moved with
 *    the turbines and re-checked; the router's own when that is cheaper). From the case study's
 *    layout (the doc lines) it ends with a lower LCOE, a higher NPV and a shorter, cheaper network
 *    (docs/cost.md has the table of the given start and seeds 1-4: all five so).
 *  - the mixed site with a turbine choice among 3.35 MW, 10 MW and V80: LCOE chooses other models
 *    than AEP does, each run is best by its own objective, and the output says why per model.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { CLI, REPO } from '../helpers.js';
import { classifyCommand, extractDocCommands } from '../helpers/docCommands.js';

interface Run {
  aep_mwh: number;
  feasible: boolean;
  turbine_types?: number[];
  economics: { objective: string; lcoe: number; npv: number; value: number; cable_length_m: number; cable_cost: number };
  type_choice?: { objective: string; reason: string; per_model: { model: string; turbines: number }[] };
}

/** The `./wflo optimize` lines of docs/cost.md that the doc-command test leaves to this file. */
const DOC_LINES = extractDocCommands(fs.readFileSync(path.join(REPO, 'docs', 'cost.md'), 'utf8'), 'docs/cost.md').filter((c) =>
  classifyCommand(c.command).some((p) => p.action === 'skip' && /costChangesAnswer/.test(p.reason ?? '')),
);

/** The doc line that optimizes `file` for `objective`, run as written (from the repository's folder) with `--json`. */
function optimize(file: string, objective: string): Promise<Run> {
  const line = DOC_LINES.find((c) => c.command.includes(` ${file} `) && c.command.endsWith(`--objective ${objective}`));
  assert.ok(line, `docs/cost.md has no \`./wflo optimize ${file} … --objective ${objective}\` line (found: ${DOC_LINES.map((c) => c.command).join('; ')})`);
  const [launcher, ...args] = line.command.split(/\s+/);
  assert.equal(launcher, './wflo', line.command);
  return run([...args, '--json']);
}

function run(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: REPO });
    let out = '',
      err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Run) : reject(new Error(`exit ${code}: ${err}`))));
  });
}

test('docs/cost.md: its four `./wflo optimize` lines are the ones this file runs', () => {
  assert.deepEqual(
    DOC_LINES.map((c) => c.command),
    [
      './wflo optimize examples/offshore-cs4/cs4-offshore.yaml --method gradient --initial given --objective aep',
      './wflo optimize examples/offshore-cs4/cs4-offshore.yaml --method gradient --initial given --objective lcoe',
      './wflo optimize examples/mixed-choice-cost.yaml --method gradient --objective aep',
      './wflo optimize examples/mixed-choice-cost.yaml --method gradient --objective lcoe',
    ],
  );
  for (const c of DOC_LINES) assert.deepEqual(c.exitCodes, [0], `${c.file}:${c.line}`);
});

test('cs4 offshore: the LCOE-optimized layout has a lower LCOE than the AEP-optimized one, and a shorter and cheaper cable network', {
  timeout: 300_000,
}, async () => {
  const file = 'examples/offshore-cs4/cs4-offshore.yaml';
  const [byAep, byLcoe] = await Promise.all([optimize(file, 'aep'), optimize(file, 'lcoe')]);
  assert.ok(byAep.feasible && byLcoe.feasible);
  assert.equal(byAep.economics.objective, 'aep');
  assert.equal(byLcoe.economics.objective, 'lcoe');
  assert.ok(byLcoe.economics.lcoe < byAep.economics.lcoe, `LCOE ${byLcoe.economics.lcoe} (lcoe run) vs ${byAep.economics.lcoe} (aep run)`);
  assert.ok(byLcoe.economics.npv > byAep.economics.npv);
  assert.ok(
    byLcoe.economics.cable_length_m < byAep.economics.cable_length_m,
    `cables ${byLcoe.economics.cable_length_m} m (lcoe run) vs ${byAep.economics.cable_length_m} m (aep run)`,
  );
  assert.ok(
    byLcoe.economics.cable_cost < byAep.economics.cable_cost,
    `cable cost ${byLcoe.economics.cable_cost} (lcoe run) vs ${byAep.economics.cable_cost} (aep run)`,
  );
});

test('turbine choice: LCOE chooses other models than AEP, each best by its own measure, with the reason', { timeout: 300_000 }, async () => {
  const file = 'examples/mixed-choice-cost.yaml';
  const [byAep, byLcoe] = await Promise.all([optimize(file, 'aep'), optimize(file, 'lcoe')]);
  const counts = (r: Run) => r.type_choice!.per_model.map((m) => `${m.turbines} ${m.model}`).join(', ');
  assert.notDeepEqual(byAep.turbine_types, byLcoe.turbine_types);
  assert.notEqual(counts(byAep), counts(byLcoe), 'the counts per model differ');
  assert.ok(byAep.aep_mwh > byLcoe.aep_mwh, 'the AEP run has more energy');
  assert.ok(byLcoe.economics.lcoe < byAep.economics.lcoe, 'the LCOE run has the lower cost of energy');
  assert.equal(byAep.type_choice!.objective, 'aep');
  assert.equal(byLcoe.type_choice!.objective, 'lcoe');
  assert.ok(byLcoe.type_choice!.reason.length > 0 && byAep.type_choice!.reason.length > 0);
});
