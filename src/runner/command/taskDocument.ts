/**
 * The task document a command task's program receives (schemas/task.v1.json), and the wind file
 * it references (schemas/wind.v1.json). Everything in metres, watts, m/s, degrees; names in
 * snake_case. The wind resource is written once per farm per machine, into a file named by its
 * content hash, and the task document names that file: a 360 × 23 rose is about 200 kB of JSON
 * once, while every task document stays a few kB.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FarmSpec, FarmTypeSpec } from '../../campaign/campaign.js';
import { hashText } from '../../campaign/specHash.js';
import type { Params } from '../../campaign/paramsSchema.js';
import type { Boundary } from '../../geometry/boundary.js';
import type { Turbine } from '../../physics/turbine.js';
import type { WindResource } from '../../physics/windResource.js';
import { TASK_PROTOCOL, WIND_PROTOCOL } from './protocol.js';
import { farmWind } from '../../campaign/farmWind.js';
import { siteDocument as siteFieldsDocument } from '../../io/siteFields.js';

/** Where a task's document points: the attempt's scratch folder and, in per-task mode, the result file. */
export interface TaskPlaces {
  scratchDir: string;
  resultFile: string | null;
  windFile: string;
}

export interface TaskIdentity {
  taskId: string;
  seed: number;
  attempt: number;
  timeoutS: number;
  /** When the attempt started (ms since the epoch). */
  startedAtMs: number;
}

const arr = (a: ArrayLike<number>): number[] => Array.from(a);

function siteDocument(b: Boundary): Record<string, unknown> {
  const exclusions = (b.exclusions ?? []).map((z) => ({ name: z.name, vertices: z.vertices }));
  if (b.kind === 'circle') return { kind: 'circle', center: b.center, radius: b.radius, exclusions };
  if (b.kind === 'polygon') return { kind: 'polygon', vertices: b.vertices, exclusions };
  return { kind: 'multipolygon', polygons: b.polygons, exclusions };
}

function turbineDocument(t: Turbine): Record<string, unknown> {
  const p = t.power,
    c = t.thrust;
  return {
    name: t.name,
    diameter_m: t.diameter,
    hub_height_m: t.hubHeight,
    rated_power_w: t.ratedPowerW,
    cut_in_ms: t.cutIn,
    cut_out_ms: t.cutOut,
    power_at_cut_out: t.cutOutInclusive === true,
    power: p.kind === 'cubic' ? { kind: 'cubic', rated_speed_ms: p.ratedSpeed } : { kind: 'table', speeds_ms: arr(p.speeds), power_w: arr(p.powerW) },
    ct:
      c.kind === 'constant' ? { kind: 'constant', value: c.ct } : { kind: 'table', speeds_ms: arr(c.speeds), values: arr(c.ct), outside: c.outside ?? 'clamp' },
  };
}

const snake = (k: string): string => k.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

function wakeModelDocument(f: FarmSpec): Record<string, unknown> {
  // A site that is not uniform travels as `site_fields` (the task document's own key), not as a model option.
  const { wake, site: _site, ...rest } = f.model;
  const out: Record<string, unknown> = { name: wake };
  for (const [k, v] of Object.entries(rest)) if (v !== undefined) out[snake(k)] = v;
  return out;
}

/** The wind file's content (schemas/wind.v1.json): bins as rows of directions × speeds. */
export function windDocument(w: WindResource, asWritten: FarmSpec['windAsWritten']): Record<string, unknown> {
  const nd = w.directionsDeg.length,
    ns = w.speeds.length;
  const probability: number[][] = [];
  for (let d = 0; d < nd; d++) probability.push(arr(w.probability.subarray(d * ns, (d + 1) * ns)));
  return {
    protocol: WIND_PROTOCOL,
    directions_deg: arr(w.directionsDeg),
    speeds_ms: arr(w.speeds),
    probability,
    turbulence_intensity: w.turbulenceIntensity,
    hours_per_year: w.hoursPerYear ?? 8760,
    as_written: asWritten ?? null,
  };
}

const windFiles = new Map<string, string>();

/**
 * The farm's wind file under `folder` (written once, atomically, named by a hash of its content:
 * the farm's spec hash covers the wind, plus the wind as written; a file already there with that
 * name has that content).
 */
export function windFileFor(f: FarmSpec, folder: string): string {
  const key = hashText(`${f.hash}|${JSON.stringify(f.windAsWritten ?? null)}`);
  const file = path.join(folder, `wind-${key}.json`);
  if (windFiles.get(key) === file) return file;
  if (!fs.existsSync(file)) {
    fs.mkdirSync(folder, { recursive: true });
    const tmp = `${file}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, JSON.stringify(windDocument(farmWind(f), f.windAsWritten)));
    fs.renameSync(tmp, file);
  }
  windFiles.set(key, file);
  return file;
}

/** Campaign, farm and farm type params merged (the farm type's win, then the farm's). */
export function mergedParams(campaign: Params, farm: FarmSpec, type: FarmTypeSpec): Params {
  return { ...campaign, ...(farm.params ?? {}), ...(type.params ?? {}) };
}

/** The task document (schemas/task.v1.json). */
export function taskDocument(t: TaskIdentity, farm: FarmSpec, type: FarmTypeSpec, params: Params, places: TaskPlaces): Record<string, unknown> {
  const w = farmWind(farm);
  return {
    protocol: TASK_PROTOCOL,
    task_id: t.taskId,
    farm_id: farm.id,
    farm_type: type.id,
    seed: t.seed,
    attempt: t.attempt,
    timeout_s: t.timeoutS,
    deadline_unix_s: Math.round(t.startedAtMs + t.timeoutS * 1000) / 1000,
    n_turbines: type.nTurbines,
    min_spacing_m: type.minSpacingM,
    site: siteDocument(farm.boundary),
    ...(farm.model.site ? { site_fields: siteFieldsDocument(farm.model.site) } : {}),
    wind: { file: places.windFile, n_directions: w.directionsDeg.length, n_speeds: w.speeds.length },
    turbine: turbineDocument(type.turbine),
    wake_model: wakeModelDocument(farm),
    params,
    scratch_dir: places.scratchDir,
    ...(places.resultFile !== null ? { result_file: places.resultFile } : {}),
  };
}
