/**
 * The bad-input corpus (test/data/bad-inputs/): typos at every depth, wrong units (a power curve
 * in kW, Ct in percent, spacing in diameters, directions 0 and 360, neighbours in mm) through
 * every door (native, IEA37, windIO, CSV, campaign, PyWake reference files), impossible geometry,
 * alias bombs, an oversized file. Every file is run through the CLI as a user would:
 * `wflo validate FILE`, and `wflo run` (with and without --dry-run), `wflo aep` and `wflo optimize
 * --out` as fits the file's kind (in-process through the CLI's own runCli; one file of each kind
 * also as a child process). Each must
 * exit 2 with exactly one line on stderr naming the file, a line number and the field path, and
 * match the message the file's `# expect:` header gives; nothing may be written anywhere.
 * A file may name the file its error is in with `# file: refs/…` (a campaign referencing a bad turbine).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { Command } from 'commander';
import { stringify } from 'yaml';
import { CLI, REPO, tempDir } from '../helpers.js';
import { runCli } from '../../src/cli/errors.js';
import { registerRun } from '../../src/cli/run.js';
import { registerAep } from '../../src/cli/aep.js';
import { registerOptimize } from '../../src/cli/optimize.js';
import { registerValidate } from '../../src/cli/validate.js';
import { MAX_YAML_BYTES } from '../../src/io/yamlFile.js';
import { CS1_DIRECTIONS, CS1_FREQUENCY, CS3_DIRECTIONS, CS3_DIRECTION_FREQUENCY, CS3_SPEEDS, CS3_SPEED_FREQUENCY } from '../../src/io/builtin/iea37Data.js';

const CORPUS = path.join(REPO, 'test', 'data', 'bad-inputs');

interface Entry {
  file: string;
  expect: RegExp;
  errorFile: string;
}

function corpus(): Entry[] {
  return fs
    .readdirSync(CORPUS)
    .filter((n) => n.endsWith('.yaml'))
    .sort()
    .map((name) => {
      const file = path.join(CORPUS, name);
      const header = fs.readFileSync(file, 'utf8').split('\n').slice(0, 3);
      const expect = header.find((l) => l.startsWith('# expect: '))?.slice('# expect: '.length);
      assert.ok(expect, `${name}: no '# expect:' header`);
      const other = header.find((l) => l.startsWith('# file: '))?.slice('# file: '.length);
      return { file, expect: new RegExp(expect), errorFile: other ? path.join(CORPUS, other) : file };
    });
}

/** sha256 of every file under `dir` (names and bytes). */
function digest(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string): void => {
    for (const n of fs.readdirSync(d).sort()) {
      const p = path.join(d, n);
      if (fs.statSync(p).isDirectory()) walk(p);
      else h.update(`${path.relative(dir, p)}\0`).update(fs.readFileSync(p));
    }
  };
  walk(dir);
  return h.digest('hex');
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function spawnWflo(args: string[], cwd: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Run the CLI in this process (same commands, same error handling), capturing its output. */
async function inProcess(args: string[]): Promise<Outcome> {
  const program = new Command().name('wflo');
  registerRun(program);
  registerAep(program);
  registerOptimize(program);
  registerValidate(program);
  let stdout = '',
    stderr = '';
  const out = process.stdout.write.bind(process.stdout),
    err = process.stderr.write.bind(process.stderr);
  process.stdout.write = ((s: string | Uint8Array) => {
    stdout += String(s);
    return true;
  }) as typeof process.stdout.write;
  process.stderr.write = ((s: string | Uint8Array) => {
    stderr += String(s);
    return true;
  }) as typeof process.stderr.write;
  const before = process.exitCode;
  process.exitCode = 0;
  try {
    await runCli(program, [process.execPath, 'wflo', ...args]);
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
  const code = process.exitCode ?? 0;
  process.exitCode = before;
  return { code: Number(code), stdout, stderr };
}

function assertOneLocatedLine(r: Outcome, e: Entry, what: string): void {
  assert.equal(r.code, 2, `${what}: exit ${r.code}; stderr: ${r.stderr}`);
  const lines = r.stderr.split('\n').filter((l) => l.length > 0);
  assert.equal(lines.length, 1, `${what}: one line expected, got:\n${r.stderr}`);
  const name = path.basename(e.errorFile).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // wflo: <…/file>:<line>: <path>: <message>
  assert.match(lines[0], new RegExp(`^wflo: (.*/)?${name}:\\d+: (\\(top level\\)|[^ ]+): `), `${what}: file, line and path`);
  assert.match(lines[0], e.expect, what);
  assert.doesNotMatch(r.stderr, /\n\s+at /, `${what}: no stack trace`);
}

/** Commands that fit a corpus file, by its prefix: c- campaign, k- case, t- turbine, w- wind, b- boundary, l- layout, r- PyWake reference case. */
function commandsFor(file: string, scratch: string): string[][] {
  const kind = path.basename(file)[0];
  if (kind === 'c')
    return [
      ['run', file, '--dry-run'],
      ['run', file, '--out', path.join(scratch, 'run-out'), '--quiet'],
    ];
  if (kind === 'k')
    return [
      ['aep', file],
      ['optimize', file, '--out', path.join(scratch, 'best.yaml')],
    ];
  if (kind === 't') return [['aep', '--case', 'iea37-cs1-16', '--turbine', file]];
  if (kind === 'w') return [['aep', '--case', 'iea37-cs1-16', '--wind', file]];
  if (kind === 'l') return [['aep', file, '--case', 'iea37-cs1-16']];
  if (kind === 'r') return [['aep', file]];
  return [];
}

test('every file of the bad-input corpus: exit 2, one line with file:line: path, nothing written', async () => {
  const entries = corpus();
  assert.ok(entries.length >= 40, `the corpus has ${entries.length} files, at least 40 expected`);
  const before = digest(CORPUS);
  const scratch = tempDir('wflo-corpus-');
  // One file of each kind as a separate process (exit status and stderr as the shell sees them);
  // every file through the same command code in this process (a process start costs ~0.3 s).
  const firstOfKind = new Map<string, Entry>();
  for (const e of entries) if (!firstOfKind.has(path.basename(e.file)[0])) firstOfKind.set(path.basename(e.file)[0], e);
  await Promise.all(
    [...firstOfKind.values()].map(async (e) =>
      assertOneLocatedLine(await spawnWflo(['validate', e.file], scratch), e, `wflo validate ${path.basename(e.file)} (child process)`),
    ),
  );
  for (const e of entries) {
    for (const args of [['validate', e.file], ...commandsFor(e.file, scratch)]) {
      assertOneLocatedLine(await inProcess(args), e, args.join(' ').replace(CORPUS + '/', ''));
    }
  }
  assert.equal(digest(CORPUS), before, 'the corpus folder is unchanged (no output folder, no -wal, nothing)');
  assert.deepEqual(fs.readdirSync(scratch), [], 'no command wrote anything');
});

test('an oversized input file: refused before it is read, with the limit named', async () => {
  const dir = tempDir('wflo-giant-');
  const giant = path.join(dir, 'giant.yaml');
  fs.writeFileSync(giant, 'name: giant\n');
  fs.truncateSync(giant, MAX_YAML_BYTES + 1024 * 1024); // sparse: no disk used
  const mib = MAX_YAML_BYTES / 2 ** 20;
  const e: Entry = {
    file: giant,
    errorFile: giant,
    expect: new RegExp(`giant\\.yaml:1: \\(top level\\): file is ${mib + 1}\\.0 MiB, over the ${mib}\\.0 MiB limit for YAML files`),
  };
  assertOneLocatedLine(await spawnWflo(['validate', giant], dir), e, 'validate giant.yaml');
  assertOneLocatedLine(await inProcess(['run', giant, '--dry-run']), e, 'run giant.yaml --dry-run');
  assertOneLocatedLine(await inProcess(['aep', giant]), e, 'aep giant.yaml');
  assert.deepEqual(fs.readdirSync(dir), ['giant.yaml']);
});

test('radians are refused for every wind form, yet no published wind file is: windIO examples, IEA37 roses, PyWake cases', async () => {
  // The corpus holds a radians file of each form (rose, Weibull sectors, IEA37 bins, windIO
  // table / Weibull / time series, inline and referenced from a campaign).
  const forms = corpus()
    .filter((e) => /radians/.test(path.basename(e.file)))
    .map((e) => path.basename(e.file));
  for (const name of [
    'w-radians.yaml',
    'w-radians-weibull.yaml',
    'w-radians-iea37.yaml',
    'w-radians-windio-table.yaml',
    'w-radians-windio-weibull.yaml',
    'w-radians-windio-series.yaml',
    'c-radians.yaml',
    'c-radians-weibull.yaml',
    'c-radians-windio.yaml',
  ]) {
    assert.ok(forms.includes(name), `${name} is in the corpus`);
  }
  // Published files that must pass: every windIO example (Apache-2.0, shipped in test/data/windio),
  // the PyWake reference cases, and the IEA37 case-study roses written in their published shape
  // from the case-study numbers (src/io/builtin/iea37Data.ts).
  const scratch = tempDir('wflo-published-');
  const iea37Rose = (file: string, bins: number[], frequency: number[], speed: Record<string, unknown>) => {
    fs.writeFileSync(
      path.join(scratch, file),
      stringify({
        input_format_version: 0,
        title: 'IEA Wind Task 37 wind rose',
        definitions: { wind_inflow: { properties: { direction: { bins, frequency, units: 'deg' }, speed } } },
      }),
    );
    return path.join(scratch, file);
  };
  const files = [
    iea37Rose('iea37-windrose.yaml', CS1_DIRECTIONS, CS1_FREQUENCY, { default: 9.8, units: 'm/s' }),
    iea37Rose('iea37-windrose-cs3.yaml', CS3_DIRECTIONS, CS3_DIRECTION_FREQUENCY, { bins: CS3_SPEEDS, frequency: CS3_SPEED_FREQUENCY, units: 'm/s' }),
    path.join(REPO, 'examples', 'results', 'cs3-cs4', 'iea37-cs4-360x20.yaml'),
  ];
  const walk = (d: string): string[] =>
    fs
      .readdirSync(d, { withFileTypes: true })
      .flatMap((n) => (n.isDirectory() ? walk(path.join(d, n.name)) : n.name.endsWith('.yaml') ? [path.join(d, n.name)] : []));
  files.push(...walk(path.join(REPO, 'test', 'data', 'windio')), ...walk(path.join(REPO, 'test', 'data', 'reference')));
  // The feature-pair cases docs/inputs.md lists as refused (test/physics/combinationMatrix.test.ts) are refused by design, not for their wind.
  const inputs = fs.readFileSync(path.join(REPO, 'docs', 'inputs.md'), 'utf8');
  const pairTable = inputs.slice(inputs.indexOf('<!-- feature-pairs:start -->'), inputs.indexOf('<!-- feature-pairs:end -->'));
  const refusedPairs = new Set([...pairTable.matchAll(/^\|\s*`(\w+)`\s*×\s*`(\w+)`/gm)].map((m) => `${m[1]}+${m[2]}.yaml`));
  const windFiles = files.filter(
    (f) =>
      !(path.basename(path.dirname(f)) === 'matrix' && refusedPairs.has(path.basename(f))) && /wind_direction|wind_inflow/.test(fs.readFileSync(f, 'utf8')),
  );
  assert.ok(windFiles.length >= 15, `${windFiles.length} published files with wind directions`);
  for (const f of windFiles) {
    const r = await inProcess(['validate', f]);
    assert.equal(r.code, 0, `${path.relative(REPO, f)}: ${r.stderr}`);
  }
});
