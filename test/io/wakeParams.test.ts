/**
 * A wake model's parameters from files and flags: any parameter the model reads, by name; one that
 * it does not read (k of Niayifar, whose expansion comes from the turbulence) or a value of the
 * wrong sign is one line naming the file, the line and the field, exit 2 — never silently ignored.
 * What `wflo optimize --out` writes (every parameter, the ground) reproduces its AEP.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { caseFromDocument } from '../../src/io/caseFile.js';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { optimizerSettingsProblem } from '../../src/runner/taskFunction.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { wakeParameterNames } from '../../src/physics/modelParameters.js';
import { readYamlFile } from '../../src/io/yamlFile.js';

const dir = tempDir('wflo-wake-params-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function bad(args: string[], pattern: RegExp): void {
  const r = runWflo(args, { cwd: dir });
  assert.equal(r.status, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
  assert.match(r.stderr, pattern);
  assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
}

test('each model lists the parameters it reads', () => {
  assert.deepEqual(wakeParameterNames('niayifar2016'), ['a1', 'a2', 'ceps', 'ctlim']);
  assert.deepEqual(wakeParameterNames('turbopark2022'), ['A', 'cTI1', 'cTI2', 'ceps', 'ctlim']);
  assert.ok(wakeParameterNames('bastankhah2014').includes('k'));
  assert.ok(!wakeParameterNames('iea37').includes('wec'), "wec is the optimizer's");
});

test('a parameter the model does not read, or of the wrong sign: one line naming file, line and field, exit 2', () => {
  fs.writeFileSync(path.join(dir, 'k.yaml'), 'base: iea37-cs1-16\nwake_model: niayifar2016\nwake_params: {k: 0.05}\n');
  bad(['aep', 'k.yaml'], /k\.yaml:3: wake_params\.k: unknown parameter 'k' for niayifar2016 \(its parameters: a1, a2, ceps, ctlim\)/);
  bad(['aep', '--case', 'iea37-cs1-16', '--wake', 'niayifar2016', '--k', '0.1'], /--k: unknown parameter 'k' for niayifar2016/);
  fs.writeFileSync(path.join(dir, 'a.yaml'), 'base: iea37-cs1-16\nwake_model: turbopark2022\nwake_params:\n  A: -1\n');
  bad(['aep', 'a.yaml'], /a\.yaml:4: wake_params\.A: must be > 0, got -1/);
  fs.writeFileSync(path.join(dir, 'c.yaml'), 'base: iea37-cs1-16\nwake_model: bastankhah2014\nwake_params: {ctlim: 1.5}\n');
  bad(['aep', 'c.yaml'], /c\.yaml:3: wake_params\.ctlim: must be in \(0, 1\], got 1\.5/);
  const campaign = `name: p
output: out
farms:
  - {id: 0, case: iea37-cs1-16, wake_model: niayifar2016, wake_params: {k: 0.05}}
farm_types:
  - {id: 0, turbine: iea37-3.35mw, n_turbines: 4}
seeds: [1]
optimizer: {method: gradient, max_iterations: 3}
`;
  fs.writeFileSync(path.join(dir, 'campaign.yaml'), campaign);
  bad(['run', 'campaign.yaml', '--dry-run'], /campaign\.yaml:4: farms\[0\]\.wake_params\.k: unknown parameter 'k' for niayifar2016/);
  assert.equal(fs.existsSync(path.join(dir, 'out')), false);
  const ok = parseCampaign(campaign.replace('{k: 0.05}', '{a1: 0.3, a2: 0.01}'), path.join(dir, 'campaign.yaml'), {
    optimizerProblem: optimizerSettingsProblem,
  });
  assert.deepEqual(ok.farms[0].model.params, { a1: 0.3, a2: 0.01 });
});

test('a parameter the model reads changes its AEP as the engine computes it with that parameter', () => {
  const file = path.join(dir, 'turbopark.yaml');
  const c = caseFromDocument({ base: 'iea37-cs1-16', wake_model: 'turbopark2022', wake_params: { A: 0.06 } }, file);
  assert.deepEqual(c.model.params, { A: 0.06 });
  const withA = createFarmEvaluator(c.turbine, c.wind, c.model).aep(c.layout!.x, c.layout!.y).aepMwh;
  const plain = createFarmEvaluator(c.turbine, c.wind, { ...c.model, params: undefined }).aep(c.layout!.x, c.layout!.y).aepMwh;
  assert.ok(Math.abs(withA - plain) > 1e-4 * plain, `A changes the AEP: ${withA} vs ${plain}`);
  fs.writeFileSync(file, 'base: iea37-cs1-16\nwake_model: turbopark2022\nwake_params: {A: 0.06}\n');
  const r = JSON.parse(runWflo(['aep', file, '--json']).stdout);
  assert.equal(r.aep_mwh, withA);
});

test('wflo optimize --out writes every parameter and the ground, and wflo aep of the file reproduces the AEP', () => {
  fs.writeFileSync(path.join(dir, 'opt.yaml'), 'base: iea37-cs1-16\nwake_model: turbopark2022\nwake_params: {A: 0.05, cTI1: 1.4}\nground: mirror\n');
  const r = runWflo(['optimize', 'opt.yaml', '--method', 'gradient', '--max-iterations', '5', '--out', 'out.yaml'], { cwd: dir });
  assert.equal(r.status, 0, r.stdout + r.stderr);
  const written = readYamlFile(path.join(dir, 'out.yaml')) as { wake_params: Record<string, number>; ground: string; wflo: { aep_mwh: number } };
  assert.deepEqual(written.wake_params, { A: 0.05, cTI1: 1.4 });
  assert.equal(written.ground, 'mirror');
  const again = JSON.parse(runWflo(['aep', 'out.yaml', '--json'], { cwd: dir }).stdout);
  assert.ok(Math.abs(again.aep_mwh - written.wflo.aep_mwh) <= 1e-9 * again.aep_mwh, `${again.aep_mwh} vs ${written.wflo.aep_mwh}`);
});
