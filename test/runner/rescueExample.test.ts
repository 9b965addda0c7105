/**
 * examples/rescue/README.md, run as a reader types it: every line of its `sh` blocks (each block
 * from the repository's root, `cd` followed, `python3` being Debian's, `wflo` the checkout's CLI),
 * exit codes as documented; its h5py reading snippet run on the result. Then the acceptance of
 * issue 25 against what the example's script says it wrote (incident.json, from its own NumPy
 * model): every good record adopted with its aep_initial and its worker file as source, the slack
 * rows adopted (the lines give --tolerance-m), the missing tasks computed, complete=1; by adopting
 * the folder directly and through a merged file alike.
 */
import test from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { CLI, hasH5py, PYTHON, REPO, tempDir } from '../helpers.js';
import { extractDocCommands } from '../helpers/docCommands.js';
import { dumpWithH5py } from '../shards/helpers/python.js';
import { RESCUE_EXAMPLE, type TaskFate } from '../shards/helpers/rescueExample.js';

const PAGE = path.join(RESCUE_EXAMPLE, 'README.md');

test('examples/rescue/README.md as typed: every good record adopted with its aep_initial and worker file, slack with --tolerance-m, the rest computed, complete', {
  skip: hasH5py() ? false : 'python3-h5py not installed',
}, (t) => {
  const root = tempDir('wflo-rescue-example-');
  t.after(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.symlinkSync(path.join(REPO, 'examples'), path.join(root, 'examples'));
  const shims = path.join(root, '.bin');
  fs.mkdirSync(shims);
  fs.writeFileSync(path.join(shims, 'wflo'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, { mode: 0o755 });
  const env = { ...process.env, PATH: `${shims}:${process.env.PATH ?? ''}`, NO_COLOR: '1' };

  const markdown = fs.readFileSync(PAGE, 'utf8');
  const commands = extractDocCommands(markdown, 'examples/rescue/README.md');
  const blocks = [...new Set(commands.map((c) => c.block))];
  assert.equal(blocks.length, 2, 'two rescues on the page: adopting the folder, and through a merged file');
  const outputs = new Map<string, string>();
  const folders: string[] = [];
  for (const block of blocks) {
    let cwd = root;
    for (const cmd of commands.filter((c) => c.block === block)) {
      const cd = /^cd (\S+)$/.exec(cmd.command);
      if (cd) {
        cwd = path.join(cwd, cd[1]!);
        folders.push(cwd);
        continue;
      }
      const line = cmd.command.replace(/^python3 /, `${PYTHON} `).replace(/^npx wflo /, 'wflo ');
      const r = spawnSync('bash', ['-c', line], { cwd, env, encoding: 'utf8', timeout: 300_000 });
      assert.ok(
        r.status !== null && cmd.exitCodes.includes(r.status),
        `line ${cmd.line}: \`${cmd.command}\` exited ${r.status}, documented ${cmd.exitCodes.join(' or ')}\n${r.stdout}\n${r.stderr}`,
      );
      outputs.set(cmd.command, r.stdout + r.stderr);
    }
  }
  assert.equal(folders.length, 2);
  const out = (prefix: string) => [...outputs].find(([c]) => c.startsWith(prefix))![1];
  assert.match(out('wflo shards check'), /^problems found: 2 invalid files, 2 rejected records, 1 conflicting duplicate$/m);
  assert.match(out('wflo run campaign.yaml --dry-run'), /15 to adopt, 2 rejected, 0 already done, 1 repeated/);
  assert.match(
    out('wflo run campaign.yaml --adopt layouts.h5_temp'),
    /^wflo: adopted 17 results \(2 of them up to 0\.01 m off the site or spacing, within --tolerance-m\), 1 conflicting \(first kept\)$/m,
  );
  assert.match(out('wflo shards missing'), /^farm_0_type_0_seed_3$/m);

  // The page's h5py snippet, on the first rescue's result.
  const snippet = /```python\n([\s\S]*?)```/.exec(markdown)![1]!;
  const py = spawnSync(PYTHON, ['-c', snippet], { cwd: folders[0], encoding: 'utf8' });
  assert.equal(py.status, 0, py.stderr);
  assert.match(py.stdout.split('\n')[0]!, /^(1|True) 24 \/ 24$/);

  for (const folder of folders) {
    const fates = (JSON.parse(fs.readFileSync(path.join(folder, 'incident.json'), 'utf8')) as { tasks: Record<string, TaskFate> }).tasks;
    const h5 = dumpWithH5py(path.join(folder, 'out', 'rescue', 'layouts.h5'));
    assert.equal(Number(h5.attrs.complete!.value), 1, folder);
    const f = h5.datasets;
    const ids = f.task_id!.value as string[];
    assert.deepEqual([...ids].sort(), Object.keys(fates).sort(), 'one row per task');
    ids.forEach((id, i) => {
      const want = fates[id]!;
      const source = (f.source!.value as string[])[i];
      if (want.fate === 'missing') {
        assert.equal(source, 'computed', `${id} (${want.note}) computed`);
        return;
      }
      assert.equal(source, `adopted:layouts.h5_temp/${want.file}`, `${id} names its worker file`);
      assert.equal((f.aep_initial!.value as (number | string)[])[i], want.aep_initial ?? 'NaN', `${id} keeps its aep_initial`);
      assert.equal((f.aep_reported!.value as number[])[i], want.aep, `${id} keeps its worker's AEP`);
      assert.equal((f.iterations!.value as number[])[i], want.iterations, `${id} keeps its iterations`);
    });
  }
});
