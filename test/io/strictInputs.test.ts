/**
 * Strict inputs: did-you-mean for misspelt keys, holes and exclusion zones, plausibility checks
 * on published data (which must pass) and on unit slips (which must not), and the capacity bound
 * (Oler's inequality), which must admit every published layout and the densest (hexagonal)
 * packings, and refuse sites that cannot hold the turbines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { IEA37, REPO, tempDir } from '../helpers.js';
import { nearestKey, editDistance } from '../../src/io/didYouMean.js';
import { boundaryFromNative } from '../../src/io/nativeFormat.js';
import { boundaryFromDocument, readTurbineFile, readWindFile, readBoundaryFile } from '../../src/io/readers.js';
import { parseYamlText, readYamlFile, MAX_YAML_BYTES } from '../../src/io/yamlFile.js';
import { locate } from '../../src/io/sourceMap.js';
import { maxTurbinesBound, capacityProblem, windPlausibility } from '../../src/io/plausibility.js';
import { turbineIssue } from '../../src/io/turbinePlausibility.js';
import { builtinCase, BUILTIN_CASE_NAMES } from '../../src/io/builtinCases.js';
import { readLayoutFile } from '../../src/io/caseFile.js';
import { InputError } from '../../src/util/errors.js';
import type { Boundary } from '../../src/geometry/boundary.js';

const inputError = (fn: () => unknown, re: RegExp): void => {
  assert.throws(fn, (e: unknown) => e instanceof InputError && re.test(e.message) && !e.message.includes('\n'), String(re));
};

test('did you mean: the misspellings of issue 8 find their key', () => {
  assert.equal(editDistance('centre', 'center'), 1, 'a transposition is one edit');
  const cases: [string, string[], string][] = [
    ['centre', ['center', 'radius'], 'center'],
    ['radious', ['center', 'radius'], 'radius'],
    ['turbulence_intensty', ['wind_direction', 'turbulence_intensity', 'weibull_a'], 'turbulence_intensity'],
    ['weibull_A', ['weibull_a', 'weibull_k'], 'weibull_a'],
    ['hole', ['polygon', 'holes', 'exclusions'], 'holes'],
    ['maxIteration', ['maxIterations', 'hops'], 'maxIterations'],
    ['n_turbine', ['turbine', 'n_turbines'], 'n_turbines'],
  ];
  for (const [typo, known, want] of cases) assert.equal(nearestKey(typo, known), want, typo);
  assert.equal(nearestKey('colour', ['center', 'radius']), null, 'nothing close: no guess');
});

test('every mapping is strict and the error names file, line and full path', () => {
  const doc = parseYamlText('name: x\nboundary:\n  circle:\n    centre: [50000, 50000]\n    radius: 1300\n', 'case.yaml') as Record<string, unknown>;
  inputError(() => boundaryFromNative(doc.boundary, 'case.yaml'), /^case\.yaml:4: boundary\.circle\.centre: unknown field 'centre'; did you mean 'center'\?$/);
  assert.deepEqual(locate(doc, ['boundary', 'circle', 'radius']), { file: 'case.yaml', line: 5, path: ['boundary', 'circle', 'radius'] });
});

test('holes and exclusion zones become Boundary.exclusions, named', () => {
  const doc = parseYamlText(
    [
      'polygon: [[0, 0], [4000, 0], [4000, 4000], [0, 4000]]',
      'holes:',
      '  - [[1000, 1000], [1500, 1000], [1500, 1500]]',
      '  - {x: [2000, 2500, 2500], y: [2000, 2000, 2500]}',
      'exclusions:',
      '  - {name: cable corridor, polygon: [[0, 3000], [4000, 3000], [4000, 3200], [0, 3200]]}',
    ].join('\n'),
    'site.yaml',
  );
  const b = boundaryFromDocument(doc, 'site.yaml');
  assert.equal(b.kind, 'polygon');
  assert.deepEqual(
    b.exclusions?.map((e) => e.name),
    ['hole 1', 'hole 2', 'cable corridor'],
  );
  assert.deepEqual(b.exclusions?.[1].vertices, [
    [2000, 2000],
    [2500, 2000],
    [2500, 2500],
  ]);
  const circle = boundaryFromDocument(
    parseYamlText('circle: {radius: 1300}\nexclusions: [{name: pit, polygon: [[0, 0], [10, 0], [10, 10]]}]\n', 'c.yaml'),
    'c.yaml',
  );
  assert.equal(circle.kind, 'circle');
  assert.deepEqual((circle as { center: unknown }).center, [0, 0]);
  assert.deepEqual(
    circle.exclusions?.map((e) => e.name),
    ['pit'],
  );
  inputError(
    () => boundaryFromDocument(parseYamlText('circle: {radius: 1300}\nholes: [[[0, 0], [1, 0], [1, 1]]]\n', 'h.yaml'), 'h.yaml'),
    /^h\.yaml:2: holes: holes belong to a single polygon/,
  );
});

test('published IEA37 turbines, roses and sites pass the plausibility checks', () => {
  for (const f of ['cs1-2/iea37-335mw.yaml', 'cs3-4/iea37-10mw.yaml']) assert.equal(turbineIssue(readTurbineFile(path.join(IEA37, f))), null, f);
  for (const f of ['cs1-2/iea37-windrose.yaml', 'cs3-4/iea37-windrose-cs3.yaml', 'cs3-4/iea37-windrose-cs4.yaml']) {
    assert.equal(windPlausibility(readWindFile(path.join(IEA37, f))), null, f);
  }
  for (const f of ['cs3-4/iea37-boundary-cs3.yaml', 'cs3-4/iea37-boundary-cs4.yaml']) readBoundaryFile(path.join(IEA37, f));
});

test('unit slips in published files are caught: rated power in MW, directions in radians', () => {
  const dir = tempDir('wflo-units-');
  const turbine = path.join(dir, 't.yaml');
  fs.writeFileSync(turbine, fs.readFileSync(path.join(IEA37, 'cs1-2', 'iea37-335mw.yaml'), 'utf8').replace(/maximum: 3350000\.?0*/, 'maximum: 3.35'));
  inputError(() => readTurbineFile(turbine), /t\.yaml:\d+: definitions\.[\w.]*rated_power: rated power 3\.35 W is below 1 kW: W expected; 3\.35 looks like MW/);
  const rose = path.join(dir, 'rose.yaml');
  const text = fs.readFileSync(path.join(IEA37, 'cs1-2', 'iea37-windrose.yaml'), 'utf8');
  const bins = /bins: \[([^\]]*)\]/.exec(text)!;
  const radians = bins[1]
    .split(',')
    .map((d) => ((Number(d) * Math.PI) / 180).toFixed(4))
    .join(', ');
  fs.writeFileSync(rose, text.replace(bins[0], `bins: [${radians}]`));
  inputError(() => readWindFile(rose), /rose\.yaml:\d+: definitions\.[\w.]*bins: all 16 wind directions lie within \[0, 2π\].*degrees expected/);
});

/** Points of the hexagonal lattice of spacing s (the densest packing) inside a circle of radius r. */
function hexPointsInCircle(s: number, r: number): number {
  let n = 0;
  const rows = Math.ceil(r / ((s * Math.sqrt(3)) / 2)) + 1;
  for (let j = -rows; j <= rows; j++) {
    const y = (j * s * Math.sqrt(3)) / 2;
    for (let i = -rows - 1; i <= rows + 1; i++) {
      const x = (i + (j % 2 ? 0.5 : 0)) * s;
      if (x * x + y * y <= r * r) n++;
    }
  }
  return n;
}

test('capacity bound: admits every published layout and hexagonal packings, refuses impossible sites', () => {
  for (const name of BUILTIN_CASE_NAMES) {
    const c = builtinCase(name);
    assert.ok(c.nTurbines <= maxTurbinesBound(c.boundary!, c.minSpacing), `${name}: ${c.nTurbines} turbines fit`);
  }
  // The best layouts found (examples/results), at 2D spacing.
  for (const [file, n] of [
    ['iea37-cs1-64-best.yaml', 64],
    ['cs3-cs4/iea37-cs4-360x20.yaml', 81],
  ] as const) {
    assert.equal(readLayoutFile(path.join(REPO, 'examples', 'results', file)).x.length, n);
  }
  // The densest packing of equal discs: a hexagonal lattice cut by a circle, at many radii.
  for (let r = 0; r <= 20; r += 0.37) {
    const circle: Boundary = { kind: 'circle', center: [0, 0], radius: r };
    const n = hexPointsInCircle(1, r);
    assert.ok(n <= maxTurbinesBound(circle, 1), `hexagonal packing of ${n} points in radius ${r}`);
  }
  // Two turbines exactly one spacing apart on a site that is only a segment: feasible, admitted.
  assert.ok(
    2 <=
      maxTurbinesBound(
        {
          kind: 'polygon',
          vertices: [
            [0, 0],
            [260, 0],
            [260, 1e-9],
          ],
        },
        260,
      ),
  );
  // Issue 8's 1.3 m circle: room for one turbine.
  assert.match(capacityProblem({ kind: 'circle', center: [0, 0], radius: 1.3 }, 16, 260)!, /at most 1 fit/);
  assert.equal(capacityProblem({ kind: 'circle', center: [0, 0], radius: 1300 }, 16, 260), null);
});

test('YAML bombs and giants: refused with the file and line named', () => {
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i < 9; i++)
    bomb.push(
      `${'abcdefghi'[i]}: &${'abcdefghi'[i]} [${Array(10)
        .fill(`*${'abcdefghi'[i - 1]}`)
        .join(', ')}]`,
    );
  inputError(() => parseYamlText(bomb.join('\n'), 'bomb.yaml'), /^bomb\.yaml:2: b\[0\]: YAML aliases expand to too much data/);
  const dir = tempDir('wflo-giant-');
  const giant = path.join(dir, 'g.yaml');
  fs.writeFileSync(giant, 'a: 1\n');
  fs.truncateSync(giant, MAX_YAML_BYTES + 1);
  const mib = (MAX_YAML_BYTES / 2 ** 20).toFixed(1).replace('.', '\\.');
  inputError(() => readYamlFile(giant), new RegExp(`g\\.yaml:1: \\(top level\\): file is ${mib} MiB, over the ${mib} MiB limit for YAML files`));
});
