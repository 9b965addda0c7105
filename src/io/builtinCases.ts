/**
 * Built-in IEA Wind Task 37 cases, usable by name wherever a case is expected:
 * - iea37-cs1-16 / -36 / -64: 3.35 MW turbine (D = 130 m), 16-direction rose at 9.8 m/s, circular
 *   site of radius 1300 / 2000 / 3000 m, baseline ring layouts (case study 1).
 * - iea37-cs3: 10 MW turbine (D = 198 m), 20×20 rose, Borssele IIIa polygon (concave), 25 turbines.
 * - iea37-cs4: 10 MW turbine, 20×20 rose (the official cs4 rose; the 360×20 file can be given with
 *   --wind), five Borssele III/IV polygons, 81 turbines.
 * All use the IEA37 simplified Gaussian wake, root-sum-square superposition and 2D spacing.
 * Built-in turbines: the two IEA37 reference turbines, and `v80`, the Vestas V80 2 MW (D = 80 m,
 * hub 70 m) with the power and Ct tables of PyWake's Horns Rev 1 example (the same numbers as the
 * reference cases in test/data/reference/; linear interpolation, 0 outside 3–25 m/s, the table
 * value at exactly 25 m/s).
 */
import type { Turbine } from '../physics/turbine.js';
import { roseFromSectors, type WindResource } from '../physics/windResource.js';
import type { Boundary } from '../geometry/boundary.js';
import { InputError } from '../util/errors.js';
import type { Case } from '../case/case.js';
import * as data from './builtin/iea37Data.js';

/** Vestas V80 tables of PyWake's Horns Rev 1 example (speeds m/s, power W, Ct). */
const V80_SPEEDS = [3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25];
const V80_POWER_W = [
  0, 66600, 154000, 282000, 460000, 696000, 996000, 1341000, 1661000, 1866000, 1958000, 1988000, 1997000, 1999000, 2000000, 2000000, 2000000, 2000000, 2000000,
  2000000, 2000000, 2000000, 2000000,
];
const V80_CT = [
  0, 0.818, 0.806, 0.804, 0.805, 0.806, 0.807, 0.793, 0.739, 0.709, 0.409, 0.314, 0.249, 0.202, 0.167, 0.14, 0.119, 0.102, 0.088, 0.077, 0.067, 0.06, 0.053,
];

const TURBINES: Record<string, () => Turbine> = {
  'iea37-3.35mw': () => ({
    name: 'iea37-3.35mw',
    diameter: 130,
    hubHeight: 110,
    ratedPowerW: 3.35e6,
    cutIn: 4,
    cutOut: 25,
    power: { kind: 'cubic', ratedSpeed: 9.8 },
    thrust: { kind: 'constant', ct: 8 / 9 },
  }),
  'iea37-10mw': () => ({
    name: 'iea37-10mw',
    diameter: 198,
    hubHeight: 119,
    ratedPowerW: 10e6,
    cutIn: 4,
    cutOut: 25,
    power: { kind: 'cubic', ratedSpeed: 11 },
    thrust: { kind: 'constant', ct: 8 / 9 },
  }),
  v80: () => ({
    name: 'v80',
    diameter: 80,
    hubHeight: 70,
    ratedPowerW: 2e6,
    cutIn: 3,
    cutOut: 25,
    cutOutInclusive: true,
    power: { kind: 'table', speeds: Float64Array.from(V80_SPEEDS), powerW: Float64Array.from(V80_POWER_W) },
    thrust: { kind: 'table', speeds: Float64Array.from(V80_SPEEDS), ct: Float64Array.from(V80_CT), outside: 'zero' },
  }),
};

const WINDS: Record<string, () => WindResource> = {
  'iea37-cs1': () => roseFromSectors(data.CS1_DIRECTIONS, data.CS1_FREQUENCY, [9.8], null, 0.075),
  'iea37-cs3': () => roseFromSectors(data.CS3_DIRECTIONS, data.CS3_DIRECTION_FREQUENCY, data.CS3_SPEEDS, data.CS3_SPEED_FREQUENCY, 0.075),
};

const CS1_RADIUS: Record<number, number> = { 16: 1300, 36: 2000, 64: 3000 };
const CS1_BASELINES: Record<number, { x: number[]; y: number[]; aepMwh: number }> = {
  16: data.CS1_16_BASELINE,
  36: data.CS1_36_BASELINE,
  64: data.CS1_64_BASELINE,
};

function cs1(n: number): Case {
  const turbine = TURBINES['iea37-3.35mw']();
  const base = CS1_BASELINES[n];
  return {
    name: `iea37-cs1-${n}`,
    turbine,
    wind: WINDS['iea37-cs1'](),
    boundary: { kind: 'circle', center: [0, 0], radius: CS1_RADIUS[n] },
    nTurbines: n,
    minSpacing: 2 * turbine.diameter,
    model: { wake: 'iea37', superposition: 'sos' },
    layout: { x: Float64Array.from(base.x), y: Float64Array.from(base.y) },
    referenceAepMwh: base.aepMwh,
    refs: { turbine: 'iea37-335mw.yaml', wind: 'iea37-windrose.yaml' },
  };
}

function cs34(which: 3 | 4): Case {
  const turbine = TURBINES['iea37-10mw']();
  const polygons = Object.values(data.CS34_POLYGONS).map((p) => p.map(([x, y]) => [x, y] as const));
  const boundary: Boundary = which === 3 ? { kind: 'polygon', vertices: polygons[0] } : { kind: 'multipolygon', polygons };
  const base = which === 3 ? data.CS3_BASELINE : data.CS4_BASELINE;
  return {
    name: `iea37-cs${which}`,
    turbine,
    wind: WINDS['iea37-cs3'](),
    boundary,
    nTurbines: base.x.length,
    minSpacing: 2 * turbine.diameter,
    model: { wake: 'iea37', superposition: 'sos' },
    layout: { x: Float64Array.from(base.x), y: Float64Array.from(base.y) },
    referenceAepMwh: base.aepMwh,
    refs: { turbine: 'iea37-10mw.yaml', wind: 'iea37-windrose-cs3.yaml' },
  };
}

const CASES: Record<string, () => Case> = {
  'iea37-cs1-16': () => cs1(16),
  'iea37-cs1-36': () => cs1(36),
  'iea37-cs1-64': () => cs1(64),
  'iea37-cs3': () => cs34(3),
  'iea37-cs4': () => cs34(4),
};

export const BUILTIN_CASE_NAMES = Object.keys(CASES);
export const BUILTIN_TURBINE_NAMES = Object.keys(TURBINES);
export const BUILTIN_WIND_NAMES = Object.keys(WINDS);

// Own keys only: `toString` is in every object.
export const isBuiltinCase = (name: string): boolean => Object.hasOwn(CASES, name);
export const isBuiltinTurbine = (name: string): boolean => Object.hasOwn(TURBINES, name);
export const isBuiltinWind = (name: string): boolean => Object.hasOwn(WINDS, name);

export function builtinCase(name: string): Case {
  const make = CASES[name];
  if (!make) throw new InputError(`unknown built-in case '${name}' (known: ${BUILTIN_CASE_NAMES.join(', ')})`);
  return make();
}

export function builtinTurbine(name: string): Turbine {
  const make = TURBINES[name];
  if (!make) throw new InputError(`unknown built-in turbine '${name}' (known: ${BUILTIN_TURBINE_NAMES.join(', ')})`);
  return make();
}

export function builtinWind(name: string): WindResource {
  const make = WINDS[name];
  if (!make) throw new InputError(`unknown built-in wind resource '${name}' (known: ${BUILTIN_WIND_NAMES.join(', ')})`);
  return make();
}
