/**
 * Numbers that used to overflow, hang or explode without a word (issue 26): each is now refused
 * when the input is read (one line, exit 2, nothing written) or computed right, by `wflo` as a
 * child process. Where /usr/bin/time is installed the child's peak memory is measured and must
 * stay within 500 MB (a neighbour at 10⁹ m used to take a worker to 1.37 GB; 10⁵ neighbours to
 * "Invalid typed array length: 5000950045"). A child that hangs is killed after 120 s, which
 * fails the test; the test does not time anything else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, tempDir } from '../helpers.js';

const TIME = '/usr/bin/time';
const measured = fs.existsSync(TIME);
const MAX_RSS_KB = 500 * 1024;

interface Run {
  status: number | null;
  stdout: string;
  lines: string[];
  rssKb: number | null;
}

function wflo(args: string[], cwd: string): Run {
  const cmd = measured ? TIME : process.execPath;
  const argv = measured ? ['-f', 'wflo-test-maxrss %M', process.execPath, CLI, ...args] : [CLI, ...args];
  const r = spawnSync(cmd, argv, { cwd, encoding: 'utf8', timeout: 120_000 });
  const all = (r.stderr ?? '').split('\n').filter((l) => l.length > 0);
  const rss = all.find((l) => l.startsWith('wflo-test-maxrss '));
  const lines = all.filter((l) => !l.startsWith('wflo-test-maxrss ') && !l.startsWith('Command exited with non-zero status'));
  return { status: r.status, stdout: r.stdout ?? '', lines, rssKb: rss ? Number(rss.split(' ')[1]) : null };
}

function refused(r: Run, expect: RegExp, what: string): void {
  assert.equal(r.status, 2, `${what}: exit ${r.status}: ${r.lines.join('\n')}`);
  assert.equal(r.lines.length, 1, `${what}: one line expected:\n${r.lines.join('\n')}`);
  assert.match(r.lines[0], expect, what);
  if (r.rssKb !== null) assert.ok(r.rssKb <= MAX_RSS_KB, `${what}: peak memory ${Math.round(r.rssKb / 1024)} MB`);
}

const campaign = (farm: string): string =>
  `name: hostile\noutput: out\nfarms:\n  - {id: 0, case: iea37-cs1-16, ${farm}}\nfarm_types:\n  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}\nseeds: [0]\noptimizer: {method: noop}\n`;

test('a neighbour at x = 1e9 m: refused by validate, aep, optimize and run --dry-run in one line, within 500 MB', () => {
  const dir = tempDir('wflo-hostile-far-');
  fs.writeFileSync(path.join(dir, 'far.yaml'), 'base: iea37-cs1-16\nneighbours:\n  - {x: 1000000000, y: 0, turbine: iea37-3.35mw}\n');
  fs.writeFileSync(path.join(dir, 'campaign.yaml'), campaign('neighbours: [{x: 1000000000, y: 0, turbine: iea37-3.35mw}]'));
  const expect = /far\.yaml:3: neighbours\[0\]: neighbour 0 at \(1000000000, 0\) m is 1000000 km from the site, beyond the 100 km/;
  for (const args of [
    ['validate', 'far.yaml'],
    ['aep', 'far.yaml'],
    ['optimize', 'far.yaml', '--out', 'best.yaml'],
  ])
    refused(wflo(args, dir), expect, args.join(' '));
  refused(
    wflo(['run', 'campaign.yaml', '--dry-run'], dir),
    /campaign\.yaml:4: farms\[0\]\.neighbours\[0\]: neighbour 0 at \(1000000000, 0\) m/,
    'run --dry-run',
  );
  refused(wflo(['validate', 'campaign.yaml'], dir), /campaign\.yaml:4: farms\[0\]\.neighbours\[0\]: neighbour 0 at \(1000000000, 0\) m/, 'validate campaign');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['campaign.yaml', 'far.yaml'], 'nothing written');
});

test('6·10⁴ and 10⁵ neighbours: refused when read (not by a worker at run time), in one line, within 500 MB', () => {
  const dir = tempDir('wflo-hostile-many-');
  const layoutFile = (n: number): string => {
    const xs = Array.from({ length: n }, (_, i) => 3000 + 10 * i).join(', ');
    return `turbine: iea37-3.35mw\nwind: iea37-cs1\nlayout:\n  x: [${xs}]\n  y: [${new Array(n).fill(0).join(', ')}]\n`;
  };
  // 10⁵ turbines are 2·10⁵ numbers: over the YAML element budget, refused before parsing.
  fs.writeFileSync(path.join(dir, 'others.yaml'), layoutFile(100_000));
  fs.writeFileSync(path.join(dir, 'case.yaml'), 'base: iea37-cs1-16\nneighbours:\n  - {file: others.yaml}\n');
  refused(wflo(['validate', 'case.yaml'], dir), /others\.yaml:\d+: \(top level\): over \d+ YAML elements/, 'validate, 10⁵');
  // 6·10⁴ parse, and are refused by the neighbour limit.
  fs.writeFileSync(path.join(dir, 'others.yaml'), layoutFile(60_000));
  fs.writeFileSync(path.join(dir, 'case.yaml'), 'base: iea37-cs1-16\nneighbours:\n  - {file: others.yaml}\n');
  fs.writeFileSync(path.join(dir, 'campaign.yaml'), campaign('neighbours: [{file: others.yaml}]'));
  // Refused by the neighbour limit (2000) or, first, by the layout file's own turbine count limit (10 000).
  const expect =
    /case\.yaml:3: neighbours\[0\]\.file: 2001 neighbouring turbines, over the limit of 2000|others\.yaml:4: layout: 60000 turbines, over the limit of 10000/;
  refused(wflo(['validate', 'case.yaml'], dir), expect, 'validate');
  refused(wflo(['aep', 'case.yaml'], dir), expect, 'aep');
  refused(
    wflo(['run', 'campaign.yaml', '--dry-run'], dir),
    /campaign\.yaml:4: farms\[0\]\.neighbours\[0\]\.file: 2001 neighbouring turbines|others\.yaml:4: layout: 60000 turbines, over the limit of 10000/,
    'run --dry-run',
  );
  refused(
    wflo(['run', 'campaign.yaml', '--quiet'], dir),
    /campaign\.yaml:4: farms\[0\]\.neighbours\[0\]\.file: 2001 neighbouring turbines|others\.yaml:4: layout: 60000 turbines, over the limit of 10000/,
    'run',
  );
  assert.deepEqual(fs.readdirSync(dir).sort(), ['campaign.yaml', 'case.yaml', 'others.yaml'], 'nothing written (no output folder)');
});

test('time-series weights near 1e308 are normalised without overflow: the same AEP as the same shares written small', () => {
  const dir = tempDir('wflo-hostile-weights-');
  fs.writeFileSync(path.join(dir, 'huge.csv'), 'wind_direction,wind_speed,weight\n270,9,1e308\n180,10,1e308\n90,8,1\n');
  fs.writeFileSync(path.join(dir, 'small.csv'), 'wind_direction,wind_speed,weight\n270,9,1\n180,10,1\n90,8,1e-308\n');
  fs.writeFileSync(path.join(dir, 'plain.csv'), 'wind_direction,wind_speed\n270,9\n180,10\n');
  const aep = (file: string): number => {
    const r = wflo(['aep', '--case', 'iea37-cs1-16', '--wind', file, '--json'], dir);
    assert.equal(r.status, 0, r.lines.join('\n'));
    return JSON.parse(r.stdout).aep_mwh as number;
  };
  const huge = aep('huge.csv'),
    small = aep('small.csv'),
    plain = aep('plain.csv');
  assert.ok(huge > 0, `AEP ${huge}`);
  // 1e308 : 1e308 : 1 are the shares 1 : 1 : 1e-308, and the third sample weighs nothing: two equal samples.
  assert.ok(Math.abs(huge - small) <= 1e-12 * small, `${huge} vs ${small}`);
  assert.ok(Math.abs(huge - plain) <= 1e-12 * plain, `${huge} vs ${plain}`);
});

test('wake parameters and Ct out of physical range: one line, exit 2 (flags, files, with blockage)', () => {
  const dir = tempDir('wflo-hostile-params-');
  refused(wflo(['aep', '--case', 'iea37-cs1-16', '--k', '1e300'], dir), /^wflo: --k: must be at most 1, got 1e\+300/, '--k 1e300');
  const turbine = (ct: number): string =>
    `{rotor_diameter: 80, hub_height: 70, performance: {power_curve: {power_wind_speeds: [3, 5, 8, 25], power_values: [0, 154000, 696000, 2000000]}, Ct_curve: {Ct_wind_speeds: [3, 5, 8, 25], Ct_values: [0.8, ${ct}, 0.8, 0.05]}}}`;
  for (const ct of [80, 8, -0.8]) {
    // With blockage, Ct 80 used to give an AEP of 0.
    fs.writeFileSync(path.join(dir, 'case.yaml'), `base: iea37-cs1-16\nblockage: selfsimilarity2020\nturbine: ${turbine(ct)}\n`);
    for (const cmd of ['validate', 'aep']) {
      refused(
        wflo([cmd, 'case.yaml'], dir),
        new RegExp(
          `case\\.yaml:3: turbine\\.performance\\.Ct_curve\\.Ct_values\\[1\\]: thrust coefficient ${String(ct).replace('.', '\\.')} at 5 m/s is outside \\[0, 1\\.2\\]`,
        ),
        `${cmd} Ct ${ct}`,
      );
    }
  }
});
