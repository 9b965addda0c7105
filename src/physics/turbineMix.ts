/**
 * Which turbine is which in one evaluation of a farm with several turbine types or with fixed
 * neighbours (wakedAep.ts): every turbine's type, as an index into the evaluator's list of types,
 * and how many of the turbines are the farm's own. Turbines [0, own) are the farm's (their
 * positions are the design variables, their energy is the AEP); turbines [own, n) are fixed
 * neighbouring turbines, appended after them, whose wakes reach the farm and who are waked by it.
 */
export interface TurbineMix {
  /** Type of every turbine, own ones first then neighbours: index into the evaluator's types. */
  typeOf: Int32Array;
  /** Number of the farm's own turbines (the first `own` entries). */
  own: number;
}

/** The first problem with a mix for n turbines of `typeCount` types, or null. */
export function turbineMixProblem(mix: TurbineMix, n: number, typeCount: number): string | null {
  if (mix.typeOf.length !== n) return `${mix.typeOf.length} turbine types for ${n} turbines`;
  if (!(Number.isInteger(mix.own) && mix.own >= 0 && mix.own <= n)) return `own turbine count ${mix.own} is not in [0, ${n}]`;
  for (let i = 0; i < n; i++) {
    const t = mix.typeOf[i];
    if (!(t >= 0 && t < typeCount)) return `turbine ${i} has type ${t}, not one of the ${typeCount} types`;
  }
  return null;
}
