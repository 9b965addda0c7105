/**
 * wflo's native (windIO-named) YAML formats: an IEA37 case re-expressed natively must give the
 * published AEP; Weibull sectors are discretized into probability masses that sum to 1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runWflo, tempDir } from '../helpers.js';
import { windFromNative } from '../../src/io/nativeFormat.js';
import { CS1_DIRECTIONS, CS1_FREQUENCY, CS1_16_BASELINE } from '../../src/io/builtin/iea37Data.js';

const dir = tempDir('wflo-native-');

test('IEA37 cs1-16 written in the native format gives 366941.57116 MWh', () => {
  fs.writeFileSync(
    path.join(dir, 'turbine.yaml'),
    [
      'name: IEA37 3.35MW',
      'rotor_diameter: 130',
      'hub_height: 110',
      'performance:',
      '  rated_power: 3350000',
      '  cutin_wind_speed: 4',
      '  cutout_wind_speed: 25',
      '  rated_wind_speed: 9.8',
      `  Ct: ${8 / 9}`,
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'wind.yaml'),
    [
      'wind_resource:',
      `  wind_direction: [${CS1_DIRECTIONS.join(', ')}]`,
      '  wind_speed: [9.8]',
      `  probability: {data: [${CS1_FREQUENCY.map((p) => `[${p}]`).join(', ')}], dims: [wind_direction, wind_speed]}`,
      '  turbulence_intensity: {data: 0.075}',
      '',
    ].join('\n'),
  );
  fs.writeFileSync(
    path.join(dir, 'case.yaml'),
    [
      'name: cs1-native',
      'turbine: turbine.yaml',
      'wind: wind.yaml',
      'boundary: {circle: {center: [0, 0], radius: 1300}}',
      'wake_model: iea37',
      'superposition: sos',
      `layout: {x: [${CS1_16_BASELINE.x.join(', ')}], y: [${CS1_16_BASELINE.y.join(', ')}]}`,
      '',
    ].join('\n'),
  );
  const r = runWflo(['aep', path.join(dir, 'case.yaml'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const aep = JSON.parse(r.stdout).aep_mwh;
  assert.ok(Math.abs(aep - 366941.57116) / 366941.57116 < 1e-9, `${aep}`);
});

test('Weibull sectors: masses between bin midpoints, summing to 1 per sector', () => {
  const w = windFromNative(
    {
      wind_direction: [0, 90, 180, 270],
      wind_speed: [4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24],
      sector_probability: [0.1, 0.2, 0.3, 0.4],
      weibull_a: [8, 9, 10, 11],
      weibull_k: [2, 2.1, 2.2, 2.3],
    },
    'inline',
  );
  const ns = 11;
  let total = 0;
  for (let d = 0; d < 4; d++) {
    let sector = 0;
    for (let s = 0; s < ns; s++) sector += w.probability[d * ns + s];
    assert.ok(Math.abs(sector - [0.1, 0.2, 0.3, 0.4][d]) < 1e-12);
    total += sector;
  }
  assert.ok(Math.abs(total - 1) < 1e-12);
  // Second bin of sector 0: F(7) − F(5) with F(v) = 1 − exp(−(v/A)^k), A = 8, k = 2.
  const F = (v: number) => 1 - Math.exp(-((v / 8) ** 2));
  assert.ok(Math.abs(w.probability[1] - 0.1 * (F(7) - F(5))) < 1e-15);
});

test('Weibull with a mismatched sector count is rejected with the field named', () => {
  assert.throws(
    () => windFromNative({ wind_direction: [0, 90], wind_speed: [8], sector_probability: [1], weibull_a: [8, 8], weibull_k: [2, 2] }, 'w.yaml'),
    /w\.yaml: sector_probability: 1 values for 2 wind directions/,
  );
});
