/**
 * One output flag (src/cli/outFlag.ts): every command that writes somewhere takes `-o, --out`
 * (a FILE or a DIR, as its help says); the spellings some had before (`--output`, `--write`) still
 * work, unlisted and without a warning, and two different paths are one usage line (exit 2).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, runWflo, tempDir } from '../helpers.js';

const dir = tempDir('wflo-outflag-');
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const COMMANDS: [string[], 'file' | 'dir'][] = [
  [['run'], 'dir'],
  [['collect'], 'dir'],
  [['slurm'], 'dir'],
  [['slurm', 'status'], 'dir'],
  [['validate'], 'dir'],
  [['optimize'], 'file'],
  [['plot'], 'file'],
  [['report'], 'file'],
  [['export'], 'file'],
  [['missing'], 'file'],
  [['shards', 'merge'], 'file'],
  [['shards', 'missing'], 'file'],
];

test('every command that writes somewhere lists -o, --out <file|dir>, and no other output flag', () => {
  for (const [command, kind] of COMMANDS) {
    const r = runWflo([...command, '--help']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, new RegExp(`-o, --out <${kind}>`), `wflo ${command.join(' ')} --help`);
    assert.doesNotMatch(r.stdout, /--output\b|--write\b/, `wflo ${command.join(' ')} --help lists an old spelling`);
  }
});

test('the old spellings still write where they say, with nothing on stderr', () => {
  const svg = path.join(dir, 'old.svg');
  const plot = runWflo(['plot', 'iea37-cs1-16', '--output', svg]);
  assert.equal(plot.status, 0, plot.stderr);
  assert.equal(plot.stderr, '');
  assert.ok(fs.statSync(svg).size > 0);
  const yaml = path.join(dir, 'best.yaml');
  const o = runWflo(['optimize', 'iea37-cs1-16', '--method', 'none', '-o', yaml]);
  assert.equal(o.status, 0, o.stderr);
  assert.ok(fs.readFileSync(yaml, 'utf8').includes('iea37-cs1-16'));
});

test("-o DIR on run overrides the campaign's output; two different output paths are a usage error", () => {
  const elsewhere = path.join(dir, 'elsewhere');
  const dry = runWflo(['run', path.join(REPO, 'examples', 'demo.yaml'), '--dry-run', '-o', elsewhere]);
  assert.equal(dry.status, 0, dry.stderr);
  assert.ok(dry.stdout.includes(elsewhere), dry.stdout);
  const both = runWflo(['plot', 'iea37-cs1-16', '-o', path.join(dir, 'a.svg'), '--output', path.join(dir, 'b.svg')]);
  assert.equal(both.status, 2);
  assert.match(both.stderr, /^wflo: -o .*a\.svg and --output .*b\.svg: give one output path\n$/);
  assert.ok(!fs.existsSync(path.join(dir, 'a.svg')) && !fs.existsSync(path.join(dir, 'b.svg')));
});
