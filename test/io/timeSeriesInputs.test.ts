/**
 * Time series and per-bin turbulence as inputs: a CSV file (through `wflo aep` it gives PyWake's
 * AEP of the same series), a native wind file's `time_series` (a CSV path or inline columns), a
 * native rose with a turbulence table; strict headers and keys, one-line errors naming the file,
 * the line and the column, plausibility (radians, km/h, percent); and the result file's wind,
 * which reads back bit for bit.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PYWAKE_REFERENCE, runWflo, tempDir } from '../helpers.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { readTimeSeriesCsv, timeSeriesFromCsvText } from '../../src/io/timeSeriesCsv.js';
import { windFromNative } from '../../src/io/nativeFormat.js';
import { readWindFile } from '../../src/io/readers.js';
import { nativeWind, nativeTurbine } from '../../src/io/layoutResultYaml.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { validateInputFile } from '../../src/io/inputKind.js';
import { InputError } from '../../src/util/errors.js';

const dir = tempDir('wflo-series-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string): string => {
  const f = path.join(dir, name);
  fs.writeFileSync(f, text);
  return f;
};

type Doc = Record<string, any>;
const refFile = path.join(PYWAKE_REFERENCE, 'timeseries-niayifar2016-random16.yaml');
const ref = readYamlFile(refFile) as Doc;

test("a CSV time series through `wflo aep` gives PyWake's AEP of the same series (1e-9)", () => {
  const ts = ref.wind.time_series;
  const lines = ['time,wind_direction,wind_speed,turbulence_intensity,weight'];
  ts.wind_speed.forEach((_: number, t: number) =>
    lines.push([ts.time[t], ts.wind_direction[t], ts.wind_speed[t], ts.turbulence_intensity[t], ts.weight[t]].join(',')),
  );
  write('series.csv', `${lines.join('\r\n')}\r\n`);
  const c = caseFromReferenceDocument(ref, refFile);
  write('turbine.yaml', stringify(nativeTurbine({ ...c.turbine, cutOutInclusive: undefined })));
  // The reference turbine is 0 outside its table with the table value at cut-out: the native turbine reads the same curves.
  write(
    'case.yaml',
    stringify({
      name: 'series-case',
      turbine: 'turbine.yaml',
      wind: 'series.csv',
      wake_model: 'niayifar2016',
      superposition: 'linear',
      layout: { x: ref.layout.x, y: ref.layout.y },
    }),
  );
  const r = runWflo(['aep', path.join(dir, 'case.yaml'), '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.equal(out.n_samples, 300);
  assert.ok(Math.abs(out.aep_mwh - ref.expected.aep_mwh) <= 1e-9 * ref.expected.aep_mwh, `${out.aep_mwh} vs PyWake ${ref.expected.aep_mwh}`);
  const v = validateInputFile(path.join(dir, 'series.csv'));
  assert.equal(v.kind, 'wind');
  assert.match(v.summary, /series\.csv: valid wind resource: time series of 300 samples/);
});

test('CSV columns: weights or frequencies normalised, equal weights without them, a BOM and quoted cells read', () => {
  const w = timeSeriesFromCsvText('\uFEFFwind_direction,wind_speed,frequency\n270,8,2\n"90",10,6\n', 'f.csv');
  assert.deepEqual(Array.from(w.series!.weights), [0.25, 0.75]);
  assert.equal(w.series!.turbulenceIntensity, undefined);
  assert.equal(w.turbulenceIntensity, 0.075);
  const e = timeSeriesFromCsvText('wind_direction,wind_speed\n270,8\n90,10\n\n', 'f.csv');
  assert.deepEqual(Array.from(e.series!.weights), [0.5, 0.5]);
  assert.deepEqual(Array.from(e.directionsDeg), [90, 270]);
});

test('CSV errors are one line naming the file, the line and the column', () => {
  const bad = (text: string, re: RegExp) =>
    assert.throws(
      () => timeSeriesFromCsvText(text, 'met.csv'),
      (err: unknown) => {
        assert.ok(err instanceof InputError, String(err));
        assert.match(err.message, re);
        assert.equal(err.message.split('\n').length, 1);
        return true;
      },
    );
  bad('wind_direction,wind_sped\n270,8\n', /^met\.csv:1: wind_sped: unknown column 'wind_sped'; did you mean 'wind_speed'\?/);
  bad('wind_direction,wind_speed,wind_speed\n270,8,8\n', /^met\.csv:1: wind_speed: column 'wind_speed' appears twice/);
  bad('wind_direction,turbulence_intensity\n270,0.1\n', /^met\.csv:1: wind_speed: missing column/);
  bad('wind_direction,wind_speed\n270,8\n90,\n', /^met\.csv:3: wind_speed: empty cell/);
  bad('wind_direction,wind_speed\n270,8\n90,fast\n', /^met\.csv:3: wind_speed: 'fast' is not a finite number/);
  bad('wind_direction,wind_speed\n270,8\n90,-1\n', /^met\.csv:3: wind_speed: -1 must be >= 0/);
  bad('wind_direction,wind_speed\n270,8,1\n', /^met\.csv:2: .*row has 3 cells, the header 2/);
  bad('time,wind_direction,wind_speed\n2024-01-01T00:10Z,270,8\n2024-01-01T00:00Z,90,8\n', /^met\.csv:3: time: time stamps must increase/);
  bad('time,wind_direction,wind_speed\nyesterday,270,8\n', /^met\.csv:2: time: 'yesterday' is not a number or an ISO 8601 date-time/);
  bad('wind_direction,wind_speed\n0.5,8\n1.5,9\n3.1,7\n', /^met\.csv:1: wind_direction: all 3 wind directions of the series lie within \[0, 2π\].*radians/);
  bad('wind_direction,wind_speed\n270,8\n90,90\n', /^met\.csv:3: wind_speed: wind speed 90 is above 75 m\/s: m\/s expected; this looks like km\/h or knots/);
  bad(
    'wind_direction,wind_speed,turbulence_intensity\n270,8,0.1\n90,9,12\n',
    /^met\.csv:3: turbulence_intensity: turbulence intensity 12 is above 1: a fraction expected/,
  );
  bad('wind_direction,wind_speed,weight\n270,8,0\n90,9,0\n', /^met\.csv:1: weight: every weight is 0/);
  bad('wind_direction,wind_speed,weight,frequency\n270,8,1,1\n', /^met\.csv:1: frequency: give weight or frequency, not both/);
  bad('wind_direction,wind_speed\n', /^met\.csv:1: wind_direction: no samples/);
  // A quoted cell holding a line break is refused (one sample per line), in one line.
  bad(
    'time,wind_direction,wind_speed\n"2024-01-01\nT00:00",270,8\n2024-01-02,90,8\n',
    /^met\.csv:2: time: a quoted cell holds a line break \(one sample per line\)$/,
  );
  bad('wind_direction,wind_speed\n270,"8\r\n"\n', /^met\.csv:2: wind_speed: a quoted cell holds a line break/);
  // Numbers are decimal: what JavaScript's Number() would also read is refused.
  bad('wind_direction,wind_speed\n270,0x10\n', /^met\.csv:2: wind_speed: '0x10' is not a decimal number/);
  bad('wind_direction,wind_speed\n270,0b11\n', /^met\.csv:2: wind_speed: '0b11' is not a decimal number/);
  bad('wind_direction,wind_speed\n270,1_000\n', /^met\.csv:2: wind_speed: '1_000' is not a finite number/);
  bad('wind_direction,wind_speed\n270,Infinity\n', /^met\.csv:2: wind_speed: 'Infinity' is not a finite number/);
  bad('wind_direction,wind_speed\n270,8\n-1e400,8\n', /^met\.csv:3: wind_direction: '-1e400' is not a finite number/);
  assert.throws(() => readTimeSeriesCsv(path.join(dir, 'absent.csv')), /absent\.csv: time-series file not found/);
});

test('native wind files: time_series as a CSV path or inline columns, strict keys, a turbulence table per bin', () => {
  write('met.csv', 'wind_direction,wind_speed,turbulence_intensity\n270,8,0.06\n90,12,0.1\n');
  write('wind-csv.yaml', 'wind_resource:\n  time_series: met.csv\n');
  const fromCsv = readWindFile(path.join(dir, 'wind-csv.yaml'));
  assert.deepEqual(Array.from(fromCsv.series!.turbulenceIntensity!), [0.06, 0.1]);
  const inline = windFromNative({ time_series: { wind_direction: [270, 90], wind_speed: [8, 12], weight: [1, 3] }, turbulence_intensity: 0.09 }, 'inline.yaml');
  assert.deepEqual(Array.from(inline.series!.weights), [0.25, 0.75]);
  assert.equal(inline.turbulenceIntensity, 0.09);
  const file = write('wind-bad.yaml', 'time_series:\n  wind_direction: [270, 90]\n  wind_sped: [8, 12]\n');
  assert.throws(() => readWindFile(file), /wind-bad\.yaml:3: time_series\.wind_sped: unknown field 'wind_sped'; did you mean 'wind_speed'\?/);
  const both = write('wind-both.yaml', 'wind_direction: [0, 90]\nwind_speed: [8]\nprobability: [[0.5], [0.5]]\ntime_series: met.csv\n');
  assert.throws(() => readWindFile(both), /wind-both\.yaml:1: wind_direction: a time_series gives its own directions and speeds/);
  const tiBad = write('wind-ti-bad.yaml', 'time_series:\n  wind_direction: [270, 90]\n  wind_speed: [8, 12]\n  turbulence_intensity: [0.1, 8]\n');
  assert.throws(() => readWindFile(tiBad), /wind-ti-bad\.yaml:4: time_series\.turbulence_intensity\[1\]: turbulence intensity 8 is above 1/);
  // A rose with one turbulence intensity per (direction, speed) bin, and a table of the wrong shape.
  const rose = windFromNative(
    {
      wind_direction: [0, 180],
      wind_speed: [8, 12],
      probability: [
        [0.25, 0.25],
        [0.25, 0.25],
      ],
      turbulence_intensity: [
        [0.05, 0.06],
        [0.07, 0.08],
      ],
    },
    'rose.yaml',
  );
  assert.deepEqual(Array.from(rose.turbulenceIntensityByBin!), [0.05, 0.06, 0.07, 0.08]);
  assert.ok(Math.abs(rose.turbulenceIntensity - 0.065) < 1e-15);
  const shape = write(
    'rose-bad.yaml',
    'wind_direction: [0, 180]\nwind_speed: [8, 12]\nprobability: [[0.25, 0.25], [0.25, 0.25]]\nturbulence_intensity:\n  - [0.05, 0.06]\n  - [0.07]\n',
  );
  assert.throws(() => readWindFile(shape), /rose-bad\.yaml:6: turbulence_intensity\[1\]: 1 values for 2 wind speeds/);
});

test("the result file's wind (a series, a per-bin rose) reads back bit for bit", () => {
  const c = caseFromReferenceDocument(ref, refFile);
  const back = windFromNative(JSON.parse(JSON.stringify(nativeWind(c.wind))), 'back.yaml');
  for (const key of ['directionsDeg', 'speeds', 'weights', 'turbulenceIntensity'] as const) {
    assert.deepEqual(Array.from(back.series![key]!), Array.from(c.wind.series![key]!), key);
  }
  const tiRef = path.join(PYWAKE_REFERENCE, 'tibins-niayifar2016-random16.yaml');
  const rose = caseFromReferenceDocument(readYamlFile(tiRef), tiRef).wind;
  const roseBack = windFromNative(JSON.parse(JSON.stringify(nativeWind(rose))), 'back.yaml');
  assert.deepEqual(Array.from(roseBack.turbulenceIntensityByBin!), Array.from(rose.turbulenceIntensityByBin!));
  assert.deepEqual(Array.from(roseBack.probability), Array.from(rose.probability));
});

test('the CLI: a bad CSV or windIO time series is one line naming the file, line and field, exit 2, nothing written', () => {
  const csv = write('bad-series.csv', 'wind_direction,wind_speed,turbulence_intensity\n270,8,0.1\n90,fast,0.1\n');
  const windio = write(
    'bad-windio.yaml',
    [
      'name: bad',
      'wind_resource:',
      '  time: [0, 1, 2]',
      '  wind_speed: [7.9, 8.1, 8.2]',
      '  wind_direction: [359.7, 0.2, 90.4]',
      '  turbulence_intensity: [0.1, 20, 0.1]',
      '',
    ].join('\n'),
  );
  const campaign = write(
    'bad-campaign.yaml',
    stringify({
      name: 'bad-series',
      output: 'out-bad',
      farms: [{ id: 0, boundary: { circle: { center: [0, 0], radius: 1000 } }, wind: 'bad-series.csv', wake_model: 'niayifar2016', superposition: 'linear' }],
      farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 4 }],
      seeds: [1],
      optimizer: { method: 'gradient', max_iterations: 2 },
    }),
  );
  const oneLine = (args: string[], re: RegExp) => {
    const r = runWflo(args, { cwd: dir });
    assert.equal(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(lines[0], re);
  };
  const csvLine = /bad-series\.csv:3: wind_speed: 'fast' is not a finite number$/;
  oneLine(['aep', '--case', 'iea37-cs1-16', '--wind', csv], csvLine);
  oneLine(['validate', csv], csvLine);
  oneLine(['run', campaign, '--dry-run'], /bad-campaign\.yaml:\d+: farms\[0\]\.wind: .*bad-series\.csv:3: wind_speed: 'fast' is not a finite number$/);
  oneLine(['run', campaign], /bad-series\.csv:3: wind_speed/);
  assert.equal(fs.existsSync(path.join(dir, 'out-bad')), false, 'a refused campaign writes no output');
  const windioLine = /bad-windio\.yaml:6: wind_resource\.turbulence_intensity\[1\]: time stamp 1: turbulence intensity 20 is above 1/;
  oneLine(['aep', '--case', 'iea37-cs1-16', '--wind', windio], windioLine);
  oneLine(['validate', windio], windioLine);
});
