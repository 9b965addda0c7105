/**
 * Helpers for the command-task tests: Debian's python3 (with python3-numpy) as the user's
 * program, campaigns of command tasks in temporary project folders, a copy of the example
 * optimizer, and finding the program processes a run left (by a marker in their command line).
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse, stringify } from 'yaml';
import { REPO } from '../helpers.js';

/** Debian's interpreter: the one .ci/run installs python3-numpy for. */
export const PY = process.env.WFLO_PYTHON ?? '/usr/bin/python3';

export const EXAMPLE_DIR = path.join(REPO, 'examples', 'own-optimizer');

/** Why the command-task tests cannot run here, or false. */
export function pythonUnavailable(): string | false {
  const r = spawnSync(PY, ['-c', 'import numpy'], { encoding: 'utf8' });
  return r.status === 0 ? false : `${PY} with numpy is not available (apt-get install python3-numpy)`;
}

/** A campaign of command tasks on the IEA37 cs1-16 site, as a plain object to tweak. */
export function commandCampaign(out: string, seeds: number | number[], optimizer: Record<string, unknown>): Record<string, unknown> {
  return {
    name: 'command-test',
    output: out,
    farms: [{ id: 0, case: 'iea37-cs1-16' }],
    farm_types: [{ id: 0, turbine: 'iea37-3.35mw', n_turbines: 16 }],
    seeds: Array.isArray(seeds) ? seeds : { start: 0, count: seeds },
    optimizer: { method: 'command', run: [PY, 'prog.py'], inputs: ['prog.py'], ...optimizer },
    workers: 2,
    timeout_s: 60,
    attempts: 2,
    backoff: { initial_s: 0.05, factor: 1, max_s: 0.05 },
    export: { every_results: 100, every_s: 1 },
  };
}

/** Write `prog.py` and campaign.yaml into `dir`; returns the campaign file. */
export function commandProject(dir: string, program: string, campaign: Record<string, unknown>): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'prog.py'), program);
  const file = path.join(dir, 'campaign.yaml');
  fs.writeFileSync(file, stringify(campaign));
  return file;
}

/**
 * A copy of examples/own-optimizer in `dir`: its campaign (or persistent.yaml) with `output`,
 * seeds and params adjusted, python3 replaced by Debian's. Returns the campaign file.
 */
export function exampleProject(dir: string, o: { out: string; seeds: number; iterations: number; mode?: 'per-task' | 'persistent'; name?: string }): string {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(EXAMPLE_DIR, 'optimizer.py'), path.join(dir, 'optimizer.py'));
  const c = parse(fs.readFileSync(path.join(EXAMPLE_DIR, 'campaign.yaml'), 'utf8')) as Record<string, any>;
  c.output = o.out;
  c.seeds = { start: 0, count: o.seeds };
  c.optimizer.params.iterations = o.iterations;
  c.optimizer.run[0] = PY;
  if (o.mode) c.optimizer.mode = o.mode;
  if (o.name) c.name = o.name;
  const file = path.join(dir, `${o.name ?? 'campaign'}.yaml`);
  fs.writeFileSync(file, stringify(c));
  return file;
}

/** Pids of live processes (not zombies) working in a folder whose path contains `marker`: a project's programs. */
export function processesWith(marker: string): number[] {
  const out: number[] = [];
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const state = /^\d+ \(.*\) (\S)/.exec(fs.readFileSync(`/proc/${name}/stat`, 'utf8'))?.[1];
      if (state === 'Z') continue;
      let cwd = '';
      try {
        cwd = fs.readlinkSync(`/proc/${name}/cwd`);
      } catch {
        /* not ours to read */
      }
      if (cwd.includes(marker)) out.push(Number(name));
    } catch {
      /* gone */
    }
  }
  return out;
}

/** Whether a process exists and is not a zombie. */
export function running(pid: number): boolean {
  try {
    const state = /^\d+ \(.*\) (\S)/.exec(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
    return state !== undefined && state !== 'Z';
  } catch {
    return false;
  }
}
