/**
 * The combinations no solver computes, as the solvers' declarations state them (solvePlan.ts reads
 * engine/wakedCovers.ts, superposition/weightedSumCovers.ts, blockageCovers.ts): `wflo aep` and
 * `wflo validate` of a file that writes one refuse it with exit 2 and one line naming the file and
 * the field, no stack trace. Before the solve plan these were plain Errors thrown while the waked
 * setup or the weighted-sum setup was built (engine/wakedSetup.ts, wakedAep.ts): exit 1, and
 * `validate` passed the file. Each file is a PyWake reference case with one field changed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { REPO, runWflo, tempDir } from '../helpers.js';

const reference = (name: string): Record<string, unknown> =>
  parse(fs.readFileSync(path.join(REPO, 'test', 'data', 'reference', name), 'utf8')) as Record<string, unknown>;

const withModel = (name: string, model: Record<string, unknown>): Record<string, unknown> => {
  const doc = reference(name);
  return { ...doc, model: { ...(doc.model as Record<string, unknown>), ...model } };
};

/** A per-point Weibull site over the wind of a time series: the site's own probabilities need a rose's bins. */
const weibullOverSeries = (): Record<string, unknown> => ({
  ...reference('site-weibull-bastankhah2014.yaml'),
  wind: reference('timeseries-bastankhah2014-random16.yaml').wind,
});

const cases: [string, () => Record<string, unknown>, string, RegExp][] = [
  [
    'weighted-jensen',
    () => withModel('jensen1983-random16.yaml', { superposition: 'weighted sum' }),
    'model.superposition',
    /the weighted sum needs a Gaussian wake model, not jensen; use 'linear' or 'sos'$/,
  ],
  [
    'weighted-grid-rotor',
    () => withModel('rotor-bastankhah2014-grid-random16.yaml', { superposition: 'weighted sum' }),
    'model.superposition',
    /the weighted sum is evaluated at the rotor centre only, not with the '.+' rotor average/,
  ],
  // The weighted sum over a time series runs since issue 41 (test/physics/liftedSolves.test.ts, the matrix's timeseries+weighted).
  [
    'weighted-linear-ti',
    () => withModel('niayifar2016-random16.yaml', { superposition: 'weighted sum', added_turbulence_superposition: 'linear sum' }),
    'model.superposition',
    /takes the sqrmax added-turbulence superposition only, not linear/,
  ],
  [
    'weibull-series',
    weibullOverSeries,
    'site',
    /a per-point Weibull site gives each turbine's probability of each \(direction, speed\): give `wind` as a rose/,
  ],
];

test('wflo aep and wflo validate refuse each combination no solver covers: exit 2, one line naming the file and field, no stack', () => {
  const dir = tempDir('wflo-conflicts-');
  try {
    for (const [name, make, key, message] of cases) {
      const file = path.join(dir, `${name}.yaml`);
      fs.writeFileSync(file, stringify(make()));
      for (const command of ['aep', 'validate']) {
        const r = runWflo([command, file], { env: { WFLO_DEBUG: '1' } });
        const lines = r.stderr.split('\n').filter((l) => l.length > 0);
        assert.equal(r.status, 2, `${name} ${command}: exit ${r.status}: ${r.stderr}`);
        assert.equal(lines.length, 1, `${name} ${command}: ${r.stderr}`);
        // file:line of the key to change, then its path.
        const named = /^wflo: (.+?):(\d+): ([\w.]+): /.exec(lines[0]);
        assert.ok(named && named[1] === file && named[3] === key, `${name} ${command}: ${lines[0]}`);
        // The key's own line, or the first line of the block under it.
        const text = fs.readFileSync(file, 'utf8').split('\n'),
          at = Number(named[2]) - 1,
          keyLine = new RegExp(`^\\s*${key.split('.').pop()}:`);
        assert.ok(keyLine.test(text[at]) || keyLine.test(text[at - 1]), `${name} ${command}: line ${named[2]}: ${text[at]}`);
        assert.match(lines[0], message, `${name} ${command}`);
        assert.doesNotMatch(r.stderr, /\n\s+at /, `${name} ${command}: no stack`);
        assert.equal(r.stdout, '', `${name} ${command}: nothing on stdout`);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('wflo aep refuses a combination made by flags in one line naming the flag, exit 2', () => {
  const r = runWflo(['aep', 'iea37-cs3', '--wake', 'jensen', '--superposition', 'weighted']);
  assert.equal(r.status, 2, r.stderr);
  assert.equal(r.stderr, "wflo: --superposition: the weighted sum needs a Gaussian wake model, not jensen; use 'linear' or 'sos'\n");
  const threads = runWflo(['aep', 'iea37-cs3', '--wake', 'niayifar2016', '--superposition', 'weighted', '--threads', '2']);
  assert.equal(threads.status, 2, threads.stderr);
  assert.match(threads.stderr, /^wflo: --threads: .* has the weighted sum \(superposition 'weighted'\); evaluate it on one thread \(leave out --threads\)\n$/);
});
