/**
 * Test helper: the rescue example's worker folder (examples/rescue/make_incident_folder.py, run
 * with Debian's python3 and h5py) and what the script says it wrote (incident.json): per task its
 * fate (a good record, optimizer slack, missing), the file holding it, and the values its worker
 * stored (AEP, initial AEP, iterations, evaluations, layout). These are the script's numbers,
 * computed by its own NumPy model, not wflo's.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PYTHON, REPO } from '../../helpers.js';

export const RESCUE_EXAMPLE = path.join(REPO, 'examples', 'rescue');
export const MAKE_INCIDENT = path.join(RESCUE_EXAMPLE, 'make_incident_folder.py');

export interface TaskFate {
  fate: 'good' | 'slack' | 'missing';
  file?: string;
  note?: string;
  aep?: number;
  /** null: the worker did not record it. */
  aep_initial?: number | null;
  iterations?: number;
  evaluations?: number;
  x?: number[];
  y?: number[];
  /** A second, different record of the task in another file (the first one is the good one). */
  conflict?: { file: string; aep: number };
}

export interface RescueIncident {
  dir: string;
  folder: string;
  campaign: string;
  tasks: Record<string, TaskFate>;
}

/** Write the example's folder into `dir` (layouts.h5_temp/, campaign.yaml, incident.json). */
export function writeRescueExample(dir: string): RescueIncident {
  const r = spawnSync(PYTHON, [MAKE_INCIDENT, dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`make_incident_folder.py failed: ${r.stderr}`);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'incident.json'), 'utf8')) as {
    folder: string;
    campaign: string;
    tasks: Record<string, TaskFate>;
  };
  return { dir, folder: path.join(dir, manifest.folder), campaign: path.join(dir, manifest.campaign), tasks: manifest.tasks };
}

/** Task ids with the given fate, sorted. */
export function tasksWith(incident: RescueIncident, fate: TaskFate['fate']): string[] {
  return Object.keys(incident.tasks)
    .filter((id) => incident.tasks[id]!.fate === fate)
    .sort();
}

/**
 * The README's rescue lines work on this (test/cli/docCommands.test.ts, setup `rescue-example`):
 * what earlier lines left in `cwd` removed, then the example folder written there by the copy's
 * own script.
 */
export function resetRescueExample(cwd: string): void {
  for (const f of ['layouts.h5_temp', 'rescued.h5', 'rescued.h5.audit.jsonl', 'rescued.h5.audit.txt', 'campaign.yaml', 'incident.json', 'out/rescue']) {
    fs.rmSync(path.join(cwd, f), { recursive: true, force: true });
  }
  const r = spawnSync(PYTHON, [path.join(cwd, 'examples', 'rescue', 'make_incident_folder.py'), cwd], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`examples/rescue/make_incident_folder.py failed: ${r.stderr}`);
}
