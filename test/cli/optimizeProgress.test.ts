/**
 * `wflo optimize` on a terminal shows a live bar on stderr (src/runner/optimizeProgress.ts); piped,
 * it prints the result and nothing else. The terminal is a real pseudo-terminal (util-linux
 * `script`), and the bar never changes the result: the same seed gives the same AEP either way.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { CLI, runWflo } from '../helpers.js';

const ARGS = ['optimize', 'iea37-cs1-16', '--seed', '3', '--hops', '6'];
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
const aepLine = (out: string): string => /AEP\s+[\d.]+ MWh/.exec(out)?.[0] ?? 'no AEP line';

test('on a terminal: a bar with the share of the budget, the step and the best AEP, then the result', {
  skip: hasScript ? false : 'util-linux script not installed',
}, () => {
  const command = [process.execPath, CLI, ...ARGS].map((a) => `'${a}'`).join(' ');
  const tty = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', timeout: 240_000, env: { ...process.env, TERM: 'xterm' } });
  assert.equal(tty.status, 0, tty.stdout);
  const frames = tty.stdout.split(/\r|\x1b\[1G/).filter((f) => f.includes('iea37-cs1-16 global seed 3'));
  // Frames are drawn at most a few times a second (cli-progress throttles), so which steps are
  // drawn depends on the machine's speed: assert what every run shows.
  assert.ok(frames.length >= 2, `bar frames: ${frames.length}\n${tty.stdout.slice(0, 2000)}`);
  const shares = frames.map((f) => Number(/(\d+)% \|/.exec(f)?.[1] ?? NaN));
  assert.ok(
    shares.every((p, i) => Number.isFinite(p) && p <= 100 && (i === 0 || p >= shares[i - 1])),
    `shares of the budget never go back: ${shares.join(', ')}`,
  );
  assert.ok(
    frames.some((f) => /\| (start \d+|hop \d+ \(\w+\)) \| best \d+\.\d MWh \| \d+s/.test(f)),
    `a step with the best AEP so far:\n${frames.join('\n')}`,
  );
  const piped = runWflo(ARGS);
  assert.equal(piped.status, 0, piped.stderr);
  assert.equal(piped.stderr, '', 'piped: nothing on stderr');
  assert.doesNotMatch(piped.stdout, /\x1b|\d% \|/, 'piped: no bar, no escape codes');
  assert.equal(aepLine(tty.stdout), aepLine(piped.stdout), 'the bar does not change the result');
});
