/**
 * Every command line of README.md and docs/*.md, run as a reader would type it, in a copy of the
 * repository that has only what a clone has (test/helpers/repoCopy.ts): the files are read from
 * the copy, so a line naming a file that is not in the repository fails. README first, then the
 * docs in name order, in one copy (later lines use what earlier ones made, as a reader's session
 * would: `out/demo` of the quick start). Each line must exit 0, or a code its comment documents
 * ("exit 3"). Lines that start servers or need Redis or SLURM, run the suite itself or a
 * benchmark, or install from the npm registry are reported as skipped with the reason
 * (test/helpers/docCommands.ts). The lines run in bash with the real npm, offline, and no `wflo`
 * on PATH (test/helpers/readerShell.ts): `./wflo` is the clone's launcher, and a bare `wflo` works
 * only once the README's own `npm install -g .` has linked the copy into npm's (temporary) global
 * prefix. `npm ci` is the one step not run here: the copy is prepared as it leaves a clone
 * (.ci/run runs the real `npm ci`, and the README's first line after it, in a fresh copy).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { PYTHON, REPO, hasH5py } from '../helpers.js';
import { copyRepository } from '../helpers/repoCopy.js';
import { classifyCommand, extractDocCommands, type DocCommand } from '../helpers/docCommands.js';
import { readerShell } from '../helpers/readerShell.js';
import { kernelFile } from '../helpers/kernelFile.js';
import { writeAdoptionIncident, DEFAULT_ADOPTION_CAMPAIGN } from '../shards/helpers/adoptionIncident.js';
import { resetRescueExample } from '../shards/helpers/rescueExample.js';

test('the extractor: sh blocks only, continuations joined, comments and documented exit codes, directives', () => {
  const md = [
    'text',
    '```yaml',
    'a: 1',
    '```',
    '<!-- doc-test: setup demo-folder -->',
    '```sh',
    '# a comment line',
    'wflo run x.yaml --dry-run      # what it would do',
    'wflo shards check dir \\',
    '     --expect c.yaml   # exit 3 if any is bad',
    "echo 'a # not a comment'",
    '```',
    '',
    '<!-- doc-test: skip needs a GPU -->',
    '```bash',
    'nvidia-smi',
    '```',
  ].join('\n');
  const cmds = extractDocCommands(md, 'X.md');
  assert.deepEqual(
    cmds.map((c) => [c.line, c.command, c.exitCodes, c.setup, c.skip]),
    [
      [8, 'wflo run x.yaml --dry-run', [0], ['demo-folder'], null],
      [9, 'wflo shards check dir --expect c.yaml', [0, 3], ['demo-folder'], null],
      [11, "echo 'a # not a comment'", [0], ['demo-folder'], null],
      [16, 'nvidia-smi', [0], [], 'needs a GPU'],
    ],
  );
  const paired = extractDocCommands(['```python', 'print(1)', '```', '', '```sh', 'wflo x', '```', 'text', '```sh', 'wflo y', '```'].join('\n'), 'Y.md');
  assert.deepEqual(
    paired.map((c) => [c.command, c.python]),
    [
      ['wflo x', 'print(1)'],
      ['wflo y', null],
    ],
    'a shell block right after a python block runs on what it writes',
  );
  assert.deepEqual(
    classifyCommand('npm ci && ./wflo run examples/demo.yaml').map((p) => p.action),
    ['prepared', 'run'],
  );
  assert.equal(classifyCommand('npx tsc -p tsconfig.json')[0].action, 'prepared');
  assert.deepEqual(
    classifyCommand('npm pack && npm install -g wflo-0.1.0.tgz').map((p) => p.action),
    ['run', 'skip'],
  );
  assert.equal(classifyCommand('./wflo dashboard out/demo')[0].action, 'skip');
  assert.equal(classifyCommand("WFLO_QUEUE='redis://h' ./wflo worker")[0].action, 'skip');
});

/** Files a block's commands work on, by the name its `<!-- doc-test: setup NAME -->` gives. */
const SETUPS: Record<string, { needs?: () => string | null; run: (cwd: string) => void }> = {
  // A worker folder another pipeline left (README "Rescuing results", docs/shards.md): the files of
  // test/shards/helpers/adoptionIncident.ts, written by h5py, for a small campaign.
  'rescue-incident': {
    needs: () => (hasH5py() ? null : 'h5py not importable (apt-get install python3-h5py)'),
    run: (cwd) => {
      for (const f of ['layouts.h5_temp', 'late', 'rescued.h5', 'campaign.yaml', 'out/rescue']) fs.rmSync(path.join(cwd, f), { recursive: true, force: true });
      fs.writeFileSync(path.join(cwd, 'campaign.yaml'), stringify({ ...DEFAULT_ADOPTION_CAMPAIGN, name: 'rescue', output: 'out/rescue' }));
      writeAdoptionIncident(path.join(cwd, 'layouts.h5_temp'), path.join(cwd, 'campaign.yaml'));
      fs.mkdirSync(path.join(cwd, 'late'));
      fs.copyFileSync(path.join(cwd, 'layouts.h5_temp', 'worker_03.h5'), path.join(cwd, 'late', 'worker_9.h5'));
    },
  },
  // The README's rescue lines: the folder examples/rescue/make_incident_folder.py writes (h5py), with campaign.yaml beside it.
  'rescue-example': {
    needs: () => (hasH5py() ? null : 'h5py not importable (apt-get install python3-h5py)'),
    run: resetRescueExample,
  },
};

test('every command line of README.md and docs/*.md runs in a copy of the repository', async (t) => {
  const copy = copyRepository(REPO);
  const shell = readerShell();
  after(() => {
    copy.remove();
    shell.remove();
  });
  const before = shell.run('command -v wflo', copy.dir);
  assert.equal(before.stdout.trim(), '', "no wflo on the reader's PATH before the README installs one");
  const kernel = kernelFile(copy.dir);
  // The documents of the copy: a doc that is not in the repository is not a clone's either.
  const DOCS = [
    'README.md',
    ...fs
      .readdirSync(path.join(copy.dir, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  const blocksSetUp = new Map<string, string | null>();
  let ran = 0;
  for (const doc of DOCS) {
    const commands = extractDocCommands(fs.readFileSync(path.join(copy.dir, doc), 'utf8'), doc);
    for (const cmd of commands) {
      await t.test(`${doc}:${cmd.line} ${cmd.command}`, (st) => {
        if (cmd.skip) {
          st.skip(cmd.skip);
          return;
        }
        const blockKey = `${doc}:${cmd.block}`;
        if (!blocksSetUp.has(blockKey)) blocksSetUp.set(blockKey, setUp(cmd, copy.dir));
        const missing = blocksSetUp.get(blockKey);
        if (missing) {
          st.skip(missing);
          return;
        }
        const parts = classifyCommand(cmd.command);
        const toRun = parts.filter((p) => p.action === 'run').map((p) => p.text);
        const skipped = parts.find((p) => p.action === 'skip');
        if (toRun.length === 0) {
          st.skip(skipped?.reason ?? parts[0].reason ?? 'nothing to run');
          return;
        }
        const r = shell.run(toRun.join(' && '), copy.dir);
        const tail = (s: string) => s.split('\n').slice(-15).join('\n');
        assert.ok(
          r.status !== null && cmd.exitCodes.includes(r.status),
          `${doc}:${cmd.line}: \`${toRun.join(' && ')}\` exited ${r.status ?? r.signal}, documented ${cmd.exitCodes.join(' or ')}\nstdout: ${tail(r.stdout)}\nstderr: ${tail(r.stderr)}`,
        );
        ran++;
        if (skipped)
          st.diagnostic(
            `not run: \`${parts
              .filter((p) => p.action === 'skip')
              .map((p) => p.text)
              .join(' && ')}\` (${skipped.reason})`,
          );
      });
    }
  }
  assert.ok(ran >= 15, `only ${ran} command lines ran`);
  // No line installed the clone into npm's npx cache, or rebuilt or removed the native kernel.
  assert.ok(!fs.existsSync(path.join(shell.npmCache, '_npx')), `a documented line installed a package with npx (${path.join(shell.npmCache, '_npx')})`);
  assert.deepEqual(kernelFile(copy.dir), kernel, 'build/Release/wflo_kernel.node after every documented line is the one the copy started with');
});

function setUp(cmd: DocCommand, cwd: string): string | null {
  if (cmd.python !== null) {
    if (!hasH5py()) return 'the Python block above needs h5py (apt-get install python3-h5py)';
    const py = spawnSync(PYTHON, ['-c', cmd.python], { cwd, encoding: 'utf8' });
    if (py.status !== 0) throw new Error(`${cmd.file}:${cmd.block}: the Python block above failed: ${py.stderr}`);
  }
  for (const name of cmd.setup) {
    const s = SETUPS[name];
    if (!s) throw new Error(`${cmd.file}:${cmd.block}: unknown doc-test setup '${name}' (known: ${Object.keys(SETUPS).join(', ')})`);
    const missing = s.needs?.() ?? null;
    if (missing) return missing;
    s.run(cwd);
  }
  return null;
}
