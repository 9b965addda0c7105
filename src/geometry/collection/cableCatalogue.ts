/**
 * The cable catalogue of a collection system: cable types, each carrying up to `capacity`
 * turbines' power at `costPerMetre`. An edge carrying `load` turbines gets the cheapest type whose
 * capacity covers the load (ties: the first such type in catalogue order).
 */
export interface CableType {
  name: string;
  /** How many turbines' power the cable carries, a whole number >= 1. */
  capacity: number;
  /** Installed cost per metre of route (any currency, the same for every type), > 0. */
  costPerMetre: number;
}

/** Per load 0..maxCapacity, the index of the cheapest type covering it (-1 for load 0). */
export interface CableChoice {
  maxCapacity: number;
  typeForLoad: Int32Array;
  costForLoad: Float64Array;
}

export function cableChoice(cables: readonly CableType[]): CableChoice {
  const maxCapacity = Math.max(...cables.map((c) => c.capacity));
  const typeForLoad = new Int32Array(maxCapacity + 1).fill(-1);
  const costForLoad = new Float64Array(maxCapacity + 1);
  for (let load = 1; load <= maxCapacity; load++) {
    let best = -1;
    for (let t = 0; t < cables.length; t++) {
      if (cables[t].capacity >= load && (best < 0 || cables[t].costPerMetre < cables[best].costPerMetre)) best = t;
    }
    typeForLoad[load] = best;
    costForLoad[load] = cables[best].costPerMetre;
  }
  return { maxCapacity, typeForLoad, costForLoad };
}
