/**
 * Plausibility bounds of the economics inputs: the one table the `economics:` readers
 * (io/costFields.ts: case files, campaign farms, queue payloads) refuse values outside of, like
 * any other bad field (one line: file, line, field, the value, the bound; exit 2). docs/cost.md
 * ("Plausibility bounds") states the same table. Each bound is wide of every farm built or
 * planned, so it never refuses a real project, and narrow enough that a unit slip (€/kWh, m for
 * km, months for years) or a stray exponent (1e308, which made the NPV Infinity) lands outside.
 *
 * The DTU model's figures are finite for every input inside the table: its largest term is the
 * monopile's 40·d² per MW (d ≤ 1000 m: 4·10⁷ € per MW), the export cable 1.4·10⁶ € per km
 * (≤ 1.4·10⁹ €), and revenue ≤ 1000 €/MWh × the farm's AEP.
 */

export interface EconomicsBound {
  /** The field of the `economics:` block. */
  field: string;
  min: number;
  max: number;
  /** Whether `min` itself is refused (a price of 0 is allowed, a rotor speed of 0 is not). */
  minExclusive?: boolean;
  unit: string;
  /** Why these bounds, one line (the docs' table says the same). */
  why: string;
  /** The likely slip, a few words, for the message. */
  hint: string;
}

export const ECONOMICS_BOUNDS = {
  energyPrice: {
    hint: '€ per MWh expected, not € per GWh',
    field: 'energy_price_eur_per_mwh',
    min: 0,
    max: 1000,
    unit: '€ per MWh',
    why: 'yearly wholesale averages peaked near 250–300 €/MWh (2022); a project sells at a long-run price, 1000 is 3× the worst year; € per GWh typed as € per MWh lands outside',
  },
  discountRate: {
    hint: 'a fraction per year, 0.06 for 6 %',
    field: 'discount_rate',
    min: -0.1,
    max: 0.5,
    unit: 'per year (fraction)',
    why: 'offshore wind is financed at 3–12 % a year; real rates have been at most a few percent below zero',
  },
  projectYears: {
    hint: 'whole years, not months',
    field: 'project_years',
    min: 1,
    max: 60,
    unit: 'years',
    why: 'turbines and monopiles are designed for 20–30 years, extended to 35–40; months typed as years land outside',
  },
  distanceFromShore: {
    hint: 'km expected, not m',
    field: 'distance_from_shore_km',
    min: 0,
    max: 1000,
    unit: 'km',
    why: 'the farthest farms built or planned are 100–300 km from shore; metres typed as km (22000 for 22) land outside',
  },
  waterDepth: {
    hint: 'm expected, positive down, not cm or mm',
    field: 'water_depth_m',
    min: 0,
    max: 1000,
    unit: 'm',
    why: "monopiles (the model's foundation) stand in up to ~70 m, floating farms in up to ~300 m; centimetres or millimetres land outside",
  },
  substationReach: {
    hint: 'metres in the frame of the site, not km',
    field: 'substations',
    min: 0,
    max: 100_000,
    unit: 'm from the site',
    why: 'array cables run from the turbines to a substation inside or beside the farm (the link to shore is distance_from_shore_km); km typed as m, or another coordinate frame, lands outside',
  },
  cableCost: {
    hint: '€ per metre expected, not per km',
    field: 'cables[].cost_per_m',
    min: 0,
    max: 10_000,
    minExclusive: true,
    unit: '€ per m',
    why: 'array cables cost ~200–1000 €/m laid, HVDC export cables ~2000–3000 €/m; € per km lands outside',
  },
  ratedRpm: {
    hint: 'rpm expected, not rad/s',
    field: 'rated_rpm',
    min: 1,
    max: 1000,
    unit: 'rpm',
    why: 'the largest rotors (~280 m) are rated at ~7 rpm, kW-class rotors at a few hundred; rad/s of a large rotor (< 1) lands outside',
  },
} as const satisfies Record<string, EconomicsBound>;

/** The one message for a value above or below `b` (the reader appends ", got VALUE"). */
export function boundMessage(b: EconomicsBound): string {
  const low = b.minExclusive ? `> ${b.min}` : `>= ${b.min}`;
  return `must be ${low} and <= ${b.max} ${b.unit}, the plausibility bound (docs/cost.md: ${b.hint})`;
}

/** Why `value` is outside `b`, naming the value and the bound, or null. */
export function outsideBound(b: EconomicsBound, value: number): string | null {
  const ok = Number.isFinite(value) && (b.minExclusive ? value > b.min : value >= b.min) && value <= b.max;
  return ok ? null : `${boundMessage(b)}, got ${value}`;
}

/**
 * Most turbines a farm with economics may have. Pricing a layout routes its collection system
 * (geometry/collection: Esau–Williams starts and iterated local search), whose time grows about
 * as n^2.4: one routing took 3.9 s at 100 turbines, 6.3 s at 300, 23.5 s at 1000 and 128 s at
 * 2000 (a jittered 600 m grid, two cable types, 2 shared cores; docs/cost.md). An LCOE or NPV
 * optimization routes at every stage and once more at the end: `wflo optimize --objective lcoe
 * --method gradient --max-iterations 5` took 10.6 s at 100 turbines, 19 s at 300, 672 s at 1000.
 * Beyond 2000 a single routing is estimated at minutes to hours (10⁶ turbines: years), so the
 * count is refused when the input is read rather than left to run silently.
 */
export const MAX_PRICED_TURBINES = 2000;

/** Estimated seconds of one collection-system routing of `n` turbines (the fit above: 23.5 s × (n/1000)^2.4). */
export function routingSecondsEstimate(n: number): number {
  return 23.5 * (n / 1000) ** 2.4;
}

function duration(seconds: number): string {
  if (seconds < 120) return `${Math.round(seconds)} s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`;
  if (seconds < 2 * 86400) return `${Math.round(seconds / 3600)} h`;
  if (seconds < 2 * 365 * 86400) return `${Math.round(seconds / 86400)} days`;
  return `${Math.round(seconds / (365 * 86400))} years`;
}

/** Why `n` turbines cannot be priced in stated time, with the estimate, or null. */
export function pricedTurbinesProblem(n: number): string | null {
  if (n <= MAX_PRICED_TURBINES) return null;
  return (
    `${n} turbines with economics, over the limit of ${MAX_PRICED_TURBINES}: pricing a layout routes its cables, ` +
    `estimated at ${duration(routingSecondsEstimate(n))} per routing for ${n} turbines (128 s measured at 2000; it grows as n^2.4; docs/cost.md), ` +
    'and an LCOE optimization routes at every stage; split the farm, or drop its economics'
  );
}
