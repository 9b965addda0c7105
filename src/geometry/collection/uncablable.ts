/**
 * Why a layout cannot be cabled, in one line naming the turbines (0-based indices into the
 * layout), and the error that carries it. Called only after the router found no valid network
 * (routeCollection.ts), so its cost (all pairs, O(n²) segment tests against the zones) is paid
 * on failure alone.
 *
 * The reasons, checked in this order:
 *  - exclusion zones: in the graph of every straight segment that crosses no zone (turbine–turbine
 *    and turbine–substation, not only the router's 12 nearest neighbours), the turbines no path
 *    joins to a substation can never be connected; the zones their own substation segments cross
 *    are named;
 *  - capacity: a group of such joined turbines whose members with an open segment to a substation
 *    are too few to carry them all (each feeder from a substation holds at most the largest cable's
 *    capacity): k open feeders × capacity < the group's size;
 *  - otherwise the router's own limits: the turbines without an open segment to any substation,
 *    which must hang from others within 12 nearest neighbours, the capacity and without crossings.
 *
 * UncablableLayout is permanent (the router is deterministic: the same layout fails again), so a
 * campaign records the task as failed at once; as a command's error it is a runtime failure (exit 1).
 */
import { RuntimeFailure } from '../../util/errors.js';
import type { CollectionInput } from './collectionInput.js';
import { blockingZone } from './exclusionBlock.js';

export class UncablableLayout extends RuntimeFailure {
  readonly permanent = true;
  /** The turbines (0-based) the diagnosis names. */
  readonly turbines: readonly number[];
  constructor(message: string, turbines: readonly number[]) {
    super(message);
    this.turbines = turbines;
  }
}

/** At most this many indices in a message, then "… (N in all)". */
const LISTED = 12;

export function turbineList(turbines: readonly number[]): string {
  const shown = turbines.slice(0, LISTED).join(', ');
  const more = turbines.length > LISTED ? `, … (${turbines.length} in all)` : '';
  return `${turbines.length === 1 ? 'turbine' : 'turbines'} ${shown}${more} (0-based)`;
}

export interface CablingDiagnosis {
  turbines: number[];
  /** One line: which turbines cannot connect and why. */
  reason: string;
}

export function diagnoseUncablable(input: CollectionInput): CablingDiagnosis {
  const { x, y } = input.turbines;
  const n = x.length;
  const subs = input.substations;
  const zones = input.exclusions ?? [];
  const capacity = Math.max(...input.cables.map((c) => c.capacity));
  const open = (ax: number, ay: number, bx: number, by: number): boolean => zones.length === 0 || blockingZone(zones, ax, ay, bx, by) === undefined;
  const gate = Array.from({ length: n }, (_, i) => subs.some((s) => open(x[i], y[i], s[0], s[1])));
  // Groups of turbines joined by open segments (union–find over every pair).
  const root = Int32Array.from({ length: n }, (_, i) => i);
  const find = (i: number): number => {
    while (root[i] !== i) {
      root[i] = root[root[i]];
      i = root[i];
    }
    return i;
  };
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      if (find(i) !== find(j) && open(x[i], y[i], x[j], y[j])) root[find(i)] = find(j);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const g = find(i);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(i);
  }
  const cut: number[] = [];
  const zonesNamed = new Set<string>();
  const short: { members: number[]; gates: number }[] = [];
  for (const members of groups.values()) {
    const gates = members.filter((i) => gate[i]).length;
    if (gates === 0) {
      cut.push(...members);
      for (const i of members)
        for (const s of subs) {
          const z = blockingZone(zones, x[i], y[i], s[0], s[1]);
          if (z) zonesNamed.add(z.name);
        }
    } else if (gates * capacity < members.length) short.push({ members, gates });
  }
  cut.sort((a, b) => a - b);
  if (cut.length > 0) {
    const names = [...zonesNamed].map((z) => `"${z}"`).join(', ');
    const zoneWord = zonesNamed.size === 1 ? 'exclusion zone' : 'exclusion zones';
    return {
      turbines: cut,
      reason: `${turbineList(cut)} cannot reach a substation: every straight cable from ${cut.length === 1 ? 'it' : 'them'} to a substation, or to a turbine that reaches one, crosses ${zoneWord} ${names}`,
    };
  }
  if (short.length > 0) {
    const members = short.flatMap((g) => g.members.filter((i) => !gate[i])).sort((a, b) => a - b);
    const g = short[0];
    return {
      turbines: members,
      reason: `${turbineList(members)} cannot reach a substation within the cable capacity: their group of ${g.members.length} turbines has ${g.gates} with an open cable to a substation (past the exclusion zones), and a feeder carries at most ${capacity} (the largest cable's capacity)`,
    };
  }
  const hanging = Array.from({ length: n }, (_, i) => i).filter((i) => !gate[i]);
  if (hanging.length > 0) {
    return {
      turbines: hanging,
      reason: `${turbineList(hanging)} ${hanging.length === 1 ? 'has' : 'have'} no open cable to a substation (exclusion zones) and the router found no way to hang them from other turbines (12 nearest neighbours, cable capacity ${capacity}, no crossings)`,
    };
  }
  return {
    turbines: [],
    reason: `the router found no crossing-free network within the cable capacity ${capacity} although every turbine has an open cable to a substation`,
  };
}
