/**
 * What a direction treatment (physics/directionTreatment.ts) costs an AEP evaluation: IEA37 cs1
 * (16 bins) on its bins, spread over 4 and 20 sub-directions per bin and a Gaussian on 9 points,
 * AEP and AEP + gradient, one core, with the ratio to the bins. Part of the `aep` section.
 */
import { createFarmEvaluator } from '../src/physics/aep.js';
import { treatDirections, type DirectionTreatment } from '../src/physics/directionTreatment.js';
import { batchedTime } from './benchKit.js';
import { cs1Cases } from './aepCases.js';

const TREATMENTS: [string, DirectionTreatment][] = [
  ['bins', { kind: 'bins' }],
  ['spread:4', { kind: 'spread', n: 4 }],
  ['spread:20', { kind: 'spread', n: 20 }],
  ['gaussian:5:9', { kind: 'gaussian', sigmaDeg: 5, n: 9 }],
];

export function benchDirections(): void {
  console.log('\n### Direction treatments (IEA37 cs1, one core): µs per evaluation and ratio to the bins');
  console.log(
    'case'.padEnd(14) +
      'directions'.padEnd(16) +
      'evaluated'.padStart(10) +
      'µs AEP'.padStart(10) +
      '×bins'.padStart(8) +
      'µs AEP+grad'.padStart(13) +
      '×bins'.padStart(8),
  );
  for (const c of cs1Cases()) {
    let base: { a: number; g: number } | null = null;
    for (const [name, t] of TREATMENTS) {
      const wind = treatDirections(c.wind, t).wind;
      const ev = createFarmEvaluator(c.turbine, wind, c.model);
      const a = batchedTime(() => ev.aep(c.x, c.y)).wall,
        g = batchedTime(() => ev.aepWithGradient(c.x, c.y)).wall;
      base ??= { a, g };
      console.log(
        c.name.padEnd(14) +
          name.padEnd(16) +
          String(wind.directionsDeg.length).padStart(10) +
          (a * 1e6).toFixed(1).padStart(10) +
          (a / base.a).toFixed(1).padStart(8) +
          (g * 1e6).toFixed(1).padStart(13) +
          (g / base.g).toFixed(1).padStart(8),
      );
    }
  }
}
