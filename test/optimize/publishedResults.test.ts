/**
 * The best layouts in examples/results/ against the published IEA37 case study 1 results
 * (Baker et al., AIAA 2019-0540, best of the paper: 418 924.41 / 863 676.30 / 1 513 311.19 MWh
 * for 16 / 36 / 64 turbines): every file is feasible for its case, its recorded AEP is what the
 * engine computes for its layout, and it is at least the paper's best.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { REPO } from '../helpers.js';
import { builtinCase } from '../../src/io/builtinCases.js';
import { computeAep } from '../../src/physics/aep.js';
import { checkFeasibility } from '../../src/geometry/feasibility.js';

const PAPER_BEST: Record<string, number> = {
  'iea37-cs1-16': 418924.41,
  'iea37-cs1-36': 863676.30,
  'iea37-cs1-64': 1513311.19,
};

const dir = path.join(REPO, 'examples', 'results');
const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.yaml')) : [];

test('examples/results holds at least one result', () => assert.ok(files.length > 0));

for (const file of files) {
  test(`examples/results/${file}: feasible, AEP reproduced, at least the published best`, () => {
    const doc = parse(fs.readFileSync(path.join(dir, file), 'utf8'));
    const caseName: string = doc.wflo.case;
    const c = builtinCase(caseName);
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
  });
}
