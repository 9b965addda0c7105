/**
 * The `directions:` field of case files and campaign farms, and `--directions` of `wflo aep` and
 * `wflo optimize`: how a wind resource's directions are treated before the AEP is computed
 * (physics/directionTreatment.ts). One reader for every place it is written:
 *
 *   directions: bins                               # the rose's bins as listed (default; the benchmark measure)
 *   directions: {spread: 20}                       # each bin spread evenly over its width in 20 sub-directions
 *   directions: {gaussian: {sigma_deg: 5, points: 11}}   # direction uncertainty, N(0, σ²) on 11 points over ±3σ
 *   directions: {refine_deg: 1}                    # the rose's frequencies interpolated to every 1°
 *
 *   --directions bins | spread:N | gaussian:SIGMA:N | refine:STEP
 *
 * A time series has no bins: spread and refine are refused for it, gaussian spreads each sample.
 */
import type { DirectionTreatment } from '../physics/directionTreatment.js';
import type { WindResource } from '../physics/windResource.js';
import { InputError } from '../util/errors.js';
import { unknownKeyMessage } from './didYouMean.js';
import { errorAt, type FieldPath } from './sourceMap.js';
import { excerpt } from '../util/printable.js';

/** Most sub-directions per bin (spread, gaussian points): 16 bins × 1000 is already 16 000 directions. */
export const MAX_DIRECTION_POINTS = 1000;
/** The finest refinement step, degrees (3 600 directions). */
export const MIN_REFINE_DEG = 0.1;

const FORMS = 'bins, {spread: N}, {gaussian: {sigma_deg: S, points: N}} or {refine_deg: STEP}';
const KINDS = ['spread', 'gaussian', 'refine_deg'];

/** A problem with a whole number of points, or null. */
function pointsProblem(v: unknown, what: string): string | null {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_DIRECTION_POINTS) {
    return `expected a whole number of ${what} from 1 to ${MAX_DIRECTION_POINTS}, got ${excerpt(String(v))}`;
  }
  return null;
}

function sigmaProblem(v: unknown): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0 || v > 60)
    return `expected a standard deviation in degrees, above 0 and at most 60, got ${excerpt(String(v))}`;
  return null;
}

function refineProblem(v: unknown): string | null {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < MIN_REFINE_DEG || v > 360)
    return `expected a step in degrees from ${MIN_REFINE_DEG} to 360, got ${excerpt(String(v))}`;
  const m = 360 / v;
  if (Math.abs(m - Math.round(m)) > 1e-9 * m) return `${v}° does not divide 360° (the refined rose must close up)`;
  return null;
}

/**
 * The `directions` value of a YAML document: `root` is the raw parsed document and `at` the
 * field's path in it (for `file:line: farms[0].directions.spread: …`).
 */
export function readDirectionsField(value: unknown, root: unknown, at: FieldPath, file: string): DirectionTreatment {
  const fail = (rest: FieldPath, message: string, keyOf = false): never => {
    throw errorAt(root, [...at, ...rest], message, file, keyOf);
  };
  if (value === 'bins') return { kind: 'bins' };
  if (typeof value === 'string') {
    const near = ['bins', ...KINDS].find((k) => k === value.trim().toLowerCase());
    return fail([], `expected ${FORMS}, got '${excerpt(value)}'${near && near !== 'bins' ? `; write {${near}: …}` : ''}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return fail([], `expected ${FORMS}`);
  const keys = Object.keys(value);
  for (const k of keys) if (!KINDS.includes(k)) fail([k], unknownKeyMessage(k, KINDS), true);
  if (keys.length !== 1) return fail([], `give one of spread, gaussian, refine_deg (got ${keys.length === 0 ? 'none' : keys.join(' and ')})`);
  const v = (value as Record<string, unknown>)[keys[0]];
  if (keys[0] === 'spread') {
    const p = pointsProblem(v, 'sub-directions per bin');
    return p ? fail(['spread'], p) : { kind: 'spread', n: v as number };
  }
  if (keys[0] === 'refine_deg') {
    const p = refineProblem(v);
    return p ? fail(['refine_deg'], p) : { kind: 'refine', stepDeg: v as number };
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return fail(['gaussian'], 'expected {sigma_deg: S, points: N}');
  const g = v as Record<string, unknown>;
  for (const k of Object.keys(g)) if (k !== 'sigma_deg' && k !== 'points') fail(['gaussian', k], unknownKeyMessage(k, ['sigma_deg', 'points']), true);
  if (g.sigma_deg === undefined) fail(['gaussian'], 'sigma_deg: missing (the standard deviation in degrees)');
  if (g.points === undefined) fail(['gaussian'], 'points: missing (how many directions discretise the Gaussian)');
  const ps = sigmaProblem(g.sigma_deg);
  if (ps) fail(['gaussian', 'sigma_deg'], ps);
  const pp = pointsProblem(g.points, 'points');
  if (pp) fail(['gaussian', 'points'], pp);
  return { kind: 'gaussian', sigmaDeg: g.sigma_deg as number, n: g.points as number };
}

/** `--directions bins|spread:N|gaussian:SIGMA:N|refine:STEP`. */
export function parseDirectionsFlag(text: string, flag = '--directions'): DirectionTreatment {
  const parts = text.trim().split(':');
  const num = (s: string | undefined): number => (s === undefined || s.trim() === '' ? NaN : Number(s));
  const bad = (message: string): never => {
    throw new InputError(`${flag}: ${message}`);
  };
  const usage = 'expected bins, spread:N, gaussian:SIGMA:N or refine:STEP';
  switch (parts[0]) {
    case 'bins':
      if (parts.length !== 1) bad(`${usage}, got '${excerpt(text)}'`);
      return { kind: 'bins' };
    case 'spread': {
      if (parts.length !== 2) bad(`${usage}, got '${excerpt(text)}'`);
      const n = num(parts[1]);
      const p = pointsProblem(n, 'sub-directions per bin');
      return p ? bad(`spread: ${p.replace(/got .*$/, `got '${excerpt(parts[1])}'`)}`) : { kind: 'spread', n };
    }
    case 'gaussian': {
      if (parts.length !== 3) bad(`${usage}, got '${excerpt(text)}'`);
      const sigma = num(parts[1]),
        n = num(parts[2]);
      const ps = sigmaProblem(sigma);
      if (ps) bad(`gaussian: sigma: ${ps.replace(/got .*$/, `got '${excerpt(parts[1])}'`)}`);
      const pp = pointsProblem(n, 'points');
      if (pp) bad(`gaussian: points: ${pp.replace(/got .*$/, `got '${excerpt(parts[2])}'`)}`);
      return { kind: 'gaussian', sigmaDeg: sigma, n };
    }
    case 'refine': {
      if (parts.length !== 2) bad(`${usage}, got '${excerpt(text)}'`);
      const step = num(parts[1]);
      const p = refineProblem(step);
      return p ? bad(`refine: ${p.replace(/got .*$/, `got '${excerpt(parts[1])}'`)}`) : { kind: 'refine', stepDeg: step };
    }
    default: {
      const near = ['bins', 'spread', 'gaussian', 'refine'].find((k) => k.startsWith(parts[0].slice(0, 3)) && parts[0].length > 0);
      return bad(`${usage}, got '${excerpt(text)}'${near ? `; did you mean '${near}'?` : ''}`);
    }
  }
}

/** Why the treatment cannot apply to this wind (a time series has no bins to spread or refine), or null. */
export function directionsProblem(t: DirectionTreatment, wind: WindResource, form: 'field' | 'flag' = 'field'): string | null {
  if (wind.series && (t.kind === 'spread' || t.kind === 'refine')) {
    const name = t.kind === 'spread' ? 'spread' : form === 'field' ? 'refine_deg' : 'refine';
    const instead = form === 'field' ? '{gaussian: {sigma_deg: S, points: N}}' : 'gaussian:SIGMA:N';
    return `${name} needs a binned rose; a time series has no bins (use ${instead} to spread every sample)`;
  }
  return null;
}

/** The treatment as the field is written (for JSON output, result files and the ledger). */
export function directionsDocument(t: DirectionTreatment): string | Record<string, unknown> {
  switch (t.kind) {
    case 'bins':
      return 'bins';
    case 'spread':
      return { spread: t.n };
    case 'gaussian':
      return { gaussian: { sigma_deg: t.sigmaDeg, points: t.n } };
    case 'refine':
      return { refine_deg: t.stepDeg };
  }
}

/** The treatment as the flag is written (`spread:20`). */
export function directionsFlag(t: DirectionTreatment): string {
  switch (t.kind) {
    case 'bins':
      return 'bins';
    case 'spread':
      return `spread:${t.n}`;
    case 'gaussian':
      return `gaussian:${t.sigmaDeg}:${t.n}`;
    case 'refine':
      return `refine:${t.stepDeg}`;
  }
}

/** In words, for text output: which measure an AEP is on. */
export function describeDirections(t: DirectionTreatment): string {
  switch (t.kind) {
    case 'bins':
      return 'the bins as listed (benchmark measure)';
    case 'spread':
      return `each bin spread over its width in ${t.n} sub-directions`;
    case 'gaussian':
      return `direction uncertainty σ = ${t.sigmaDeg}° on ${t.n} points over ±3σ`;
    case 'refine':
      return `rose refined to every ${t.stepDeg}°`;
  }
}
