/**
 * The schema of wflo's own HDF5 output, `layouts.h5` (format "wflo-layouts", version 5;
 * version 1 files, without /spec_hash and /source, version 2 files, without /aep_reported and
 * /metrics, version 3 files, without /turbine_type, and version 4 files, without /cable_to and
 * /cable_type, are still read).
 * Row-oriented so h5py/numpy users load whole columns; rows sorted by (farm_id, farm_type, seed).
 *
 *   /farm_id        int32[N]
 *   /farm_type      int32[N]
 *   /seed           int64[N]
 *   /task_id        fixed-length ASCII string[N] (64 bytes, NUL-terminated; h5py: `.asstr()[:]`)
 *   /n_turbines     int32[N]
 *   /aep            float64[N]        attr units = "MWh"
 *   /aep_initial    float64[N]        attr units = "MWh"  (NaN when unknown)
 *   /layout         float64[N,Tmax,2] attr units = "m"    ([:, t, 0] = x, [:, t, 1] = y; NaN past n_turbines)
 *   /initial_layout float64[N,Tmax,2] attr units = "m"    (all NaN when unknown)
 *   /iterations     int32[N]          (-1 when unknown)
 *   /evaluations    int64[N]          (-1 when unknown)
 *   /wall_s         float64[N]        attr units = "s" (NaN when unknown)
 *   /attempts       int32[N]          (-1 when unknown)
 *   /spec_hash      fixed-length ASCII string[N] (64 bytes): the task spec the row was computed for ("" when unknown)
 *   /source         fixed-length ASCII string[N] (256 bytes): where the row came from: "computed",
 *                   "adopted:<file>", "recovered:<file>", "shard:<folder>" ("" when unknown)
 *   /aep_reported   float64[N]        attr units = "MWh": the AEP a user's program or an adopted
 *                   file reported, when it is not wflo's (NaN otherwise); /aep is always wflo's
 *   /metrics/<name> float64[N]        named scalars a user's program reported (NaN where a row has none)
 *   /turbine_type   int32[N,Tmax]     each turbine's model: index into its farm type's list of models
 *                   (/types/<id> `turbine_names`); 0 for farm types of one model; -1 past n_turbines
 *   /cable_to       int32[N,Tmax]     farms with economics: each turbine's cable toward its substation, the
 *                   next turbine's index, or -1-s for substation s; CABLE_NONE (-2147483648) past
 *                   n_turbines and in rows without economics
 *   /cable_type     int32[N,Tmax]     that cable's type: index into the farm's economics.cables
 *                   (/farms/<id> json); -1 past n_turbines and in rows without economics
 *   /farms/<id>, /types/<id>          definitions (see definitionGroups.ts)
 * Root attributes: see ROOT_ATTRIBUTES. Every dataset is chunked along rows with an unlimited
 * first dimension, so a writer can append slices without knowing N in advance; Tmax >= 1.
 */

export const LAYOUTS_FORMAT_NAME = 'wflo-layouts';
export const LAYOUTS_FORMAT_VERSION = 5;
/** Format versions this wflo reads. */
export const READABLE_FORMAT_VERSIONS: readonly number[] = [1, 2, 3, 4, 5];
/** /cable_to where there is no cable (past n_turbines, a row without economics): int32's smallest value. */
export const CABLE_NONE = -2147483648;
/** Group of the per-row metrics columns. */
export const METRICS_GROUP = 'metrics';
/** Bytes reserved per task id (NUL-terminated, so at most 63 characters). */
export const TASK_ID_WIDTH = 64;
/** Bytes reserved per /source entry; longer sources keep their last 255 characters. */
export const SOURCE_WIDTH = 256;

/** `xy`: float64[N, Tmax, 2]; `per-turbine`: int32[N, Tmax]; the others one value per row. */
export type ColumnKind = 'int32' | 'int64' | 'float64' | 'text' | 'xy' | 'per-turbine';

export interface ColumnSpec {
  /** Dataset name at the file root. */
  name: string;
  kind: ColumnKind;
  /** Bytes per entry of a 'text' column (fixed-length, NUL-terminated). */
  width?: number;
  units?: string;
  description: string;
  /** Format version that added the column (absent in older files: read as ""). */
  since?: number;
}

export const LAYOUT_COLUMNS: readonly ColumnSpec[] = [
  { name: 'farm_id', kind: 'int32', description: 'farm index' },
  { name: 'farm_type', kind: 'int32', description: 'farm type (turbine model and count) index' },
  { name: 'seed', kind: 'int64', description: 'optimizer seed' },
  { name: 'task_id', kind: 'text', width: TASK_ID_WIDTH, description: 'farm_<f>_type_<t>_seed_<s>' },
  { name: 'n_turbines', kind: 'int32', description: 'number of turbines in the layout' },
  { name: 'aep', kind: 'float64', units: 'MWh', description: 'annual energy production of the optimized layout' },
  { name: 'aep_initial', kind: 'float64', units: 'MWh', description: 'annual energy production of the initial layout (NaN when unknown)' },
  { name: 'layout', kind: 'xy', units: 'm', description: 'optimized turbine positions [row, turbine, (x, y)], NaN past n_turbines' },
  { name: 'initial_layout', kind: 'xy', units: 'm', description: 'initial turbine positions [row, turbine, (x, y)], NaN when unknown' },
  { name: 'iterations', kind: 'int32', description: 'optimizer iterations (-1 when unknown)' },
  { name: 'evaluations', kind: 'int64', description: 'AEP evaluations (-1 when unknown)' },
  { name: 'wall_s', kind: 'float64', units: 's', description: 'wall time of the optimization (NaN when unknown)' },
  { name: 'attempts', kind: 'int32', description: 'attempts the runner made for the task (-1 when unknown)' },
  { name: 'spec_hash', kind: 'text', width: TASK_ID_WIDTH, description: 'spec hash of the task the row was computed for ("" when unknown)', since: 2 },
  {
    name: 'source',
    kind: 'text',
    width: SOURCE_WIDTH,
    description: 'where the row came from: computed, adopted:<file>, recovered:<file>, shard:<folder>',
    since: 2,
  },
  {
    name: 'aep_reported',
    kind: 'float64',
    units: 'MWh',
    description: "AEP the producer reported when it is not wflo's (a user's program, an adopted file); NaN otherwise",
    since: 3,
  },
  {
    name: 'turbine_type',
    kind: 'per-turbine',
    description: "each turbine's model: index into its farm type's models (/types/<id> turbine_names); 0 for one model; -1 past n_turbines",
    since: 4,
  },
  {
    name: 'cable_to',
    kind: 'per-turbine',
    description:
      "farms with economics: each turbine's cable toward its substation: the next turbine's index, or -1-s for substation s; -2147483648 past n_turbines and in rows without economics",
    since: 5,
  },
  {
    name: 'cable_type',
    kind: 'per-turbine',
    description: "the cable type of each turbine's edge: index into the farm's economics.cables; -1 past n_turbines and in rows without economics",
    since: 5,
  },
];

/** The dataset shape of a column with `rows` rows. */
export function shapeOf(spec: ColumnSpec, rows: number | null, tmax: number): (number | null)[] {
  return spec.kind === 'xy' ? [rows, tmax, 2] : spec.kind === 'per-turbine' ? [rows, tmax] : [rows];
}

/** The h5wasm slice ranges of rows [start, end) of a column. */
export function rowRanges(spec: ColumnSpec, start: number, end: number): [number, number][] {
  const rows: [number, number] = [start, end];
  return (spec.kind === 'xy' ? [rows, [], []] : spec.kind === 'per-turbine' ? [rows, []] : [rows]) as [number, number][];
}

/** The column of metric `name` (a plain identifier, checked by the gate). */
export function metricColumn(name: string): ColumnSpec {
  return {
    name: `${METRICS_GROUP}/${name}`,
    kind: 'float64',
    description: `metric ${name} reported by the task's program (NaN where a row has none)`,
    since: 3,
  };
}

/** Every column of a file with these metrics: the standard ones, then /metrics/<name> in name order. */
export function columnsWith(metricNames: readonly string[]): ColumnSpec[] {
  return [...LAYOUT_COLUMNS, ...[...metricNames].sort().map(metricColumn)];
}

/** The metric name of a /metrics column, or null for a standard column. */
export function metricNameOf(spec: ColumnSpec): string | null {
  return spec.name.startsWith(`${METRICS_GROUP}/`) ? spec.name.slice(METRICS_GROUP.length + 1) : null;
}

/** h5wasm dtype string of a column (struct-module letters: 'i' = int32, 'q' = int64, 'd' = float64, 'A<n>' = fixed string). */
export function h5DtypeOf(spec: ColumnSpec): string {
  switch (spec.kind) {
    case 'int32':
    case 'per-turbine':
      return '<i';
    case 'int64':
      return '<q';
    case 'text':
      return `A${spec.width ?? TASK_ID_WIDTH}`;
    default:
      return '<d';
  }
}

/** Root attribute names and what they hold. */
export const ROOT_ATTRIBUTES = {
  format: 'format', // string "wflo-layouts"
  formatVersion: 'format_version', // int64
  campaignName: 'campaign_name', // string
  campaignHash: 'campaign_hash', // string
  wfloVersion: 'wflo_version', // string
  created: 'created', // string, ISO 8601 UTC
  nExpected: 'n_expected', // int64, -1 when unknown
  nDone: 'n_done', // int64, equals N
  complete: 'complete', // int8, 1 when every expected task is in the file
  maxTurbines: 'max_turbines', // int64, Tmax
  source: 'source', // string, which wflo command wrote the file
} as const;

export const FARMS_GROUP = 'farms';
export const TYPES_GROUP = 'types';
