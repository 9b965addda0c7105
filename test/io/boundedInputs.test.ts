/**
 * Hostile inputs through the CLI (issue 26): devices, a FIFO, a directory, a symbolic link to
 * /dev/zero, flat YAML lists of 10 and 50 MB, a seed list of 50 MB, a 10⁶-row CSV, windIO include
 * fan-out, includes escaping the plant folder, an alias bomb in an included file. Each runs
 * `wflo` as a child process, killed if it has not ended after a generous timeout (a hang fails
 * the test, it never hangs it), with its peak resident memory read by the process itself at exit
 * (test/helpers/peakRssPreload.ts). Each must end with the right exit code and one line on
 * stderr, within 500 MB. Timing figures are in the bench (`node dist/bench/run.js parsing`), not
 * here. Big inputs are generated in a temporary folder, never committed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI, REPO, tempDir } from '../helpers.js';
import { MAX_YAML_BYTES } from '../../src/io/yamlFile.js';
import { MAX_SERIES_SAMPLES } from '../../src/io/timeSeriesCsv.js';
import { MAX_YAML_ELEMENTS, MAX_YAML_NESTING } from '../../src/io/yamlBudget.js';
import { MAX_PLANT_ELEMENTS } from '../../src/io/windio/includePolicy.js';

const PRELOAD = fileURLToPath(new URL('../helpers/peakRssPreload.js', import.meta.url));
const PLANT = path.join(REPO, 'test', 'data', 'windio', 'plant');
const MEMORY_BOUND_MB = 500;
/** Kills a child that has not ended: a hang is a failure here, not a stuck test run. */
const KILL_AFTER_MS = 120_000;

let dir = '';
before(() => {
  dir = tempDir('wflo-bounded-');
});
after(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  status: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  peakMb: number;
}

function wflo(args: string[], cwd = dir): Outcome {
  const peakFile = path.join(dir, `peak-${process.hrtime.bigint()}`);
  const r = spawnSync(process.execPath, ['--import', PRELOAD, CLI, ...args], {
    cwd,
    encoding: 'utf8',
    timeout: KILL_AFTER_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 << 20,
    env: { ...process.env, WFLO_PEAK_RSS_FILE: peakFile },
  });
  assert.equal(r.signal, null, `wflo ${args.join(' ')} did not end by itself (killed after ${KILL_AFTER_MS / 1000} s: a hang)`);
  const peakKb = fs.existsSync(peakFile) ? Number((JSON.parse(fs.readFileSync(peakFile, 'utf8')) as { peakKb: number | null }).peakKb) : NaN;
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr, peakMb: peakKb / 1024 };
}

/** Exit `code`, exactly one line on stderr matching `re`, within the memory bound; the line. */
function expectOneLine(o: Outcome, code: number, re: RegExp): string {
  assert.equal(o.status, code, `exit ${o.status}, expected ${code}: ${o.stderr}${o.stdout}`);
  const lines = o.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `expected one line, got:\n${o.stderr.slice(0, 2000)}`);
  assert.match(lines[0], re);
  assert.ok(o.peakMb > 0 && o.peakMb <= MEMORY_BOUND_MB, `peak RSS ${o.peakMb.toFixed(0)} MB, bound ${MEMORY_BOUND_MB} MB`);
  return lines[0];
}

const write = (name: string, text: string): string => {
  const p = path.join(dir, name);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, text);
  return p;
};
const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('devices, a FIFO, a directory and a symbolic link to /dev/zero are refused by type, in one line', () => {
  expectOneLine(wflo(['validate', '/dev/zero']), 2, /^wflo: \/dev\/zero: is a character device, not a regular file; expected a YAML file$/);
  const zeroCsv = path.join(dir, 'zero.csv');
  fs.symlinkSync('/dev/zero', zeroCsv);
  expectOneLine(
    wflo(['validate', zeroCsv]),
    2,
    new RegExp(`^wflo: ${esc(zeroCsv)}: is a character device, not a regular file; expected a time-series CSV file$`),
  );
  const fifo = path.join(dir, 'pipe.yaml');
  const mk = spawnSync('mkfifo', [fifo]);
  assert.equal(mk.status, 0, `mkfifo: ${mk.stderr}`);
  // Nobody ever writes to the FIFO: opening it for reading would block for good.
  expectOneLine(wflo(['validate', fifo]), 2, new RegExp(`^wflo: ${esc(fifo)}: is a FIFO \\(named pipe\\), not a regular file; expected a YAML file$`));
  expectOneLine(wflo(['aep', fifo]), 2, new RegExp(`^wflo: ${esc(fifo)}: is a FIFO`));
  const folderCsv = path.join(dir, 'folder.csv');
  fs.mkdirSync(folderCsv);
  expectOneLine(wflo(['validate', folderCsv]), 2, new RegExp(`^wflo: ${esc(folderCsv)}: is a directory, expected a time-series CSV file$`));
  expectOneLine(wflo(['validate', dir]), 2, new RegExp(`^wflo: ${esc(dir)}: is a directory, expected a YAML file$`));
  // A campaign whose wind is the FIFO: the campaign's line, the FIFO named.
  const fifoCsv = path.join(dir, 'pipe.csv');
  assert.equal(spawnSync('mkfifo', [fifoCsv]).status, 0);
  const campaign = write(
    'fifo-campaign.yaml',
    [
      'name: fifo',
      'farms:',
      '  - {id: 0, boundary: {circle: {center: [0, 0], radius: 2000}}, wind: pipe.csv}',
      'farm_types:',
      '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 4}',
      'seeds: [0]',
      'optimizer: {method: none}',
      '',
    ].join('\n'),
  );
  expectOneLine(
    wflo(['run', campaign, '--dry-run']),
    2,
    /fifo-campaign\.yaml:3: farms\[0\]\.wind: .*pipe\.csv: is a FIFO \(named pipe\), not a regular file; expected a time-series CSV file$/,
  );
  // Where output is written: a device is never written through, even with --force.
  expectOneLine(
    wflo(['optimize', 'iea37-cs1-16', '--out', '/dev/null', '--force', '--max-iterations', '1']),
    2,
    /--out \/dev\/null: is a character device, not a regular file; expected a file name$/,
  );
});

test(`flat YAML lists and seed lists: 10 and 50 MB refused by size, 7 MB over ${MAX_YAML_ELEMENTS} elements refused before parsing`, () => {
  for (const mb of [10, 50]) {
    const file = write(`flat-${mb}.yaml`, `x: [${'1,'.repeat(mb * 500_000)}1]\ny: [0]\n`);
    expectOneLine(
      wflo(['validate', file]),
      2,
      new RegExp(`^wflo: ${esc(file)}:1: \\(top level\\): file is \\d+\\.\\d MiB, over the 8\\.0 MiB limit for YAML files$`),
    );
  }
  const flat = write('flat-7.yaml', `x: [${'1,'.repeat(3_500_000)}1]\ny: [0]\n`);
  expectOneLine(
    wflo(['validate', flat]),
    2,
    new RegExp(`^wflo: ${esc(flat)}:1: \\(top level\\): over ${MAX_YAML_ELEMENTS} YAML elements .*refused before parsing`),
  );
  const campaignWithSeeds = (name: string, seeds: number): string =>
    write(
      name,
      [
        'name: many-seeds',
        'farms: [{id: 0, case: iea37-cs1-16}]',
        'farm_types: [{id: 0, turbine: iea37-3.35mw, n_turbines: 16}]',
        'optimizer: {method: none}',
        'seeds:',
        `${Array.from({ length: seeds }, (_, i) => `  - ${i}`).join('\n')}`,
        '',
      ].join('\n'),
    );
  const big = campaignWithSeeds('seeds-50mb.yaml', 5_000_000);
  assert.ok(fs.statSync(big).size > 50e6);
  expectOneLine(wflo(['run', big, '--dry-run']), 2, /seeds-50mb\.yaml:1: \(top level\): file is \d+\.\d MiB, over the 8\.0 MiB limit for YAML files$/);
  // One seed per line, under the byte cap: the error names the line where the element budget ran out.
  const many = campaignWithSeeds('seeds-600k.yaml', 600_000);
  assert.ok(fs.statSync(many).size < MAX_YAML_BYTES);
  const line = expectOneLine(wflo(['run', many, '--dry-run']), 2, /seeds-600k\.yaml:\d+: \(top level\): over \d+ YAML elements/);
  // Elements before the seeds (name, farms, farm_types, optimizer and their values) are on lines 1-5.
  const at = Number(/seeds-600k\.yaml:(\d+):/.exec(line)![1]);
  assert.ok(at > 5 + MAX_YAML_ELEMENTS - 40 && at <= 6 + MAX_YAML_ELEMENTS, `refused at line ${at}`);
});

test('YAML nested deeper than the stack allows is refused before parsing, in one line', () => {
  const flow = write('deep-flow.yaml', `x: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`);
  expectOneLine(wflo(['validate', flow]), 2, new RegExp(`^wflo: ${esc(flow)}:1: \\(top level\\): nested more than ${MAX_YAML_NESTING} levels deep`));
  const block = write('deep-block.yaml', Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n'));
  expectOneLine(
    wflo(['validate', block]),
    2,
    new RegExp(`^wflo: ${esc(block)}:${MAX_YAML_NESTING + 1}: \\(top level\\): nested more than ${MAX_YAML_NESTING} levels deep`),
  );
});

test('YAML files just within the budgets, of the costliest shapes measured, parse within 500 MB', () => {
  // `- - - - - - - - - -` is 10 elements a line, each a list holding the next.
  const lines = Math.floor((MAX_YAML_ELEMENTS - 10) / 10);
  const nested = write('nested.yaml', `${'- - - - - - - - - -\n'.repeat(lines)}`);
  // Parsed (not refused by the budget), then not recognised as any kind of input.
  expectOneLine(wflo(['validate', nested]), 2, /nested\.yaml:1: \(top level\): cannot tell what kind of input this is/);
  // One single-quoted string with escaped quotes and line breaks, just under the byte cap.
  const piece = "ab''\n ";
  const quoted = write('quoted.yaml', `name: '${piece.repeat(Math.floor((MAX_YAML_BYTES - 16) / piece.length))}'\n`);
  assert.ok(fs.statSync(quoted).size <= MAX_YAML_BYTES);
  expectOneLine(wflo(['validate', quoted]), 2, /quoted\.yaml:1: \(top level\): cannot tell what kind of input this is/);
  // Over the cap by its size: refused before it is read (sparse: no disk used).
  const giant = write('giant.yaml', 'name: giant\n');
  fs.truncateSync(giant, 64 * 2 ** 20);
  expectOneLine(wflo(['validate', giant]), 2, /giant\.yaml:1: \(top level\): file is 64\.0 MiB, over the 8\.0 MiB limit for YAML files$/);
});

test("a 10⁶-row time-series CSV is read within 500 MB, alone and as a campaign farm's wind", () => {
  const rows: string[] = ['time,wind_direction,wind_speed,turbulence_intensity,weight'];
  for (let i = 0; i < 1_000_000; i++) rows.push(`${i * 600},${(i * 7.3) % 360},${(5 + (i % 13) * 0.7).toFixed(2)},0.08,1`);
  const csv = write('met-1e6.csv', `${rows.join('\n')}\n`);
  const alone = wflo(['validate', csv]);
  assert.equal(alone.status, 0, alone.stderr);
  assert.match(alone.stdout, /met-1e6\.csv: valid wind resource: time series of 1000000 samples/);
  assert.ok(alone.peakMb <= MEMORY_BOUND_MB, `validate: peak RSS ${alone.peakMb.toFixed(0)} MB`);
  const campaign = write(
    'csv-campaign.yaml',
    [
      'name: csv-1e6',
      'farms:',
      '  - {id: 0, boundary: {circle: {center: [0, 0], radius: 2000}}, wind: met-1e6.csv}',
      'farm_types:',
      '  - {id: 0, turbine: iea37-3.35mw, n_turbines: 16}',
      'seeds: [0, 1]',
      'optimizer: {method: none}',
      '',
    ].join('\n'),
  );
  const dry = wflo(['run', campaign, '--dry-run']);
  assert.equal(dry.status, 0, dry.stderr);
  assert.match(dry.stdout, /2 tasks: 1 farms × 1 farm types × 2 seeds/);
  assert.ok(dry.peakMb <= MEMORY_BOUND_MB, `run --dry-run: peak RSS ${dry.peakMb.toFixed(0)} MB`);
  // Short rows: 64 MiB would hold 10⁷ of them; the sample cap refuses the row after the last one allowed.
  const short = write('short-rows.csv', `wind_direction,wind_speed\n${'270,8\n'.repeat(MAX_SERIES_SAMPLES + 10)}`);
  expectOneLine(wflo(['validate', short]), 2, new RegExp(`short-rows\\.csv:${MAX_SERIES_SAMPLES + 2}: \\(rows\\): over ${MAX_SERIES_SAMPLES} samples`));
  // A line of 30 million commas: refused before the line is split into cells.
  const wide = write('wide.csv', `wind_direction,wind_speed\n270,8${','.repeat(30_000_000)}\n`);
  expectOneLine(wflo(['validate', wide]), 2, /wide\.csv:2: \(row\): more than 64 cells on one line$/);
});

/** A copy of the official windIO plant under `name`/plant, with `system.yaml` in its wind_energy_system folder. */
function plantWith(name: string, system: string[]): string {
  const root = path.join(dir, name, 'plant');
  fs.cpSync(PLANT, root, { recursive: true });
  return write(path.join(name, 'plant', 'wind_energy_system', 'system.yaml'), `${system.join('\n')}\n`);
}
const FARM = '../plant_wind_farm/IEA37_case_study_1_2_wind_farm.yaml';

test('windIO include fan-out (10 includes per file, 8 levels) is refused: each file read once, the expansion capped', () => {
  const system = plantWith('fanout', ['name: fan-out', 'site: !include level1.yaml', `wind_farm: !include ${FARM}`]);
  const folder = path.dirname(system);
  for (let level = 1; level <= 8; level++) {
    const text = level === 8 ? 'a: 1\n' : Array.from({ length: 10 }, (_, k) => `k${k}: !include level${level + 1}.yaml`).join('\n');
    fs.writeFileSync(path.join(folder, `level${level}.yaml`), text);
  }
  expectOneLine(
    wflo(['validate', system]),
    2,
    new RegExp(`level\\d\\.yaml:\\d+: site(\\.k\\d)+: the plant expands to over ${MAX_PLANT_ELEMENTS} YAML elements`),
  );
});

test('an include leaving the plant folder is refused unread; allowed, its contents are still never printed', () => {
  // A secret beside the plant folder, and the system's password file, far above it.
  const secret = write('escape/secret.txt', 'TOP-SECRET-MARKER line one\nsecond line\n');
  const system = plantWith('escape', ['name: escape', `site: !include ../${'../'.repeat(12)}etc/passwd`, `wind_farm: !include ${FARM}`]);
  const line = expectOneLine(
    wflo(['validate', system]),
    2,
    new RegExp(
      `^wflo: ${esc(system)}:2: site: !include '(\\.\\./)+etc/passwd': /etc/passwd is outside the plant folder ${esc(path.join(dir, 'escape', 'plant'))}; refused unread \\(--allow-include-outside allows it\\)$`,
    ),
  );
  assert.doesNotMatch(line, /root:/);
  const toSecret = plantWith('escape2', [
    'name: escape',
    `site: !include ${path.relative(path.join(dir, 'escape2', 'plant', 'wind_energy_system'), secret)}`,
    `wind_farm: !include ${FARM}`,
  ]);
  expectOneLine(wflo(['validate', toSecret]), 2, /site: !include '\.\.\/\.\.\/\.\.\/escape\/secret\.txt': .*secret\.txt is outside the plant folder/);
  // Allowed explicitly: read, found to be no site, and described without its text.
  const allowed = expectOneLine(
    wflo(['validate', toSecret, '--allow-include-outside']),
    2,
    /secret\.txt:1: site: expected a mapping \(boundaries and energy_resource\), got the file's whole text \(\d+ characters\), not YAML data$/,
  );
  assert.doesNotMatch(allowed, /TOP-SECRET-MARKER/);
  // A symbolic link inside the plant folder to a file outside it is outside too (real paths are compared).
  fs.symlinkSync(secret, path.join(dir, 'escape2', 'plant', 'wind_energy_system', 'inside.yaml'));
  fs.writeFileSync(toSecret, ['name: escape', 'site: !include inside.yaml', `wind_farm: !include ${FARM}`, ''].join('\n'));
  expectOneLine(wflo(['validate', toSecret]), 2, /site: !include 'inside\.yaml': .*inside\.yaml \(.*secret\.txt\) is outside the plant folder/);
  // windIO `!include /dev/zero`, allowed outside: refused by type at the tag's line.
  fs.writeFileSync(toSecret, ['name: zero', 'site: !include /dev/zero', `wind_farm: !include ${FARM}`, ''].join('\n'));
  expectOneLine(
    wflo(['validate', toSecret, '--allow-include-outside']),
    2,
    new RegExp(`^wflo: ${esc(toSecret)}:2: site: !include '/dev/zero': is a character device, not a regular file; expected a YAML file$`),
  );
});

test('an absolute include is named as written, in its own errors too', () => {
  const system = plantWith('absolute', ['name: absolute', 'site: !include PLACEHOLDER', `wind_farm: !include ${FARM}`]);
  const broken = write(path.join('absolute', 'plant', 'plant_energy_site', 'broken.yaml'), 'name: broken\nboundaries: [1, 2\n');
  fs.writeFileSync(system, fs.readFileSync(system, 'utf8').replace('PLACEHOLDER', broken));
  expectOneLine(wflo(['validate', system]), 2, new RegExp(`^wflo: ${esc(broken)}:\\d+: malformed YAML`));
  const missing = path.join(dir, 'absolute', 'plant', 'nope.yaml');
  fs.writeFileSync(system, fs.readFileSync(system, 'utf8').replace(broken, missing));
  expectOneLine(
    wflo(['validate', system]),
    2,
    new RegExp(`^wflo: ${esc(system)}:2: site: !include '${esc(missing)}': file not found \\(looked for ${esc(missing)}\\)$`),
  );
});

test('an alias bomb in an included windIO file is refused (aliases are followed when the plant is measured)', () => {
  const levels = ['a0: &a0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]'];
  for (let i = 1; i <= 9; i++)
    levels.push(
      `a${i}: &a${i} [${Array(10)
        .fill(`*a${i - 1}`)
        .join(', ')}]`,
    );
  const system = plantWith('bomb', ['name: bomb', 'site: !include bomb.yaml', `wind_farm: !include ${FARM}`]);
  fs.writeFileSync(path.join(path.dirname(system), 'bomb.yaml'), `${levels.join('\n')}\n`);
  expectOneLine(
    wflo(['validate', system]),
    2,
    new RegExp(`bomb\\.yaml:\\d+: site\\.a\\d(\\[\\d+\\])*: the plant expands to over ${MAX_PLANT_ELEMENTS} YAML elements`),
  );
});
