/**
 * physics/solvePlan.ts's farmConflict states what the engines cannot evaluate, so that
 * `validate` refuses it before a run does. Here the rule meets the engines themselves: for every wake model × superposition ×
 * blockage × ground, with a constant-Ct and a tabulated turbine, a rose, a time series and a rose
 * with turbulence per bin, and farms of one model, two models and one model beside neighbours,
 * the rule refuses exactly the combinations
 * whose evaluator throws on a 3-turbine layout.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BLOCKAGE_MODEL_NAMES, SUPERPOSITION_NAMES, WAKE_MODEL_NAMES, type FarmModelSpec } from '../../src/physics/farmModel.js';
import { farmConflict } from '../../src/physics/solvePlan.js';
import { builtinTurbine, builtinWind } from '../../src/io/builtinCases.js';
import { windFromSeries } from '../../src/physics/windSeries.js';
import { caseEvaluator } from '../../src/optimize/caseEvaluator.js';
import type { Case } from '../../src/case/case.js';
import type { WindResource } from '../../src/physics/windResource.js';

test('the model limits refuse exactly what the engines cannot evaluate', () => {
  const constant = builtinTurbine('iea37-3.35mw'),
    table = builtinTurbine('v80');
  const rose = builtinWind('iea37-cs1');
  const series = windFromSeries({ directionsDeg: [270, 280, 90], speeds: [8, 9, 10], weights: [1, 2, 1] });
  const tiBins: WindResource = { ...rose, turbulenceIntensityByBin: Float64Array.from(rose.probability, (_, i) => 0.06 + 0.001 * i) };
  const x = Float64Array.of(0, 600, 1200),
    y = Float64Array.of(0, 100, -100);
  const mismatches: string[] = [];
  let refused = 0,
    total = 0;
  for (const wake of WAKE_MODEL_NAMES) {
    for (const superposition of SUPERPOSITION_NAMES) {
      for (const blockage of [undefined, ...BLOCKAGE_MODEL_NAMES]) {
        for (const ground of [undefined, 'mirror'] as const) {
          const model: FarmModelSpec = { wake, superposition, ...(blockage ? { blockage } : {}), ...(ground ? { ground } : {}) };
          for (const turbine of [constant, table]) {
            for (const [windName, wind] of [
              ['rose', rose],
              ['series', series],
              ['ti bins', tiBins],
            ] as const) {
              for (const shape of ['one model', 'two models', 'neighbours'] as const) {
                const c: Case = {
                  name: 'combo',
                  turbine,
                  wind,
                  boundary: null,
                  nTurbines: 3,
                  minSpacing: 2 * turbine.diameter,
                  model,
                  layout: { x, y },
                  ...(shape === 'two models'
                    ? {
                        turbines: {
                          types: [turbine, turbine === table ? constant : table],
                          minSpacingByType: Float64Array.of(260, 260),
                          typeOf: Int32Array.of(0, 1, 0),
                          choice: false,
                        },
                      }
                    : {}),
                  ...(shape === 'neighbours'
                    ? { neighbours: { x: Float64Array.of(-2000), y: Float64Array.of(0), types: [constant], typeOf: Int32Array.of(0) } }
                    : {}),
                };
                const rule =
                  farmConflict(model, { types: c.turbines ? c.turbines.types : [turbine], neighbours: shape === 'neighbours', wind })?.message ?? null;
                let engine: string | null = null;
                try {
                  const r = caseEvaluator(c).aep(x, y);
                  if (!Number.isFinite(r.aepMwh)) engine = `AEP ${r.aepMwh}`;
                } catch (err) {
                  engine = (err as Error).message;
                }
                total++;
                if (rule !== null) refused++;
                if ((rule === null) !== (engine === null)) {
                  mismatches.push(
                    `${wake}/${superposition}/${blockage ?? '-'}/${ground ?? '-'}/${turbine.name}/${windName}/${shape}: rule ${rule ?? 'accepts'}; engine ${engine ?? 'evaluates'}`,
                  );
                }
              }
            }
          }
        }
      }
    }
  }
  assert.deepEqual(mismatches, [], `${mismatches.length} of ${total} combinations disagree`);
  assert.ok(refused > 100 && refused < total - 100, `${refused} of ${total} refused: both kinds occur`);
});
