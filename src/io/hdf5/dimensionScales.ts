/**
 * HDF5 dimension scales of `layouts.h5`, so netCDF-4 readers see named dimensions: xarray's
 * `open_dataset("layouts.h5", engine="h5netcdf")` gives every column on the `task` dimension and
 * `/layout`, `/initial_layout` on (task, turbine, coordinate), with the columns' `units`.
 *
 *   /task        fixed-length ASCII string[N] (the task ids again, so `ds.sel(task="farm_0_type_1_seed_2")`)
 *   /turbine     int32[Tmax]  turbine index 0 … Tmax−1 within a layout
 *   /coordinate  1-byte ASCII string[2]: "x", "y" (metres east and north)
 *
 * Each is a dimension scale (HDF5 Dimension Scales API, h5wasm's make_scale/attach_scale) attached
 * to the matching axis of every column; `_Encoding = "ascii"` makes xarray give the strings as
 * text. Every column the file has (the schema's and the /metrics ones) is attached along its first
 * axis, so a column added to the schema is on the `task` dimension too.
 */
import type { H5File } from './h5wasmRuntime.js';
import { TASK_ID_WIDTH, type ColumnSpec } from './layoutsSchema.js';

export const TASK_SCALE = 'task';
export const TURBINE_SCALE = 'turbine';
export const COORDINATE_SCALE = 'coordinate';
/** Datasets that are dimension scales, not columns (readers of rows skip them). */
export const DIMENSION_SCALE_NAMES: readonly string[] = [TASK_SCALE, TURBINE_SCALE, COORDINATE_SCALE];

type Dataset = ReturnType<H5File['create_dataset']>;

/** Create the three scales (the task scale empty, appended with the rows) and attach them to every column. */
export function createDimensionScales(file: H5File, tmax: number, chunkRows: number, columns: readonly ColumnSpec[]): void {
  const task = file.create_dataset({ name: TASK_SCALE, data: [], shape: [0], maxshape: [null], chunks: [chunkRows], dtype: `A${TASK_ID_WIDTH}` });
  task.create_attribute('description', 'task id of each row (the same as /task_id): the task dimension');
  task.create_attribute('_Encoding', 'ascii');
  task.make_scale(TASK_SCALE);
  const turbine = file.create_dataset({ name: TURBINE_SCALE, data: Int32Array.from({ length: tmax }, (_, i) => i), shape: [tmax], dtype: '<i' });
  turbine.create_attribute('description', 'turbine index within a layout (rows with fewer turbines are NaN past n_turbines)');
  turbine.make_scale(TURBINE_SCALE);
  const coordinate = file.create_dataset({ name: COORDINATE_SCALE, data: ['x', 'y'], shape: [2], dtype: 'A1' });
  coordinate.create_attribute('description', 'x: metres east, y: metres north');
  coordinate.create_attribute('_Encoding', 'ascii');
  coordinate.make_scale(COORDINATE_SCALE);
  for (const spec of columns) {
    const column = file.get(spec.name) as Dataset;
    column.attach_scale(0, `/${TASK_SCALE}`);
    if (spec.kind === 'xy') {
      column.attach_scale(1, `/${TURBINE_SCALE}`);
      column.attach_scale(2, `/${COORDINATE_SCALE}`);
    }
  }
}

/** Append the task ids of rows [start, end) to the task scale. */
export function appendTaskScale(file: H5File, start: number, end: number, taskIds: string[]): void {
  const task = file.get(TASK_SCALE) as Dataset;
  task.resize([end]);
  task.write_slice([[start, end]], taskIds);
}
