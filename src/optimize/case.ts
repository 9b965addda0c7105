/** A layout-optimization problem (and an AEP evaluation): what optimize/ works on, what io/ reads. */
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import type { FarmModelSpec } from '../physics/farmModel.js';
import type { Boundary } from '../geometry/boundary.js';

/** A layout: turbine positions in metres. x[i], y[i] is turbine i. */
export interface Layout {
  x: Float64Array;
  y: Float64Array;
}

/**
 * Everything that defines a layout-optimization problem (and an AEP evaluation):
 * turbine, wind, site boundary, turbine count, spacing, and the farm model.
 */
export interface Case {
  name: string;
  turbine: Turbine;
  wind: WindResource;
  /** null: unconstrained site (AEP evaluation only). */
  boundary: Boundary | null;
  nTurbines: number;
  /** Minimum distance between any two turbines, metres (default 2 rotor diameters). */
  minSpacing: number;
  model: FarmModelSpec;
  /** Baseline layout, when the case has one. */
  layout: Layout | null;
  /** Reference AEP of the baseline layout in MWh, when published. */
  referenceAepMwh?: number;
  /** File names an IEA37-shaped result file should reference for the turbine and the wind rose. */
  refs?: { turbine: string; wind: string };
}
