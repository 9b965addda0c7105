/**
 * Honest messages after faults: what a run says at the end matches what will work, the errno is
 * named as it is, nothing of wflo's is left behind, one line always.
 * - The ledger overwritten in place while a run goes on: the run ends (exit 1) with one line
 *   naming the ledger and `wflo ledger rebuild` (not `wflo export`, which cannot read it);
 *   `wflo status` and `wflo export` then say the same in one line (not "unexpected error"); the
 *   rebuild takes every result back.
 * - The output folder made immutable mid-run (chattr +i; needs root): one line naming EPERM (not
 *   the ENOTDIR that a removal through fs.rm reports), exit 1.
 * - A full disk (a small tmpfs; needs root): one line naming ENOSPC, exit 1, and no write-probe
 *   file left behind.
 */
import test, { describe } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { collect, ledgerSnapshot, noopCampaign, runWflo, startWflo, tempDir, waitFor, writeCampaign } from './runnerTestKit.js';
import { runningTasks } from './processTree.js';

const lastLine = (stderr: string): string => stderr.trim().split('\n').pop() ?? '';

/** Overwrite 2000 bytes of every third page of `file` from page 2 on (the header stays), in place. */
function damagePages(file: string): void {
  const fd = fs.openSync(file, 'r+');
  try {
    const size = fs.fstatSync(fd).size;
    const junk = Buffer.alloc(2000, 0x5a);
    for (let off = 4096; off + junk.length <= size; off += 4096 * 3) fs.writeSync(fd, junk, 0, junk.length, off);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether this process may mount file systems and change file attributes (root on Linux). */
function asRoot(): string | false {
  return process.getuid?.() === 0 ? false : 'needs root (mount, chattr)';
}

describe('messages after faults', () => {
  test('a ledger overwritten in place mid-run: the run, status and export each say it in one line with `wflo ledger rebuild`', {
    timeout: 240_000,
  }, async () => {
    const dir = tempDir('fault-ledger');
    const out = path.join(dir, 'out');
    const file = path.join(dir, 'campaign.yaml');
    // Run 1 leaves a checkpointed ledger: its rows live in the main file, which run 2 only reads.
    const base = { ...noopCampaign(out, 20, { sleep_ms: 150 }), attempts: 1, export: { every_results: 5, every_s: 1 } };
    writeCampaign(file, base);
    const r1 = await runWflo(['run', file, '--quiet']);
    assert.equal(r1.code, 0, r1.stderr);
    // Run 2: 20 more seeds (80 tasks of 0.15 s on 2 workers), running when the ledger is damaged.
    writeCampaign(file, { ...base, seeds: { start: 0, count: 40 } });
    const child = startWflo(['run', file]);
    const exited = collect(child);
    try {
      assert.ok(await waitFor(() => runningTasks(out).length > 0, 60_000), 'run 2 is running');
      damagePages(path.join(out, 'ledger.sqlite'));
    } finally {
      const r = await exited;
      assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
      const line = lastLine(r.stderr);
      assert.match(line, /^wflo: .*ledger\.sqlite (was damaged during the run|is damaged) \(.+\).*`wflo ledger rebuild [^`]+`/, r.stderr);
      assert.doesNotMatch(line, /safe in the ledger|unexpected error/);
    }
    for (const command of [
      ['status', out],
      ['export', out],
    ]) {
      const r = await runWflo(command);
      assert.equal(r.code, 1, `${command[0]}: ${r.stdout}\n${r.stderr}`);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, `${command[0]}: ${r.stderr}`);
      assert.match(
        lines[0],
        new RegExp(`^wflo: \\S*ledger\\.sqlite is damaged \\(.+\\); nothing was changed\\. Rebuild it .* with \`wflo ledger rebuild \\S+\``),
        command[0],
      );
    }
    // The way out works: every result of both runs comes back, and the next run has nothing left to do.
    const rebuilt = await runWflo(['ledger', 'rebuild', out, '--campaign', file]);
    assert.equal(rebuilt.code, 0, rebuilt.stderr);
    const again = await runWflo(['run', file, '--quiet']);
    assert.equal(again.code, 0, again.stderr);
    assert.equal(ledgerSnapshot(out).done.length, 4 * 40);
    assert.equal(ledgerSnapshot(out).integrity, 'ok');
  });

  test('the output folder made immutable mid-run: one line naming EPERM', { timeout: 240_000, skip: asRoot() }, async (t) => {
    const dir = tempDir('fault-immutable');
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    const probe = spawnSync('chattr', ['+i', out]);
    if (probe.status !== 0) {
      t.skip(`chattr +i does not work here: ${probe.stderr?.toString().trim() || probe.error?.message}`);
      return;
    }
    spawnSync('chattr', ['-i', out]);
    const file = writeCampaign(path.join(dir, 'campaign.yaml'), { ...noopCampaign(out, 30, { sleep_ms: 150 }), export: { every_results: 5, every_s: 1 } });
    const child = startWflo(['run', file]);
    const exited = collect(child);
    try {
      assert.ok(await waitFor(() => fs.existsSync(path.join(out, 'layouts.h5')) && runningTasks(out).length > 0, 60_000), 'running, a first export written');
      assert.equal(spawnSync('chattr', ['+i', out]).status, 0);
      const r = await exited;
      assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
      const line = lastLine(r.stderr);
      assert.match(line, /^wflo: .*\bEPERM\b/, r.stderr);
      assert.doesNotMatch(r.stderr, /ENOTDIR|unexpected error/);
    } finally {
      spawnSync('chattr', ['-i', out]);
      child.kill('SIGKILL');
      await exited;
    }
  });

  test('a full disk: one line naming ENOSPC, no write-probe file left', { timeout: 120_000, skip: asRoot() }, async (t) => {
    const dir = tempDir('fault-full');
    const mnt = path.join(dir, 'small');
    fs.mkdirSync(mnt);
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=256k', 'tmpfs', mnt]);
    if (mount.status !== 0) {
      t.skip(`cannot mount a tmpfs here: ${mount.stderr?.toString().trim() || mount.error?.message}`);
      return;
    }
    try {
      const out = path.join(mnt, 'out');
      fs.mkdirSync(out);
      // Fill it up.
      const fd = fs.openSync(path.join(mnt, 'filler'), 'w');
      try {
        for (;;) fs.writeSync(fd, Buffer.alloc(4096, 1));
      } catch (err) {
        assert.equal((err as NodeJS.ErrnoException).code, 'ENOSPC');
      } finally {
        fs.closeSync(fd);
      }
      const file = writeCampaign(path.join(dir, 'campaign.yaml'), noopCampaign(out, 2));
      const r = await runWflo(['run', file]);
      assert.equal(r.code, 1, `${r.stdout}\n${r.stderr}`);
      assert.deepEqual(r.stderr.trim().split('\n'), [`wflo: cannot write in output folder ${out} (disk full (ENOSPC))`]);
      assert.deepEqual(fs.readdirSync(out), [], 'nothing left behind');
    } finally {
      spawnSync('umount', [mnt]);
    }
  });
});
