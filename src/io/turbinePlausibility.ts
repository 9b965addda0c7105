/**
 * Turbine numbers that parse but cannot be meant, one set of rules for every door a turbine comes
 * through: native and IEA37 YAML (readers.ts, nativeTurbine.ts), CSV curves (curveCsv.ts), windIO
 * turbines (windio/turbine.ts) and PyWake reference files (referenceCase.ts). Each rule returns
 * the quantity it is about (`field`, and the table index where there is one) and a message with
 * the likely slip; the door turns the field into its own path, line and file.
 *
 * The bounds and why (docs/inputs.md, "Turbines: plausibility", says the same):
 * - rated power >= 1 kW and rotor diameter >= 1 m (W and m expected; smaller values are MW, kW, km);
 * - rotor diameter and hub height <= 400 m (built: ~260 m rotors, ~200 m hubs; larger is cm or feet);
 * - hub height >= D/2 (the blade tips clear the ground);
 * - rated power per swept area in [50, 1500] W/m². Turbines built span about 150–600 W/m²
 *   (GE 1.7-103: 204, IEA 3.35 MW/130 m: 252, IEA 10 MW/198 m: 325, IEA 15 MW/240 m: 332,
 *   V80 2 MW: 398, NREL 5 MW/126 m: 401, Enercon E-126 7.58 MW: 598), so the band has a factor
 *   3 below and 2.5 above; a W/kW slip is a factor 1000 and always lands outside;
 * - power and Ct tables: speeds >= 0, power >= 0, 0 <= Ct <= 1.2. Momentum theory's largest
 *   thrust coefficient is 1 (axial induction 1/2); tables of operating rotors reach about 1.0 near
 *   cut-in (FLORIS's NREL 5 MW 0.99, V80 0.818, IEA 15 MW 0.835); higher values belong to the
 *   turbulent-wake state of a rotor braking the flow, or to a slip (a Ct in percent, a thrust in kN);
 * - the largest value of a power curve and `rated_power`, when both are given, agree within 10 %
 *   (a Cp-derived curve peaks at aerodynamic power, up to ~7 % above the electrical rating); a
 *   factor near 1000 or 10⁶ is named as the W/kW/MW slip it is;
 * - no tabulated power (nor a cubic curve's rated power at its rated speed) above the Betz limit
 *   ½·ρ·(16/27)·A·V³ at ρ = 1.4 kg/m³ (air at about −25 °C at sea level): a radius given as the
 *   diameter, or a rotor 2× too small, fails here.
 */
import type { Turbine } from '../physics/turbine.js';

export type TurbineField = 'ratedPower' | 'diameter' | 'hubHeight' | 'powerSpeeds' | 'powerValues' | 'ctSpeeds' | 'ctValues';

/** A turbine problem: the quantity (and table index) it is about and what is wrong. */
export interface TurbineIssue {
  field: TurbineField;
  index?: number;
  message: string;
}

export const MIN_RATED_POWER_W = 1000;
export const MIN_ROTOR_DIAMETER_M = 1;
/** Largest rotor diameter and hub height, m (built: ~260 m rotors, ~200 m hubs). */
export const MAX_SIZE_M = 400;
/** Plausible rated power per rotor swept area, W/m². */
export const SPECIFIC_POWER_W_PER_M2 = { min: 50, max: 1500 } as const;
/** Largest thrust coefficient a table may hold. */
export const MAX_TABLE_CT = 1.2;
/** Relative difference allowed between a power curve's largest value and `rated_power`. */
export const RATED_POWER_TOLERANCE = 0.1;
/** Air density of the Betz-limit check, kg/m³ (cold air at sea level; ISA is 1.225). */
export const BETZ_AIR_DENSITY = 1.4;

export type PowerUnit = 'W' | 'kW' | 'MW';
export const POWER_UNITS: Readonly<Record<PowerUnit, number>> = { W: 1, kW: 1e3, MW: 1e6 };

export interface TurbineCheckOptions {
  /** False when the rated power was taken from the power curve's maximum (then only the curve is checked). */
  ratedPowerGiven?: boolean;
  /** The unit the file gave its power values in (messages then show numbers as written). */
  powerUnit?: PowerUnit;
  /** Whether the file's format has `power_unit` (native turbines; windIO and reference files are in W). */
  powerUnitOption?: boolean;
}

const swept = (diameter: number): number => (Math.PI * diameter * diameter) / 4;
const betzW = (diameter: number, speed: number): number => 0.5 * BETZ_AIR_DENSITY * (16 / 27) * swept(diameter) * speed ** 3;
const short = (v: number): string => String(+v.toPrecision(6));

const inBand = (specific: number): boolean => specific >= SPECIFIC_POWER_W_PER_M2.min && specific <= SPECIFIC_POWER_W_PER_M2.max;

/** The larger unit than `unit` that puts `specific` (W/m²) into the band ('kW' when 1000× it fits, …), or null. */
function slipUnit(specific: number, unit: PowerUnit): PowerUnit | null {
  for (const u of ['kW', 'MW'] as const) {
    if (POWER_UNITS[u] > POWER_UNITS[unit] && inBand((specific * POWER_UNITS[u]) / POWER_UNITS[unit])) return u;
  }
  return null;
}

/** The first implausible number of a turbine (after the physics' own checks, turbineProblem), or null. */
export function turbineIssue(t: Turbine, options: TurbineCheckOptions = {}): TurbineIssue | null {
  const ratedGiven = options.ratedPowerGiven ?? true;
  const unit = options.powerUnit ?? 'W';
  const scale = POWER_UNITS[unit];
  const unitOption = options.powerUnitOption ?? true;
  const written = (w: number): string => (unit === 'W' ? `${short(w)} W` : `${short(w / scale)} ${unit} (${short(w)} W)`);
  const table = t.power.kind === 'table' ? t.power : null;
  let peakIndex = -1;
  if (table) for (let i = 0; i < table.powerW.length; i++) if (peakIndex < 0 || table.powerW[i] > table.powerW[peakIndex]) peakIndex = i;
  const ratedField: Pick<TurbineIssue, 'field' | 'index'> = ratedGiven || !table ? { field: 'ratedPower' } : { field: 'powerValues', index: peakIndex };
  const ratedName = ratedGiven || !table ? 'rated power' : "the power curve's largest value (the rated power)";

  if (t.ratedPowerW < MIN_RATED_POWER_W && unit === 'W') {
    const slip = t.ratedPowerW < 100 ? 'MW' : 'kW';
    return { ...ratedField, message: `${ratedName} ${t.ratedPowerW} W is below 1 kW: W expected; ${t.ratedPowerW} looks like ${slip}` };
  }
  if (t.diameter < MIN_ROTOR_DIAMETER_M) {
    return { field: 'diameter', message: `rotor diameter ${t.diameter} m is below 1 m: metres expected; ${t.diameter} looks like km` };
  }
  if (t.diameter > MAX_SIZE_M || t.hubHeight > MAX_SIZE_M) {
    const [what, field, v] = t.diameter > MAX_SIZE_M ? ['rotor diameter', 'diameter' as const, t.diameter] : ['hub height', 'hubHeight' as const, t.hubHeight];
    return {
      field,
      message: `${what} ${v} m is above ${MAX_SIZE_M} m (the largest rotors built are about 260 m, the tallest hubs about 200 m): metres expected; ${v} looks like cm or feet`,
    };
  }
  if (t.hubHeight < t.diameter / 2) {
    return {
      field: 'hubHeight',
      message: `hub height ${t.hubHeight} m is below half the rotor diameter (${t.diameter} m): the blades would hit the ground (metres expected for both)`,
    };
  }
  const tables: [Float64Array, Float64Array, 'powerSpeeds' | 'ctSpeeds', 'powerValues' | 'ctValues'][] = [];
  if (table) tables.push([table.speeds, table.powerW, 'powerSpeeds', 'powerValues']);
  if (t.thrust.kind === 'table') tables.push([t.thrust.speeds, t.thrust.ct, 'ctSpeeds', 'ctValues']);
  for (const [speeds, values, speedField, valueField] of tables) {
    for (let i = 0; i < speeds.length; i++) {
      if (!(speeds[i] >= 0)) return { field: speedField, index: i, message: `wind speed ${speeds[i]} m/s must be >= 0` };
      const v = values[i];
      if (valueField === 'powerValues' && !(v >= 0)) return { field: valueField, index: i, message: `power ${written(v)} at ${speeds[i]} m/s must be >= 0` };
      if (valueField === 'ctValues' && !(v >= 0 && v <= MAX_TABLE_CT)) {
        const hint =
          v >= 5 && v <= 100 * MAX_TABLE_CT
            ? `: a fraction expected; ${v} looks like percent`
            : v > MAX_TABLE_CT
              ? ": an operating rotor's thrust coefficient is at most about 1 (momentum theory: 1 at induction 1/2)"
              : ': a thrust coefficient cannot be negative';
        return { field: valueField, index: i, message: `thrust coefficient ${v} at ${speeds[i]} m/s is outside [0, ${MAX_TABLE_CT}]${hint}` };
      }
    }
  }
  const area = swept(t.diameter);
  if (table && ratedGiven) {
    const peak = table.powerW[peakIndex];
    const ratio = peak / t.ratedPowerW;
    if (!(Math.abs(ratio - 1) <= RATED_POWER_TOLERANCE)) {
      const factor = ratio >= 1 ? ratio : 1 / ratio;
      const slip = [
        [1e3, 'kW'],
        [1e6, 'MW'],
      ].find(([f]) => factor >= (f as number) / 1.5 && factor <= (f as number) * 1.5);
      if (slip) {
        // The side that is off by the factor is the one whose specific power leaves the band.
        const curveOff = inBand(t.ratedPowerW / area) || !inBand(peak / area) ? ratio < 1 : false;
        const times = `${short(factor)} times ${ratio < 1 ? 'more' : 'less'}`;
        const what = curveOff ? `the power curve looks like ${slip[1]}` : `rated_power looks like ${slip[1]}`;
        return {
          ...(curveOff ? { field: 'powerValues' as const, index: peakIndex } : { field: 'ratedPower' as const }),
          message: `the power curve peaks at ${written(peak)} but rated_power is ${written(t.ratedPowerW)}, ${times}: ${what} (W expected; give both in W${unitOption ? `, or both in ${slip[1]} with power_unit: ${slip[1]}` : ''})`,
        };
      }
      return {
        field: 'ratedPower',
        message: `the power curve peaks at ${written(peak)} but rated_power is ${written(t.ratedPowerW)}: they must agree within ${RATED_POWER_TOLERANCE * 100} % (leave rated_power out to take the curve's maximum)`,
      };
    }
  }
  const specific = t.ratedPowerW / area;
  if (!inBand(specific)) {
    const slip = specific < SPECIFIC_POWER_W_PER_M2.min ? slipUnit(specific, unit) : null;
    const value = short(t.ratedPowerW / scale);
    const hint = slip
      ? `: ${unit} expected${unit === 'W' ? '' : ' (power_unit)'}; ${value} looks like ${slip}${unitOption ? ` (say so with power_unit: ${slip})` : ''}`
      : specific > SPECIFIC_POWER_W_PER_M2.max
        ? ': check rotor_diameter (metres, the diameter not the radius) and the power unit (W)'
        : ': check the power unit (W) and rotor_diameter (metres)';
    return {
      ...ratedField,
      message: `${ratedName} ${written(t.ratedPowerW)} on a ${t.diameter} m rotor is ${short(specific)} W/m² of swept area, outside the plausible ${SPECIFIC_POWER_W_PER_M2.min}–${SPECIFIC_POWER_W_PER_M2.max} W/m² (turbines built: 150–600)${hint}`,
    };
  }
  const betz = (speed: number, power: number): string =>
    `power ${written(power)} at ${speed} m/s is above the Betz limit of a ${t.diameter} m rotor (${short(betzW(t.diameter, speed))} W at ${BETZ_AIR_DENSITY} kg/m³): check rotor_diameter (the diameter, not the radius) and the power unit`;
  if (table) {
    for (let i = 0; i < table.speeds.length; i++) {
      if (table.powerW[i] > betzW(t.diameter, table.speeds[i])) return { field: 'powerValues', index: i, message: betz(table.speeds[i], table.powerW[i]) };
    }
  } else if (t.power.kind === 'cubic' && t.ratedPowerW > betzW(t.diameter, t.power.ratedSpeed)) {
    return { field: 'ratedPower', message: `rated ${betz(t.power.ratedSpeed, t.ratedPowerW)}` };
  }
  return null;
}
