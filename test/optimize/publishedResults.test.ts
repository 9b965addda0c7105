/**
 * The best layouts in examples/results/ against the published IEA37 results (case study 1: Baker
 * et al., AIAA 2019-0540, best of the paper: 418 924.41 / 863 676.30 / 1 513 311.19 MWh for 16 /
 * 36 / 64 turbines): every file is feasible for its case (spacing ≥ 2D − 1e-6 m, inside within
 * 1e-6 m), its recorded AEP is what the engine computes for its layout (the engine equals the
 * IEA37 formula, test/physics) on its case's rose (a file naming `wind_file` — the 360 × 20 rose of
 * case study 4 — is scored on that file), and it is at least the paper's best. Files listed in
 * RECORDS must also beat the best known feasible layout (examples/records/SOURCE.md: participant
 * 12's cs1 layouts moved onto the circle; IFPEN's cs4 layout on the 360 × 20 rose).
 * examples/results/README.md must give, for every file, how it was made: the command (method and
 * seed), or for a file a record campaign produced (`wflo.task`), the campaign file and the task;
 * such a file also states the CPU time of the whole campaign.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO } from '../helpers.js';
import { builtinCase } from '../../src/io/builtinCases.js';
import { computeAep } from '../../src/physics/aep.js';
import { readWindFile } from '../../src/io/readers.js';
import { checkFeasibility } from '../../src/geometry/feasibility.js';

const PAPER_BEST: Record<string, number> = {
  'iea37-cs1-16': 418924.41,
  'iea37-cs1-36': 863676.30,
  'iea37-cs1-64': 1513311.19,
};

/** Best known feasible AEP (MWh) that a record file must beat, by file. */
const RECORDS: Record<string, number> = {
  'iea37-cs1-16-best.yaml': 421451.07,
  'iea37-cs1-36-best.yaml': 882382.78,
  'iea37-cs1-64-best.yaml': 1526474.68,
  'iea37-cs4-best.yaml': 2912817.38,
};

const dir = path.join(REPO, 'examples', 'results');
const readme = fs.existsSync(path.join(dir, 'README.md')) ? fs.readFileSync(path.join(dir, 'README.md'), 'utf8') : '';
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')) : [];

test('examples/results holds at least one result, and a record file for every case with a known best', () => {
  assert.ok(files.length > 0);
  for (const record of Object.keys(RECORDS)) if (record !== 'iea37-cs4-best.yaml') assert.ok(files.includes(record), `no ${record}`);
});

for (const file of files) {
  test(`examples/results/${file}: feasible, AEP reproduced, at least the published best`, () => {
    const doc = parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    const caseName: string = doc.wflo.case;
    const c = builtinCase(caseName);
    if (doc.wflo.wind_file !== undefined) c.wind = readWindFile(path.resolve(dir, doc.wflo.wind_file));
    const x = Float64Array.from(doc.definitions.position.items.xc as number[]);
    const y = Float64Array.from(doc.definitions.position.items.yc as number[]);
    assert.equal(x.length, c.nTurbines);
    const report = checkFeasibility(c.boundary, x, y, c.minSpacing, 1e-6);
    assert.ok(report.feasible, report.worst ?? '');
    const aep = computeAep(x, y, c.turbine, c.wind, c.model).aepMwh;
    assert.equal(aep, doc.wflo.aep_mwh);
    if (PAPER_BEST[caseName] !== undefined) {
      assert.ok(aep >= PAPER_BEST[caseName], `${caseName}: ${aep} < published ${PAPER_BEST[caseName]}`);
    }
    if (RECORDS[file] !== undefined) assert.ok(aep > RECORDS[file]!, `${file}: ${aep} does not beat the best known ${RECORDS[file]}`);
    // The README row of this file says how it was made: its command (method and seed), or its
    // campaign and task; a campaign's file gives the campaign's CPU time.
    const row = readme.split('\n').find((line) => line.includes(file));
    assert.ok(row, `examples/results/README.md has no row for ${file}`);
    if (doc.wflo.task !== undefined) {
      assert.ok(row!.includes(doc.wflo.campaign) && row!.includes(doc.wflo.task), `README row for ${file} lacks its campaign and task: ${row}`);
      assert.ok(fs.existsSync(path.join(REPO, doc.wflo.campaign)), `${file}: campaign ${doc.wflo.campaign} is not in the repository`);
      assert.ok(typeof doc.wflo.cpu_s_total === 'number' && doc.wflo.cpu_s_total > 0, `${file}: no cpu_s_total`);
    } else {
      assert.ok(row!.includes(`--method ${doc.wflo.method}`) && row!.includes(`--seed ${doc.wflo.seed}`), `README row for ${file} lacks its command: ${row}`);
    }
    assert.ok(typeof doc.wflo.wall_s === 'number' && doc.wflo.wall_s > 0);
  });
}
