/**
 * A layout-optimization problem (and an AEP evaluation): what optimize/ works on, what io/ reads.
 * Its own layer, below both (CONTRIBUTING.md "Layers"), so that a reader of files does not reach
 * into the optimizers for the type it fills.
 */
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import type { FarmModelSpec } from '../physics/farmModel.js';
import type { Boundary } from '../geometry/boundary.js';
import type { DirectionTreatment } from '../physics/directionTreatment.js';
import type { CaseEconomics, ObjectiveName } from '../cost/economicModel.js';

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
  /**
   * Several turbine models in the farm (absent: every turbine is `turbine`). `turbine` is then
   * the model of turbine 0 and `minSpacing` the largest type's spacing (what starting layouts keep).
   */
  turbines?: CaseTurbines;
  /** Fixed turbines of neighbouring farms: they wake the farm, are never moved, are not its AEP. */
  neighbours?: CaseNeighbours;
  /**
   * How the rose's directions are treated (caseDirections.ts); absent: its bins as listed. When
   * present, `wind` is the treated wind (what every AEP of the case is computed on) and
   * `listedWind` the rose as listed; `binOf` maps each treated direction to its listed bin.
   */
  directions?: { treatment: DirectionTreatment; listedWind: WindResource; binOf: Int32Array };
  /** What the optimizer minimizes or maximizes (default 'aep'; 'lcoe' and 'npv' need `economics`: optimize/economicObjective.ts). */
  objective?: ObjectiveName;
  /** Cost-model inputs (case file's or campaign farm's `economics:`, io/costFields.ts); absent: no economics. */
  economics?: CaseEconomics;
  /** The hub height as a design variable within [min, max] m (case file's `optimize: {hub_height: …}`; optimize/hubHeight.ts); absent: fixed. */
  hubHeightRange?: { min: number; max: number };
}

/** The turbine models of a farm with several types (mixed farm). */
export interface CaseTurbines {
  /** The models, in the order the farm type lists them. */
  types: Turbine[];
  /** Minimum spacing of each model in metres; a pair keeps the larger of its two (geometry/pairSpacing.ts). */
  minSpacingByType: Float64Array;
  /** Model of every turbine (index into `types`): fixed, or with `choice` the assignment the optimizer starts from. */
  typeOf: Int32Array;
  /** True when the optimizer chooses every turbine's model among `types` (optimize/typeChoice.ts). */
  choice: boolean;
}

/** Turbines of neighbouring farms, fixed. */
export interface CaseNeighbours {
  x: Float64Array;
  y: Float64Array;
  /** Their models, and each neighbour's model (index into `types`). */
  types: Turbine[];
  typeOf: Int32Array;
}
