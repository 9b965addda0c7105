/**
 * What wflo writes stands alone, and `wflo plot` reads all of it:
 * - `wflo optimize iea37-cs1-16 --out b.yaml && wflo aep b.yaml && wflo plot b.yaml -o b.png` in an
 *   empty folder: the result file carries turbine, wind, site and model, so `aep` gives the AEP the
 *   optimization recorded and `plot` draws its site, with no other file read or written;
 * - a `wflo shards merge` output of another pipeline's worker files (no farm definitions inside):
 *   `plot --task` says what is missing, `--campaign` supplies each task's farm and farm type,
 *   `--case` one case for all; the markers sit at the merged records' coordinates;
 * - the merge summary lists a file under "files with unusable records" only when it has some
 *   (rejected records have their own list).
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { hasH5py, runWflo, tempDir } from '../helpers.js';
import { writeAdoptionIncident } from '../shards/helpers/adoptionIncident.js';

const dirs: string[] = [];
after(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});
function dir(prefix: string): string {
  const d = tempDir(prefix);
  dirs.push(d);
  return d;
}

/** Turbine markers of a plot SVG: data-x, data-y in metres. */
function markers(svg: string): { x: number; y: number }[] {
  return [...svg.matchAll(/<circle class="turbine"[^>]*data-x="([^"]+)" data-y="([^"]+)"/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]) }));
}

test('optimize --out, then aep and plot of that one file in an empty folder', () => {
  const cwd = dir('wflo-alone-');
  const opt = runWflo(['optimize', 'iea37-cs1-16', '--out', 'b.yaml'], { cwd, timeoutMs: 600_000 });
  assert.equal(opt.status, 0, opt.stderr);
  assert.doesNotMatch(opt.stderr, /note:/, 'the file reproduces the optimization AEP');
  const doc = parse(fs.readFileSync(path.join(cwd, 'b.yaml'), 'utf8'));
  const aep = runWflo(['aep', 'b.yaml', '--json'], { cwd });
  assert.equal(aep.status, 0, aep.stderr);
  assert.equal(JSON.parse(aep.stdout).aep_mwh, doc.wflo.aep_mwh);
  const png = runWflo(['plot', 'b.yaml', '-o', 'b.png'], { cwd });
  assert.equal(png.status, 0, png.stderr);
  assert.doesNotMatch(png.stdout, /note:/, 'the plot recomputes the recorded AEP');
  assert.deepEqual(fs.readFileSync(path.join(cwd, 'b.png')).subarray(1, 4).toString(), 'PNG');
  assert.deepEqual(fs.readdirSync(cwd).sort(), ['b.png', 'b.yaml'], 'nothing else read or written');
  // The site drawn is the case's circle (radius 1300 m) and the turbines are the file's.
  const svg = runWflo(['plot', 'b.yaml', '-o', 'b.svg'], { cwd });
  assert.equal(svg.status, 0, svg.stderr);
  const text = fs.readFileSync(path.join(cwd, 'b.svg'), 'utf8');
  assert.match(text, /<circle[^>]*class="boundary"/);
  assert.deepEqual(
    markers(text),
    doc.layout.x.map((x: number, i: number) => ({ x, y: doc.layout.y[i] })),
  );
});

test('plot of a shards merge output: --campaign or --case supply what the file lacks', { skip: hasH5py() ? false : 'h5py not importable' }, () => {
  const cwd = dir('wflo-rescue-plot-');
  const incident = writeAdoptionIncident(path.join(cwd, 'layouts.h5_temp'), path.join(cwd, 'campaign.yaml'));
  const merge = runWflo(['shards', 'merge', 'layouts.h5_temp', '-o', 'rescued.h5', '--on-invalid', 'quarantine', '--expect', 'campaign.yaml'], { cwd });
  assert.equal(merge.status, 3, merge.stderr);
  // worker_05.h5 has one good record and four rejected ones, no unusable one.
  const unusable = merge.stdout.split('\n').filter((l, i, all) => {
    const head = all
      .slice(0, i + 1)
      .reverse()
      .find((h) => !h.startsWith('  '));
    return l.startsWith('  ') && head?.startsWith('files with unusable records');
  });
  assert.deepEqual(unusable, [], merge.stdout);
  assert.match(merge.stdout, /^rejected records \(4\):/m);

  const [taskId, record] = [...incident.good.entries()].find(([id]) => id.startsWith('farm_1_'))!;
  const bare = runWflo(['plot', 'rescued.h5', '--task', taskId, '-o', 'r.svg'], { cwd });
  assert.equal(bare.status, 2);
  assert.match(bare.stderr, /farm definition missing.*give --campaign CAMPAIGN\.yaml/);

  const viaCampaign = runWflo(['plot', 'rescued.h5', '--task', taskId, '--campaign', 'campaign.yaml', '-o', 'r.svg'], { cwd });
  assert.equal(viaCampaign.status, 0, viaCampaign.stderr);
  // The AEP the plot computes with the campaign's farm model is the record's (no "differs" note).
  assert.doesNotMatch(viaCampaign.stdout, /note:/);
  const svg = fs.readFileSync(path.join(cwd, 'r.svg'), 'utf8');
  assert.deepEqual(
    markers(svg),
    Array.from(record.x, (x, i) => ({ x, y: record.y[i] })),
  );
  // farm 1 is the 3000 m × 2000 m rectangle of the campaign, drawn as a path.
  assert.match(svg, /<path[^>]*class="boundary"/);

  const viaCase = runWflo(['plot', 'rescued.h5', '--task', taskId, '--case', 'iea37-cs1-16', '-o', 'c.png'], { cwd });
  assert.equal(viaCase.status, 0, viaCase.stderr);
  const both = runWflo(['plot', 'rescued.h5', '--task', taskId, '--case', 'iea37-cs1-16', '--campaign', 'campaign.yaml', '-o', 'c.png'], { cwd });
  assert.equal(both.status, 2);
});
