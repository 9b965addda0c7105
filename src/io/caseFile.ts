/**
 * Cases from files or names: a built-in case name, an IEA37 layout file (following its `$ref`s to
 * the turbine and wind-rose files beside it), or a native case YAML:
 *
 *   name: my-farm
 *   base: iea37-cs1-16          # optional: start from a built-in case, override what follows
 *   turbine: iea37-3.35mw       # built-in name, a file (IEA37 or native), or an inline mapping
 *   wind: ./wind.yaml           # built-in name (iea37-cs1, iea37-cs3), a file (YAML, or a time-series .csv), or a mapping
 *   boundary: {circle: {center: [0, 0], radius: 1300}}   # or a file, {polygon: …}, {polygons: …}
 *   n_turbines: 16
 *   min_spacing_diameters: 2    # or min_spacing_m
 *   wake_model: iea37           # iea37 | bastankhah2014 | jensen | niayifar2016 | turbopark2022 | zong2020 | blondel2020 | carbajofuertes2018
 *   superposition: sos          # sos | linear | max | weighted
 *   wake_params: {k: 0.0324555}  # the wake model's parameters by name (docs/physics.md lists each model's)
 *   blockage: selfsimilarity2020  # optional: an induction model solved with the wakes (docs/physics.md)
 *   ground: mirror              # optional: the ground as a mirror (image turbines below it; docs/physics.md)
 *   site: {speedup: …, ti: …, shear: …}   # optional: a site that is not uniform (io/siteFields.ts; docs/site.md)
 *   layout: {x: [...], y: [...]}   # optional baseline / layout to evaluate
 *   # several turbine models instead of `turbine` (and neighbours), as in a campaign (io/farmTurbines.ts):
 *   turbines: [{turbine: iea37-3.35mw, n: 10}, {turbine: v80, n: 6}]   # or n_turbines + turbine_choice: [a, b]
 *   neighbours: [{x: -2500, y: 0, turbine: iea37-3.35mw}, {file: old.yaml}]
 *   directions: {spread: 20}    # optional: how the rose's directions are treated (bins | {spread: N} | {gaussian: …} | {refine_deg: S}; io/directionsField.ts)
 *   economics: {...}            # optional: cost-model inputs (prices, depth or bathymetry, substations, cables; io/costFields.ts)
 *   objective: lcoe             # optional: aep (default) | lcoe | npv; lcoe and npv need the economics (io/objectiveField.ts)
 *   optimize: {hub_height: {min: 80, max: 120}}   # optional: the hub height as a design variable (optimize/hubHeight.ts; docs/site.md)
 *   wflo: {...}                 # written by `wflo optimize --out`: how the layout was made (not read)
 */
import path from 'node:path';
import { z } from 'zod';
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import type { Boundary } from '../geometry/boundary.js';
import { InputError } from '../util/errors.js';
import type { Case, Layout } from '../case/case.js';
import { readYamlFile, dig, MAX_YAML_BYTES } from './yamlFile.js';
import { iea37Kind, iea37Layout } from './iea37Format.js';
import { turbineFromDocument, windFromDocument, boundaryFromDocument, readTurbineFile, withIea37Lines } from './readers.js';
import { BUILTIN_CASE_NAMES, builtinCase, builtinTurbine, builtinWind, isBuiltinCase, isBuiltinTurbine, isBuiltinWind } from './builtinCases.js';
import { zodToInputError, strict } from './zodIssue.js';
import { errorAt, rejectDuplicateKeys, type FieldPath } from './sourceMap.js';
import { coincidentProblem } from '../geometry/coincidentPoints.js';
import { windioBoundary, windioCase, windioKind, windioLayout, windioWind } from './windio/windioPlant.js'; // windIO plant files (src/io/windio/)
import { capacityProblem, spacingProblem } from './plausibility.js';
import { isCsvPath, readTimeSeriesCsv } from './timeSeriesCsv.js';
import { NamedFileRefused, namedFile } from './fileDoor.js';
import { MAX_INPUT_BYTES } from './boundedRead.js';
import { nearestKey } from './didYouMean.js';
import { caseArgument } from './caseArgument.js';
import { farmModelShape, resolveFarmModel } from './farmModelFields.js';
import { farmConflict } from '../physics/solvePlan.js';
import { modelsRoomProblem, readFarmModels, readNeighbours, typeOfCounts, type FailAt } from './farmTurbines.js';
import { directionsProblem, readDirectionsField } from './directionsField.js';
import { withDirections } from '../optimize/caseDirections.js';
import { pricedTurbinesProblem } from '../cost/plausibility.js';
import { turbineCountProblem, windBins } from './turbineCount.js';
import { economicsForTurbines, economicsSchema, resolveEconomicsSpec, siteOutsideGrid, substationReachProblem, type EconomicsSpec } from './costFields.js';

/** The `economics:` block of each case a case file gave (resolved, before the turbines' models): what a campaign farm built on the file takes. */
const ECONOMICS_SPECS = new WeakMap<Case, EconomicsSpec>();

/** The economics block of a case as its case file wrote it (resolved), or undefined (none, or not a case file's case). */
export function caseFileEconomics(c: Case): EconomicsSpec | undefined {
  return ECONOMICS_SPECS.get(c);
}
import { objectiveProblem, objectiveSchema } from './objectiveField.js';
import { readSiteBlock, siteLayoutProblem } from './siteFields.js';
import { boundingBox } from '../geometry/boundingBox.js';
import { hubHeightProblem } from '../optimize/hubHeight.js';

// Coordinates are checked by checkLayout (finite numbers, equal lengths) for a better message.
const xy = strict({ x: z.array(z.unknown()), y: z.array(z.unknown()) });
const caseSchema = strict({
  name: z.string().optional(),
  base: z.string().optional(),
  turbine: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  // Several models and fixed neighbours: checked in full by io/farmTurbines.ts (field paths, lines).
  turbines: z.array(z.unknown()).optional(),
  turbine_choice: z.array(z.unknown()).optional(),
  neighbours: z.array(z.unknown()).optional(),
  wind: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  boundary: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  n_turbines: z.number().int().positive().optional(),
  min_spacing_m: z.number().nonnegative().optional(),
  min_spacing_diameters: z.number().nonnegative().optional(),
  ...farmModelShape,
  // A site that is not uniform: checked in full by io/siteFields.ts (field paths, lines).
  site: z.unknown().optional(),
  layout: z.union([xy, strict({ coordinates: xy })]).optional(),
  // How the directions are treated: checked in full by io/directionsField.ts (field paths, lines).
  directions: z.unknown().optional(),
  economics: economicsSchema.optional(), // cost-model inputs: io/costFields.ts
  objective: objectiveSchema.optional(),
  // Design variables besides the positions: the hub height within bounds (optimize/hubHeight.ts).
  optimize: strict({ hub_height: strict({ min: z.number().positive(), max: z.number().positive() }) }).optional(),
  // How `wflo optimize --out` made the layout (seed, method, AEP, work): a record, not read.
  wflo: z.record(z.string(), z.unknown()).optional(),
});

/** The fields of a case file (for `wflo validate`'s kind detection). */
export const CASE_FIELDS = Object.keys(caseSchema.shape);

const yamlRole = (what: string) => ({ what, expected: 'a YAML file' });

/**
 * A turbine given as a built-in name, a path relative to `baseDir`, or an inline mapping. A path
 * goes through the file door (io/fileDoor.ts: inside `baseDir`, a regular file, within the YAML
 * cap); `confine` false for a path the user typed (`--turbine`).
 */
export function resolveTurbine(spec: unknown, baseDir: string, file: string, confine = true): Turbine {
  if (typeof spec === 'string') {
    if (isBuiltinTurbine(spec)) return builtinTurbine(spec);
    return readTurbineFile(namedFile(spec, baseDir, file, 'turbine', yamlRole('turbine file'), MAX_YAML_BYTES, confine));
  }
  return turbineFromDocument(spec, `${file} (turbine)`, baseDir);
}

/** `confine`: a file path must lie in `baseDir` (io/fileDoor.ts); false for a path the user typed (`--wind`). */
export function resolveWind(spec: unknown, baseDir: string, file: string, confine = true): WindResource {
  if (typeof spec === 'string') {
    if (isBuiltinWind(spec)) return builtinWind(spec);
    if (isCsvPath(spec)) {
      return readTimeSeriesCsv(
        namedFile(spec, baseDir, file, 'wind', { what: 'time-series file', expected: 'a time-series CSV file' }, MAX_INPUT_BYTES, confine),
      );
    }
    const p = namedFile(spec, baseDir, file, 'wind', yamlRole('wind file'), MAX_YAML_BYTES, confine);
    const doc = readYamlFile(p);
    return windioKind(doc) !== null ? windioWind(p) : windFromDocument(doc, p); // windIO: src/io/windio/
  }
  return windFromDocument(spec, `${file} (wind)`, baseDir);
}

export function resolveBoundary(spec: unknown, baseDir: string, file: string): Boundary {
  if (typeof spec === 'string') {
    if (isBuiltinCase(spec)) return builtinCase(spec).boundary!;
    const p = namedFile(spec, baseDir, file, 'boundary', yamlRole('boundary file'), MAX_YAML_BYTES);
    const doc = readYamlFile(p);
    return windioKind(doc) !== null ? windioBoundary(p) : boundaryFromDocument(doc, p); // windIO: src/io/windio/
  }
  return boundaryFromDocument(spec, `${file} (boundary)`);
}

/** `resolve()`, a file door's refusal (io/fileDoor.ts) said at `field` of `doc` (its line). */
function atField<T>(doc: unknown, field: FieldPath, file: string, resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (err instanceof NamedFileRefused) throw errorAt(doc, field, err.reason, file);
    throw err;
  }
}

function checkLayout(x: ArrayLike<unknown>, y: ArrayLike<unknown>, file: string, field: string, doc?: unknown, fieldPath?: FieldPath): Layout {
  const fail = (message: string, at: FieldPath = []): never => {
    if (doc !== undefined && fieldPath) throw errorAt(doc, [...fieldPath, ...at], message, file);
    throw new InputError(`${file}: ${field}: ${message}`);
  };
  if (x.length !== y.length) fail(`${x.length} x but ${y.length} y coordinates`);
  if (x.length === 0) fail('no turbines');
  for (let i = 0; i < x.length; i++) {
    if (typeof x[i] !== 'number' || typeof y[i] !== 'number' || !Number.isFinite(x[i]) || !Number.isFinite(y[i])) {
      const bad = typeof x[i] !== 'number' || !Number.isFinite(x[i]) ? 'x' : 'y';
      fail(`turbine ${i} has a non-finite coordinate (${x[i]}, ${y[i]})`, [bad, i]);
    }
  }
  return { x: Float64Array.from(x as ArrayLike<number>), y: Float64Array.from(y as ArrayLike<number>) };
}

/** A native case document (already parsed) → Case. */
export function caseFromDocument(doc: unknown, file: string): Case {
  rejectDuplicateKeys(doc);
  const parsed = caseSchema.safeParse(doc);
  if (!parsed.success) throw zodToInputError(parsed.error, file, doc);
  const c = parsed.data;
  // Resolvers get the raw mappings (not zod's copies) so their errors can name the line.
  const raw = doc as Record<string, unknown>;
  const dir = path.dirname(file);
  if (c.base !== undefined && !isBuiltinCase(c.base)) throw errorAt(doc, ['base'], unknownBuiltinCase(c.base), file);
  const base = c.base !== undefined ? builtinCase(c.base) : null;
  const fail: FailAt = (fieldPath, message, keyOf = false) => {
    throw errorAt(doc, fieldPath, message, file, keyOf);
  };
  const resolveAt = (spec: unknown, at: FieldPath = ['turbine']): Turbine => atField(doc, at, file, () => resolveTurbine(spec, dir, file));
  // Several models: `turbines` (counts) or `turbine_choice` (with n_turbines, or a layout's count).
  const severalGiven = c.turbines !== undefined || c.turbine_choice !== undefined;
  const layoutCount = c.layout ? ('coordinates' in c.layout ? c.layout.coordinates : c.layout).x.length : undefined;
  const several = severalGiven
    ? readFarmModels(
        c.turbine_choice !== undefined && c.n_turbines === undefined && layoutCount ? { ...raw, n_turbines: layoutCount } : raw,
        [],
        file,
        resolveAt,
        fail,
      )
    : null;
  const turbine = several
    ? several.models.turbines[0]
    : c.turbine !== undefined
      ? atField(doc, ['turbine'], file, () => resolveTurbine(raw.turbine, dir, file))
      : base?.turbine;
  if (!turbine) throw errorAt(doc, [], 'turbine: missing (a built-in name, a file or a mapping)', file);
  const wind = c.wind !== undefined ? atField(doc, ['wind'], file, () => resolveWind(raw.wind, dir, file)) : base?.wind;
  if (!wind) throw errorAt(doc, [], 'wind: missing (a built-in name, a file or a mapping)', file);
  const boundary = c.boundary !== undefined ? atField(doc, ['boundary'], file, () => resolveBoundary(raw.boundary, dir, file)) : (base?.boundary ?? null);
  const xyLayout = c.layout ? ('coordinates' in c.layout ? c.layout.coordinates : c.layout) : null;
  const layoutPath: FieldPath = c.layout && 'coordinates' in c.layout ? ['layout', 'coordinates'] : ['layout'];
  const layout = xyLayout ? checkLayout(xyLayout.x, xyLayout.y, file, 'layout', doc, layoutPath) : (base?.layout ?? null);
  const nTurbines = several?.nTurbines ?? c.n_turbines ?? layout?.x.length ?? base?.nTurbines;
  if (!nTurbines) throw errorAt(doc, [], 'n_turbines: missing (or give a layout)', file);
  if (c.min_spacing_m !== undefined && c.min_spacing_diameters !== undefined) {
    throw errorAt(doc, ['min_spacing_m'], 'give min_spacing_m or min_spacing_diameters, not both', file);
  }
  // The engines' time grows as n² (io/turbineCount.ts): a count no evaluation ends in stated time is refused here.
  const countProblem = wind ? turbineCountProblem(nTurbines, windBins(wind)) : null;
  if (countProblem)
    fail(
      several ? [c.turbines !== undefined ? 'turbines' : 'turbine_choice'] : c.n_turbines !== undefined ? ['n_turbines'] : xyLayout ? layoutPath : ['base'],
      countProblem,
    );
  if (several && layout && layout.x.length !== nTurbines) {
    throw errorAt(
      doc,
      layoutPath,
      `${layout.x.length} turbines in the layout, ${nTurbines} in ${c.turbines !== undefined ? 'turbines (the sum of their n)' : 'n_turbines'}`,
      file,
    );
  }
  const minSpacing = several ? Math.max(...several.models.minSpacingByType) : (c.min_spacing_m ?? (c.min_spacing_diameters ?? 2) * turbine.diameter);
  if (!several) {
    const problem = spacingProblem(minSpacing, turbine.diameter, c.min_spacing_m !== undefined ? 'metres' : 'diameters', turbine.name);
    if (problem) fail([c.min_spacing_m !== undefined ? 'min_spacing_m' : 'min_spacing_diameters'], problem);
  }
  if (boundary) {
    const tooSmall = several ? modelsRoomProblem(boundary, several.models, nTurbines) : capacityProblem(boundary, nTurbines, minSpacing);
    const at: FieldPath = several
      ? [c.turbines !== undefined ? 'turbines' : 'turbine_choice']
      : c.boundary !== undefined
        ? ['boundary']
        : c.n_turbines !== undefined
          ? ['n_turbines']
          : ['base'];
    if (tooSmall) throw errorAt(doc, at, tooSmall, file);
  }
  const neighbours =
    c.neighbours !== undefined
      ? readNeighbours(
          raw.neighbours,
          ['neighbours'],
          file,
          dir,
          resolveAt,
          (f) => {
            const n = loadCase(f);
            if (!n.layout) throw new InputError(`${f}: holds no layout (x and y of turbines)`);
            return {
              x: n.layout.x,
              y: n.layout.y,
              types: n.turbines ? n.turbines.types : [n.turbine],
              typeOf: n.turbines ? n.turbines.typeOf : new Int32Array(n.layout.x.length),
            };
          },
          fail,
          boundary,
          layout,
        )
      : null;
  const model = resolveFarmModel(c, base?.model, [], fail);
  if (c.site !== undefined) {
    model.site = readSiteBlock(raw.site, doc, ['site'], file);
    const outside = layout ? siteLayoutProblem(model.site, layout.x, layout.y) : null;
    if (outside) fail(['site', outside.field], outside.message);
    // An optimizer may place a turbine anywhere in the boundary: its box must lie inside the grids.
    const box = boundary ? boundingBox(boundary) : null;
    const corner = box ? siteLayoutProblem(model.site, [box.minX, box.maxX, box.maxX, box.minX], [box.minY, box.minY, box.maxY, box.maxY]) : null;
    if (corner)
      fail(
        ['site', corner.field],
        `the boundary reaches outside the field's grid (a corner of its bounding box, ${corner.message.replace(/^turbine \d+ at /, '').replace(/ is outside/, ', is outside')})`,
      );
  }
  // What the engines cannot evaluate (physics/solvePlan.ts farmConflict), refused here as at run time.
  const limit = farmConflict(model, { types: several ? several.models.turbines : [turbine], neighbours: !!neighbours && neighbours.x.length > 0, wind });
  if (limit) fail([(c as Record<string, unknown>)[limit.field] !== undefined ? limit.field : 'base'], limit.message);
  // The base's reference AEP holds for its own layout, turbines, wind and model only.
  const asBase =
    base != null &&
    !xyLayout &&
    c.turbine === undefined &&
    c.turbines === undefined &&
    c.turbine_choice === undefined &&
    c.neighbours === undefined &&
    c.wind === undefined &&
    c.wake_params === undefined &&
    c.blockage === undefined &&
    model.wake === base.model.wake &&
    model.superposition === base.model.superposition &&
    (model.ground ?? 'none') === (base.model.ground ?? 'none');
  const treatment = c.directions !== undefined ? readDirectionsField(raw.directions, doc, ['directions'], file) : null;
  if (treatment) {
    const problem = directionsProblem(treatment, wind);
    if (problem) fail(['directions'], problem);
  }
  let economics: Case['economics'];
  let economicsSpec: EconomicsSpec | undefined;
  if (c.economics !== undefined) {
    const spec = resolveEconomicsSpec(c.economics, ['economics'], dir, fail);
    economicsSpec = spec;
    const outside = siteOutsideGrid(spec, boundary, layout);
    if (outside) fail(['economics', 'bathymetry'], outside);
    const far = substationReachProblem(spec, boundary, layout);
    if (far) fail(['economics', 'substations', far.index], far.message);
    economics = economicsForTurbines(spec, several ? several.models.turbines : [turbine], ['economics'], fail);
    const tooMany = pricedTurbinesProblem(nTurbines);
    if (tooMany)
      fail(
        several
          ? [c.turbines !== undefined ? 'turbines' : 'turbine_choice']
          : c.n_turbines !== undefined
            ? ['n_turbines']
            : xyLayout
              ? layoutPath
              : ['economics'],
        tooMany,
      );
  }
  // The file's own layout: two turbines at one point, or one on a substation, are refused at the
  // layout's line (geometry/coincidentPoints.ts), as every other door that takes a layout does.
  if (xyLayout && layout) {
    const points = coincidentProblem(layout.x, layout.y, economics?.substations ?? []);
    if (points) fail(layoutPath, points);
  }
  const result: Case = {
    ...(several
      ? {
          turbines: {
            types: several.models.turbines,
            minSpacingByType: Float64Array.from(several.models.minSpacingByType),
            typeOf: several.models.counts ? typeOfCounts(several.models.counts) : new Int32Array(nTurbines),
            choice: several.models.counts === null,
          },
        }
      : {}),
    ...(neighbours && neighbours.x.length > 0 ? { neighbours } : {}),
    name: c.name ?? base?.name ?? path.basename(file).replace(/\.ya?ml$/i, ''),
    turbine,
    wind,
    boundary,
    nTurbines,
    minSpacing,
    model,
    layout,
    referenceAepMwh: asBase ? base!.referenceAepMwh : undefined,
    ...(economics ? { economics } : {}),
  };
  if (c.objective !== undefined) {
    const problem = objectiveProblem(c.objective, result.economics !== undefined);
    if (problem) fail(['objective'], problem);
    result.objective = c.objective;
  }
  if (c.optimize !== undefined) {
    const range = { min: c.optimize.hub_height.min, max: c.optimize.hub_height.max };
    const problem = hubHeightProblem(result, range);
    if (problem) fail(problem.field.split('.'), problem.message);
    result.hubHeightRange = range;
  }
  const out = treatment ? withDirections(result, treatment) : result;
  if (economicsSpec) ECONOMICS_SPECS.set(out, economicsSpec);
  return out;
}

/**
 * An IEA37 layout file → Case: turbine and wind from the files it references (relative to its
 * folder); no boundary. Overrides replace a reference that is missing or unwanted.
 */
export function caseFromIea37Layout(doc: unknown, file: string, overrides: { turbine?: Turbine; wind?: WindResource } = {}): Case {
  const layoutFile = withIea37Lines(doc, file, () => iea37Layout(doc, file));
  const dir = path.dirname(file);
  let turbine = overrides.turbine;
  let wind = overrides.wind;
  for (const ref of layoutFile.refs) {
    if (turbine && wind) break;
    let refDoc: unknown;
    let p = path.resolve(dir, ref);
    try {
      p = namedFile(ref, dir, file, '$ref', yamlRole('referenced file'), MAX_YAML_BYTES);
      refDoc = readYamlFile(p);
    } catch (err) {
      if (err instanceof NamedFileRefused) throw new InputError(`${file}: referenced file '${ref}': ${err.reason}`);
      if (err instanceof InputError && /file not found/.test(err.message)) {
        throw new InputError(`${file}: referenced file '${ref}' not found (looked for ${p})`);
      }
      throw err;
    }
    const kind = iea37Kind(refDoc);
    if (kind === 'turbine' && !turbine) turbine = turbineFromDocument(refDoc, p);
    else if (kind === 'wind' && !wind) wind = windFromDocument(refDoc, p);
  }
  if (!turbine) throw new InputError(`${file}: no turbine reference found (give --turbine FILE)`);
  if (!wind) throw new InputError(`${file}: no wind-rose reference found (give --wind FILE)`);
  const layout = checkLayout(layoutFile.x, layoutFile.y, file, 'definitions.position.items');
  return {
    name: path.basename(file).replace(/\.ya?ml$/i, ''),
    turbine,
    wind,
    boundary: null,
    nTurbines: layout.x.length,
    minSpacing: 2 * turbine.diameter,
    model: { wake: 'iea37', superposition: 'sos' },
    layout,
    referenceAepMwh: layoutFile.referenceAepMwh,
  };
}

/**
 * Read only a layout from a file: IEA37 layout shape, or {x, y}, {layout: {x, y}}, {coordinates: {x, y}}.
 * `document`: the file's document when the caller already read it.
 */
export function readLayoutFile(file: string, document?: unknown): Layout {
  const doc = document ?? readYamlFile(file);
  if (windioKind(doc) === 'wind_farm' || windioKind(doc) === 'wind_energy_system') return windioLayout(file); // windIO: src/io/windio/
  if (iea37Kind(doc) === 'layout') {
    const l = withIea37Lines(doc, file, () => iea37Layout(doc, file));
    return checkLayout(l.x, l.y, file, 'definitions.position.items');
  }
  const candidate = (dig(doc, 'layout') ?? dig(doc, 'coordinates') ?? doc) as { x?: unknown; y?: unknown; coordinates?: unknown };
  const xyObj = (candidate && typeof candidate === 'object' && 'coordinates' in candidate ? candidate.coordinates : candidate) as { x?: unknown; y?: unknown };
  const parsed = xy.safeParse(xyObj);
  if (!parsed.success) {
    if (xyObj && typeof xyObj === 'object' && !Array.isArray(xyObj)) throw zodToInputError(parsed.error, file, xyObj);
    throw errorAt(doc, [], 'expected a layout (IEA37 position items, or x and y lists)', file);
  }
  return checkLayout(parsed.data.x, parsed.data.y, file, 'layout', xyObj, []);
}

/** A case given by name (built-in) or file (native case YAML or IEA37 layout). */
export function loadCase(spec: string, where?: string): Case {
  const arg = caseArgument(spec, where);
  if (arg.kind === 'builtin') return builtinCase(arg.name);
  const file = arg.file;
  const doc = readYamlFile(file);
  if (windioKind(doc) !== null) return windioCase(file); // windIO plant file (src/io/windio/)
  return iea37Kind(doc) === 'layout' ? caseFromIea37Layout(doc, file) : caseFromDocument(doc, file);
}

/** "not a built-in case (did you mean …?)" with the list of built-in cases. */
export function unknownBuiltinCase(name: string): string {
  const near = nearestKey(name, BUILTIN_CASE_NAMES);
  return `unknown built-in case '${name}'${near ? `; did you mean '${near}'?` : ''} (known: ${BUILTIN_CASE_NAMES.join(', ')})`;
}
