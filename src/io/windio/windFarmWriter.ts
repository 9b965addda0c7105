/**
 * `wflo export --windio`: one optimized layout of a `layouts.h5` file written as a windIO
 * `wind_farm` YAML (name, layouts.initial_layout.coordinates {x, y}, turbines).
 *
 * windIO's wind_farm schema knows only `initial_layout`, so the optimized layout goes there; a
 * comment block on top says where it came from (file, task, AEP). The turbine is the farm
 * type's definition from the file's `/types/<id>` group, in windIO's turbine shape: the IEA37
 * cubic curve as rated_power + rated_wind_speed + cut-in/out, a tabulated curve as
 * `power_curve`, a constant Ct as the two-point `Ct_curve` [cut-in, cut-out] → [Ct, Ct] (wflo
 * clamps a Ct table at its ends, so it reads back as the same constant). Numbers are written
 * with JavaScript's shortest round-trip form, so reading the file back gives the same doubles.
 * The file is written atomically.
 */
import fs from 'node:fs';
import type { Turbine } from '../../physics/turbine.js';
import { InputError } from '../../util/errors.js';
import { writeFileAtomic } from '../atomicWrite.js';
import type { LayoutRecord } from '../layoutRecord.js';
import { LayoutsFileReader } from '../hdf5/layoutsReader.js';

export interface WindioExportResult {
  file: string;
  taskId: string;
  aepMwh: number;
  nTurbines: number;
}

const list = (values: ArrayLike<number>): string => `[${Array.from(values, (v) => String(v)).join(', ')}]`;
const quote = (s: string): string => JSON.stringify(s);

/** A Turbine as stored in a layouts file's /types json (typed arrays became plain arrays). */
type StoredTurbine = Omit<Turbine, 'power' | 'thrust'> & {
  power: { kind: 'cubic'; ratedSpeed: number } | { kind: 'table'; speeds: number[]; powerW: number[] };
  thrust: { kind: 'constant'; ct: number } | { kind: 'table'; speeds: number[]; ct: number[] };
};

function isStoredTurbine(t: unknown): t is StoredTurbine {
  const o = t as Record<string, unknown> | null;
  return (
    !!o &&
    typeof o === 'object' &&
    typeof o.diameter === 'number' &&
    typeof o.hubHeight === 'number' &&
    typeof o.power === 'object' &&
    typeof o.thrust === 'object'
  );
}

export function turbineYaml(t: StoredTurbine, indent: string): string[] {
  const lines = [
    `${indent}name: ${quote(t.name ?? 'turbine')}`,
    `${indent}hub_height: ${t.hubHeight}`,
    `${indent}rotor_diameter: ${t.diameter}`,
    `${indent}performance:`,
    `${indent}  rated_power: ${t.ratedPowerW}`,
    `${indent}  cutin_wind_speed: ${t.cutIn}`,
    `${indent}  cutout_wind_speed: ${t.cutOut}`,
  ];
  if (t.power.kind === 'cubic') lines.push(`${indent}  rated_wind_speed: ${t.power.ratedSpeed}`);
  else {
    lines.push(`${indent}  power_curve:`, `${indent}    power_wind_speeds: ${list(t.power.speeds)}`, `${indent}    power_values: ${list(t.power.powerW)}`);
  }
  const ct =
    t.thrust.kind === 'constant' ? { speeds: [t.cutIn, t.cutOut], values: [t.thrust.ct, t.thrust.ct] } : { speeds: t.thrust.speeds, values: t.thrust.ct };
  lines.push(`${indent}  Ct_curve:`, `${indent}    Ct_wind_speeds: ${list(ct.speeds)}`, `${indent}    Ct_values: ${list(ct.values)}`);
  return lines;
}

export function windFarmYaml(record: LayoutRecord, turbine: StoredTurbine, source: { file: string; campaignName: string }): string {
  const lines = [
    `# windIO wind_farm written by wflo export --windio`,
    `# from ${source.file}${source.campaignName ? ` (campaign ${source.campaignName})` : ''}`,
    `# task ${record.taskId}: optimized layout, AEP ${record.aep} MWh (initial ${record.aepInitial} MWh), ${record.nTurbines} turbines`,
    `# windIO's wind_farm schema has only initial_layout: the optimized layout is written there.`,
    `name: ${quote(`${source.campaignName || 'wflo'} ${record.taskId}`)}`,
    'layouts:',
    '  initial_layout:',
    '    coordinates:',
    `      x: ${list(record.x)}`,
    `      y: ${list(record.y)}`,
    'turbines:',
    ...turbineYaml(turbine, '  '),
    '',
  ];
  return lines.join('\n');
}

/**
 * Pick a row of `h5File` (the task `taskId`, or the highest AEP; ties keep the first in file
 * order) and write it to `outFile` as a windIO wind_farm.
 */
export async function exportWindioFarm(h5File: string, outFile: string, taskId?: string): Promise<WindioExportResult> {
  if (!fs.existsSync(h5File)) throw new InputError(`${h5File}: not found (give a campaign output folder or a layouts.h5 file)`);
  const reader = await LayoutsFileReader.open(h5File);
  let chosen: LayoutRecord | null = null;
  let types: Record<string, unknown>;
  let campaignName: string;
  try {
    campaignName = reader.info.campaignName;
    for (const batch of reader.batches()) {
      for (const r of batch) {
        if (taskId !== undefined ? r.taskId === taskId : Number.isFinite(r.aep) && (chosen === null || r.aep > chosen.aep)) chosen = r;
      }
      if (taskId !== undefined && chosen) break;
    }
    types = reader.definitions().types;
  } finally {
    reader.close();
  }
  if (!chosen) {
    throw new InputError(taskId !== undefined ? `${h5File}: --task: no row with task id '${taskId}'` : `${h5File}: no row with a finite AEP to export`);
  }
  const turbine = (types[String(chosen.farmType)] as { turbine?: unknown } | undefined)?.turbine;
  if (!isStoredTurbine(turbine)) {
    throw new InputError(`${h5File}: /types/${chosen.farmType}: no turbine definition, cannot write a windIO wind_farm (it requires turbines)`);
  }
  writeFileAtomic(outFile, windFarmYaml(chosen, turbine, { file: h5File, campaignName }));
  return { file: outFile, taskId: chosen.taskId, aepMwh: chosen.aep, nTurbines: chosen.nTurbines };
}
