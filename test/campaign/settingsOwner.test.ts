/**
 * One owner for every setting a campaign farm shares with its case file (`case: farm.yaml`;
 * campaign/settingsOwner.ts, docs/inputs.md): for each shared field, a campaign value that differs
 * from the case file's is refused in one line naming both files and lines; a field one side leaves
 * out is the other side's, and `wflo validate` says which file owns it. The farm type takes a spacing
 * or objective it leaves out from the case files when every farm's says the same. End to end: a
 * case file at 4 D runs at 4 D, and layouts.h5 records min_spacing_m = 4·D (read back with h5py).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseCampaign } from '../../src/campaign/loadCampaign.js';
import { caseForTask } from '../../src/campaign/caseForTask.js';
import type { Campaign } from '../../src/campaign/campaign.js';
import { InputError } from '../../src/util/errors.js';
import { canonicalJson } from '../../src/campaign/specHash.js';
import { builtinWind } from '../../src/io/builtinCases.js';
import { PYTHON, hasH5py, runWflo, tempDir } from '../helpers.js';
import { ECONOMICS_LINES } from '../cost/laneCase.js';

const ECONOMICS = [...ECONOMICS_LINES];

interface Files {
  dir: string;
  campaign: string;
  caseFile: string;
  campaignText: string;
  caseText: string;
}

/**
 * A folder with farm.yaml (IEA37 cs1-16 as base, then `caseLines`) and campaign.yaml: one farm on
 * the case file (its extra `farmLines`) and one farm type (`typeLines`, default 16 IEA37 3.35 MW).
 */
function write(
  caseLines: string[],
  farmLines: string[] = [],
  typeLines: string[] = ['turbine: iea37-3.35mw', 'n_turbines: 16'],
  extraFarms: string[] = [],
): Files {
  const dir = tempDir('wflo-owner-');
  const caseText = ['name: farm', 'base: iea37-cs1-16', ...caseLines, ''].join('\n');
  const campaignText = [
    'name: owners',
    'output: out',
    'farms:',
    '  - id: 0',
    '    case: farm.yaml',
    ...farmLines.map((l) => `    ${l}`),
    ...extraFarms,
    'farm_types:',
    '  - id: 0',
    ...typeLines.map((l) => `    ${l}`),
    'seeds: [0]',
    'optimizer: {method: noop}',
    '',
  ].join('\n');
  const campaign = path.join(dir, 'campaign.yaml'),
    caseFile = path.join(dir, 'farm.yaml');
  fs.writeFileSync(caseFile, caseText);
  fs.writeFileSync(campaign, campaignText);
  return { dir, campaign, caseFile, campaignText, caseText };
}

const load = (f: Files): Campaign => parseCampaign(f.campaignText, f.campaign);

/** 1-based line of the first line of `text` that starts (after indentation and a list dash) with `key:`. */
function lineOfKey(text: string, key: string): number {
  const i = text.split('\n').findIndex((l) => new RegExp(`^\\s*(- )?${key}:`).test(l));
  assert.ok(i >= 0, `no ${key} in\n${text}`);
  return i + 1;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The campaign is refused in one line at the campaign's field (its line) naming the case file's
 * field and line: `campaign.yaml:L: <campaignPath>: … differs from …farm.yaml:L2 <caseKey> …`.
 */
function assertRefused(f: Files, campaignPath: string, campaignKey: string, caseKey: string, verb = 'differs from'): string {
  let message = '';
  try {
    load(f);
  } catch (err) {
    assert.ok(err instanceof InputError, `expected InputError, got ${(err as Error).stack}`);
    message = err.message;
  }
  assert.notEqual(message, '', 'the campaign was accepted');
  assert.equal(message.includes('\n'), false, 'one line');
  const campaignLine = lineOfKey(f.campaignText, campaignKey),
    caseLine = lineOfKey(f.caseText, caseKey);
  assert.match(
    message,
    new RegExp(`^${esc(f.campaign)}:${campaignLine}: ${esc(campaignPath)}: .* ${verb} ${esc(f.caseFile)}:${caseLine} ${caseKey} `),
    message,
  );
  return message;
}

interface OwnerRow {
  setting: string;
  farmType: number | null;
  owner: string;
  campaignAt: string | null;
  caseAt: string | null;
}
/** Who owns `setting` for farm 0 (read loosely: the record is what this change adds). */
function ownerOf(c: Campaign, setting: string, farmType: number | null = null): OwnerRow | undefined {
  const owners = (c as unknown as { settingOwners?: { farmId: number; settings: OwnerRow[] }[] }).settingOwners;
  return owners?.find((o) => o.farmId === 0)?.settings.find((s) => s.setting === setting && s.farmType === farmType);
}

// ---------------------------------------------------------------- farm settings, one per field

/** Each farm setting: a case file's value, a different campaign value, and how to see the resolved value. */
const FARM_CASES: { setting: string; caseLines: string[]; campaignLines: string[]; resolved: (c: Campaign) => unknown; caseValue: unknown }[] = [
  {
    setting: 'boundary',
    caseLines: ['boundary: {circle: {center: [0, 0], radius: 1400}}'],
    campaignLines: ['boundary: {circle: {center: [0, 0], radius: 1500}}'],
    resolved: (c) => (c.farms[0].boundary as { radius: number }).radius,
    caseValue: 1400,
  },
  {
    setting: 'wind',
    caseLines: ['wind: iea37-cs3'],
    campaignLines: ['wind: iea37-cs1'],
    resolved: (c) => canonicalJson(c.farms[0].wind) === canonicalJson(builtinWind('iea37-cs3')),
    caseValue: true,
  },
  {
    setting: 'wake_model',
    caseLines: ['wake_model: bastankhah2014'],
    campaignLines: ['wake_model: jensen'],
    resolved: (c) => c.farms[0].model.wake,
    caseValue: 'bastankhah2014',
  },
  {
    setting: 'superposition',
    caseLines: ['superposition: linear'],
    campaignLines: ['superposition: sos'],
    resolved: (c) => c.farms[0].model.superposition,
    caseValue: 'linear',
  },
  {
    setting: 'wake_params',
    caseLines: ['wake_model: bastankhah2014', 'wake_params: {k: 0.04}'],
    campaignLines: ['wake_params: {k: 0.03}'],
    resolved: (c) => c.farms[0].model.params,
    caseValue: { k: 0.04 },
  },
  { setting: 'ground', caseLines: ['ground: mirror'], campaignLines: ['ground: none'], resolved: (c) => c.farms[0].model.ground, caseValue: 'mirror' },
  {
    setting: 'site',
    caseLines: ['site: {shear: {power: {h_ref: 110, alpha: 0.14}}}'],
    campaignLines: ['site: {shear: {power: {h_ref: 110, alpha: 0.2}}}'],
    resolved: (c) => JSON.stringify(c.farms[0].model.site?.shear),
    caseValue: JSON.stringify({ kind: 'power', hRef: 110, alpha: 0.14 }),
  },
  {
    setting: 'neighbours',
    caseLines: ['neighbours: [{x: -3000, y: 0, turbine: iea37-3.35mw}]'],
    campaignLines: ['neighbours: [{x: -3500, y: 0, turbine: iea37-3.35mw}]'],
    resolved: (c) => c.farms[0].neighbours?.x[0],
    caseValue: -3000,
  },
  {
    setting: 'directions',
    caseLines: ['directions: {spread: 20}'],
    campaignLines: ['directions: {spread: 10}'],
    resolved: (c) => JSON.stringify(c.farms[0].directions),
    caseValue: JSON.stringify({ kind: 'spread', n: 20 }),
  },
  {
    setting: 'economics',
    caseLines: ECONOMICS,
    campaignLines: ECONOMICS.map((l) => l.replace('energy_price_eur_per_mwh: 60', 'energy_price_eur_per_mwh: 70')),
    resolved: (c) => c.farms[0].economics?.energyPriceEurPerMWh,
    caseValue: 60,
  },
];

for (const fc of FARM_CASES) {
  test(`farm setting ${fc.setting}: a campaign farm's other value is refused naming both files and lines; left out, the case file's is used and owns it`, () => {
    const differing = write(fc.caseLines, fc.campaignLines);
    assertRefused(differing, `farms[0].${fc.setting}`, fc.setting, fc.setting);

    const taken = write(fc.caseLines);
    const c = load(taken);
    assert.deepEqual(fc.resolved(c), fc.caseValue);
    const row = ownerOf(c, fc.setting);
    assert.equal(row?.owner, 'case file', `${fc.setting}: ${JSON.stringify(row)}`);
    assert.equal(row?.caseAt, `${taken.caseFile}:${lineOfKey(taken.caseText, fc.setting)}`);

    // The same value in both files is one setting said twice: accepted, owned by both.
    const same = write(
      fc.caseLines,
      fc.caseLines.filter((l) => l.startsWith(fc.setting) || l.startsWith(' ')),
    );
    const both = ownerOf(load(same), fc.setting);
    assert.equal(both?.owner, 'both');
    assert.equal(both?.campaignAt, `${same.campaign}:${lineOfKey(same.campaignText, fc.setting)}`);
  });
}

test("farm setting blockage: the case file's blockage is the farm's and owned by the case file; written in both, owned by both", () => {
  const taken = write(['blockage: selfsimilarity2020']);
  const c = load(taken);
  assert.equal(c.farms[0].model.blockage, 'selfsimilarity2020');
  assert.equal(ownerOf(c, 'blockage')?.owner, 'case file');
  assert.equal(ownerOf(c, 'blockage')?.caseAt, `${taken.caseFile}:3`);
  const both = write(['blockage: selfsimilarity2020'], ['blockage: selfsimilarity2020']);
  assert.equal(ownerOf(load(both), 'blockage')?.owner, 'both');
  // A setting neither file writes is nobody's: its default (or the case file's base).
  assert.equal(ownerOf(load(write([])), 'blockage')?.owner, 'neither');
});

test("farm setting wake_params: a campaign farm's other wake model, which would drop the case file's wake_params, is refused at wake_model", () => {
  // The case file's k is its (base's) iea37 model's; another model in the campaign would silently leave it out.
  const f = write(['wake_params: {k: 0.04}'], ['wake_model: bastankhah2014']);
  const message = assertRefused(f, 'farms[0].wake_model', 'wake_model', 'wake_params', 'drops');
  assert.match(message, /wake_model: bastankhah2014 drops .* wake_params \(a mapping\)/);
  // The same model in both and no params in the campaign: the case file's k is the farm's.
  const same = write(['wake_model: bastankhah2014', 'wake_params: {k: 0.04}'], ['wake_model: bastankhah2014']);
  const c = load(same);
  assert.deepEqual(c.farms[0].model.params, { k: 0.04 });
  assert.equal(ownerOf(c, 'wake_params')?.owner, 'case file');
  assert.equal(ownerOf(c, 'wake_model')?.owner, 'both');
});

// ---------------------------------------------------------------- farm-type settings, one per field

test('farm-type setting turbine: a farm type of v80 over a case file of the 10 MW turbine is refused naming both lines', () => {
  const f = write(['turbine: iea37-10mw', 'n_turbines: 16'], [], ['turbine: v80', 'n_turbines: 16']);
  const message = assertRefused(f, 'farm_types[0].turbine', 'turbine', 'turbine');
  assert.match(message, /v80 differs from .* turbine iea37-10mw/);
  // The same turbine in both: both own it.
  const same = write(['turbine: iea37-10mw', 'n_turbines: 16'], [], ['turbine: iea37-10mw', 'n_turbines: 16']);
  assert.equal(ownerOf(load(same), 'turbine', 0)?.owner, 'both');
});

test("farm-type setting turbines: other counts of the models than the case file's are refused", () => {
  const f = write(
    ['turbines: [{turbine: iea37-3.35mw, n: 10}, {turbine: v80, n: 6}]'],
    [],
    ['turbines: [{turbine: iea37-3.35mw, n: 8}, {turbine: v80, n: 8}]'],
  );
  assertRefused(f, 'farm_types[0].turbines', 'turbines', 'turbines');
  const same = write(
    ['turbines: [{turbine: iea37-3.35mw, n: 10}, {turbine: v80, n: 6}]'],
    [],
    ['turbines: [{turbine: iea37-3.35mw, n: 10}, {turbine: v80, n: 6}]'],
  );
  assert.equal(ownerOf(load(same), 'turbines', 0)?.owner, 'both');
});

test("farm-type setting turbine_choice: other models to choose from than the case file's are refused", () => {
  const f = write(['n_turbines: 16', 'turbine_choice: [iea37-3.35mw, v80]'], [], ['n_turbines: 16', 'turbine_choice: [iea37-3.35mw, iea37-10mw]']);
  assertRefused(f, 'farm_types[0].turbine_choice', 'turbine_choice', 'turbine_choice');
});

test("farm-type setting n_turbines: another count than the case file's is refused", () => {
  const f = write(['n_turbines: 16'], [], ['turbine: iea37-3.35mw', 'n_turbines: 12']);
  assertRefused(f, 'farm_types[0].n_turbines', 'n_turbines', 'n_turbines');
});

test('farm-type setting min_spacing_diameters: 2 D in the farm type over a case file at 4 D is refused; left out, the farm type runs at 4 D', () => {
  const f = write(['min_spacing_diameters: 4'], [], ['turbine: iea37-3.35mw', 'n_turbines: 16', 'min_spacing_diameters: 2']);
  const message = assertRefused(f, 'farm_types[0].min_spacing_diameters', 'min_spacing_diameters', 'min_spacing_diameters');
  assert.match(message, /: 2 \(2 D, 260 m\) differs from .*farm\.yaml:3 min_spacing_diameters 4 /);
  const taken = write(['min_spacing_diameters: 4']);
  const c = load(taken);
  assert.equal(c.farmTypes[0].minSpacingM, 4 * 130);
  assert.equal(caseForTask(c.farms[0], c.farmTypes[0]).minSpacing, 520);
  assert.equal(ownerOf(c, 'min_spacing_diameters', 0)?.owner, 'case file');
  // The same spacing in metres answers it: 520 m is 4 D of a 130 m rotor.
  assert.equal(load(write(['min_spacing_diameters: 4'], [], ['turbine: iea37-3.35mw', 'n_turbines: 16', 'min_spacing_m: 520'])).farmTypes[0].minSpacingM, 520);
});

test("farm-type setting min_spacing_m: another spacing than the case file's is refused, in either unit; left out, it is taken", () => {
  assertRefused(
    write(['min_spacing_m: 600'], [], ['turbine: iea37-3.35mw', 'n_turbines: 16', 'min_spacing_m: 500']),
    'farm_types[0].min_spacing_m',
    'min_spacing_m',
    'min_spacing_m',
  );
  assertRefused(
    write(['min_spacing_m: 600'], [], ['turbine: iea37-3.35mw', 'n_turbines: 16', 'min_spacing_diameters: 3']),
    'farm_types[0].min_spacing_diameters',
    'min_spacing_diameters',
    'min_spacing_m',
  );
  const c = load(write(['min_spacing_m: 600']));
  assert.equal(c.farmTypes[0].minSpacingM, 600);
});

test('farm-type setting objective: aep in the farm type over a case file that optimizes lcoe is refused; left out, the farm type optimizes lcoe', () => {
  assertRefused(
    write([...ECONOMICS, 'objective: lcoe'], [], ['turbine: iea37-3.35mw', 'n_turbines: 16', 'objective: aep']),
    'farm_types[0].objective',
    'objective',
    'objective',
  );
  const c = load(write([...ECONOMICS, 'objective: lcoe']));
  assert.equal(c.farmTypes[0].objective, 'lcoe');
  assert.equal(caseForTask(c.farms[0], c.farmTypes[0]).objective, 'lcoe');
});

test("a farm type takes a case file's spacing only when every farm says the same: a second farm without a case file makes it the farm type's to say", () => {
  const f = write(['min_spacing_diameters: 4'], [], undefined, ['  - id: 1', '    case: iea37-cs1-16']);
  let message = '';
  try {
    load(f);
  } catch (err) {
    message = (err as Error).message;
  }
  assert.match(
    message,
    new RegExp(
      `^${esc(f.campaign)}:${lineOfKey(f.campaignText, 'farm_types') + 1}: farm_types\\[0\\]\\.min_spacing_diameters: \\(not given: 2\\) differs from ${esc(f.caseFile)}:3 min_spacing_diameters 4 .*farms\\[1\\] has no case file .*write min_spacing_diameters in farm_types\\[0\\]`,
    ),
  );
  // Said in the farm type, both farms run at it.
  const said = write(
    ['min_spacing_diameters: 4'],
    [],
    ['turbine: iea37-3.35mw', 'n_turbines: 16', 'min_spacing_diameters: 4'],
    ['  - id: 1', '    case: iea37-cs1-16'],
  );
  assert.equal(load(said).farmTypes[0].minSpacingM, 520);
});

// ---------------------------------------------------------------- the CLI, end to end

test('wflo validate refuses a farm type at 2 D over a case file at 4 D (exit 2, one line), and prints who owns each setting otherwise (also in --json)', () => {
  const bad = write(['min_spacing_diameters: 4'], [], ['turbine: iea37-3.35mw', 'n_turbines: 16', 'min_spacing_diameters: 2']);
  const refused = runWflo(['validate', bad.campaign]);
  assert.equal(refused.status, 2, refused.stdout + refused.stderr);
  assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
  assert.match(refused.stderr, /campaign\.yaml:\d+: farm_types\[0\]\.min_spacing_diameters: 2 .*differs from .*farm\.yaml:3 min_spacing_diameters 4/);

  const good = write(['wind: iea37-cs3', 'min_spacing_diameters: 4'], ['wake_model: bastankhah2014']);
  const ok = runWflo(['validate', good.campaign]);
  assert.equal(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /farm 0 settings shared with its case file .*farm\.yaml/);
  assert.match(ok.stdout, /\n {2}wind: case file \(.*farm\.yaml:3\)\n/);
  assert.match(ok.stdout, /\n {2}wake_model: campaign \(.*campaign\.yaml:6\)\n/);
  assert.match(ok.stdout, /\n {2}farm type 0 turbine: campaign \(.*campaign\.yaml:9\)\n/);
  assert.match(ok.stdout, /\n {2}farm type 0 min_spacing_diameters: case file \(.*farm\.yaml:4\), taken by the farm type\n/);
  const json = runWflo(['validate', good.campaign, '--json']);
  assert.equal(json.status, 0, json.stderr);
  const report = JSON.parse(json.stdout) as { settings?: { farmId: number; settings: OwnerRow[] }[] };
  const rows = report.settings?.[0]?.settings ?? [];
  assert.deepEqual(
    rows.find((s) => s.setting === 'min_spacing_diameters' && s.farmType === 0),
    {
      setting: 'min_spacing_diameters',
      farmType: 0,
      owner: 'case file',
      campaignAt: null,
      caseAt: `${good.caseFile}:4`,
    },
  );
  assert.equal(rows.find((s) => s.setting === 'wind')?.owner, 'case file');
  // `wflo run --dry-run` prints the same report.
  const dry = runWflo(['run', good.campaign, '--dry-run']);
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /farm type 0 min_spacing_diameters: case file/);
});

test('a campaign on a case file at 4 D runs at 4 D: layouts.h5 records min_spacing_m = 4·D and no pair is closer', { timeout: 120_000 }, (t) => {
  const f = write(['min_spacing_diameters: 4']);
  const run = runWflo(['run', f.campaign, '--workers', '1'], { timeoutMs: 110_000 });
  assert.equal(run.status, 0, run.stdout + run.stderr);
  if (!hasH5py()) {
    t.skip('python3-h5py is not installed (CI installs it)');
    return;
  }
  const py = spawnSync(
    PYTHON,
    [
      '-c',
      `
import h5py, json
f = h5py.File(${JSON.stringify(path.join(f.dir, 'out', 'layouts.h5'))}, 'r')
print(json.dumps({'min_spacing_m': float(f['types/0'].attrs['min_spacing_m']), 'diameter': json.loads(f['types/0'].attrs['json'])['turbine']['diameter'], 'layout': f['layout'][0].tolist()}))
`,
    ],
    { encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  const h5 = JSON.parse(py.stdout) as { min_spacing_m: number; diameter: number; layout: number[][] };
  assert.equal(h5.diameter, 130);
  assert.equal(h5.min_spacing_m, 4 * 130);
  let closest = Infinity;
  for (let i = 0; i < h5.layout.length; i++) {
    for (let j = i + 1; j < h5.layout.length; j++)
      closest = Math.min(closest, Math.hypot(h5.layout[i][0] - h5.layout[j][0], h5.layout[i][1] - h5.layout[j][1]));
  }
  assert.ok(closest >= 4 * 130 - 1e-6, `closest pair ${closest} m, under 4 D = 520 m`);
});

test('the shared settings listed are every key a case file and a campaign farm or farm type both have (a new shared key needs an owner)', async () => {
  const { CASE_FIELDS } = await import('../../src/io/caseFile.js');
  const { farmSchema, farmTypeSchema } = await import('../../src/campaign/campaignSchema.js');
  const owned = await import('../../src/campaign/settingsOwnerTypes.js').catch(() => ({ FARM_SETTINGS: [], FARM_TYPE_SETTINGS: [] }));
  const shared = (keys: string[]) => keys.filter((k) => CASE_FIELDS.includes(k)).sort();
  assert.deepEqual([...owned.FARM_SETTINGS].sort(), shared(Object.keys(farmSchema.shape)));
  assert.deepEqual([...owned.FARM_TYPE_SETTINGS].sort(), shared(Object.keys(farmTypeSchema.shape)));
});
