/**
 * Reading the two ways a farm's turbines can go beyond "N turbines of one model", shared by case
 * files and campaign files (the caller resolves each turbine and reports errors at a field path):
 *
 * Several models in one farm (a case file's or a campaign farm type's fields):
 *
 *   turbines:                                  # fixed counts: turbines 0-9 are the first model, …
 *     - {turbine: iea37-3.35mw, n: 10}
 *     - {turbine: v80, n: 6, min_spacing_diameters: 3}   # a model's own spacing (default: the farm type's)
 *   # or
 *   n_turbines: 16
 *   turbine_choice: [iea37-3.35mw, v80]        # the optimizer chooses every turbine's model
 *
 * Each model's minimum spacing is `min_spacing_diameters` × its own diameter (default 2) or
 * `min_spacing_m`, at least one of its own diameters; a pair keeps the larger of its two
 * turbines' (geometry/pairSpacing.ts).
 *
 * Fixed neighbouring turbines (a farm's field):
 *
 *   neighbours:
 *     - {x: -2500, y: 0, turbine: iea37-3.35mw}   # one turbine: coordinates (m) and model
 *     - {file: ../existing/layout.yaml}            # every turbine of a wflo layout or case file (its models)
 *     - {file: other.yaml, turbine: v80}           # … with the model given here
 *
 * A neighbour standing where the farm's turbines may stand (inside the site, outside its exclusion
 * zones) is an error: it would be a turbine of the farm, not a neighbour.
 */
import { z } from 'zod';
import type { Turbine } from '../physics/turbine.js';
import { NamedFileRefused, namedFile } from './fileDoor.js';
import { MAX_YAML_BYTES } from './yamlFile.js';
import type { Boundary } from '../geometry/boundary.js';
import { containsPoint } from '../geometry/containsPoint.js';
import { prepareBoundary } from '../geometry/preparedBoundary.js';
import type { CaseNeighbours } from '../case/case.js';
import { maxTurbinesBound, spacingProblem } from './plausibility.js';
import { neighbourCountProblem, neighbourReachProblem, siteBoxOf } from './neighbourLimits.js';
import { strict, zodToInputError } from './zodIssue.js';
import type { FieldPath } from './sourceMap.js';

/** Reports an error at a field path under the caller's prefix (never returns). */
export type FailAt = (fieldPath: FieldPath, message: string, keyOf?: boolean) => never;
/** Resolves a turbine spec (a built-in name, a file, a mapping) found at a field path. */
export type TurbineAt = (spec: unknown, fieldPath: FieldPath) => Turbine;
/** Loads the turbines of a layout or case file: positions and each one's model. */
export type LayoutTurbinesAt = (file: string, fieldPath: FieldPath) => { x: Float64Array; y: Float64Array; types: Turbine[]; typeOf: Int32Array };

const turbineSpec = z.union([z.string().min(1), z.record(z.string(), z.unknown())], {
  error: 'expected a built-in name, a file path or a mapping',
});
const spacing = { min_spacing_diameters: z.number().min(0).optional(), min_spacing_m: z.number().min(0).optional() };

/** One entry of a `turbines:` list. */
export const turbineCountSchema = strict({ turbine: turbineSpec, n: z.int().min(1, { error: 'must be an integer >= 1' }), ...spacing });
export const turbineCountsSchema = z.array(turbineCountSchema).min(1, { error: 'must list at least one turbine model' });
export const turbineChoiceSchema = z.array(turbineSpec).min(2, { error: 'must list at least two turbine models to choose from' });

const neighbourPointSchema = strict({ x: z.number(), y: z.number(), turbine: turbineSpec });
const neighbourFileSchema = strict({ file: z.string().min(1), turbine: turbineSpec.optional() });
export const neighboursSchema = z.array(z.record(z.string(), z.unknown(), { error: 'expected a mapping {x, y, turbine} or {file}' }), {
  error: 'expected a list of neighbouring turbines ({x, y, turbine} or {file})',
});

/** Several models of one farm type: each model, its spacing in metres, and fixed counts (null: the optimizer chooses). */
export interface FarmModels {
  turbines: Turbine[];
  minSpacingByType: number[];
  counts: number[] | null;
}

interface SpacingDefaults {
  min_spacing_diameters?: number;
  min_spacing_m?: number;
}

/** A model's spacing in metres (its own field at `at`, else the farm type's at `typeAt`), at least one of its diameters. */
function spacingOf(t: Turbine, own: SpacingDefaults, type: SpacingDefaults, at: FieldPath, typeAt: FieldPath, fail: FailAt): number {
  if (own.min_spacing_m !== undefined && own.min_spacing_diameters !== undefined)
    fail([...at, 'min_spacing_m'], 'give min_spacing_m or min_spacing_diameters, not both');
  const [value, where, unit]: [number, FieldPath, 'metres' | 'diameters'] =
    own.min_spacing_m !== undefined
      ? [own.min_spacing_m, [...at, 'min_spacing_m'], 'metres']
      : own.min_spacing_diameters !== undefined
        ? [own.min_spacing_diameters * t.diameter, [...at, 'min_spacing_diameters'], 'diameters']
        : type.min_spacing_m !== undefined
          ? [type.min_spacing_m, [...typeAt, 'min_spacing_m'], 'metres']
          : [(type.min_spacing_diameters ?? 2) * t.diameter, [...typeAt, 'min_spacing_diameters'], 'diameters'];
  const problem = spacingProblem(value, t.diameter, unit, t.name);
  if (problem) fail(where, problem);
  return value;
}

/**
 * A farm type's models from its raw fields (`turbines` or `turbine_choice` with `n_turbines`), or
 * null when it has one `turbine`. `at` is the farm type's field path.
 */
export function readFarmModels(
  raw: Record<string, unknown>,
  at: FieldPath,
  file: string,
  resolve: TurbineAt,
  fail: FailAt,
): { models: FarmModels; nTurbines: number } | null {
  const has = (k: string) => raw[k] !== undefined;
  const forms = ['turbine', 'turbines', 'turbine_choice'].filter(has);
  if (forms.length === 0) fail(at, 'no turbine: give `turbine` (with n_turbines), `turbines` (models with counts) or `turbine_choice` (with n_turbines)');
  if (forms.length > 1) fail([...at, forms[1]], `give one of turbine, turbines and turbine_choice, not ${forms.join(' and ')}`, true);
  if (has('min_spacing_m') && has('min_spacing_diameters')) fail([...at, 'min_spacing_m'], 'give min_spacing_m or min_spacing_diameters, not both');
  const typeSpacing = raw as SpacingDefaults;
  if (forms[0] === 'turbine') {
    if (!has('n_turbines')) fail(at, 'n_turbines: missing (how many turbines of this model)');
    return null;
  }
  if (forms[0] === 'turbines') {
    if (has('n_turbines')) fail([...at, 'n_turbines'], 'with `turbines`, the count is the sum of their `n`; leave n_turbines out', true);
    const parsed = turbineCountsSchema.safeParse(raw.turbines);
    if (!parsed.success) throw zodToInputError(parsed.error, file, raw.turbines);
    const entries = raw.turbines as Record<string, unknown>[];
    const turbines = entries.map((e, i) => resolve(e.turbine, [...at, 'turbines', i, 'turbine']));
    const minSpacingByType = turbines.map((t, i) => spacingOf(t, entries[i] as SpacingDefaults, typeSpacing, [...at, 'turbines', i], at, fail));
    const counts = parsed.data!.map((e) => e.n);
    return { models: { turbines, minSpacingByType, counts }, nTurbines: counts.reduce((s, n) => s + n, 0) };
  }
  if (!has('n_turbines')) fail(at, 'n_turbines: missing (how many turbines to choose models for)');
  const parsed = turbineChoiceSchema.safeParse(raw.turbine_choice);
  if (!parsed.success) throw zodToInputError(parsed.error, file, raw.turbine_choice);
  const specs = raw.turbine_choice as unknown[];
  const turbines = specs.map((s, i) => resolve(s, [...at, 'turbine_choice', i]));
  const minSpacingByType = turbines.map((t) => spacingOf(t, {}, typeSpacing, at, at, fail));
  return { models: { turbines, minSpacingByType, counts: null }, nTurbines: raw.n_turbines as number };
}

/** Each turbine's model for fixed counts: the first counts[0] turbines are model 0, and so on. */
export function typeOfCounts(counts: readonly number[]): Int32Array {
  const out = new Int32Array(counts.reduce((s, n) => s + n, 0));
  let i = 0;
  counts.forEach((n, k) => {
    out.fill(k, i, i + n);
    i += n;
  });
  return out;
}

/**
 * The room check for several models: for every model m, the turbines whose spacing is at least
 * s_m must all stand s_m apart (a pair keeps the larger spacing), so their count is bounded by
 * Oler's packing bound at s_m. With a model choice, every turbine could take the model with the
 * smallest spacing. Null when the bound allows it; else why not.
 */
export function modelsRoomProblem(boundary: Boundary, models: FarmModels, nTurbines: number): string | null {
  const s = models.minSpacingByType;
  if (models.counts === null) {
    const smallest = Math.min(...s);
    const bound = maxTurbinesBound(boundary, smallest);
    return nTurbines <= bound
      ? null
      : `cannot place ${nTurbines} turbines in this site even at the smallest model spacing ${smallest} m: at most ${Math.floor(bound)} fit (Oler's packing bound)`;
  }
  for (let m = 0; m < s.length; m++) {
    const count = models.counts.reduce((sum, n, k) => sum + (s[k]! >= s[m]! ? n : 0), 0);
    const bound = maxTurbinesBound(boundary, s[m]!);
    if (count > bound) {
      return `cannot place the ${count} turbines whose spacing is at least ${s[m]} m (${models.turbines[m]!.name} and larger spacings) in this site: at most ${Math.floor(bound)} fit (Oler's packing bound)`;
    }
  }
  return null;
}

/**
 * A farm's neighbours from its raw `neighbours` list (`at` is that list's field path); files are
 * relative to `baseDir`. Positions and models, in the order listed (a file's turbines in its order).
 */
export function readNeighbours(
  rawList: unknown,
  at: FieldPath,
  file: string,
  baseDir: string,
  resolve: TurbineAt,
  loadFile: LayoutTurbinesAt,
  fail: FailAt,
  boundary: Boundary | null = null,
  layout: { x: ArrayLike<number>; y: ArrayLike<number> } | null = null,
): CaseNeighbours {
  const site = boundary ? prepareBoundary(boundary) : null;
  const box = siteBoxOf(boundary, layout);
  const checkOutside = (px: number, py: number, where: FieldPath, what: string): void => {
    if (site && containsPoint(site, px, py)) {
      fail(
        where,
        `${what} at (${px}, ${py}) m is inside the site, where the farm's own turbines stand; a neighbour must be outside it (or in an exclusion zone)`,
      );
    }
    const far = neighbourReachProblem(px, py, box, what);
    if (far) fail(where, far);
    const many = neighbourCountProblem(x.length + 1);
    if (many) fail(where, many);
  };
  const parsed = neighboursSchema.safeParse(rawList);
  if (!parsed.success) throw zodToInputError(parsed.error, file, rawList);
  const entries = rawList as Record<string, unknown>[];
  const x: number[] = [],
    y: number[] = [],
    typeOf: number[] = [];
  const types: Turbine[] = [];
  const typeIndex = new Map<Turbine, number>();
  const add = (t: Turbine): number => {
    let k = typeIndex.get(t);
    if (k === undefined) {
      k = types.length;
      types.push(t);
      typeIndex.set(t, k);
    }
    return k;
  };
  const byName = new Map<string, Turbine>();
  entries.forEach((e, i) => {
    const here: FieldPath = [...at, i];
    if (e.file !== undefined) {
      const p = neighbourFileSchema.safeParse(e);
      if (!p.success) throw zodToInputError(p.error, file, e);
      // Through the file door (io/fileDoor.ts): inside the folder, a regular file within the YAML cap.
      let named: string;
      try {
        named = namedFile(e.file as string, baseDir, file, 'file', { what: 'layout file', expected: 'a YAML file' }, MAX_YAML_BYTES);
      } catch (err) {
        if (err instanceof NamedFileRefused) return fail([...here, 'file'], err.reason);
        throw err;
      }
      const loaded = loadFile(named, [...here, 'file']);
      const override = e.turbine !== undefined ? resolve(e.turbine, [...here, 'turbine']) : null;
      const local = loaded.types.map((t) => add(override ?? t));
      for (let k = 0; k < loaded.x.length; k++) {
        checkOutside(loaded.x[k]!, loaded.y[k]!, [...here, 'file'], `turbine ${k} of ${e.file as string}`);
        x.push(loaded.x[k]!);
        y.push(loaded.y[k]!);
        typeOf.push(local[loaded.typeOf[k]!]!);
      }
      return;
    }
    const p = neighbourPointSchema.safeParse(e);
    if (!p.success) throw zodToInputError(p.error, file, e);
    if (!Number.isFinite(e.x as number) || !Number.isFinite(e.y as number))
      fail([...here, Number.isFinite(e.x as number) ? 'y' : 'x'], 'must be a finite number (metres)');
    checkOutside(e.x as number, e.y as number, here, `neighbour ${i}`);
    // The same built-in name or file resolves to one model (one wake model pair per model).
    const key = typeof e.turbine === 'string' ? e.turbine : null;
    let t = key !== null ? byName.get(key) : undefined;
    if (!t) {
      t = resolve(e.turbine, [...here, 'turbine']);
      if (key !== null) byName.set(key, t);
    }
    x.push(e.x as number);
    y.push(e.y as number);
    typeOf.push(add(t));
  });
  return { x: Float64Array.from(x), y: Float64Array.from(y), types, typeOf: Int32Array.from(typeOf) };
}
