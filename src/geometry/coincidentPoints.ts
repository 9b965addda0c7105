/**
 * Points of a given layout that cannot be a design: two turbines at the same point, or a turbine
 * on a substation. Neither is a spacing violation to repair: two turbines at one point have no
 * direction to be pushed apart in (a repair would move one of them by an arbitrary amount and call
 * the result feasible), and a turbine on a substation gets a zero-length cable with the other
 * cables to that substation passing through its foundation. So every door that takes a layout
 * refuses them with one line naming the indices (0-based, as every layout message of wflo):
 * `wflo aep`, an optimization from a given layout (any method, `none` included; a campaign row
 * whose farm starts from its layout), the gate of a campaign row, and the cable router's input.
 *
 * Distances: turbines closer than COINCIDENT_M (1 mm) are coincident; a turbine closer than
 * SUBSTATION_CLEARANCE_M (1 m) to a substation is on it. Both are far below any layout's spacing
 * (hundreds of metres) and any substation platform, so no real layout is refused; they catch the
 * same coordinates written twice, a turbine placed at the substation's coordinates, and rounding.
 * The pair search is all pairs, O(n²): 10⁶ distance tests for 1000 turbines, a few milliseconds.
 */
export const COINCIDENT_M = 1e-3;
export const SUBSTATION_CLEARANCE_M = 1;

/** The first pair (i < j, by i then j) closer than `epsM`, with its distance, or null. */
export function coincidentPair(x: ArrayLike<number>, y: ArrayLike<number>, epsM = COINCIDENT_M): { i: number; j: number; distanceM: number } | null {
  const n = x.length;
  const eps2 = epsM * epsM;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = x[i] - x[j],
        dy = y[i] - y[j];
      const d2 = dx * dx + dy * dy;
      if (d2 < eps2) return { i, j, distanceM: Math.sqrt(d2) };
    }
  }
  return null;
}

/** The first turbine closer than `clearanceM` to a substation (by turbine, then substation), or null. */
export function turbineOnSubstation(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  substations: readonly (readonly [number, number])[],
  clearanceM = SUBSTATION_CLEARANCE_M,
): { turbine: number; substation: number; distanceM: number } | null {
  for (let i = 0; i < x.length; i++) {
    for (let k = 0; k < substations.length; k++) {
      const d = Math.hypot(x[i] - substations[k][0], y[i] - substations[k][1]);
      if (d < clearanceM) return { turbine: i, substation: k, distanceM: d };
    }
  }
  return null;
}

/** The one-line problem of a layout's points ("turbines 3 and 7 (0-based) are at the same point …"), or null. */
export function coincidentProblem(x: ArrayLike<number>, y: ArrayLike<number>, substations: readonly (readonly [number, number])[] = []): string | null {
  const pair = coincidentPair(x, y);
  if (pair) {
    return `turbines ${pair.i} and ${pair.j} (0-based) are at the same point (${x[pair.i]}, ${y[pair.i]}) (${pair.distanceM.toExponential(2)} m apart, less than ${COINCIDENT_M} m): two turbines cannot stand at one point; remove one or give each its own position`;
  }
  const on = turbineOnSubstation(x, y, substations);
  if (on) {
    const s = substations[on.substation];
    return `turbine ${on.turbine} (0-based) at (${x[on.turbine]}, ${y[on.turbine]}) is on substation ${on.substation} (0-based) at (${s[0]}, ${s[1]}) (${on.distanceM.toFixed(3)} m apart, less than ${SUBSTATION_CLEARANCE_M} m): a turbine cannot stand on a substation; move one of them`;
  }
  return null;
}
