/**
 * Cases from files or names: a built-in case name, an IEA37 layout file (following its `$ref`s to
 * the turbine and wind-rose files beside it), or a native case YAML:
 *
 *   name: my-farm
 *   base: iea37-cs1-16          # optional: start from a built-in case, override what follows
 *   turbine: iea37-3.35mw       # built-in name, a file (IEA37 or native), or an inline mapping
 *   wind: ./wind.yaml           # built-in name (iea37-cs1, iea37-cs3), a file, or a mapping
 *   boundary: {circle: {center: [0, 0], radius: 1300}}   # or a file, {polygon: …}, {polygons: …}
 *   n_turbines: 16
 *   min_spacing_diameters: 2    # or min_spacing_m
 *   wake_model: iea37           # iea37 | bastankhah2014 | jensen
 *   superposition: sos          # sos | linear | max
 *   wake_params: {k: 0.0324555}
 *   layout: {x: [...], y: [...]}   # optional baseline / layout to evaluate
 */
import path from 'node:path';
import { z } from 'zod';
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import { WAKE_MODEL_NAMES, SUPERPOSITION_NAMES, type WakeModelName, type SuperpositionName } from '../physics/farmModel.js';
import type { Boundary } from '../geometry/boundary.js';
import { InputError } from '../util/errors.js';
import type { Case, Layout } from './case.js';
import { readYamlFile, dig } from './yamlFile.js';
import { iea37Kind, iea37Layout } from './iea37Format.js';
import { turbineFromDocument, windFromDocument, boundaryFromDocument } from './readers.js';
import { BUILTIN_CASE_NAMES, builtinCase, builtinTurbine, builtinWind, isBuiltinCase, isBuiltinTurbine, isBuiltinWind } from './builtinCases.js';
import { zodToInputError } from './zodIssue.js';

// Coordinates are checked by checkLayout (finite numbers, equal lengths) for a better message.
const xy = z.object({ x: z.array(z.unknown()), y: z.array(z.unknown()) });
const caseSchema = z.object({
  name: z.string().optional(),
  base: z.string().optional(),
  turbine: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  wind: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  boundary: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
  n_turbines: z.number().int().positive().optional(),
  min_spacing_m: z.number().nonnegative().optional(),
  min_spacing_diameters: z.number().nonnegative().optional(),
  wake_model: z.enum(WAKE_MODEL_NAMES as [WakeModelName, ...WakeModelName[]]).optional(),
  superposition: z.enum(SUPERPOSITION_NAMES as [SuperpositionName, ...SuperpositionName[]]).optional(),
  wake_params: z.record(z.string(), z.number()).optional(),
  layout: z.union([xy, z.object({ coordinates: xy })]).optional(),
});

/** A turbine given as a built-in name, a path relative to `baseDir`, or an inline mapping. */
export function resolveTurbine(spec: unknown, baseDir: string, file: string): Turbine {
  if (typeof spec === 'string') {
    if (isBuiltinTurbine(spec)) return builtinTurbine(spec);
    const p = path.resolve(baseDir, spec);
    return turbineFromDocument(readYamlFile(p), p);
  }
  return turbineFromDocument(spec, `${file} (turbine)`);
}

export function resolveWind(spec: unknown, baseDir: string, file: string): WindResource {
  if (typeof spec === 'string') {
    if (isBuiltinWind(spec)) return builtinWind(spec);
    const p = path.resolve(baseDir, spec);
    return windFromDocument(readYamlFile(p), p);
  }
  return windFromDocument(spec, `${file} (wind)`);
}

export function resolveBoundary(spec: unknown, baseDir: string, file: string): Boundary {
  if (typeof spec === 'string') {
    if (isBuiltinCase(spec)) return builtinCase(spec).boundary!;
    const p = path.resolve(baseDir, spec);
    return boundaryFromDocument(readYamlFile(p), p);
  }
  return boundaryFromDocument(spec, `${file} (boundary)`);
}

function checkLayout(x: ArrayLike<unknown>, y: ArrayLike<unknown>, file: string, field: string): Layout {
  if (x.length !== y.length) throw new InputError(`${file}: ${field}: ${x.length} x but ${y.length} y coordinates`);
  if (x.length === 0) throw new InputError(`${file}: ${field}: no turbines`);
  for (let i = 0; i < x.length; i++) {
    if (typeof x[i] !== 'number' || typeof y[i] !== 'number' || !Number.isFinite(x[i]) || !Number.isFinite(y[i])) {
      throw new InputError(`${file}: ${field}: turbine ${i} has a non-finite coordinate (${x[i]}, ${y[i]})`);
    }
  }
  return { x: Float64Array.from(x as ArrayLike<number>), y: Float64Array.from(y as ArrayLike<number>) };
}

/** A native case document (already parsed) → Case. */
export function caseFromDocument(doc: unknown, file: string): Case {
  const parsed = caseSchema.safeParse(doc);
  if (!parsed.success) throw zodToInputError(parsed.error, file);
  const c = parsed.data;
  const dir = path.dirname(file);
  const base = c.base !== undefined ? builtinCase(c.base) : null;
  const turbine = c.turbine !== undefined ? resolveTurbine(c.turbine, dir, file) : base?.turbine;
  if (!turbine) throw new InputError(`${file}: turbine: missing (a built-in name, a file or a mapping)`);
  const wind = c.wind !== undefined ? resolveWind(c.wind, dir, file) : base?.wind;
  if (!wind) throw new InputError(`${file}: wind: missing (a built-in name, a file or a mapping)`);
  const boundary = c.boundary !== undefined ? resolveBoundary(c.boundary, dir, file) : base?.boundary ?? null;
  const xyLayout = c.layout ? ('coordinates' in c.layout ? c.layout.coordinates : c.layout) : null;
  const layout = xyLayout ? checkLayout(xyLayout.x, xyLayout.y, file, 'layout') : base?.layout ?? null;
  const nTurbines = c.n_turbines ?? layout?.x.length ?? base?.nTurbines;
  if (!nTurbines) throw new InputError(`${file}: n_turbines: missing (or give a layout)`);
  const minSpacing = c.min_spacing_m ?? (c.min_spacing_diameters ?? 2) * turbine.diameter;
  return {
    name: c.name ?? base?.name ?? path.basename(file).replace(/\.ya?ml$/i, ''),
    turbine, wind, boundary, nTurbines, minSpacing,
    model: {
      wake: c.wake_model ?? base?.model.wake ?? 'iea37',
      superposition: c.superposition ?? base?.model.superposition ?? 'sos',
      params: c.wake_params ?? base?.model.params,
    },
    layout,
    referenceAepMwh: xyLayout ? undefined : base?.referenceAepMwh,
  };
}

/**
 * An IEA37 layout file → Case: turbine and wind from the files it references (relative to its
 * folder); no boundary. Overrides replace a reference that is missing or unwanted.
 */
export function caseFromIea37Layout(doc: unknown, file: string, overrides: { turbine?: Turbine; wind?: WindResource } = {}): Case {
  const layoutFile = iea37Layout(doc, file);
  const dir = path.dirname(file);
  let turbine = overrides.turbine;
  let wind = overrides.wind;
  for (const ref of layoutFile.refs) {
    if (turbine && wind) break;
    const p = path.resolve(dir, ref);
    let refDoc: unknown;
    try {
      refDoc = readYamlFile(p);
    } catch (err) {
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
    turbine, wind, boundary: null, nTurbines: layout.x.length, minSpacing: 2 * turbine.diameter,
    model: { wake: 'iea37', superposition: 'sos' },
    layout,
    referenceAepMwh: layoutFile.referenceAepMwh,
  };
}

/** Read only a layout from a file: IEA37 layout shape, or {x, y}, {layout: {x, y}}, {coordinates: {x, y}}. */
export function readLayoutFile(file: string): Layout {
  const doc = readYamlFile(file);
  if (iea37Kind(doc) === 'layout') {
    const l = iea37Layout(doc, file);
    return checkLayout(l.x, l.y, file, 'definitions.position.items');
  }
  const candidate = (dig(doc, 'layout') ?? dig(doc, 'coordinates') ?? doc) as { x?: unknown; y?: unknown; coordinates?: unknown };
  const xyObj = (candidate && typeof candidate === 'object' && 'coordinates' in candidate ? candidate.coordinates : candidate) as { x?: unknown; y?: unknown };
  const parsed = xy.safeParse(xyObj);
  if (!parsed.success) throw new InputError(`${file}: expected a layout (IEA37 position items, or x and y lists)`);
  return checkLayout(parsed.data.x, parsed.data.y, file, 'layout');
}

/** A case given by name (built-in) or file (native case YAML or IEA37 layout). */
export function loadCase(spec: string): Case {
  if (isBuiltinCase(spec)) return builtinCase(spec);
  if (!/\.ya?ml$/i.test(spec) && !spec.includes('/')) {
    throw new InputError(`unknown case '${spec}': not a built-in case (${BUILTIN_CASE_NAMES.join(', ')}) and not a .yaml file`);
  }
  const file = spec;
  const doc = readYamlFile(file);
  return iea37Kind(doc) === 'layout' ? caseFromIea37Layout(doc, file) : caseFromDocument(doc, file);
}
