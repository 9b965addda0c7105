/**
 * wflo's own turbine YAML (windIO's field names; docs/inputs.md, "Turbine files", documents every
 * field):
 *
 *   name: V164                        # optional
 *   rotor_diameter: 164               # m
 *   hub_height: 105                   # m
 *   performance:
 *     power_unit: kW                  # W (default) | kW | MW: the unit of rated_power and the power values
 *     rated_power: 8000               # optional with a power curve (its maximum)
 *     cutin_wind_speed: 4             # optional with a power curve (its first speed)
 *     cutout_wind_speed: 25           # optional with a power curve (its last speed)
 *     beyond_table: zero              # zero (default) | hold: the power curve beyond its speeds
 *     power_curve: {power_wind_speeds: [...], power_values: [...]}   # or a CSV file: curves.csv
 *     Ct_curve: {Ct_wind_speeds: [...], Ct_values: [...]}           # or a CSV file; or Ct: 0.8
 *     # or the IEA37 cubic curve: rated_power + rated_wind_speed + cutin/cutout_wind_speed
 *
 * Beyond the table: `zero` is what wflo always did: power 0 below cut-in and from cut-out on
 * (IEA37's convention at exactly cut-out), the table's end values held between the table's ends
 * and the cut speeds. `hold` is PyWake's tabulated turbine without ws_cutin/ws_cutout: the first
 * and last values held for every speed beyond the table (no cut-in, no cut-out; NO_CUT_OUT).
 * The Ct table holds its end values in both (as before).
 *
 * Checks: zod's shape (strict, did-you-mean), the physics' turbineProblem, then the plausibility
 * rules every turbine door shares (turbinePlausibility.ts), each reported at its field, or at its
 * line of the CSV file a curve came from.
 */
import path from 'node:path';
import { z } from 'zod';
import { NO_CUT_OUT, turbineProblem, type Turbine } from '../physics/turbine.js';
import { strict, zodToInputError } from './zodIssue.js';
import { errorAt, rejectDuplicateKeys, type FieldPath } from './sourceMap.js';
import { nonNegative, numberList, positive } from './nativeFormat.js';
import { readCurveCsv, type CurveTable } from './curveCsv.js';
import { NamedFileRefused, namedFile } from './fileDoor.js';
import { MAX_YAML_BYTES } from './yamlFile.js';
import { POWER_UNITS, turbineIssue, type PowerUnit, type TurbineIssue } from './turbinePlausibility.js';
import type { InputError } from '../util/errors.js';

const csvPath = z
  .string()
  .min(1)
  .refine((s) => /\.csv$/i.test(s), { message: 'expected a .csv file or {…} with the table' });

export const turbineSchema = strict({
  name: z.string().default('turbine'),
  rotor_diameter: positive,
  hub_height: positive,
  performance: strict({
    power_unit: z.enum(['W', 'kW', 'MW'], { error: 'expected W, kW or MW' }).optional(),
    beyond_table: z
      .enum(['zero', 'hold'], { error: 'expected zero (power 0 below cut-in and from cut-out on) or hold (the end values held, as PyWake)' })
      .optional(),
    rated_power: positive.optional(),
    cutin_wind_speed: nonNegative.optional(),
    cutout_wind_speed: positive.optional(),
    rated_wind_speed: positive.optional(),
    power_curve: z.union([csvPath, strict({ power_wind_speeds: numberList, power_values: numberList })]).optional(),
    Ct_curve: z.union([csvPath, strict({ Ct_wind_speeds: numberList, Ct_values: numberList })]).optional(),
    Ct: positive.optional(),
  }),
});

const PERF: FieldPath = ['performance'];

/** A curve as read: speeds, values, and where each value sits (a YAML path, or a CSV file's line). */
interface Curve {
  speeds: Float64Array;
  values: Float64Array;
  csv: CurveTable | null;
  speedsPath: FieldPath;
  valuesPath: FieldPath;
}

function readCurve(spec: string | Record<string, number[]>, key: 'power_curve' | 'Ct_curve', baseDir: string, doc: unknown, file: string): Curve {
  const speedsKey = key === 'power_curve' ? 'power_wind_speeds' : 'Ct_wind_speeds';
  const valuesKey = key === 'power_curve' ? 'power_values' : 'Ct_values';
  const at: FieldPath = [...PERF, key];
  if (typeof spec === 'string') {
    // Through the file door (io/fileDoor.ts): inside the turbine's folder, a regular file within the cap.
    let named: string;
    try {
      named = namedFile(spec, baseDir, file, key, { what: 'curve file', expected: 'a curve CSV file' }, MAX_YAML_BYTES);
    } catch (err) {
      if (err instanceof NamedFileRefused) throw errorAt(doc, at, err.reason, file);
      throw err;
    }
    const csv = readCurveCsv(named, key === 'power_curve' ? 'power' : 'ct');
    return { speeds: csv.speeds, values: csv.values, csv, speedsPath: at, valuesPath: at };
  }
  return {
    speeds: Float64Array.from(spec[speedsKey]),
    values: Float64Array.from(spec[valuesKey]),
    csv: null,
    speedsPath: [...at, speedsKey],
    valuesPath: [...at, valuesKey],
  };
}

/**
 * A native turbine document → Turbine; `baseDir` anchors CSV curve paths (default: the file's
 * folder; an inline mapping passes the folder of the file it is written in).
 */
export function turbineFromNative(doc: unknown, file: string, baseDir: string = path.dirname(file)): Turbine {
  rejectDuplicateKeys(doc);
  const parsed = turbineSchema.safeParse(doc);
  if (!parsed.success) throw zodToInputError(parsed.error, file, doc);
  const t = parsed.data;
  const perf = t.performance;
  const fail = (fieldPath: FieldPath, message: string, keyOf = false): never => {
    throw errorAt(doc, fieldPath, message, file, keyOf);
  };
  const unit: PowerUnit = perf.power_unit ?? 'W';
  const scale = POWER_UNITS[unit];
  const powerCurve =
    perf.power_curve !== undefined ? readCurve(perf.power_curve as string | Record<string, number[]>, 'power_curve', baseDir, doc, file) : null;
  let power: Turbine['power'];
  let cutIn: number, cutOut: number;
  if (powerCurve) {
    power = { kind: 'table', speeds: powerCurve.speeds, powerW: scale === 1 ? powerCurve.values : powerCurve.values.map((v) => v * scale) };
    const n = powerCurve.speeds.length;
    if (perf.beyond_table === 'hold') {
      for (const key of ['cutin_wind_speed', 'cutout_wind_speed'] as const) {
        if (perf[key] !== undefined)
          fail(
            [...PERF, key],
            "beyond_table: hold has no cut-in or cut-out (the table's end values are held at every speed): leave this out, or use beyond_table: zero",
            true,
          );
      }
      cutIn = 0;
      cutOut = NO_CUT_OUT;
    } else {
      cutIn = perf.cutin_wind_speed ?? powerCurve.speeds[0];
      cutOut = perf.cutout_wind_speed ?? powerCurve.speeds[n - 1];
    }
  } else if (perf.rated_wind_speed !== undefined) {
    if (perf.beyond_table !== undefined)
      fail([...PERF, 'beyond_table'], 'applies to a power_curve table, not to the IEA37 cubic curve (rated_wind_speed)', true);
    for (const key of ['rated_power', 'cutin_wind_speed', 'cutout_wind_speed'] as const) {
      if (perf[key] === undefined)
        fail(PERF, `${key}: missing (the IEA37 cubic curve needs rated_power, rated_wind_speed, cutin_wind_speed and cutout_wind_speed)`);
    }
    power = { kind: 'cubic', ratedSpeed: perf.rated_wind_speed };
    cutIn = perf.cutin_wind_speed!;
    cutOut = perf.cutout_wind_speed!;
  } else {
    return fail(PERF, 'give power_curve (a table, or a CSV file) or rated_wind_speed (IEA37 cubic curve)');
  }
  const ctCurve = perf.Ct_curve !== undefined ? readCurve(perf.Ct_curve as string | Record<string, number[]>, 'Ct_curve', baseDir, doc, file) : null;
  let thrust: Turbine['thrust'];
  if (ctCurve) thrust = { kind: 'table', speeds: ctCurve.speeds, ct: ctCurve.values };
  else if (perf.Ct !== undefined) thrust = { kind: 'constant', ct: perf.Ct };
  else return fail(PERF, 'give Ct_curve (a table, or a CSV file) or a constant Ct');
  const ratedGiven = perf.rated_power !== undefined;
  let ratedPowerW = ratedGiven ? perf.rated_power! * scale : 0;
  if (!ratedGiven && power.kind === 'table') for (const p of power.powerW) ratedPowerW = Math.max(ratedPowerW, p);
  const turbine: Turbine = { name: t.name, diameter: t.rotor_diameter, hubHeight: t.hub_height, ratedPowerW, cutIn, cutOut, power, thrust };

  /** The error of a curve's value or speed at `index` (a YAML path, or the CSV file's line). */
  const curveError = (curve: Curve, which: 'speeds' | 'values', index: number | undefined, message: string): InputError => {
    if (curve.csv) return curve.csv.errorAt(which === 'speeds' ? 'wind_speed' : curve === powerCurve ? 'power' : 'ct', index ?? 0, message);
    const at = which === 'speeds' ? curve.speedsPath : curve.valuesPath;
    return errorAt(doc, index === undefined ? at : [...at, index], message, file);
  };
  const problem = turbineProblem(turbine);
  if (problem) {
    const curve = /^power curve/.test(problem) ? powerCurve : /^thrust curve/.test(problem) ? ctCurve : null;
    if (curve && !/index \d+/.test(problem)) {
      // A problem of the curve as a whole (lengths, too few points): its mapping, or the CSV's header.
      throw curve.csv ? curve.csv.errorAt('wind_speed', 0, problem) : errorAt(doc, curve.speedsPath.slice(0, -1), problem, file);
    }
    if (curve) {
      const index = /index (\d+)/.exec(problem)?.[1];
      throw curveError(
        curve,
        /values|non-finite/.test(problem) && !/speeds must/.test(problem) ? 'values' : 'speeds',
        index === undefined ? undefined : Number(index),
        problem,
      );
    }
    fail(problemPath(problem, ratedGiven), problem);
  }
  const issue = turbineIssue(turbine, { ratedPowerGiven: ratedGiven, powerUnit: unit });
  if (issue) throw issueError(issue);
  return turbine;

  function issueError(i: TurbineIssue): InputError {
    switch (i.field) {
      case 'ratedPower':
        return errorAt(doc, ratedGiven ? [...PERF, 'rated_power'] : PERF, i.message, file);
      case 'diameter':
        return errorAt(doc, ['rotor_diameter'], i.message, file);
      case 'hubHeight':
        return errorAt(doc, ['hub_height'], i.message, file);
      case 'powerSpeeds':
        return curveError(powerCurve!, 'speeds', i.index, i.message);
      case 'powerValues':
        return curveError(powerCurve!, 'values', i.index, i.message);
      case 'ctSpeeds':
        return curveError(ctCurve!, 'speeds', i.index, i.message);
      case 'ctValues':
        return curveError(ctCurve!, 'values', i.index, i.message);
    }
  }
}

/** Where a turbineProblem that is not about a curve points in a native document. */
function problemPath(problem: string, ratedGiven: boolean): FieldPath {
  const table: [RegExp, FieldPath][] = [
    [/^rotor diameter/, ['rotor_diameter']],
    [/^hub height/, ['hub_height']],
    [/^rated power/, ratedGiven ? [...PERF, 'rated_power'] : [...PERF, 'power_curve']],
    [/^cut-in/, [...PERF, 'cutin_wind_speed']],
    [/^cut-out/, [...PERF, 'cutout_wind_speed']],
    [/^rated speed/, [...PERF, 'rated_wind_speed']],
    [/^thrust coefficient/, [...PERF, 'Ct']],
  ];
  return table.find(([re]) => re.test(problem))?.[1] ?? [];
}
