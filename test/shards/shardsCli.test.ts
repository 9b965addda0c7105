/**
 * `wflo shards` as a user runs it: exit codes (0 all valid / nothing missing, 3 problems,
 * 2 bad usage, never a stack trace), `--json` shapes, and the one-line messages.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeLayoutsFile } from '../../src/io/hdf5/index.js';
import { makeRecord } from './helpers/records.js';
import { wflo } from './helpers/runCli.js';
import { InputError } from '../../src/util/errors.js';
import { buildReadOptions } from '../../src/shards/readOptions.js';
import { shardFilesOf } from '../../src/shards/shardScan.js';
import { expectedGrid } from '../../src/shards/expectedGrid.js';
import { parseRanges } from '../../src/shards/taskRanges.js';
import { mergeShards } from '../../src/shards/shardMerge.js';

async function validDir(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-cli-'));
  for (const farmId of [0, 1]) {
    const records = [0, 1, 2].map((seed) => makeRecord({ farmId, farmType: 0, seed, nTurbines: 3 }));
    await writeLayoutsFile(path.join(dir, `worker_${farmId}.h5`), [records], {
      campaignName: 'w',
      campaignHash: 'h',
      nExpected: 3,
      complete: true,
      maxTurbines: 3,
      nRows: 3,
    });
  }
  return dir;
}

function assertOneLineError(stderr: string, pattern: RegExp): void {
  const lines = stderr.trim().split('\n');
  assert.ok(
    lines.some((l) => pattern.test(l)),
    `stderr: ${stderr}`,
  );
  assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
}

test('check: exit 0 when every file is valid, 3 once one is not; --json lists every file', async () => {
  const dir = await validDir();
  const ok = await wflo(['shards', 'check', dir]);
  assert.equal(ok.code, 0, ok.stderr);
  assert.match(ok.stdout, /2 files: valid 2\nrecords: 6 usable \(6 distinct tasks\), 0 unusable, 0 rejected, 0 conflicting duplicates\nall files valid\n$/);
  fs.writeFileSync(path.join(dir, 'worker_9.h5'), '');
  const bad = await wflo(['shards', 'check', dir, '--json']);
  assert.equal(bad.code, 3);
  const report = JSON.parse(bad.stdout) as {
    files: Array<{ path: string; class: string; records: number; detail: string }>;
    duplicates: unknown[];
    summary: { problems: boolean };
  };
  assert.deepEqual(
    report.files.map((f) => [path.basename(f.path), f.class, f.records]),
    [
      ['worker_0.h5', 'valid', 3],
      ['worker_1.h5', 'valid', 3],
      ['worker_9.h5', 'empty', 0],
    ],
  );
  assert.equal(report.files[2].detail, 'file is 0 bytes');
  assert.deepEqual(report.duplicates, []);
  assert.equal(report.summary.problems, true);
  // --pattern narrows the selection (natural order: worker_0, worker_1).
  assert.equal((await wflo(['shards', 'check', dir, '--pattern', 'worker_[01].h5'])).code, 0);
});

test('bad usage exits 2 with one line: missing folder, bad flags, missing required option', async () => {
  const dir = await validDir();
  const cases: Array<[string[], RegExp]> = [
    [['shards', 'check', path.join(dir, 'nope')], /nope: no such file or directory/],
    [['shards', 'check', dir, '--shape', 'columns'], /--shape "columns": expected auto, groups or rows/],
    [['shards', 'merge', dir, '-o', path.join(dir, 'out.h5'), '--on-invalid', 'ignore'], /--on-invalid 'ignore': expected abort, skip, quarantine/],
    [['shards', 'missing', '--from', dir, '--farms', '0-1', '--types', '0', '--seeds', '0-2', '--write', 'x.yaml'], /--write needs the campaign/],
    [['shards', 'merge', dir], /-o, --out <file>: required \(the merged HDF5 file to write\)/],
    [['shards', 'check', dir, '--bogus'], /unknown option '--bogus'/],
  ];
  for (const [args, pattern] of cases) {
    const r = await wflo(args);
    assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code}, ${r.stderr}`);
    assertOneLineError(r.stderr, pattern);
  }
});

test('bad flags and inputs are InputErrors (exit 2) naming the flag', async () => {
  const dir = await validDir();
  const cases: Array<[() => unknown, RegExp]> = [
    [() => shardFilesOf(dir, '*.hdf5'), /no files match \*\.hdf5/],
    [() => buildReadOptions({ fields: ['energy=E'] }), /--field "energy=E": unknown field energy/],
    [() => buildReadOptions({ fields: ['aep'] }), /--field "aep": expected NAME=DATASET/],
    [() => buildReadOptions({ keyPattern: 'farm_{farm}_seed_{seed}' }), /missing the \{type\} placeholder/],
    [() => buildReadOptions({ keyPattern: '(?<farm>\\d+)_(?<seed>\\d+)' }), /needs a named group \(\?<type>/],
    [() => buildReadOptions({ keyPattern: '(?<farm>[' }), /not a valid regular expression/],
    [() => expectedGrid({ farms: '0-1' }), /--expect needs a campaign file, or all of --farms, --types and --seeds/],
    [() => expectedGrid({ farms: '3-1', types: '0', seeds: '0' }), /--farms "3-1": range 3-1 ends before it starts/],
    [() => expectedGrid({ farms: 'a', types: '0', seeds: '0' }), /--farms "a": "a" is not an integer or a range/],
    [() => expectedGrid({ campaign: path.join(dir, 'none.yaml') }), /none\.yaml: campaign file not found/],
  ];
  for (const [fn, pattern] of cases) {
    assert.throws(fn, (err: Error) => err instanceof InputError && pattern.test(err.message) && !err.message.includes('\n'), String(pattern));
  }
  await assert.rejects(
    mergeShards({
      inputs: [dir],
      files: shardFilesOf(dir, '*.h5'),
      output: path.join(dir, 'no', 'out.h5'),
      read: buildReadOptions(),
      onInvalid: 'abort',
      onConflict: 'error',
      cleanup: false,
      force: false,
    }),
    (err: Error) => err instanceof InputError && /folder .* does not exist/.test(err.message),
  );
  assert.deepEqual(parseRanges('0-2,5,7-8', '--seeds'), [0, 1, 2, 5, 7, 8]);
});

test('merge writes the output and its audit; an existing output needs --force; missing exits 0 when complete', async () => {
  const dir = await validDir();
  const out = path.join(dir, 'merged.h5');
  const first = await wflo(['shards', 'merge', dir, '-o', out]);
  assert.equal(first.code, 0, first.stderr);
  assert.match(first.stdout, /output: +.*merged\.h5: 6 rows, .*verified/);
  assert.ok(fs.existsSync(`${out}.audit.jsonl`) && fs.existsSync(`${out}.audit.txt`));
  const again = await wflo(['shards', 'merge', dir, '-o', out]);
  assert.equal(again.code, 2);
  assertOneLineError(again.stderr, /merged\.h5 already exists \(use --force to replace it\)/);
  // The output itself is never taken as an input, even though it matches *.h5.
  const forced = await wflo(['shards', 'merge', dir, '-o', out, '--force']);
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(forced.stdout, /\(2 files\)/);
  const complete = await wflo(['shards', 'missing', '--farms', '0-1', '--types', '0', '--seeds', '0-2', '--from', out]);
  assert.equal(complete.code, 0, complete.stderr);
  assert.equal(complete.stdout, '');
  const incomplete = await wflo(['shards', 'missing', '--farms', '0-2', '--types', '0', '--seeds', '0-2', '--from', out, '--json']);
  assert.equal(incomplete.code, 3);
  assert.deepEqual(JSON.parse(incomplete.stdout), {
    expected: 9,
    found: 6,
    missing: ['farm_2_type_0_seed_0', 'farm_2_type_0_seed_1', 'farm_2_type_0_seed_2'],
    unexpected: 0,
  });
  // An invalid input aborts the default merge with exit 3 and says how to proceed.
  fs.writeFileSync(path.join(dir, 'worker_5.h5'), 'not hdf5');
  const aborted = await wflo(['shards', 'merge', dir, '-o', path.join(dir, 'other.h5')]);
  assert.equal(aborted.code, 3);
  assertOneLineError(
    aborted.stderr,
    /merge aborted: 1 invalid file \(worker_5\.h5 is no_signature: .*\); nothing written \(rerun with --on-invalid skip or quarantine/,
  );
  assert.equal(fs.existsSync(path.join(dir, 'other.h5')), false);
});
