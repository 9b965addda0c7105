/**
 * The lane farm of the uncablable-start tests: IEA37 cs1-16 (a circle of radius 1300 m) cut by a
 * shipping lane (an exclusion zone from y = 300 to 500 m, wider than the site) with the one
 * substation south of it, so no cable reaches a turbine north of the lane, whatever the layout;
 * and its `economics:` block, which other tests reuse.
 */
/** An `economics:` block (DTU offshore model, two cable types, one substation at the origin), as case-file lines. */
export const ECONOMICS_LINES: readonly string[] = [
  'economics:',
  '  energy_price_eur_per_mwh: 60',
  '  discount_rate: 0.06',
  '  project_years: 25',
  '  distance_from_shore_km: 22',
  '  water_depth_m: 30',
  '  substations: [[0, 0]]',
  '  cables:',
  '    - {name: xlpe-66kv-240, capacity: 3, cost_per_m: 350}',
  '    - {name: xlpe-66kv-500, capacity: 5, cost_per_m: 520}',
  '  rated_rpm: 12',
];

/** The lane farm's case file. */
export const LANE_CASE = [
  'name: lane',
  'base: iea37-cs1-16',
  'boundary:',
  '  circle: {center: [0, 0], radius: 1300}',
  '  exclusions:',
  '    - name: shipping lane',
  '      polygon: [[-2000, 300], [2000, 300], [2000, 500], [-2000, 500]]',
  ...ECONOMICS_LINES,
  '',
].join('\n');

/**
 * The shadow farm: IEA37 cs1-16 with a platform (an exclusion zone 1000 m wide, 900–1000 m north
 * of the substation at the centre) and one cable type of capacity 1, so every turbine needs its own
 * straight cable to the substation and a turbine in the platform's shadow (north of it, at the
 * boundary, where an energy optimum puts turbines) cannot be connected.
 */
export const SHADOW_CASE = LANE_CASE.replace('name: lane', 'name: shadow')
  .replace('- name: shipping lane', '- name: platform')
  .replace('[[-2000, 300], [2000, 300], [2000, 500], [-2000, 500]]', '[[-500, 900], [500, 900], [500, 1000], [-500, 1000]]')
  .replace(
    '    - {name: xlpe-66kv-240, capacity: 3, cost_per_m: 350}\n    - {name: xlpe-66kv-500, capacity: 5, cost_per_m: 520}\n',
    '    - {name: xlpe-66kv-240, capacity: 1, cost_per_m: 350}\n',
  );
