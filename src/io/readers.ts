/**
 * Read a turbine, wind resource or boundary from a YAML file in either the IEA37 case-study
 * format or wflo's native (windIO-named) format, detected from the content, and check it: the
 * physics' own checks, then plausibility (io/plausibility.ts). Errors name the file, the line
 * (for documents read from YAML) and the field.
 */
import { turbineProblem, type Turbine } from '../physics/turbine.js';
import { windResourceProblem, type WindResource } from '../physics/windResource.js';
import type { Boundary } from '../geometry/boundary.js';
import { validateBoundary } from '../geometry/validateBoundary.js';
import { readYamlFile, findKeyPath, findKey, dig } from './yamlFile.js';
import { isIea37Document, iea37Turbine, iea37WindRose, iea37Boundary } from './iea37Format.js';
import { windFromNative, boundaryFromNative, windRoot, boundaryRoot, exclusionPath } from './nativeFormat.js';
import { turbineFromNative } from './nativeTurbine.js';
import { windPlausibility } from './plausibility.js';
import { turbineIssue, type TurbineIssue } from './turbinePlausibility.js';
import { isCsvPath, readTimeSeriesCsv } from './timeSeriesCsv.js';
import { errorAt, LocatedInputError, type FieldPath } from './sourceMap.js';
import { InputError } from '../util/errors.js';
import { WindioNode } from './windio/windioTree.js'; // windIO turbine files (src/io/windio/)
import { readTurbine as readWindioTurbine } from './windio/turbine.js';

/** Where a turbine problem ("cut-out speed …", "rated power …") points in an IEA37 turbine document. */
function iea37TurbinePath(doc: unknown, problem: string): FieldPath {
  const keys: [RegExp, string][] = [
    [/^rotor diameter/, 'diameter'],
    [/^hub height/, 'height'],
    [/^rated power/, 'rated_power'],
    [/^rated speed/, 'rated_wind_speed'],
    [/^cut-in/, 'cut_in_wind_speed'],
    [/^cut-out/, 'cut_out_wind_speed'],
  ];
  const key = keys.find(([re]) => re.test(problem))?.[1];
  if (key === undefined) return [];
  const defs = dig(doc, 'definitions');
  const found =
    findKeyPath(defs, key) ?? (key === 'diameter' ? findKeyPath(defs, 'radius') : null) ?? (key === 'rated_power' ? findKeyPath(defs, 'power') : null);
  return found ? ['definitions', ...found] : [];
}

const ISSUE_PROBE: Record<TurbineIssue['field'], string> = {
  ratedPower: 'rated power',
  diameter: 'rotor diameter',
  hubHeight: 'hub height',
  powerSpeeds: 'rated power',
  powerValues: 'rated power',
  ctSpeeds: '',
  ctValues: '',
};

/**
 * Run an IEA37 reader and give its errors (`file: rotor.radius.default: …`, field names as the
 * case-study files nest them) the line and full path: each named part of the field is looked up
 * below the previous one (`rotor` → `definitions.rotor`, then `radius` inside it, then `default`).
 */
export function withIea37Lines<T>(doc: unknown, file: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof InputError) || err instanceof LocatedInputError || !err.message.startsWith(`${file}: `)) throw err;
    const m = /^([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*|\[\d+\])*): (.*)$/.exec(err.message.slice(file.length + 2));
    if (!m) throw err;
    const parts = m[1].split(/\.|(?=\[)/).map((p) => (p.startsWith('[') ? Number(p.slice(1, -1)) : p));
    const path: (string | number)[] = [];
    let node: unknown = doc;
    for (const part of parts) {
      const direct = node !== null && typeof node === 'object' && Object.hasOwn(node, part) ? [part] : null;
      const found = direct ?? (typeof part === 'string' ? findKeyPath(node, part) : null);
      if (!found) throw err;
      path.push(...found);
      for (const step of found) node = (node as Record<string | number, unknown>)[step];
    }
    throw errorAt(doc, path, m[2], file);
  }
}

/**
 * A turbine document: native (nativeTurbine.ts, which checks it at its own fields and CSV lines)
 * or IEA37; `baseDir` anchors a native turbine's CSV curves (default: the file's folder).
 */
export function turbineFromDocument(doc: unknown, file: string, baseDir?: string): Turbine {
  if (!isIea37Document(doc)) return turbineFromNative(doc, file, baseDir);
  const t = withIea37Lines(doc, file, () => iea37Turbine(doc, file));
  const problem = turbineProblem(t);
  if (problem) throw errorAt(doc, iea37TurbinePath(doc, problem), problem, file);
  const issue = turbineIssue(t);
  if (issue) throw errorAt(doc, iea37TurbinePath(doc, ISSUE_PROBE[issue.field]), issue.message, file);
  return t;
}

/** Where a wind problem points: the probability table / sector frequencies, or the directions. */
function windFieldPath(doc: unknown, iea37: boolean, problem: string, file: string): FieldPath {
  if (iea37) {
    const defs = dig(doc, 'definitions');
    const key = /direction/.test(problem) ? 'bins' : 'frequency';
    const found = findKeyPath(defs, key) ?? findKeyPath(defs, 'probability');
    return found ? ['definitions', ...found] : [];
  }
  const { root, path } = windRoot(doc, file);
  if (/direction/.test(problem)) return [...path, 'wind_direction'];
  if (/speed/.test(problem) && !/probabilit/.test(problem)) return [...path, 'wind_speed'];
  const r = root as Record<string, unknown> | null;
  return [...path, r && typeof r === 'object' && 'probability' in r ? 'probability' : 'sector_probability'];
}

/** A wind document (IEA37 or native); `baseDir` anchors a native time series' CSV path (default: the file's folder). */
export function windFromDocument(doc: unknown, file: string, baseDir?: string): WindResource {
  const iea37 = isIea37Document(doc);
  const w = iea37 ? withIea37Lines(doc, file, () => iea37WindRose(doc, file)) : windFromNative(doc, file, baseDir);
  const problem = windResourceProblem(w);
  if (problem) throw errorAt(doc, windFieldPath(doc, iea37, problem, file), problem, file);
  const implausible = windPlausibility(w);
  if (implausible) {
    let at: FieldPath;
    if (implausible.quantity === 'directions') at = windFieldPath(doc, iea37, 'direction', file);
    else if (iea37) {
      const defs = dig(doc, 'definitions');
      const found =
        implausible.quantity === 'speeds'
          ? (findKeyPath(findKey(defs, 'speed'), 'bins') ?? findKeyPath(findKey(defs, 'speed'), 'default'))
          : findKeyPath(defs, 'turbulence_intensity');
      at = found ? ['definitions', ...(implausible.quantity === 'speeds' ? [...(findKeyPath(defs, 'speed') ?? []), ...found] : found)] : [];
    } else at = [...windRoot(doc, file).path, implausible.quantity === 'speeds' ? 'wind_speed' : 'turbulence_intensity'];
    const indexed = implausible.index !== undefined && implausible.quantity !== 'turbulence' && at.length > 0;
    throw errorAt(doc, indexed ? [...at, implausible.index!] : at, implausible.message, file);
  }
  return w;
}

export function boundaryFromDocument(doc: unknown, file: string): Boundary {
  const d = doc as Record<string, unknown> | null;
  const iea37 = !!d && typeof d === 'object' && 'boundaries' in d;
  const b = iea37 ? withIea37Lines(doc, file, () => iea37Boundary(doc, file)) : boundaryFromNative(doc, file);
  const problem = validateBoundary(b);
  if (problem) {
    const root = iea37 ? null : boundaryRoot(doc, file);
    // A problem of one exclusion zone (or hole) points at it.
    const zone = /exclusion zone '([^']*)'/.exec(problem)?.[1];
    const zoneIndex = zone !== undefined ? (b.exclusions ?? []).findIndex((e) => e.name === zone) : -1;
    if (!iea37 && zoneIndex >= 0) throw errorAt(doc, exclusionPath(doc, zoneIndex), problem, file);
    throw errorAt(doc, iea37 ? ['boundaries'] : root === doc ? [] : ['boundary'], problem, file);
  }
  for (const [i, zone] of (b.exclusions ?? []).entries()) {
    const zoneProblem = validateBoundary({ kind: 'polygon', vertices: zone.vertices });
    if (zoneProblem) throw errorAt(doc, exclusionPath(doc, i), `${zone.name}: ${zoneProblem}`, file);
  }
  return b;
}

/**
 * A turbine file. A full windIO turbine (power from a `Cp_curve`) is read by io/windio, which
 * knows windIO's other turbine fields; everything else by turbineFromDocument (strict native or
 * IEA37; a windIO turbine with a power curve is a native one). All get the same plausibility
 * checks (turbinePlausibility.ts). `parsed`: the file's document when the caller already read it.
 */
export function readTurbineFile(path: string, parsed?: unknown): Turbine {
  const doc = parsed ?? readYamlFile(path);
  const perf = doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>).performance : undefined;
  if (perf === null || typeof perf !== 'object' || !('Cp_curve' in perf)) return turbineFromDocument(doc, path);
  return readWindioTurbine(WindioNode.open(path)); // checked there, at windIO's fields
}

/** A wind file: a time-series CSV file, or a YAML wind document (IEA37 or native). */
export const readWindFile = (path: string): WindResource => (isCsvPath(path) ? readTimeSeriesCsv(path) : windFromDocument(readYamlFile(path), path));
export const readBoundaryFile = (path: string): Boundary => boundaryFromDocument(readYamlFile(path), path);
