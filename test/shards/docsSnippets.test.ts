/**
 * docs/shards.md shows, for every reading option, the h5py code that writes such a file and the
 * `wflo shards check` command that reads it. Each pair is run as written: the Python block with
 * Debian's h5py in an empty folder, then the command, which must find every file valid (exit 0,
 * `all files valid`) and read at least one record. A snippet that stops working fails here.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { REPO } from '../helpers.js';
import { H5PY_SKIP_MESSAGE, h5pyPython } from './helpers/python.js';
import { wflo } from './helpers/runCli.js';

const DOC = path.join(REPO, 'docs', 'shards.md');

/** Each ```python block directly followed by a ```sh block of `wflo shards check` lines. */
function snippetPairs(text: string): { python: string; commands: string[] }[] {
  const blocks = [...text.matchAll(/```(\w*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2], end: m.index! + m[0].length, start: m.index! }));
  const pairs: { python: string; commands: string[] }[] = [];
  blocks.forEach((b, i) => {
    const next = blocks[i + 1];
    if (b.lang !== 'python' || !next || next.lang !== 'sh' || text.slice(b.end, next.start).trim() !== '') return;
    pairs.push({ python: b.body, commands: next.body.split('\n').filter((l) => l.startsWith('wflo shards check ')) });
  });
  return pairs;
}

/** Split a command line as a POSIX shell would for these commands (words, single quotes). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

test('every h5py snippet of docs/shards.md writes a file its command reads in full', async (t) => {
  const python = h5pyPython();
  if (!python) return t.skip(H5PY_SKIP_MESSAGE);
  const pairs = snippetPairs(fs.readFileSync(DOC, 'utf8'));
  assert.ok(pairs.length >= 8, `expected the documented snippets, found ${pairs.length}`);
  for (const [i, pair] of pairs.entries()) {
    assert.ok(pair.commands.length > 0, `snippet ${i + 1} has no wflo shards check line`);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-doc-snippet-'));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    const py: SpawnSyncReturns<string> = spawnSync(python, ['-c', pair.python], { cwd: dir, encoding: 'utf8' });
    assert.equal(py.status, 0, `snippet ${i + 1}:\n${pair.python}\n${py.stderr}`);
    for (const line of pair.commands) {
      const args = words(line)
        .slice(1)
        .map((w, k) => (k >= 2 && fs.existsSync(path.join(dir, w)) ? path.join(dir, w) : w));
      const r = await wflo([...args, '--json']);
      assert.equal(r.code, 0, `${line}\n${r.stdout}${r.stderr}`);
      const report = JSON.parse(r.stdout) as { summary: { records: number; lost_records: number }; files: { class: string }[] };
      assert.ok(
        report.files.every((f) => f.class === 'valid'),
        `${line}: ${r.stdout}`,
      );
      assert.ok(report.summary.records > 0 && report.summary.lost_records === 0, `${line}: ${r.stdout}`);
    }
  }
});
