/**
 * windIO plant turbine (`wind_farm.turbines`: name, hub_height, rotor_diameter, performance) →
 * wflo Turbine. The schema's three performance forms:
 *
 * - `power_curve` {power_wind_speeds, power_values (W)} + `Ct_curve`: tabulated power.
 * - `Cp_curve` {Cp_wind_speeds, Cp_values} + `Ct_curve`: power P = ½ ρ A Cp V³ at the tabulated
 *   speeds, ρ = 1.225 kg/m³ (windIO gives no air density here; ISA sea level, PyWake's default),
 *   A = π D²/4, then tabulated like a power curve.
 * - `rated_power`, `rated_wind_speed`, `cutin_wind_speed`, `cutout_wind_speed` + `Ct_curve`: the
 *   IEA37 case-study cubic curve (how windIO's IEA37 3.35 MW and 10 MW examples are meant).
 *
 * `rated_power` is not required with a curve: it is the curve's maximum. Cut-in / cut-out, when
 * not given, are the first / last tabulated speed (wflo's power is 0 below cut-in and at or
 * above cut-out). `Ct_curve` is a table, linearly interpolated and clamped at its ends.
 * The numbers are checked by the rules every turbine door shares (turbinePlausibility.ts:
 * power >= 0, Ct in [0, 1.2], rated power vs the curve, W per swept m², Betz), named at their field.
 */
import { turbineProblem, type Turbine } from '../../physics/turbine.js';
import type { WindioNode } from './windioTree.js';
import { turbineIssue, type TurbineIssue } from '../turbinePlausibility.js';

export const AIR_DENSITY = 1.225;

function curve(node: WindioNode, speedsKey: string, valuesKey: string, what: string): { speeds: Float64Array; values: Float64Array } {
  const speedsNode = node.require(speedsKey, `the wind speeds of the ${what}`);
  const valuesNode = node.require(valuesKey, `the values of the ${what}`);
  const speeds = unwrapList(speedsNode, 'wind speeds (m/s)');
  const values = unwrapList(valuesNode, `${what} values`);
  if (speeds.length !== values.length) valuesNode.fail(`${values.length} values for ${speeds.length} wind speeds`);
  if (speeds.length < 2) speedsNode.fail('a curve needs at least 2 points');
  for (let i = 1; i < speeds.length; i++)
    if (!(speeds[i] > speeds[i - 1])) speedsNode.fail(`speeds must increase (index ${i}: ${speeds[i]} after ${speeds[i - 1]})`);
  return { speeds, values };
}

/** A list, or {data, dims} with one axis (some tools write curves that way). */
function unwrapList(node: WindioNode, what: string): Float64Array {
  if (node.isMap && node.get('data').exists) return node.get('data').numbers(what);
  return node.numbers(what);
}

function optionalNumber(node: WindioNode, key: string, what: string): number | undefined {
  const n = node.get(key);
  return n.exists ? n.number(what) : undefined;
}

export function readTurbine(t: WindioNode): Turbine {
  if (!t.isMap) t.fail('expected a turbine mapping (name, hub_height, rotor_diameter, performance)');
  const diameter = t.require('rotor_diameter', 'metres').number('a rotor diameter in metres');
  const hubHeight = t.require('hub_height', 'metres').number('a hub height in metres');
  const nameNode = t.get('name');
  const name = nameNode.exists ? String(nameNode.scalar) : 'windIO turbine';
  const perf = t.requireMap('performance', 'power or Cp curve, Ct curve');
  const ratedPower = optionalNumber(perf, 'rated_power', 'a rated power in W');
  const ratedSpeed = optionalNumber(perf, 'rated_wind_speed', 'a speed in m/s');
  const cutIn = optionalNumber(perf, 'cutin_wind_speed', 'a speed in m/s');
  const cutOut = optionalNumber(perf, 'cutout_wind_speed', 'a speed in m/s');

  let power: Turbine['power'];
  let ratedPowerW: number;
  let tableSpeeds: Float64Array | null = null;
  const powerNode = perf.get('power_curve');
  const cpNode = perf.get('Cp_curve');
  if (powerNode.exists) {
    const c = curve(powerNode, 'power_wind_speeds', 'power_values', 'power curve');
    power = { kind: 'table', speeds: c.speeds, powerW: c.values };
    tableSpeeds = c.speeds;
    ratedPowerW = ratedPower ?? Math.max(...c.values);
  } else if (cpNode.exists) {
    const c = curve(cpNode, 'Cp_wind_speeds', 'Cp_values', 'Cp curve');
    const area = (Math.PI * diameter * diameter) / 4;
    const powerW = c.values.map((cp, i) => {
      if (!(cp >= 0 && cp < 16 / 27 + 1e-9)) cpNode.fail(`Cp_values[${i}] = ${cp} must lie in [0, 16/27] (Betz)`);
      return 0.5 * AIR_DENSITY * area * cp * c.speeds[i] ** 3;
    });
    power = { kind: 'table', speeds: c.speeds, powerW };
    tableSpeeds = c.speeds;
    ratedPowerW = ratedPower ?? Math.max(...powerW);
  } else {
    if (ratedPower === undefined || ratedSpeed === undefined || cutIn === undefined || cutOut === undefined) {
      perf.fail('give power_curve, Cp_curve, or rated_power + rated_wind_speed + cutin_wind_speed + cutout_wind_speed (the IEA37 cubic curve)');
    }
    power = { kind: 'cubic', ratedSpeed: ratedSpeed! };
    ratedPowerW = ratedPower!;
  }

  const ctNode = perf.requireMap('Ct_curve', 'Ct_wind_speeds and Ct_values');
  const ct = curve(ctNode, 'Ct_wind_speeds', 'Ct_values', 'Ct curve');

  const turbine: Turbine = {
    name,
    diameter,
    hubHeight,
    ratedPowerW,
    cutIn: cutIn ?? tableSpeeds![0],
    cutOut: cutOut ?? tableSpeeds![tableSpeeds!.length - 1],
    power,
    thrust: { kind: 'table', speeds: ct.speeds, ct: ct.values },
  };
  const problem = turbineProblem(turbine);
  if (problem) t.fail(problem);
  const issue = turbineIssue(turbine, { ratedPowerGiven: ratedPower !== undefined || power.kind === 'cubic', powerUnitOption: false });
  if (issue) issueNode(issue).fail(issue.message);
  return turbine;

  /** The node a plausibility issue is about (a Cp curve's values for the power it gives). */
  function issueNode(i: TurbineIssue): WindioNode {
    const item = (n: WindioNode, key: string): WindioNode => {
      const list = n.get(key);
      const data = list.isMap && list.get('data').exists ? list.get('data') : list;
      return i.index !== undefined && data.get(i.index).exists ? data.get(i.index) : list;
    };
    const powerCurve = powerNode.exists
      ? { node: powerNode, speeds: 'power_wind_speeds', values: 'power_values' }
      : { node: cpNode, speeds: 'Cp_wind_speeds', values: 'Cp_values' };
    switch (i.field) {
      case 'ratedPower':
        return perf.get('rated_power').exists ? perf.get('rated_power') : perf;
      case 'diameter':
        return t.get('rotor_diameter');
      case 'hubHeight':
        return t.get('hub_height');
      case 'powerSpeeds':
        return item(powerCurve.node, powerCurve.speeds);
      case 'powerValues':
        return item(powerCurve.node, powerCurve.values);
      case 'ctSpeeds':
        return item(ctNode, 'Ct_wind_speeds');
      case 'ctValues':
        return item(ctNode, 'Ct_values');
    }
  }
}
