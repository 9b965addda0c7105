/**
 * The seam between a farm design and its economics: what an economic model (cost/dtuOffshore.ts,
 * the DTU offshore wind cost model) needs of a design, and what it returns — NPV, IRR, LCOE, the
 * cost breakdown, and the exact partials of LCOE and NPV with respect to every input that the
 * layout moves (each turbine's AEP, each turbine's water depth, the collection-system cost), so an
 * optimizer chains them with the AEP gradient (physics/), the cable-cost gradient
 * (geometry/collection/cableCostGradient.ts) and the bathymetry gradient (geometry/bathymetry.ts).
 *
 * Layer `cost` sits after geometry and before optimize: it knows money and years, not wakes.
 */

/** One farm design, per turbine i (arrays of the farm's turbine count). */
export interface FarmDesign {
  /** Rated electrical power, MW. */
  ratedPowerMW: Float64Array;
  /** Rotor diameter, m. */
  rotorDiameter: Float64Array;
  /** Hub height above the sea surface, m. */
  hubHeight: Float64Array;
  /** Rotor speed at rated power, rpm (the DTU model's drivetrain and nacelle costs use it). */
  ratedRpm: Float64Array;
  /** Water depth at the turbine, m (positive down). */
  waterDepth: Float64Array;
  /** Net annual energy production of the turbine, MWh per year. */
  aepMWh: Float64Array;
  /** Capital cost of the collection system (cables), in the model's currency. */
  cableCost: number;
}

/** Partials of one figure with respect to the design inputs that move with the layout. */
export interface DesignPartials {
  aepMWh: Float64Array;
  waterDepth: Float64Array;
  cableCost: number;
}

export interface EconomicResult {
  /** Net present value, currency. */
  npv: number;
  /** Internal rate of return (fraction per year; NaN when the cash flows have none). */
  irr: number;
  /** Levelized cost of energy, currency per MWh. */
  lcoe: number;
  /** Named cost items (capital items in currency; yearly items per year), for reports. */
  breakdown: Record<string, number>;
  /** ∂LCOE/∂input and ∂NPV/∂input (present when asked for). */
  dLcoe?: DesignPartials;
  dNpv?: DesignPartials;
}

export interface EconomicModel {
  readonly name: string;
  /** ISO 4217 code of the money every figure is in (cost/currency.ts formats it: €/MWh, M€). */
  readonly currency: string;
  /** The figures of one design; with `withGradient`, dLcoe and dNpv too. */
  evaluate(design: FarmDesign, withGradient: boolean): EconomicResult;
}

/** Water depth over the site (geometry/bathymetry.ts: a grid, bilinear; or a constant). */
export interface WaterDepthField {
  /** Depth in m (positive down) at (x, y) in the layout's frame; with `grad`, ∂/∂x, ∂/∂y into grad[0], grad[1]. */
  at(x: number, y: number, grad: Float64Array | null): number;
}

/**
 * What a case carries when its objective involves money (Case.economics, filled by io/ from the
 * case file's or campaign farm's cost fields): the model, the water depth, the collection system's
 * substations and cable catalogue (geometry/collection/), and per turbine model the figures the
 * cost model needs beyond the power curve.
 */
export interface CaseEconomics {
  model: EconomicModel;
  depth: WaterDepthField;
  substations: readonly (readonly [number, number])[];
  cables: readonly { name: string; capacity: number; costPerMetre: number }[];
  /** Per turbine model (the case's types in order; one entry for a one-model farm): rated rotor speed, rpm. */
  ratedRpmByType: readonly number[];
}

/** What a layout optimization minimizes or maximizes. */
export type ObjectiveName = 'aep' | 'lcoe' | 'npv';
