/**
 * The input of a collection-system routing and its checks: turbine coordinates, one or more
 * substations, a cable catalogue and optional exclusion zones, all in metres in the layout's frame.
 * Bad input is one InputError line naming the field (`source: field: what is wrong`).
 */
import { InputError } from '../../util/errors.js';
import type { ExclusionZone, Point } from '../boundary.js';
import type { CableType } from './cableCatalogue.js';
import { insidePolygon } from './exclusionBlock.js';
import { coincidentProblem } from '../coincidentPoints.js';

export interface CollectionInput {
  turbines: { x: ArrayLike<number>; y: ArrayLike<number> };
  substations: readonly Point[];
  cables: readonly CableType[];
  /** Zones no cable may pass through (straight segments through them are refused). */
  exclusions?: readonly ExclusionZone[];
  /**
   * A network to start from, as a parent array (turbine i's next node: a turbine index < n, or n + k
   * for substation k): a suggestion the router checks and may improve or replace
   * (routeCollection.ts), never trusted.
   */
  start?: ArrayLike<number>;
  /** Where the input came from, the prefix of error messages (default "collection"). */
  source?: string;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** Throws an InputError for the first problem of the input. */
export function checkCollectionInput(input: CollectionInput): void {
  const where = input.source ?? 'collection';
  const fail = (field: string, what: string): never => {
    throw new InputError(`${where}: ${field}: ${what}`);
  };
  const { x, y } = input.turbines;
  if (x.length !== y.length) fail('turbines', `x has ${x.length} values, y has ${y.length}`);
  if (x.length === 0) fail('turbines', 'no turbines to connect');
  for (let i = 0; i < x.length; i++) {
    if (!finite(x[i]) || !finite(y[i])) fail(`turbines[${i}]`, `coordinates must be finite numbers of metres, got (${x[i]}, ${y[i]})`);
  }
  if (!Array.isArray(input.substations) || input.substations.length === 0) fail('substations', 'at least one substation is needed');
  input.substations.forEach((s, k) => {
    if (!Array.isArray(s) || s.length !== 2 || !finite(s[0]) || !finite(s[1])) fail(`substations[${k}]`, `must be [x, y] in metres, got ${JSON.stringify(s)}`);
  });
  if (!Array.isArray(input.cables) || input.cables.length === 0) fail('cables', 'no cable type given; at least one (name, capacity, costPerMetre) is needed');
  input.cables.forEach((c, t) => {
    if (typeof c?.name !== 'string' || c.name === '') fail(`cables[${t}].name`, 'must be a non-empty string');
    if (!Number.isInteger(c.capacity) || c.capacity < 1) fail(`cables[${t}].capacity`, `must be a whole number of turbines >= 1, got ${c.capacity}`);
    if (!finite(c.costPerMetre) || c.costPerMetre <= 0) fail(`cables[${t}].costPerMetre`, `must be a finite number > 0, got ${c.costPerMetre}`);
  });
  // Two turbines at one point, or a turbine on a substation: a zero-length cable (coincidentPoints.ts).
  const points = coincidentProblem(x, y, input.substations);
  if (points) fail('turbines', points);
  for (const zone of input.exclusions ?? []) {
    input.substations.forEach((s, k) => {
      if (insidePolygon(zone.vertices, s[0], s[1]))
        fail(`substations[${k}]`, `(${s[0]}, ${s[1]}) lies inside exclusion zone "${zone.name}"; no cable could reach it`);
    });
    for (let i = 0; i < x.length; i++) {
      if (insidePolygon(zone.vertices, x[i], y[i]))
        fail(`turbines[${i}]`, `(${x[i]}, ${y[i]}) lies inside exclusion zone "${zone.name}"; no cable could reach it`);
    }
  }
}
