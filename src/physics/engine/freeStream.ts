/**
 * The free-stream engine (the IEA37 case-study one): thrust at the free-stream speed, deficits as
 * fractions of it, pair deficits from the model's free-stream kernel (wake/wakeModel.ts), folded by
 * the superposition rule, and the exact reverse-mode gradient written out by hand.
 *
 * For each wind direction d the layout is rotated into the wind frame (IEA37 convention:
 * θ' = 270° − θ_d; x_w = x cos θ' + y sin θ' points downstream, y_w = −x sin θ' + y cos θ').
 * Pair deficits δ_ij (source i, target j) come from the wake model kernel, the total deficit at
 * j from the superposition rule, and for every speed s:
 *
 *   v_j = U_s (1 − D_j),   AEP = 8760 h · 1e-6 · Σ_d Σ_s p_ds Σ_j P(v_j)      [MWh, P in W]
 *
 * Thrust is evaluated at the free-stream speed U_s, so the deficits of a direction depend on the
 * speed only through Ct: speeds that share a Ct (every speed, for a constant-Ct turbine such as
 * IEA37's) share one pass over the pairs. Memory is O(N²) for one direction at a time, never for
 * all conditions at once. On the native kernel for the Gaussian kernels (nativeKernel.ts).
 */
import { powerAt, powerSlopeAt, thrustCoefficientAt, type Turbine } from '../turbine.js';
import type { WindResource } from '../windResource.js';
import type { FarmModelSpec } from '../farmModel.js';
import type { AepWithGradient, FarmEvaluator } from '../aepTypes.js';
import type { WakeKernel } from '../wake/wakeModel.js';
import type { Superposition } from '../superposition/superposition.js';
import { deficitModel } from '../wake/registry.js';
import { SUPERPOSITIONS } from '../superposition/registry.js';
import { GaussianKernel } from '../wake/gaussianKernel.js';
import { createNativeFreeStreamRunner } from '../freeStreamNative.js';
import { allocateByDirection, sumByDirection, type ByDirection, type IsaChoice, type NativeRunner } from '../nativeKernel.js';
import type { SolvePlan } from '../solvePlanTypes.js';

const MWH_PER_W_YEAR_8760 = 8760 * 1e-6;

/** Speeds that share one Ct value share one kernel (and one pass over the pairs). */
interface KernelGroup {
  kernel: WakeKernel;
  speedIndices: number[];
}

/** Speeds that share a Ct, each group with its prepared kernel (free-stream engine). */
function ctGroups(turbine: Turbine, wind: WindResource, model: FarmModelSpec): KernelGroup[] {
  const wake = deficitModel(model.wake)?.freeStream;
  if (!wake) throw new Error(`wake model '${model.wake}' has no free-stream form`);
  const params = { ...wake.defaults, ...(model.params ?? {}) };
  const groupsByCt = new Map<number, KernelGroup>();
  for (let s = 0; s < wind.speeds.length; s++) {
    const ct = thrustCoefficientAt(turbine, wind.speeds[s]);
    let group = groupsByCt.get(ct);
    if (!group) {
      group = { kernel: wake.prepare(ct, turbine.diameter, params), speedIndices: [] };
      groupsByCt.set(ct, group);
    }
    group.speedIndices.push(s);
  }
  return [...groupsByCt.values()];
}

/**
 * The free-stream engine's evaluator for a plan whose solver is the free stream: on the kernel the
 * plan names (native: its declaration, engine/freeStreamCovers.ts, says the native kernel covers it).
 */
export function createFreeStreamEvaluator(turbine: Turbine, wind: WindResource, plan: SolvePlan, isa: IsaChoice): FarmEvaluator {
  const model = plan.model;
  const superposition = SUPERPOSITIONS[model.superposition];
  if (!superposition) throw new Error(`unknown superposition '${model.superposition}'`);
  const groups = ctGroups(turbine, wind, model);
  const nDir = wind.directionsDeg.length;
  if (plan.kernel === 'native') return evaluatorFromRunner(turbine, wind, plan, nativeFreeStreamRunner(turbine, wind, model, groups, isa));
  const cosByDir = new Float64Array(nDir);
  const sinByDir = new Float64Array(nDir);
  for (let d = 0; d < nDir; d++) {
    const theta = ((270 - wind.directionsDeg[d]) * Math.PI) / 180;
    cosByDir[d] = Math.cos(theta);
    sinByDir[d] = Math.sin(theta);
  }

  // Scratch arrays reused from call to call (an optimizer makes thousands of calls with the same
  // turbine count); they hold nothing between calls, so results never depend on call history.
  let scratch: Workspace | null = null;
  const evaluate = (x: Float64Array, y: Float64Array, withGradient: boolean): AepWithGradient => {
    const n = x.length;
    if (y.length !== n) throw new Error(`layout has ${n} x but ${y.length} y coordinates`);
    if (!scratch || scratch.n !== n) scratch = createWorkspace(n);
    return evaluateFarm(x, y, turbine, wind, groups, superposition, cosByDir, sinByDir, withGradient, scratch);
  };
  return {
    turbine,
    wind,
    plan,
    aep: (x, y) => evaluate(x, y, false),
    aepWithGradient: (x, y) => evaluate(x, y, true),
  };
}

/** The free-stream engine's native runner (any block of directions) for a model the plan gives the native kernel. */
export function createFreeStreamNativeRunner(turbine: Turbine, wind: WindResource, model: FarmModelSpec, isa: IsaChoice): NativeRunner {
  return nativeFreeStreamRunner(turbine, wind, model, ctGroups(turbine, wind, model), isa);
}

/** The free-stream engine on the native kernel (Gaussian kernels only: the plan gives it no other). */
function nativeFreeStreamRunner(turbine: Turbine, wind: WindResource, model: FarmModelSpec, groups: KernelGroup[], isa: IsaChoice): NativeRunner {
  const kernels = groups.map((g) => g.kernel);
  /* c8 ignore next */
  if (!kernels.every((k): k is GaussianKernel => k instanceof GaussianKernel))
    throw new Error(`the solve plan gave the native free-stream kernel ${model.wake}, whose kernels are not Gaussian`);
  return createNativeFreeStreamRunner(
    turbine,
    wind,
    model,
    groups.map((g, i) => ({
      k: kernels[i].k,
      invXi2: kernels[i].invXi2,
      sigma0: kernels[i].sigma0,
      ctD2over8: kernels[i].ctD2over8,
      speedIndices: g.speedIndices,
    })),
    isa,
  );
}

const NO_ROWS = new Float64Array(0);

/** An evaluator over a native runner: every direction, summed in direction order (nativeKernel.ts sumByDirection). */
export function evaluatorFromRunner(turbine: Turbine, wind: WindResource, plan: SolvePlan, runner: NativeRunner): FarmEvaluator & { last(): number } {
  const nDir = wind.directionsDeg.length;
  let lastPairs = 0;
  // Rows by direction are scratch (summed into fresh arrays below), reused from call to call.
  let rows: ByDirection | null = null;
  let rowsGradient = false;
  const evaluate = (x: Float64Array, y: Float64Array, withGradient: boolean) => {
    const n = x.length;
    if (y.length !== n) throw new Error(`layout has ${n} x but ${y.length} y coordinates`);
    if (!rows || rows.perTurbineByDir.length !== nDir * n || (withGradient && !rowsGradient)) {
      rows = allocateByDirection(nDir, n, withGradient);
      rowsGradient = withGradient;
    }
    // Without the gradient the kernel neither reads nor writes the gradient rows: empty ones, shared.
    const out: ByDirection = {
      perDirectionMwh: new Float64Array(nDir),
      perTurbineByDir: rows.perTurbineByDir,
      gradXByDir: withGradient ? rows.gradXByDir : NO_ROWS,
      gradYByDir: withGradient ? rows.gradYByDir : NO_ROWS,
    };
    lastPairs = runner.run(x, y, withGradient, out);
    const sum = sumByDirection(out, n, withGradient);
    return {
      aepMwh: sum.aepMwh,
      perDirectionMwh: sum.perDirectionMwh,
      perTurbineMwh: sum.perTurbineMwh,
      gradX: sum.gradX,
      gradY: sum.gradY,
      pairEvaluations: lastPairs,
    };
  };
  return { turbine, wind, plan, aep: (x, y) => evaluate(x, y, false), aepWithGradient: (x, y) => evaluate(x, y, true), last: () => lastPairs };
}

interface Workspace {
  n: number;
  xw: Float64Array;
  yw: Float64Array;
  totalDeficitByTurbine: Float64Array;
  /** Deficit of target j from source i at [j*n + i] (one direction and kernel group at a time). */
  deficitByPair: Float64Array;
  /** ∂deficit/∂dx at [2(j*n + i)] and ∂deficit/∂dy at [2(j*n + i) + 1]. */
  slopeByPair: Float64Array;
  /** ∂(energy of the direction)/∂D_j. */
  weightByTurbine: Float64Array;
  gradXw: Float64Array;
  gradYw: Float64Array;
}

function createWorkspace(n: number): Workspace {
  return {
    n,
    xw: new Float64Array(n),
    yw: new Float64Array(n),
    totalDeficitByTurbine: new Float64Array(n),
    deficitByPair: new Float64Array(n * n),
    slopeByPair: new Float64Array(2 * n * n),
    weightByTurbine: new Float64Array(n),
    gradXw: new Float64Array(n),
    gradYw: new Float64Array(n),
  };
}

function evaluateFarm(
  x: Float64Array,
  y: Float64Array,
  turbine: Turbine,
  wind: WindResource,
  groups: KernelGroup[],
  superposition: Superposition,
  cosByDir: Float64Array,
  sinByDir: Float64Array,
  withGradient: boolean,
  ws: Workspace,
): AepWithGradient {
  const n = x.length;
  const nDir = wind.directionsDeg.length;
  const nSpeed = wind.speeds.length;
  const perDirectionMwh = new Float64Array(nDir);
  const perTurbineMwh = new Float64Array(n);
  const gradX = new Float64Array(withGradient ? n : 0);
  const gradY = new Float64Array(withGradient ? n : 0);

  const { xw, yw, totalDeficitByTurbine, deficitByPair, slopeByPair, weightByTurbine, gradXw, gradYw } = ws;
  const MWH_PER_W_YEAR = wind.hoursPerYear === undefined ? MWH_PER_W_YEAR_8760 : wind.hoursPerYear * 1e-6;
  const cutIn = turbine.cutIn;

  for (let d = 0; d < nDir; d++) {
    const c = cosByDir[d],
      s = sinByDir[d];
    let anyActive = false;
    for (let k = 0; k < nSpeed; k++) {
      if (wind.probability[d * nSpeed + k] > 0 && wind.speeds[k] >= cutIn) {
        anyActive = true;
        break;
      }
    }
    if (!anyActive) continue;
    for (let i = 0; i < n; i++) {
      xw[i] = x[i] * c + y[i] * s;
      yw[i] = -x[i] * s + y[i] * c;
    }
    if (withGradient) {
      gradXw.fill(0);
      gradYw.fill(0);
    }
    let energyOfDirection = 0;

    for (const group of groups) {
      let groupActive = false;
      for (const k of group.speedIndices) {
        if (wind.probability[d * nSpeed + k] > 0 && wind.speeds[k] >= cutIn) {
          groupActive = true;
          break;
        }
      }
      if (!groupActive) continue;
      const kernel = group.kernel;

      // Total deficit at every turbine.
      for (let j = 0; j < n; j++) {
        const xj = xw[j],
          yj = yw[j];
        let acc = 0;
        if (withGradient) {
          const row = j * n;
          for (let i = 0; i < n; i++) {
            const dx = xj - xw[i];
            if (dx <= 0) {
              deficitByPair[row + i] = 0;
              continue;
            }
            const deficit = kernel.valueAndGradient(dx, yj - yw[i], slopeByPair, 2 * (row + i));
            deficitByPair[row + i] = deficit;
            acc = superposition.add(acc, deficit);
          }
        } else {
          for (let i = 0; i < n; i++) {
            const dx = xj - xw[i];
            if (dx <= 0) continue;
            acc = superposition.add(acc, kernel.value(dx, yj - yw[i]));
          }
        }
        totalDeficitByTurbine[j] = superposition.finish(acc);
      }

      // Power at every speed of the group.
      if (withGradient) weightByTurbine.fill(0);
      for (const k of group.speedIndices) {
        const p = wind.probability[d * nSpeed + k];
        const u = wind.speeds[k];
        if (!(p > 0) || u < cutIn) continue;
        for (let j = 0; j < n; j++) {
          const v = u * (1 - totalDeficitByTurbine[j]);
          const energy = p * powerAt(turbine, v);
          energyOfDirection += energy;
          perTurbineMwh[j] += energy * MWH_PER_W_YEAR;
          if (withGradient) weightByTurbine[j] -= p * u * powerSlopeAt(turbine, v);
        }
      }

      // Back-propagate ∂E/∂D_j through the superposition and the kernel to the wind frame.
      if (withGradient) {
        for (let j = 0; j < n; j++) {
          const w = weightByTurbine[j];
          if (w === 0) continue;
          const total = totalDeficitByTurbine[j];
          const row = j * n;
          let gxj = 0,
            gyj = 0;
          for (let i = 0; i < n; i++) {
            const deficit = deficitByPair[row + i];
            if (deficit === 0) continue;
            const g = w * superposition.derivative(deficit, total);
            const gdx = g * slopeByPair[2 * (row + i)];
            const gdy = g * slopeByPair[2 * (row + i) + 1];
            gxj += gdx;
            gyj += gdy;
            gradXw[i] -= gdx;
            gradYw[i] -= gdy;
          }
          gradXw[j] += gxj;
          gradYw[j] += gyj;
        }
      }
    }
    perDirectionMwh[d] = energyOfDirection * MWH_PER_W_YEAR;
    if (withGradient) {
      for (let i = 0; i < n; i++) {
        gradX[i] += (gradXw[i] * c - gradYw[i] * s) * MWH_PER_W_YEAR;
        gradY[i] += (gradXw[i] * s + gradYw[i] * c) * MWH_PER_W_YEAR;
      }
    }
  }
  let aepMwh = 0;
  for (let d = 0; d < nDir; d++) aepMwh += perDirectionMwh[d];
  return { aepMwh, perDirectionMwh, perTurbineMwh, gradX, gradY };
}
