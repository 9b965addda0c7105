/**
 * Time series, per-bin turbulence and blockage against PyWake, beyond the AEP and check-condition
 * comparison every reference file gets in pywakeReference.test.ts:
 * - time series (timeseries-*.yaml, PyWake `time=True`): one sample's flow (effective speed, TI,
 *   Ct at every turbine) to 1e-9; with equal weights the AEP is PyWake's own `sim_res.aep()`;
 *   the series' turbulence intensities matter (its mean alone gives another AEP);
 * - a rose with a turbulence intensity per bin (tibins-*.yaml): averaging it would change the AEP;
 * - blockage (blockage-*.yaml, PyWake All2AllIterative + SelfSimilarityDeficit2020): within 1e-6
 *   of PyWake at its default convergence tolerance (1e-6 m/s; our solve stops at 1e-10 m/s), and
 *   without the blockage model the PropagateDownwind AEP PyWake gives for the same table.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { PYWAKE_REFERENCE as REFERENCE } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { wakedFlow } from '../../src/physics/wakedAep.js';
import { windFromSeries } from '../../src/physics/windSeries.js';

type Doc = Record<string, any>;
const rel = (a: number, b: number): number => Math.abs(a - b) / Math.abs(b);
const load = (file: string) => {
  const full = path.join(REFERENCE, file);
  const doc = readYamlFile(full) as Doc;
  return { doc, c: caseFromReferenceDocument(doc, full) };
};
const files = fs.readdirSync(REFERENCE).sort();
const seriesFiles = files.filter((f) => f.startsWith('timeseries-'));
const blockageFiles = files.filter((f) => f.startsWith('blockage-'));

test('the reference folder holds time series, per-bin turbulence and blockage cases', () => {
  assert.ok(seriesFiles.length >= 4 && blockageFiles.length >= 3 && files.some((f) => f.startsWith('tibins-')), files.join(', '));
});

for (const file of seriesFiles) {
  test(`PyWake time series ${file}: one sample's flow, equal weights, per-sample turbulence`, () => {
    const { doc, c } = load(file);
    const ts = doc.wind.time_series;
    assert.equal(c.wind.series?.speeds.length, ts.wind_speed.length);
    const k = doc.expected.check_sample.index as number;
    const flow = wakedFlow(
      c.turbine,
      { ...c.model, inflow: 'waked' },
      c.layout!.x,
      c.layout!.y,
      ts.wind_direction[k],
      ts.wind_speed[k],
      ts.turbulence_intensity[k],
    );
    (doc.expected.check_sample.ws_eff as number[]).forEach((v, i) =>
      assert.ok(rel(flow.wsEff[i], v) <= 1e-9, `sample ${k} ws_eff[${i}] ${flow.wsEff[i]} vs ${v}`),
    );
    (doc.expected.check_sample.ti_eff as number[]).forEach((v, i) => assert.ok(rel(flow.ti[i], v) <= 1e-9, `sample ${k} ti_eff[${i}] ${flow.ti[i]} vs ${v}`));
    // Every time stamp weighing 1/n: PyWake's own AEP.
    const equal = windFromSeries({ directionsDeg: ts.wind_direction, speeds: ts.wind_speed, turbulenceIntensity: ts.turbulence_intensity });
    const aepEqual = createFarmEvaluator(c.turbine, equal, c.model).aep(c.layout!.x, c.layout!.y).aepMwh;
    assert.ok(rel(aepEqual, doc.expected.aep_equal_weights_mwh) <= 1e-9, `equal weights: ${aepEqual} vs PyWake ${doc.expected.aep_equal_weights_mwh}`);
    // The weights matter, and so does each sample's turbulence intensity for a TI-dependent model.
    assert.ok(rel(aepEqual, doc.expected.aep_mwh) > 1e-4, 'weights change the AEP of this series');
    if (c.model.wake !== 'bastankhah2014') {
      const meanTi = windFromSeries({
        directionsDeg: ts.wind_direction,
        speeds: ts.wind_speed,
        weights: ts.weight,
        defaultTurbulenceIntensity: c.wind.turbulenceIntensity,
      });
      const aepMeanTi = createFarmEvaluator(c.turbine, meanTi, c.model).aep(c.layout!.x, c.layout!.y).aepMwh;
      assert.ok(rel(aepMeanTi, doc.expected.aep_mwh) > 3e-4, `one mean TI would give ${aepMeanTi} instead of ${doc.expected.aep_mwh}`);
    }
  });
}

test('PyWake rose with a turbulence intensity per bin: averaging the bins would change the AEP', () => {
  const file = files.find((f) => f.startsWith('tibins-'))!;
  const { doc, c } = load(file);
  assert.ok(c.wind.turbulenceIntensityByBin);
  const averaged = { ...c.wind, turbulenceIntensityByBin: undefined };
  const aep = createFarmEvaluator(c.turbine, averaged, c.model).aep(c.layout!.x, c.layout!.y).aepMwh;
  assert.ok(rel(aep, doc.expected.aep_mwh) > 1e-3, `the probability-weighted mean TI gives ${aep}, per bin ${doc.expected.aep_mwh}`);
});

for (const file of blockageFiles) {
  test(`PyWake blockage ${file}: PyWake at its default tolerance to 1e-6, without blockage its PropagateDownwind`, () => {
    const { doc, c } = load(file);
    assert.equal(c.model.blockage, 'selfsimilarity2020');
    const withBlockage = createFarmEvaluator(c.turbine, c.wind, c.model).aep(c.layout!.x, c.layout!.y).aepMwh;
    assert.ok(
      rel(withBlockage, doc.expected.aep_mwh_default_tolerance) <= 1e-6,
      `${withBlockage} vs PyWake (1e-6 m/s) ${doc.expected.aep_mwh_default_tolerance}`,
    );
    const without = createFarmEvaluator(c.turbine, c.wind, { ...c.model, blockage: undefined }).aep(c.layout!.x, c.layout!.y).aepMwh;
    assert.ok(rel(without, doc.expected.aep_mwh_without_blockage) <= 1e-9, `without blockage ${without} vs PyWake ${doc.expected.aep_mwh_without_blockage}`);
    // Blockage costs energy here (a few tenths of a percent at most).
    assert.ok(withBlockage < without && rel(withBlockage, without) < 5e-3, `${withBlockage} vs ${without}`);
  });
}
