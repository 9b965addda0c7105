/**
 * The package installed the way docs/python.md says, without any registry: Debian's pip
 * (`--no-build-isolation --no-index`) installs a copy of python/ into a temporary folder; from
 * there, with WFLO_CLI naming this checkout's engine, its AEP equals `wflo aep --json`'s; without
 * WFLO_CLI it uses a `wflo` on PATH (the checkout's launcher, symlinked); with neither it says in
 * one line what it tried (WFLO_CLI, the clone around it, PATH) and how to point it at the engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, PYTHON, REPO, runWflo, tempDir } from '../helpers.js';
import { doublesOfHex, PYTHON_PACKAGE, pythonMissing } from './pythonKit.js';

const pipMissing = (): string | false =>
  pythonMissing() || (spawnSync(PYTHON, ['-m', 'pip', '--version']).status === 0 ? false : `${PYTHON} has no pip (apt-get install python3-pip)`);

test('pip install of python/ into a folder, no registry: the installed package evaluates as the CLI does, finds a `wflo` on PATH, else names what it tried', {
  skip: pipMissing(),
}, () => {
  const dir = tempDir('wflo-pyinstall-');
  try {
    const source = path.join(dir, 'source');
    fs.cpSync(PYTHON_PACKAGE, source, { recursive: true, filter: (p) => !/(__pycache__|\.egg-info|[/\\]build)$/.test(p) });
    const target = path.join(dir, 'site');
    const pip = spawnSync(PYTHON, ['-m', 'pip', 'install', '--no-build-isolation', '--no-deps', '--no-index', '--target', target, source], {
      encoding: 'utf8',
      timeout: 180_000,
    });
    assert.equal(pip.status, 0, pip.stderr);
    assert.ok(fs.existsSync(path.join(target, 'wflo', '_engine.py')));
    const code =
      'import struct, wflo\nwith wflo.Engine() as e:\n    f = e.farm("iea37-cs1-16")\n    print(struct.pack("<d", f.aep(*f.baseline).aep_mwh).hex())';
    const env = { ...process.env, PYTHONPATH: target };
    const r = spawnSync(PYTHON, ['-c', code], { cwd: dir, encoding: 'utf8', env: { ...env, WFLO_CLI: CLI } });
    assert.equal(r.status, 0, r.stderr);
    const cli = JSON.parse(runWflo(['aep', 'iea37-cs1-16', '--json']).stdout) as { aep_mwh: number };
    assert.ok(Object.is(doublesOfHex(r.stdout.trim())[0], cli.aep_mwh));
    // Installed away from a clone, no WFLO_CLI: a `wflo` on PATH is the engine (a symlink to the
    // checkout's ./wflo launcher, as `npm install -g .` would put one there).
    const bin = path.join(dir, 'bin');
    fs.mkdirSync(bin);
    fs.symlinkSync(path.join(REPO, 'wflo'), path.join(bin, 'wflo'));
    const nodeDir = path.dirname(process.execPath);
    const onPath = spawnSync(PYTHON, ['-c', `${code}\nprint(wflo.engine_command()[0])`], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...env, WFLO_CLI: '', PATH: `${bin}${path.delimiter}${nodeDir}` },
    });
    assert.equal(onPath.status, 0, onPath.stderr);
    const [hex, used] = onPath.stdout.trim().split('\n');
    assert.ok(Object.is(doublesOfHex(hex)[0], cli.aep_mwh));
    assert.equal(used, path.join(bin, 'wflo'));
    // Nothing anywhere: one line naming the three places tried, in order, and the ways out.
    const empty = path.join(dir, 'empty');
    fs.mkdirSync(empty);
    const catching = 'import wflo\ntry:\n    wflo.Engine()\nexcept ValueError as err:\n    print(type(err).__name__, err.exit_code, err)';
    const lost = spawnSync(PYTHON, ['-c', catching], { cwd: dir, encoding: 'utf8', env: { ...env, WFLO_CLI: '', PATH: empty } });
    assert.equal(lost.status, 0, lost.stderr);
    const site = path.join(fs.realpathSync(dir), 'dist', 'src', 'cli', 'main.js'); // <target>/wflo → parents[2] is the temporary folder
    assert.equal(
      lost.stdout.trim(),
      `WfloError 1 the wflo engine was not found: WFLO_CLI is not set; ${site} is not there (this package is not in a built wflo clone); no \`wflo\` on PATH. ` +
        "Install the engine (`npm ci && npm install -g .` in a wflo clone puts `wflo` on PATH), or set WFLO_CLI to a clone's dist/src/cli/main.js or its ./wflo",
    );
    // A WFLO_CLI naming nothing is refused with its value, not passed to a process that fails later.
    const wrong = spawnSync(PYTHON, ['-c', catching], { cwd: dir, encoding: 'utf8', env: { ...env, WFLO_CLI: path.join(dir, 'no', 'main.js') } });
    assert.equal(
      wrong.stdout.trim(),
      `WfloError 1 WFLO_CLI=${path.join(dir, 'no', 'main.js')}: no such file (expected wflo's dist/src/cli/main.js or an executable \`wflo\`)`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
