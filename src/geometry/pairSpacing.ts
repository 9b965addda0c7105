/**
 * Minimum spacing when a farm has several turbine models. Each model has its own minimum spacing
 * (its `min_spacing_diameters` times its own rotor diameter, or `min_spacing_m`); a pair of turbines
 * must stand at least the LARGER of its two turbines' spacings apart:
 *
 *   s_ij = max(s_type(i), s_type(j))
 *
 * so a large turbine keeps its clearance from every neighbour, whatever that neighbour's size,
 * and two small turbines may stand at their own (smaller) distance. A farm of one model is the
 * special case s_ij = s. The optimizer's constraints, its feasibility check and the campaign gate
 * all use this rule (one function, here).
 */

/** One spacing for every pair (metres), or each turbine's own spacing (a pair keeps the larger). */
export type SpacingRule = number | Float64Array;

/** The minimum distance between turbines i and j, metres. */
export function pairMinimum(rule: SpacingRule, i: number, j: number): number {
  if (typeof rule === 'number') return rule;
  const a = rule[i]!,
    b = rule[j]!;
  return a > b ? a : b;
}

/** The largest pair minimum of the rule (what a start that ignores types must keep). */
export function largestSpacing(rule: SpacingRule): number {
  if (typeof rule === 'number') return rule;
  let s = 0;
  for (let i = 0; i < rule.length; i++) if (rule[i]! > s) s = rule[i]!;
  return s;
}

/** Each turbine's spacing from its model's spacing: byType[typeOf[i]]. */
export function spacingByTurbine(byType: ArrayLike<number>, typeOf: ArrayLike<number>): Float64Array {
  return Float64Array.from(typeOf as ArrayLike<number>, (t) => byType[t]!);
}
