/**
 * Hostile files at every door a case or campaign names a file through, besides the site and data
 * files of hostileSiteFiles.test.ts (issue 40, "one file door"): a case's `turbine`, `wind` and
 * `boundary` YAML files, a turbine file's `power_curve` and `Ct_curve` CSVs, a neighbours entry's
 * layout `file`, an IEA37 layout's `$ref`, and a campaign's `farm_types[].turbine`,
 * `farms[].wind`, `farms[].boundary`. Each door meets, in a temporary folder (never committed):
 * a FIFO, a symbolic link to /dev/zero, a sparse file over the cap, a path climbing out of the
 * case's folder to a stand-in for /etc/passwd, and a symbolic link to that stand-in. Each
 * `wflo validate` (`wflo aep` for the `$ref`, which `validate` does not follow) must end by itself (killed after KILL_AFTER_MS: a hang fails, never hangs the
 * run) with exit 2 and exactly one line naming the naming file, the field and the file, and no
 * byte of the foreign file printed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { CLI, tempDir } from '../helpers.js';
import { MAX_YAML_BYTES } from '../../src/io/yamlFile.js';

const KILL_AFTER_MS = 60_000;
/** The bytes of the stand-in for /etc/passwd: none of them may appear in any output. */
const SECRET = 'root:x:0:0:root:/root:/bin/bash 1 2 3 4\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n';
const FOREIGN = /root:x|daemon|nologin/;

let root = '';
let dir = '';
let outside = '';

/** The five hostile files of a door whose files end in `ext`, by name, and what each refusal says. */
const HOSTILE = (ext: string): { name: string; spec: () => string; says: RegExp }[] => [
  { name: 'fifo', spec: () => `fifo.${ext}`, says: new RegExp(`fifo\\.${ext}: is a FIFO \\(named pipe\\), not a regular file; expected an? [a-zA-Z ]+ file$`) },
  {
    name: 'dev-zero',
    spec: () => `zero.${ext}`,
    says: new RegExp(`zero\\.${ext} \\(/dev/zero\\) is outside the folder .* refused unread \\(--allow-include-outside allows it\\)$`),
  },
  { name: 'over-cap', spec: () => `big.${ext}`, says: new RegExp(`big\\.${ext}: file is 8\\.0 MiB, over the 8\\.0 MiB limit for [a-zA-Z ]+ files$`) },
  {
    name: 'path-escape',
    spec: () => `../../../../../../../..${outside}/passwd.${ext}`,
    says: new RegExp(`outside/passwd\\.${ext} is outside the folder .* refused unread`),
  },
  {
    name: 'link-to-passwd',
    spec: () => `passwd.${ext}`,
    says: new RegExp(`passwd\\.${ext} \\(.*outside/passwd\\.${ext}\\) is outside the folder .* refused unread`),
  },
];

before(() => {
  root = tempDir('wflo-hostile-case-');
  dir = path.join(root, 'case');
  outside = path.join(root, 'outside');
  fs.mkdirSync(dir);
  fs.mkdirSync(outside);
  for (const ext of ['yaml', 'csv']) {
    fs.writeFileSync(path.join(outside, `passwd.${ext}`), SECRET);
    fs.symlinkSync(path.join(outside, `passwd.${ext}`), path.join(dir, `passwd.${ext}`));
    fs.symlinkSync('/dev/zero', path.join(dir, `zero.${ext}`));
    assert.equal(spawnSync('mkfifo', [path.join(dir, `fifo.${ext}`)]).status, 0);
    const big = path.join(dir, `big.${ext}`);
    fs.writeFileSync(big, '');
    fs.truncateSync(big, MAX_YAML_BYTES + 1); // sparse
  }
});
after(() => {
  if (root) fs.rmSync(root, { recursive: true, force: true });
});

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** `wflo validate` of the file `name` written with `text` in the case folder. */
function validate(name: string, text: string, flags: string[] = [], command = 'validate'): Outcome {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  const r = spawnSync(process.execPath, [CLI, command, file, ...flags], {
    cwd: dir,
    encoding: 'utf8',
    timeout: KILL_AFTER_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 16 << 20,
  });
  assert.equal(r.signal, null, `wflo ${command} ${name} did not end by itself (killed after ${KILL_AFTER_MS / 1000} s)`);
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Exit 2, one line on stderr naming the file `naming`, then `field` (at a line), matching `says`; nothing of the foreign file. */
function refused(o: Outcome, naming: string, field: string, says: RegExp, what: string): void {
  assert.equal(o.status, 2, `${what}: exit ${o.status}, expected 2: ${o.stderr}${o.stdout}`);
  const lines = o.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `${what}: expected one line, got:\n${o.stderr.slice(0, 2000)}`);
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  assert.match(lines[0], new RegExp(`^wflo: ${esc(naming)}:\\d+: ${esc(field)}: `), `${what}: the line names ${naming} and ${field}`);
  assert.match(lines[0], says, what);
  assert.doesNotMatch(o.stderr + o.stdout, FOREIGN, `${what}: a byte of the foreign file was printed`);
}

/** Every hostile file at one door: `text(spec)` is the file naming it (`naming`), whose `field` holds the path. */
function door(label: string, ext: string, naming: string, field: string, text: (spec: string) => string): void {
  for (const h of HOSTILE(ext)) {
    const o = validate(naming, text(h.spec()));
    refused(o, path.join(dir, naming), field, h.says, `${label}, ${h.name}`);
  }
}

const CASE = (body: string): string => `base: iea37-cs1-16\n${body}\n`;

test("a case's turbine, wind and boundary files: FIFO, /dev/zero, over the cap, escaping the folder, a link to a foreign file", () => {
  door('turbine', 'yaml', 'turbine-case.yaml', 'turbine', (spec) => CASE(`turbine: '${spec}'`));
  door('wind', 'yaml', 'wind-case.yaml', 'wind', (spec) => CASE(`wind: '${spec}'`));
  door('boundary', 'yaml', 'boundary-case.yaml', 'boundary', (spec) => CASE(`boundary: '${spec}'`));
});

test("a turbine file's power and Ct curve CSVs: the same five, refused at the turbine file's field", () => {
  for (const key of ['power_curve', 'Ct_curve']) {
    door(key, 'csv', `curve-turbine-${key}.yaml`, `performance.${key}`, (spec) =>
      [
        'name: T',
        'rotor_diameter: 130',
        'hub_height: 110',
        'performance:',
        `  power_curve: ${key === 'power_curve' ? `'${spec}'` : '{power_wind_speeds: [3, 10, 25], power_values: [0, 3000000, 3000000]}'}`,
        `  Ct_curve: ${key === 'Ct_curve' ? `'${spec}'` : '{Ct_wind_speeds: [3, 10, 25], Ct_values: [0.8, 0.8, 0.1]}'}`,
        '',
      ].join('\n'),
    );
  }
});

test("a neighbours entry's layout file and an IEA37 layout's $ref", () => {
  door('neighbours file', 'yaml', 'neighbours-case.yaml', 'neighbours[0].file', (spec) => CASE(`neighbours: [{file: '${spec}'}]`));
  // An IEA37 layout: its $refs name the turbine and the wind rose; the refusal names the reference.
  for (const h of HOSTILE('yaml')) {
    const layout = [
      'definitions:',
      '  wind_plant:',
      '    properties:',
      '      layout:',
      '        items:',
      `          - $ref: '${h.spec()}'`,
      '  position:',
      '    items:',
      '      xc: [0, 500]',
      '      yc: [0, 500]',
      '',
    ].join('\n');
    const o = validate('iea37-layout.yaml', layout, [], 'aep'); // `validate` checks a layout alone; `aep` follows its $refs
    assert.equal(o.status, 2, `$ref ${h.name}: exit ${o.status}: ${o.stderr}`);
    const lines = o.stderr.split('\n').filter((l) => l !== '');
    assert.equal(lines.length, 1, `$ref ${h.name}: ${o.stderr}`);
    assert.match(lines[0], new RegExp(`iea37-layout\\.yaml: referenced file '[^']*': `), `$ref ${h.name}`);
    assert.match(lines[0], h.says, `$ref ${h.name}`);
    assert.doesNotMatch(o.stderr + o.stdout, FOREIGN, `$ref ${h.name}: a byte of the foreign file was printed`);
  }
});

test("a campaign's farm_types[].turbine, farms[].wind and farms[].boundary files", () => {
  const campaign = (farm: string, turbine: string): string =>
    [
      'name: hostile',
      'farms:',
      `  - {id: 0, ${farm}}`,
      'farm_types:',
      `  - {id: 0, turbine: ${turbine}, n_turbines: 4}`,
      'seeds: [1]',
      'optimizer: {method: noop}',
      '',
    ].join('\n');
  door('campaign turbine', 'yaml', 'campaign-turbine.yaml', 'farm_types[0].turbine', (spec) => campaign('case: iea37-cs1-16', `'${spec}'`));
  door('campaign wind', 'yaml', 'campaign-wind.yaml', 'farms[0].wind', (spec) => campaign(`case: iea37-cs1-16, wind: '${spec}'`, 'iea37-3.35mw'));
  door('campaign boundary', 'yaml', 'campaign-boundary.yaml', 'farms[0].boundary', (spec) =>
    campaign(`case: iea37-cs1-16, boundary: '${spec}'`, 'iea37-3.35mw'),
  );
});

test('the operator may allow files outside the folder: a foreign file is then refused by its format, without a byte of it', () => {
  const turbine = validate('allowed-turbine.yaml', CASE('turbine: passwd.yaml'), ['--allow-include-outside']);
  assert.equal(turbine.status, 2, turbine.stderr);
  assert.match(turbine.stderr, /passwd\.yaml: \(top level\): expected a mapping, got the file's whole text \(87 characters\), not YAML data\n$/);
  assert.doesNotMatch(turbine.stderr + turbine.stdout, FOREIGN);
  // /dev/zero, allowed outside, is still refused by its type, at once.
  const zero = validate('allowed-zero.yaml', CASE('wind: zero.yaml'), ['--allow-include-outside']);
  assert.equal(zero.status, 2, zero.stderr);
  assert.match(zero.stderr, /^wflo: .*allowed-zero\.yaml:\d+: wind: .*zero\.yaml: is a character device, not a regular file; expected a YAML file\n$/);
});
