/**
 * The `economics:` block of a case file and of a campaign farm: the cost model's inputs, with
 * their units in the field names, as one zod shape and one resolver (like io/farmModelFields.ts):
 *
 *   economics:
 *     model: dtu_offshore              # optional; the only model (cost/dtuOffshore.ts)
 *     energy_price_eur_per_mwh: 60
 *     discount_rate: 0.06              # per year, fraction (default 0.0909870634, TOPFARM's)
 *     project_years: 25                # whole years energy is sold
 *     distance_from_shore_km: 30
 *     water_depth_m: 25                # or bathymetry: depth.csv (x,y,depth grid; io/bathymetryFile.ts)
 *     substations: [[0, 0]]            # metres, the layout's frame
 *     cables: [{name: xlpe-240, capacity: 4, cost_per_m: 300}, {name: xlpe-630, capacity: 8, cost_per_m: 500}]
 *     rated_rpm: 12                    # rotor speed at rated power, every model; or {iea37-3.35mw: 12, v80: 16.7}
 *
 * Two steps, because a campaign farm's economics meet its farm types' turbines only per task:
 * `resolveEconomicsSpec` checks the block and reads the bathymetry into plain data (EconomicsSpec:
 * JSON-safe, hashed with the farm, sent to workers), `economicsForTurbines` makes the CaseEconomics
 * of one list of turbine models (rated rpm by model). `resolveEconomics` does both for a case file.
 * A grid that does not cover the site is refused here (`siteOutsideGrid`). Every problem is one line
 * at the field (`file:line: economics.field: what is wrong`).
 */
import path from 'node:path';
import { z } from 'zod';
import type { Turbine } from '../physics/turbine.js';
import { BathymetryGrid, ConstantDepth } from '../geometry/bathymetry.js';
import type { Boundary } from '../geometry/boundary.js';
import { boundingBox } from '../geometry/boundingBox.js';
import type { CaseEconomics } from '../cost/economicModel.js';
import { DtuOffshoreModel } from '../cost/dtuOffshore.js';
import { InputError } from '../util/errors.js';
import { boundMessage, ECONOMICS_BOUNDS, outsideBound, type EconomicsBound } from '../cost/plausibility.js';
import { strict } from './zodIssue.js';
import { readBathymetryCsv } from './bathymetryFile.js';
import { outsideFolderProblem } from './fileDoor.js';
import { nearestKey } from './didYouMean.js';
import type { FieldPath } from './sourceMap.js';
import type { FailAt } from './farmTurbines.js';
import { siteBoxOf } from './neighbourLimits.js';

const B = ECONOMICS_BOUNDS;
/**
 * A number within the plausibility bound `b` (cost/plausibility.ts), refused with the bound
 * named; `low`, the older message for a value below the field's hard floor (a negative depth),
 * checked first.
 */
function bounded(b: EconomicsBound, expected: string, low?: { gt?: number; min?: number; message: string }) {
  let n = z.number({ error: expected });
  if (low?.gt !== undefined) n = n.gt(low.gt, { error: low.message });
  if (low?.min !== undefined) n = n.min(low.min, { error: low.message });
  return (b.minExclusive ? n.gt(b.min, { error: boundMessage(b) }) : n.min(b.min, { error: boundMessage(b) })).max(b.max, { error: boundMessage(b) });
}
const rpm = bounded(B.ratedRpm, 'expected a rotor speed in rpm', { gt: 0, message: 'must be a number > 0' });

export const economicsSchema = strict({
  model: z.literal('dtu_offshore').optional(), // the one model there is (cost/dtuOffshore.ts)
  energy_price_eur_per_mwh: bounded(B.energyPrice, 'expected a number (€ per MWh)'),
  discount_rate: z
    .number()
    .gt(-1, { error: 'must be a fraction per year > -1 (0.06 for 6 %)' })
    .lt(1, { error: 'must be a fraction per year (0.06 for 6 %), not a percentage' })
    .min(B.discountRate.min, { error: boundMessage(B.discountRate) })
    .max(B.discountRate.max, { error: boundMessage(B.discountRate) })
    .optional(),
  project_years: z
    .int({ error: 'expected a whole number of years' })
    .min(1, { error: 'must be a whole number of years >= 1' })
    .max(B.projectYears.max, { error: boundMessage(B.projectYears) }),
  distance_from_shore_km: bounded(B.distanceFromShore, 'expected a distance in km', { min: 0, message: 'must be a distance in km >= 0' }),
  water_depth_m: bounded(B.waterDepth, 'expected a depth in metres (positive down)', {
    min: 0,
    message: 'must be a depth in metres >= 0 (positive down)',
  }).optional(),
  bathymetry: z.string().min(1).optional(),
  substations: z
    .array(z.tuple([z.number().finite(), z.number().finite()], { error: 'expected [x, y] in metres' }))
    .min(1, { error: 'must list at least one substation [x, y]' }),
  cables: z
    .array(
      strict({
        name: z.string().min(1),
        capacity: z.int({ error: 'expected a whole number of turbines' }).min(1, { error: 'must be a whole number of turbines >= 1' }),
        cost_per_m: bounded(B.cableCost, 'expected a cost in € per metre', { gt: 0, message: 'must be a number > 0' }),
      }),
    )
    .min(1, { error: 'must list at least one cable type {name, capacity, cost_per_m}' }),
  rated_rpm: z.union([rpm, z.record(z.string(), rpm)], { error: 'expected a rotor speed in rpm, or a mapping turbine name → rpm' }),
});

export type EconomicsFields = z.infer<typeof economicsSchema>;

/** The economics of a case or farm as plain data (JSON-safe: hashed with a campaign farm, sent to workers). */
export interface EconomicsSpec {
  model: 'dtu_offshore';
  energyPriceEurPerMWh: number;
  discountRate?: number;
  projectYears: number;
  distanceFromShoreKm: number;
  depth: { constantM: number } | { grid: { x0: number; dx: number; nx: number; y0: number; dy: number; ny: number; depth: number[] }; file: string };
  substations: [number, number][];
  cables: { name: string; capacity: number; costPerMetre: number }[];
  ratedRpm: number | Record<string, number>;
}

const finiteNumber = z.number().finite(),
  wholeNumber = z.number().int().finite();
/** A number within `b`, for data that travels (no message: a payload outside is refused as a whole). */
const within = (b: EconomicsBound) => (b.minExclusive ? finiteNumber.gt(b.min) : finiteNumber.min(b.min)).max(b.max);
/**
 * The resolved block as data travels (queue payloads, stored definitions): untrusted there, so
 * checked by this shape and economicsSpecProblem before economicsForTurbines builds the model.
 */
export const economicsSpecSchema = z.strictObject({
  model: z.literal('dtu_offshore'),
  energyPriceEurPerMWh: within(B.energyPrice),
  discountRate: within(B.discountRate).optional(),
  projectYears: wholeNumber.min(1).max(B.projectYears.max),
  distanceFromShoreKm: within(B.distanceFromShore),
  depth: z.union([
    z.strictObject({ constantM: within(B.waterDepth) }),
    z.strictObject({
      grid: z.strictObject({
        x0: finiteNumber,
        dx: finiteNumber.positive(),
        nx: wholeNumber.min(2),
        y0: finiteNumber,
        dy: finiteNumber.positive(),
        ny: wholeNumber.min(2),
        depth: z.array(within(B.waterDepth)).max(1_000_000),
      }),
      file: z.string().max(4096),
    }),
  ]),
  substations: z
    .array(z.tuple([finiteNumber, finiteNumber]))
    .min(1)
    .max(1000),
  cables: z
    .array(z.strictObject({ name: z.string().min(1).max(200), capacity: wholeNumber.min(1), costPerMetre: within(B.cableCost) }))
    .min(1)
    .max(100),
  ratedRpm: z.union([within(B.ratedRpm), z.record(z.string().max(200), within(B.ratedRpm))]),
});

/** What is wrong with a resolved block beyond its shape (a grid's depths that do not fill it), or null. */
export function economicsSpecProblem(spec: EconomicsSpec): string | null {
  if ('grid' in spec.depth) {
    const g = spec.depth.grid;
    if (g.depth.length !== g.nx * g.ny) return `depth.grid: ${g.depth.length} depths for ${g.nx} × ${g.ny} nodes`;
  }
  return null;
}

/** Check the block (already shape-checked by economicsSchema) and read its bathymetry file (relative to `baseDir`). */
export function resolveEconomicsSpec(f: EconomicsFields, at: FieldPath, baseDir: string, fail: FailAt): EconomicsSpec {
  if ((f.water_depth_m === undefined) === (f.bathymetry === undefined)) {
    fail(
      at,
      f.water_depth_m === undefined
        ? 'give the water depth: water_depth_m (one depth) or bathymetry (a x,y,depth CSV grid)'
        : 'give water_depth_m or bathymetry, not both',
    );
  }
  const names = new Map<string, number>();
  f.cables.forEach((c, k) => {
    if (names.has(c.name)) fail([...at, 'cables', k, 'name'], `cable type '${c.name}' is listed twice (also cables[${names.get(c.name)}])`);
    names.set(c.name, k);
  });
  let depth: EconomicsSpec['depth'];
  if (f.bathymetry !== undefined) {
    const file = path.resolve(baseDir, f.bathymetry);
    const outside = outsideFolderProblem(file, baseDir);
    if (outside) fail([...at, 'bathymetry'], outside);
    const g = readBathymetryCsv(file); // its own errors name the CSV file and line
    // The deepest node outside the plausibility bound (cost/plausibility.ts) is named, as for water_depth_m.
    for (let k = 0; k < g.depth.length; k++) {
      const problem = outsideBound(B.waterDepth, g.depth[k]);
      if (problem) fail([...at, 'bathymetry'], `${file}: the depth at node (${g.x0 + (k % g.nx) * g.dx}, ${g.y0 + Math.floor(k / g.nx) * g.dy}) ${problem}`);
    }
    depth = { grid: { x0: g.x0, dx: g.dx, nx: g.nx, y0: g.y0, dy: g.dy, ny: g.ny, depth: Array.from(g.depth) }, file };
  } else depth = { constantM: f.water_depth_m! };
  return {
    model: 'dtu_offshore',
    energyPriceEurPerMWh: f.energy_price_eur_per_mwh,
    ...(f.discount_rate !== undefined ? { discountRate: f.discount_rate } : {}),
    projectYears: f.project_years,
    distanceFromShoreKm: f.distance_from_shore_km,
    depth,
    substations: f.substations.map(([x, y]) => [x, y]),
    cables: f.cables.map((c) => ({ name: c.name, capacity: c.capacity, costPerMetre: c.cost_per_m })),
    ratedRpm: f.rated_rpm,
  };
}

function depthField(spec: EconomicsSpec): BathymetryGrid | ConstantDepth {
  if ('constantM' in spec.depth) return new ConstantDepth(spec.depth.constantM);
  const g = spec.depth.grid;
  return new BathymetryGrid(g.x0, g.dx, g.nx, g.y0, g.dy, g.ny, Float64Array.from(g.depth));
}

/**
 * The first corner of the site's bounding box (or, without a boundary, the first of `points`, a
 * fixed layout) outside the bathymetry grid, as the message for the `bathymetry` field; null when
 * the grid covers it (or the depth is a constant).
 */
export function siteOutsideGrid(spec: EconomicsSpec, boundary: Boundary | null, points: { x: ArrayLike<number>; y: ArrayLike<number> } | null): string | null {
  if ('constantM' in spec.depth) return null;
  const grid = depthField(spec) as BathymetryGrid;
  const b = boundary ? boundingBox(boundary) : null;
  const xs = b ? [b.minX, b.maxX, b.maxX, b.minX] : points ? Array.from(points.x) : [];
  const ys = b ? [b.minY, b.minY, b.maxY, b.maxY] : points ? Array.from(points.y) : [];
  const out = grid.outside(xs, ys);
  if (!out) return null;
  return `${spec.depth.file}: the grid (x ${grid.x0} … ${grid.xMax}, y ${grid.y0} … ${grid.yMax} m) does not cover the ${b ? "site: its boundary's corner" : 'layout: turbine at'} (${out.x}, ${out.y}); extend the grid over the whole site`;
}

/**
 * The first substation farther from the site's bounding box (or, without a boundary, the layout's)
 * than the plausibility bound (cost/plausibility.ts), as its index and the message for that
 * field; null when every one is within reach (or there is nothing to measure from).
 */
export function substationReachProblem(
  spec: EconomicsSpec,
  boundary: Boundary | null,
  points: { x: ArrayLike<number>; y: ArrayLike<number> } | null,
): { index: number; message: string } | null {
  const box = siteBoxOf(boundary, points);
  if (!box) return null;
  for (const [k, [x, y]] of spec.substations.entries()) {
    const distance = Math.hypot(Math.max(box.minX - x, 0, x - box.maxX), Math.max(box.minY - y, 0, y - box.maxY));
    if (distance > B.substationReach.max) {
      return {
        index: k,
        message: `substation at (${x}, ${y}) is ${+(distance / 1000).toPrecision(4)} km from the site, beyond the plausibility bound of ${B.substationReach.max / 1000} km (docs/cost.md: ${B.substationReach.hint})`,
      };
    }
  }
  return null;
}

/**
 * The CaseEconomics of `spec` for the turbine models `types` (a case's or farm type's models in
 * order). `at` is the path of the economics block, for a rated_rpm problem; `allModels`, the names
 * a `rated_rpm` mapping may use (default: the names of `types`; null: not checked, as for a
 * campaign task, whose campaign was checked when loaded).
 */
export function economicsForTurbines(
  spec: EconomicsSpec,
  types: readonly Turbine[],
  at: FieldPath,
  fail: FailAt,
  allModels?: readonly string[] | null,
): CaseEconomics {
  const rpm = spec.ratedRpm;
  let ratedRpmByType: number[];
  if (typeof rpm === 'number') ratedRpmByType = types.map(() => rpm);
  else {
    // A key must name a model of the farm (a campaign: of any of its farm types, `allModels`).
    const known = allModels ? [...allModels] : types.map((t) => t.name);
    for (const key of allModels === null ? [] : Object.keys(rpm)) {
      if (!known.includes(key)) {
        const near = nearestKey(key, known);
        fail(
          [...at, 'rated_rpm', key],
          `no turbine model '${key}' in this farm${near ? `; did you mean '${near}'?` : ''} (its models: ${known.join(', ')})`,
          true,
        );
      }
    }
    ratedRpmByType = types.map((t) => {
      const v = rpm[t.name];
      if (v === undefined)
        fail([...at, 'rated_rpm'], `no rated rotor speed for turbine model '${t.name}' (give '${t.name}: <rpm>', or one number for every model)`);
      return v!;
    });
  }
  return {
    model: new DtuOffshoreModel({
      distanceFromShoreKm: spec.distanceFromShoreKm,
      energyPriceEurPerMWh: spec.energyPriceEurPerMWh,
      projectYears: spec.projectYears,
      ...(spec.discountRate !== undefined ? { discountRate: spec.discountRate } : {}),
    }),
    depth: depthField(spec),
    substations: spec.substations.map(([x, y]) => [x, y] as const),
    cables: spec.cables.map((c) => ({ ...c })),
    ratedRpmByType,
  };
}

/**
 * A case file's `economics:` for its turbine models: the block checked, its bathymetry read, the
 * CaseEconomics made. Problems: one InputError line `file: economics.field: …` (callers with the
 * parsed document pass `fail` to name the line instead).
 */
export function resolveEconomics(
  fields: EconomicsFields,
  turbines: readonly Turbine[],
  file: string,
  fail?: FailAt,
  at: FieldPath = ['economics'],
): CaseEconomics {
  const failAt: FailAt =
    fail ??
    ((p, message) => {
      throw new InputError(`${file}: ${p.join('.')}: ${message}`);
    });
  const spec = resolveEconomicsSpec(fields, at, path.dirname(file), failAt);
  return economicsForTurbines(spec, turbines, at, failAt);
}
