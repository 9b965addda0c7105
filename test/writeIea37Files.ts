/**
 * Writes the IEA Wind Task 37 case-study files wflo's tests and README read (cs1-2/ and cs3-4/ of
 * test/data/iea37/) from the facts in test/data/iea37/facts.yaml, in the published case-study
 * format: the same keys and nesting as the two file generations of the case studies (cs1-2: rotor
 * radius under `properties`, `xc`/`yc` lists, one speed; cs3-4: rotor diameter, `[x, y]` pairs, a
 * speed table per direction), with wflo's own descriptions. The published files carry no licence,
 * so the repository holds these instead (test/data/iea37/SOURCE.md).
 *
 *   node dist/test/writeIea37Files.js [FOLDER]     # default: test/data/iea37 of the checkout
 *
 * test/io/iea37Files.test.ts checks that the committed files are exactly what this writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const IEA37_FACTS = path.join(REPO, 'test', 'data', 'iea37', 'facts.yaml');

interface TurbineFacts {
  id: string;
  diameter_m: number;
  hub_height_m: number;
  rated_power_w: number;
  cut_in_ms: number;
  rated_speed_ms: number;
  cut_out_ms: number;
}
interface Cs1Wind {
  directions_deg: number[];
  direction_frequency: number[];
  speed_ms: number;
  turbulence_intensity: number;
}
interface Cs3Wind {
  directions_deg: number[];
  direction_frequency: number[];
  speeds_ms: number[];
  speed_frequency: number[][];
  turbulence_intensity: number;
}
interface DerivedWind {
  from: string;
  directions_deg: { start: number; step: number; count: number };
  rule: 'periodic-linear';
  speed_frequency_decimals: number;
  turbulence_intensity: number;
}
interface Baseline {
  turbine: string;
  wind: string;
  boundary: string;
  x_m: number[];
  y_m: number[];
  aep_mwh: number;
  aep_by_direction_mwh: number[];
}
export interface Iea37Facts {
  turbines: Record<string, TurbineFacts>;
  winds: { cs1: Cs1Wind; cs3: Cs3Wind; 'cs4-360': DerivedWind };
  boundaries: {
    polygons: Record<string, [number, number][]>;
    cs3: { polygons: string[] };
    cs4: { polygons: string[] };
    location_of_local_origin: { reference_system: string; utm_zone: string; utm: [number, number] };
  } & Record<string, unknown>;
  baselines: Record<string, Baseline & { 'aep_on_cs4-360_mwh'?: number }>;
}

export function readIea37Facts(file = IEA37_FACTS): Iea37Facts {
  return parse(fs.readFileSync(file, 'utf8')) as Iea37Facts;
}

const HEADER =
  "# Written by wflo's test/writeIea37Files.ts from test/data/iea37/facts.yaml, in the format of the\n" +
  '# IEA Wind Task 37 case-study files (see test/data/iea37/SOURCE.md). Do not edit: edit the facts.\n';

/** A number as YAML writes it, with a decimal point so it reads as a float (as the published files do). */
function num(v: number): string {
  const s = String(v);
  return /[.e]/.test(s) ? s : `${s}.0`;
}

/** A flow list, wrapped after `perLine` values with continuation lines indented by `indent` spaces. */
function list(values: readonly number[], indent: number, perLine = 8): string {
  const lines: string[] = [];
  for (let i = 0; i < values.length; i += perLine)
    lines.push(
      values
        .slice(i, i + perLine)
        .map(num)
        .join(', '),
    );
  return `[${lines.join(`,\n${' '.repeat(indent + 1)}`)}]`;
}

function cs1Turbine(t: TurbineFacts): string {
  return `${HEADER}title: IEA Wind Task 37 reference turbine ${t.id} (wflo's rendering of the case-study facts)
description: turbine of case studies 1 and 2, in the case-study turbine layout

definitions:
  wind_turbine_lookup:
    type: object
    description: look-up of the turbine in an energy production workflow
    properties:
      wind_turbine_id:
        type: string
        default: ${t.id}
      power:
        type: number
        description: electrical power
        units: W
        minimum: 0.0
        maximum: ${num(t.rated_power_w)}

  wind_turbine:
    description: IEA37 ${t.id} reference turbine
    type: collection
    id:
      type: string
      description: ${t.id}
    rated_power:
      type: number
      description: rated power (the maximum of the power look-up above)
      units: W
      minimum: 0.0
    hub:
      $ref: "#/definitions/hub"
    rotor:
      $ref: "#/definitions/rotor"

  rotor:
    type: object
    properties:
      radius:
        type: number
        units: m
        default: ${num(t.diameter_m / 2)}

  hub:
    type: object
    properties:
      height:
        type: number
        units: m
        default: ${num(t.hub_height_m)}

  operating_mode:
    type: object
    properties:
      cut_in_wind_speed:
        type: number
        units: m/s
        default: ${num(t.cut_in_ms)}
      cut_out_wind_speed:
        type: number
        units: m/s
        default: ${num(t.cut_out_ms)}
      rated_wind_speed:
        type: number
        units: m/s
        default: ${num(t.rated_speed_ms)}
`;
}

function cs3Turbine(t: TurbineFacts): string {
  return `${HEADER}title: IEA Wind Task 37 reference turbine ${t.id} (wflo's rendering of the case-study facts)
description: turbine of case studies 3 and 4, in the case-study turbine layout

definitions:
  wind_turbine:
    description: IEA37 ${t.id} reference turbine
    id: ${t.id}
    rated_power:
      units: W
      minimum: 0.0
      maximum: ${num(t.rated_power_w)}

  rotor:
    diameter:
      units: m
      default: ${num(t.diameter_m)}
    radius:
      units: m
      default: ${num(t.diameter_m / 2)}

  hub:
    height:
      units: m
      default: ${num(t.hub_height_m)}

  operating_mode:
    id: normal
    cut_in_wind_speed:
      units: m/s
      default: ${num(t.cut_in_ms)}
    cut_out_wind_speed:
      units: m/s
      default: ${num(t.cut_out_ms)}
    rated_wind_speed:
      units: m/s
      default: ${num(t.rated_speed_ms)}
`;
}

function cs1Rose(w: Cs1Wind): string {
  return `${HEADER}title: IEA Wind Task 37 wind rose of case studies 1 and 2
description: direction bins (degrees from north, clockwise, where the wind comes from) with their frequency; one speed

definitions:
  wind_inflow:
    type: object
    properties:
      direction:
        type: number
        units: deg
        bins: ${list(w.directions_deg, 14)}
        minimum: 0.0
        maximum: 360.0
      speed:
        type: number
        units: m/s
        default: ${num(w.speed_ms)}
      ti:
        type: number
        description: turbulence intensity
        default: ${num(w.turbulence_intensity)}
      probability:
        type: number
        description: frequency of each direction bin
        default: ${list(w.direction_frequency, 17)}
`;
}

function tableRose(
  title: string,
  directions: readonly number[],
  directionFrequency: readonly number[],
  speeds: readonly number[],
  speedFrequency: readonly (readonly number[])[],
  ti: number,
): string {
  // The published spellings `desctiption` and `turbulence_intenstiy` are part of the format as readers meet it.
  return `${HEADER}title: ${title}
description: direction bins (degrees from north, clockwise) with their frequency, and per direction the frequency of each speed bin

definitions:
  wind_inflow:
    description: inflow for current wind conditions
    properties:
      direction:
        description: wind direction frequencies, binned in degrees, north = 0
        units: deg
        bins: ${list(directions, 14, 10)}
        frequency: ${list(directionFrequency, 19, 5)}
        minimum: 0.0
        maximum: 360.0

      speed:
        desctiption: wind speed frequency for each binned direction and wind speed
        units: m/s
        bins: ${list(speeds, 14, 10)}
        frequency:
${speedFrequency.map((row) => `          - [${row.map(num).join(', ')}]`).join('\n')}
        minimum: 0.0
        maximum: 25.0

      turbulence_intenstiy:
        description: turbulence intensity
        default: ${num(ti)}
`;
}

/** Nearest integer, ties to even (as numpy.round; several interpolated values land on exact ties). */
function roundHalfEven(v: number): number {
  const floor = Math.floor(v);
  if (v - floor === 0.5) return floor % 2 === 0 ? floor : floor + 1;
  return Math.round(v);
}

/**
 * The 360-direction rose of case study 4: the cs3 rose interpolated linearly between its
 * directions, periodically (342° → 360° = 0°); direction frequencies normalised to sum 1, speed
 * frequencies rounded as published (SOURCE.md says how closely this matches the published file).
 */
export function derivedRose(base: Cs3Wind, d: DerivedWind): { directions: number[]; directionFrequency: number[]; speedFrequency: number[][] } {
  if (d.rule !== 'periodic-linear') throw new Error(`unknown rose rule ${String(d.rule)}`);
  const nb = base.directions_deg.length;
  const directions = Array.from({ length: d.directions_deg.count }, (_, i) => d.directions_deg.start + i * d.directions_deg.step);
  const raw: number[] = [];
  const speedFrequency: number[][] = [];
  const scale = 10 ** d.speed_frequency_decimals;
  for (const dir of directions) {
    // Bracketing base directions (equally spaced, starting at 0).
    const step = 360 / nb;
    const k = Math.floor(dir / step) % nb,
      k2 = (k + 1) % nb;
    const along = dir - k * step;
    // a + (b − a) / step · along: the published values are this, rounded (numpy.interp's arithmetic).
    const line = (lo: number, hi: number) => lo + ((hi - lo) / step) * along;
    raw.push(line(base.direction_frequency[k], base.direction_frequency[k2]));
    speedFrequency.push(base.speed_frequency[k].map((v, s) => roundHalfEven(line(v, base.speed_frequency[k2][s]) * scale) / scale));
  }
  const total = raw.reduce((a, b) => a + b, 0);
  return { directions, directionFrequency: raw.map((v) => v / total), speedFrequency };
}

function boundaryFile(caseStudy: string, names: readonly string[], facts: Iea37Facts['boundaries']): string {
  const o = facts.location_of_local_origin;
  const polygons = names.map((name) => `  ${name}:\n${facts.polygons[name].map(([x, y]) => `      - [${num(x)}, ${num(y)}]`).join('\n')}`);
  return `${HEADER}title: IEA Wind Task 37 case study ${caseStudy} wind farm site
description: boundary polygons in local metric coordinates (m)

location:
  reference_system: ${o.reference_system}
  utm_zone: ${o.utm_zone}
  utm: [${num(o.utm[0])}, ${num(o.utm[1])}]

boundaries:
${polygons.join('\n')}
`;
}

/** A cs1-2 layout file: `xc`/`yc` lists, turbine and rose by `$ref`, reference AEP per direction and in total. */
function cs1Layout(b: Baseline, turbineFile: string, roseFile: string): string {
  return `${HEADER}title: IEA Wind Task 37 case study 1 baseline, ${b.x_m.length} turbines
description: baseline layout with its reference annual energy production

definitions:
  wind_plant:
    type: object
    description: plant design, turbine selection and placement
    properties:
      layout:
        type: array
        items:
          - $ref: "#/definitions/position"
          - $ref: "${turbineFile}"

  position:
    type: array
    items:
      xc: ${list(b.x_m, 10)}
      yc: ${list(b.y_m, 10)}
    additionalItems: false
    description: x and y coordinates of the turbines
    units: m

  plant_energy:
    type: object
    description: energy production from the simplified Bastankhah Gaussian wake model
    properties:
      wake_model_selection:
        type: algorithm
        items:
          - $ref: "iea37-aepcalc.py"
      wind_resource_selection:
        type: object
        properties:
          type: array
          items:
            - $ref: "${roseFile}"
      annual_energy_production:
        type: number
        description: binned (per direction) and total (default) annual energy production
        binned: ${list(b.aep_by_direction_mwh, 16, 4)}
        default: ${num(b.aep_mwh)}
        units: MWh
`;
}

/** A cs3-4 layout file: `[x, y]` pairs. */
function cs3Layout(caseStudy: string, b: Baseline, turbineFile: string, roseFile: string): string {
  return `${HEADER}title: IEA Wind Task 37 case study ${caseStudy}, baseline layout
description: baseline layout for the ${b.x_m.length} turbine wind plant of case study ${caseStudy}

definitions:
  wind_plant:
    type: object
    description: plant design, turbine selection and placement
    properties:
      turbine:
        type: array
        items:
          - $ref: "${turbineFile}"

  position:
    description: x and y coordinates of the turbines, one [x, y] pair per turbine
    units: m
    items:
${b.x_m.map((x, i) => `      - [${num(x)}, ${num(b.y_m[i])}]`).join('\n')}

  plant_energy:
    description: energy production data
    properties:
      wake_model:
        items:
          - $ref: "iea37-aepcalc.py"
      wind_resource:
        properties:
          items:
            - $ref: "${roseFile}"
      annual_energy_production:
        description: binned (per direction) and total (default) annual energy production
        units: MWh
        binned: ${list(b.aep_by_direction_mwh, 16, 5)}
        default: ${num(b.aep_mwh)}
`;
}

/** Every file, by path relative to the output folder. */
export function iea37Files(facts: Iea37Facts): Map<string, string> {
  const files = new Map<string, string>();
  const t1 = facts.turbines['iea37-335mw'],
    t10 = facts.turbines['iea37-10mw'];
  files.set('cs1-2/iea37-335mw.yaml', cs1Turbine(t1));
  files.set('cs1-2/iea37-windrose.yaml', cs1Rose(facts.winds.cs1));
  for (const [name, file] of [
    ['ex16', 'iea37-ex16.yaml'],
    ['ex36', 'iea37-ex36.yaml'],
    ['ex64', 'iea37-ex64.yaml'],
  ]) {
    files.set(`cs1-2/${file}`, cs1Layout(facts.baselines[name], 'iea37-335mw.yaml', 'iea37-windrose.yaml'));
  }
  const cs3 = facts.winds.cs3;
  files.set('cs3-4/iea37-10mw.yaml', cs3Turbine(t10));
  files.set(
    'cs3-4/iea37-windrose-cs3.yaml',
    tableRose(
      'IEA Wind Task 37 wind rose of case studies 3 and 4 (20 directions)',
      cs3.directions_deg,
      cs3.direction_frequency,
      cs3.speeds_ms,
      cs3.speed_frequency,
      cs3.turbulence_intensity,
    ),
  );
  const d = derivedRose(cs3, facts.winds['cs4-360']);
  files.set(
    'cs3-4/iea37-windrose-cs4.yaml',
    tableRose(
      'IEA Wind Task 37 wind rose of case study 4 (360 directions)',
      d.directions,
      d.directionFrequency,
      cs3.speeds_ms,
      d.speedFrequency,
      facts.winds['cs4-360'].turbulence_intensity,
    ),
  );
  files.set('cs3-4/iea37-boundary-cs3.yaml', boundaryFile('3', facts.boundaries.cs3.polygons, facts.boundaries));
  files.set('cs3-4/iea37-boundary-cs4.yaml', boundaryFile('4', facts.boundaries.cs4.polygons, facts.boundaries));
  files.set('cs3-4/iea37-ex-opt3.yaml', cs3Layout('3', facts.baselines['ex-opt3'], 'iea37-10mw.yaml', 'iea37-windrose-cs3.yaml'));
  files.set('cs3-4/iea37-ex-opt4.yaml', cs3Layout('4', facts.baselines['ex-opt4'], 'iea37-10mw.yaml', 'iea37-windrose-cs3.yaml'));
  return files;
}

export function writeIea37Files(folder: string, facts = readIea37Facts()): string[] {
  const written: string[] = [];
  for (const [rel, text] of iea37Files(facts)) {
    const file = path.join(folder, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    written.push(file);
  }
  return written;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = path.resolve(process.argv[2] ?? path.dirname(IEA37_FACTS));
  for (const f of writeIea37Files(folder)) process.stdout.write(`wrote ${path.relative(process.cwd(), f)}\n`);
}
