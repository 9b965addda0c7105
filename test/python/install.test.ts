/**
 * The package installed the way docs/python.md says, without any registry: Debian's pip
 * (`--no-build-isolation --no-index`) installs a copy of python/ into a temporary folder; from
 * there, with WFLO_CLI naming this checkout's engine, its AEP equals `wflo aep --json`'s; without
 * WFLO_CLI it says in one line how to point it at the engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, PYTHON, runWflo, tempDir } from '../helpers.js';
import { doublesOfHex, PYTHON_PACKAGE, pythonMissing } from './pythonKit.js';

const pipMissing = (): string | false => pythonMissing() || (spawnSync(PYTHON, ['-m', 'pip', '--version']).status === 0 ? false : `${PYTHON} has no pip (apt-get install python3-pip)`);

test('pip install of python/ into a folder, no registry: the installed package evaluates as the CLI does', { skip: pipMissing() }, () => {
  const dir = tempDir('wflo-pyinstall-');
  try {
    const source = path.join(dir, 'source');
    fs.cpSync(PYTHON_PACKAGE, source, { recursive: true, filter: (p) => !/(__pycache__|\.egg-info|[/\\]build)$/.test(p) });
    const target = path.join(dir, 'site');
    const pip = spawnSync(PYTHON, ['-m', 'pip', 'install', '--no-build-isolation', '--no-deps', '--no-index', '--target', target, source], { encoding: 'utf8', timeout: 180_000 });
    assert.equal(pip.status, 0, pip.stderr);
    assert.ok(fs.existsSync(path.join(target, 'wflo', '_engine.py')));
    const code = 'import struct, wflo\nwith wflo.Engine() as e:\n    f = e.farm("iea37-cs1-16")\n    print(struct.pack("<d", f.aep(*f.baseline).aep_mwh).hex())';
    const env = { ...process.env, PYTHONPATH: target };
    const r = spawnSync(PYTHON, ['-c', code], { cwd: dir, encoding: 'utf8', env: { ...env, WFLO_CLI: CLI } });
    assert.equal(r.status, 0, r.stderr);
    const cli = JSON.parse(runWflo(['aep', 'iea37-cs1-16', '--json']).stdout) as { aep_mwh: number };
    assert.ok(Object.is(doublesOfHex(r.stdout.trim())[0], cli.aep_mwh));
    // Installed away from a clone and no WFLO_CLI: one line naming the way out.
    const lost = spawnSync(PYTHON, ['-c', 'import wflo\ntry:\n    wflo.Engine()\nexcept wflo.WfloError as err:\n    print(err)'], { cwd: dir, encoding: 'utf8', env: { ...env, WFLO_CLI: '' } });
    assert.equal(lost.status, 0, lost.stderr);
    assert.match(lost.stdout.trim(), /^\S+main\.js: the wflo engine is not built \(run `npm ci` in the repository\) or set WFLO_CLI to wflo's dist\/src\/cli\/main\.js$/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
