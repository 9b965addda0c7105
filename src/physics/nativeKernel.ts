/**
 * The native wake kernels (src/physics/native/, a Node-API addon built by node-gyp at `npm ci`):
 * loading, which model options they cover, and the configuration they read. The kernels compute
 * exactly what wakedAep.ts (waked inflow) and aep.ts (free-stream Gaussian) compute — those stay
 * the readable reference, and the tests compare the two — with the speeds of a direction as
 * vector lanes and their own exp/log/pow/acos, so a result is bit-identical on every x86-64
 * processor, instruction set (SSE2 or AVX2), thread and process (native/simd.h says why).
 *
 * Every kernel writes results by direction (energy of each direction; energy and gradient by
 * direction and turbine); `sumByDirection` adds them up in direction order, so a sum over blocks
 * of directions computed elsewhere (worker threads) gives the same bits as one call.
 *
 * Which kernel runs is the solve plan's choice (solvePlan.ts; WFLO_KERNEL=js asks it for the
 * JavaScript reference everywhere: slower, last bits differ); these functions are asked only for
 * what it gives the native kernel.
 */
import { createRequire } from 'node:module';
import { RuntimeFailure } from '../util/errors.js';
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import { deficitModel } from './wake/registry.js';
import { parameterDefaults } from './wake/deficitModel.js';
import { CRESPO_HERNANDEZ_DEFAULTS } from './turbulence/crespoHernandez.js';
import { rotorPoints } from './rotor/rotorPoints.js';

interface Addon {
  waked(...args: unknown[]): void;
  freeStream(...args: unknown[]): void;
  /** One scalar formula of the kernels into out (native/wakedKernel.inc formulaRun); the outputs written. */
  formula(
    name: string,
    inputs: Float64Array,
    out: Float64Array,
    cfg: Float64Array,
    powerSpeeds: Float64Array,
    powerW: Float64Array,
    ctSpeeds: Float64Array,
    ctValues: Float64Array,
  ): number;
  bestIsa(): 'avx2' | 'sse2';
}

// Configuration indices (native/kernel.h enum Cfg, same order; kernelFormulas.test.ts checks the two agree).
export const CFG_NAMES = [
  'MODEL',
  'INDUCTION',
  'SUPERPOSITION',
  'REF_EFFECTIVE',
  'USE_EFF_TI',
  'FREE_STREAM',
  'TURBULENCE',
  'TI_SUP',
  'AREA_OVERLAP',
  'DIAMETER',
  'INV_WEC',
  'TI0',
  'MWH_PER_W',
  'CUT_IN',
  'CUT_OUT',
  'CUT_OUT_INCLUSIVE',
  'CT_CONSTANT',
  'CT_ZERO_OUTSIDE',
  'POWER_CUBIC_RATED_SPEED',
  'RATED_POWER',
  'K0',
  'K_TI',
  'CEPS',
  'EPS_OR_CTLIM',
  'TP_A',
  'TP_C1',
  'TP_C2',
  'TP_CEPS',
  'TP_CTLIM',
  'JENSEN_K',
  'CH_C0',
  'CH_C1',
  'CH_C2',
  'CH_C3',
  'CH_TI_FACTOR',
  'TI_BOUND',
  'MARGIN',
  'REACH_STEP',
  'FS_K',
  'FS_EXP_FACTOR',
  'FS_INV_XI2',
  // Ground, rotor average, Crespo–Hernández's Ct→a (before ISA; the rotor points follow the enum: ROTOR_POINTS_AT).
  'TURB_INDUCTION',
  'GROUND',
  'MIRROR_DZ',
  'ROTOR_POINTS',
  'ROTOR_POINTS_AT',
  'REF_TARGET',
  'ISA',
] as const;
type CfgName = (typeof CFG_NAMES)[number];
const CFG = Object.fromEntries(CFG_NAMES.map((name, i) => [name, i])) as Record<CfgName, number>;

export type { KernelKind as KernelChoice } from './solvePlanTypes.js';
/** Instruction set of the native kernel: the best the processor has, or one forced (tests). */
export type IsaChoice = 'best' | 'sse2' | 'avx2';

let addon: Addon | null | undefined;
let loadError = '';

function loadAddon(): Addon | null {
  if (addon !== undefined) return addon;
  try {
    const require = createRequire(import.meta.url);
    // dist/src/physics/nativeKernel.js → build/Release at the package root.
    addon = require('../../../build/Release/wflo_kernel.node') as Addon;
  } catch (err) {
    addon = null;
    loadError = (err as Error).message.split('\n')[0];
  }
  return addon;
}

/** The native addon, or a RuntimeFailure saying how to build it. */
export function requireAddon(): Addon {
  const a = loadAddon();
  if (!a) {
    throw new RuntimeFailure(
      `the native wake kernel is not built (${loadError}): run \`npm ci\` or \`npm rebuild\` in the wflo folder ` +
        '(needs g++, make and python3), or set WFLO_KERNEL=js for the slower JavaScript reference',
    );
  }
  return a;
}

/** The instruction set the native kernel runs with on this processor. */
export function nativeIsa(): 'avx2' | 'sse2' {
  return requireAddon().bestIsa();
}

const ISA_CODE: Record<IsaChoice, number> = { best: 0, sse2: 1, avx2: 2 };

function baseConfig(turbine: Turbine, wind: WindResource, isa: IsaChoice): Float64Array {
  const cfg = new Float64Array(CFG_NAMES.length);
  cfg[CFG.DIAMETER] = turbine.diameter;
  cfg[CFG.TI0] = wind.turbulenceIntensity;
  cfg[CFG.MWH_PER_W] = (wind.hoursPerYear ?? 8760) * 1e-6;
  cfg[CFG.CUT_IN] = turbine.cutIn;
  cfg[CFG.CUT_OUT] = turbine.cutOut;
  cfg[CFG.CUT_OUT_INCLUSIVE] = turbine.cutOutInclusive === true ? 1 : 0;
  cfg[CFG.CT_CONSTANT] = turbine.thrust.kind === 'constant' ? turbine.thrust.ct : NaN;
  cfg[CFG.CT_ZERO_OUTSIDE] = turbine.thrust.kind === 'table' && turbine.thrust.outside === 'zero' ? 1 : 0;
  cfg[CFG.POWER_CUBIC_RATED_SPEED] = turbine.power.kind === 'cubic' ? turbine.power.ratedSpeed : NaN;
  cfg[CFG.RATED_POWER] = turbine.ratedPowerW;
  cfg[CFG.INV_WEC] = 1;
  cfg[CFG.ISA] = ISA_CODE[isa];
  return cfg;
}

/** The curve tables of a turbine as the addon reads them (empty for a cubic or constant curve). */
export interface CurveArrays {
  powerSpeeds: Float64Array;
  powerW: Float64Array;
  ctSpeeds: Float64Array;
  ctValues: Float64Array;
}

export function curveArrays(turbine: Turbine): CurveArrays {
  const none = new Float64Array(0);
  return {
    powerSpeeds: turbine.power.kind === 'table' ? turbine.power.speeds : none,
    powerW: turbine.power.kind === 'table' ? turbine.power.powerW : none,
    ctSpeeds: turbine.thrust.kind === 'table' ? turbine.thrust.speeds : none,
    ctValues: turbine.thrust.kind === 'table' ? turbine.thrust.ct : none,
  };
}

/**
 * The waked-engine configuration for a model the solve plan gives the native kernel (solvePlan.ts,
 * from engine/wakedCovers.ts nativeDeclines); it is not asked otherwise.
 */
export function wakedConfig(turbine: Turbine, wind: WindResource, spec: FarmModelSpec, isa: IsaChoice): Float64Array {
  const wake = deficitModel(spec.wake)!;
  const defaults = wake.wakedDefaults;
  const rotorAverage = spec.rotorAverage ?? defaults.rotorAverage;
  const native = wake.native!({ ...parameterDefaults(wake), ...(spec.params ?? {}) });
  // The rotor-average quadrature (none at the centre or with Jensen's area overlap), appended after the enum.
  const points = rotorAverage === 'area-overlap' ? null : rotorPoints(rotorAverage);
  const base = baseConfig(turbine, wind, isa);
  const cfg = points === null ? base : new Float64Array(base.length + 3 * points.w.length);
  if (points !== null) {
    cfg.set(base);
    const m = points.w.length,
      at = base.length;
    cfg.set(points.y, at);
    cfg.set(points.z, at + m);
    cfg.set(points.w, at + 2 * m);
    cfg[CFG.ROTOR_POINTS] = m;
    cfg[CFG.ROTOR_POINTS_AT] = at;
  }
  // The ground as a mirror: each source's image 2·h below the ground (engine/forward.ts pointwiseTarget).
  cfg[CFG.GROUND] = (spec.ground ?? 'none') === 'mirror' ? 1 : 0;
  cfg[CFG.MIRROR_DZ] = 2 * turbine.hubHeight;
  const freeStream = spec.inflow === 'free-stream';
  const induction = spec.ct2a ?? defaults.ct2a;
  cfg[CFG.INDUCTION] = induction === 'madsen' ? 1 : 0;
  cfg[CFG.SUPERPOSITION] = spec.superposition === 'linear' ? 0 : spec.superposition === 'sos' ? 1 : 2;
  cfg[CFG.FREE_STREAM] = freeStream ? 1 : 0;
  cfg[CFG.REF_EFFECTIVE] = !freeStream && (spec.deficitReference ?? defaults.deficitReference) === 'source-effective' ? 1 : 0;
  cfg[CFG.USE_EFF_TI] = !freeStream && (spec.useEffectiveTi ?? defaults.useEffectiveTi) ? 1 : 0;
  cfg[CFG.REF_TARGET] =
    !freeStream && (spec.deficitReference ?? defaults.deficitReference) === 'free-stream' && defaults.freeStreamReference === 'target' ? 1 : 0;
  cfg[CFG.INV_WEC] = 1 / (spec.params?.wec ?? 1);
  cfg[CFG.AREA_OVERLAP] = rotorAverage === 'area-overlap' ? 1 : 0;
  if (native.kind === 'linear-gaussian') {
    cfg[CFG.MODEL] = 0;
    cfg[CFG.K0] = native.k0;
    cfg[CFG.K_TI] = native.kTi;
    cfg[CFG.CEPS] = native.ceps;
    cfg[CFG.EPS_OR_CTLIM] = native.epsOrCtlim;
  } else if (native.kind === 'turbopark') {
    cfg[CFG.MODEL] = 1;
    cfg[CFG.TP_A] = native.A;
    cfg[CFG.TP_C1] = native.cTI1;
    cfg[CFG.TP_C2] = native.cTI2;
    cfg[CFG.TP_CEPS] = native.ceps;
    cfg[CFG.TP_CTLIM] = native.ctlim;
  } else {
    cfg[CFG.MODEL] = 2;
    cfg[CFG.JENSEN_K] = native.k;
  }
  const turbulence = spec.turbulence ?? defaults.turbulence;
  if (turbulence === 'crespo-hernandez') {
    const c = { ...CRESPO_HERNANDEZ_DEFAULTS, ...defaults.turbulenceParams, ...spec.turbulenceParams };
    const tiSup = spec.turbulenceSuperposition ?? 'sqrmax';
    cfg[CFG.TURBULENCE] = 1;
    cfg[CFG.TI_SUP] = tiSup === 'sqrmax' ? 0 : tiSup === 'linear' ? 1 : 2;
    cfg[CFG.CH_C0] = c.c0;
    cfg[CFG.CH_C1] = c.c1;
    cfg[CFG.CH_C2] = c.c2;
    cfg[CFG.CH_C3] = c.c3;
    cfg[CFG.CH_TI_FACTOR] = Math.pow(wind.turbulenceIntensity, c.c2);
    cfg[CFG.TURB_INDUCTION] = (spec.turbulenceCt2a ?? 'mom1d') === 'madsen' ? 1 : 0;
  }
  // Rotor points and added turbulence reach the target rotor's edge (engine/candidates.ts ReachScreen).
  cfg[CFG.MARGIN] = turbulence === 'crespo-hernandez' || points !== null ? (turbine.diameter / 2) * (1 + 1e-12) : 0;
  cfg[CFG.REACH_STEP] = turbine.diameter / 8;
  cfg[CFG.TI_BOUND] = Infinity;
  return cfg;
}

/** The native kernel's scalar formula `name` at `inputs` (test/physics/kernelFormulas.test.ts keeps each equal to its TypeScript twin). */
export function nativeFormula(
  name: 'power' | 'thrust' | 'twoA' | 'epsilon' | 'overlap' | 'crespo',
  inputs: ArrayLike<number>,
  turbine: Turbine,
  wind: WindResource,
  cfg?: Float64Array,
): Float64Array {
  const out = new Float64Array(8);
  const c = curveArrays(turbine);
  const written = requireAddon().formula(
    name,
    Float64Array.from(inputs),
    out,
    cfg ?? baseConfig(turbine, wind, 'best'),
    c.powerSpeeds,
    c.powerW,
    c.ctSpeeds,
    c.ctValues,
  );
  return out.subarray(0, written);
}

/** Sets the screening bound on sources' TI (the evaluator's learned hint) in a waked configuration. */
export function setTiBound(cfg: Float64Array, tiBound: number): void {
  cfg[CFG.TI_BOUND] = tiBound;
}

/** Results by direction, as every kernel writes them. */
export interface ByDirection {
  perDirectionMwh: Float64Array;
  /** [d·n + i] MWh of turbine i in direction d. */
  perTurbineByDir: Float64Array;
  /** [d·n + i] ∂AEP/∂x, ∂AEP/∂y (empty without the gradient). */
  gradXByDir: Float64Array;
  gradYByDir: Float64Array;
  /** [d·n + i] ∂AEP/∂h_i through a site's shear and fields (wakedNative.ts; absent or empty: not wanted). */
  gradHByDir?: Float64Array;
}

/** A farm model bound to the native kernel: evaluates any block of directions into results by direction. */
export interface NativeRunner {
  /**
   * Rows of the results by direction when they are not the resource's directions (a time series: its
   * distinct sample directions, windConditions.ts), with the resource direction each row adds to.
   */
  readonly rows?: { count: number; resultDirection: Int32Array };
  /** Fills out's rows dirFrom…dirTo−1; returns the pair evaluations computed (0 where not counted). */
  run(x: Float64Array, y: Float64Array, withGradient: boolean, out: ByDirection, dirFrom?: number, dirTo?: number): number;
}

/** Rows for nDir directions of n turbines; withHeight: the ∂AEP/∂h rows too (a site's waked runner fills them). */
export function allocateByDirection(nDir: number, n: number, withGradient: boolean, withHeight = false): ByDirection {
  return {
    perDirectionMwh: new Float64Array(nDir),
    perTurbineByDir: new Float64Array(nDir * n),
    gradXByDir: new Float64Array(withGradient ? nDir * n : 0),
    gradYByDir: new Float64Array(withGradient ? nDir * n : 0),
    ...(withGradient && withHeight ? { gradHByDir: new Float64Array(nDir * n) } : {}),
  };
}

/**
 * AEP, energy by turbine and gradient (and gradH where the rows have it): sums over directions in
 * direction order (canonical). With `rows` (NativeRunner.rows), each row's energy goes to its
 * resource direction (of nResult), and the AEP is the sum of those in order (as engine/objective.ts AepTerm).
 */
export function sumByDirection(
  r: ByDirection,
  n: number,
  withGradient: boolean,
  rows?: { resultDirection: Int32Array },
  nResult = 0,
): {
  aepMwh: number;
  perDirectionMwh: Float64Array;
  perTurbineMwh: Float64Array;
  gradX: Float64Array;
  gradY: Float64Array;
  gradH?: Float64Array;
} {
  const nDir = r.perDirectionMwh.length;
  let aepMwh = 0;
  let perDirectionMwh = r.perDirectionMwh;
  if (rows) {
    perDirectionMwh = new Float64Array(nResult);
    for (let d = 0; d < nDir; d++) perDirectionMwh[rows.resultDirection[d]] += r.perDirectionMwh[d];
    for (let d = 0; d < nResult; d++) aepMwh += perDirectionMwh[d];
  } else for (let d = 0; d < nDir; d++) aepMwh += r.perDirectionMwh[d];
  const perTurbineMwh = new Float64Array(n);
  const gradX = new Float64Array(withGradient ? n : 0),
    gradY = new Float64Array(withGradient ? n : 0);
  // Each turbine's sum from 0 over the directions in order (a running sum in a local).
  const pt = r.perTurbineByDir,
    gx = r.gradXByDir,
    gy = r.gradYByDir;
  for (let i = 0; i < n; i++) {
    let e = 0;
    for (let at = i; at < nDir * n; at += n) e += pt[at];
    perTurbineMwh[i] = e;
  }
  if (withGradient) {
    for (let i = 0; i < n; i++) {
      let sx = 0,
        sy = 0;
      for (let at = i; at < nDir * n; at += n) {
        sx += gx[at];
        sy += gy[at];
      }
      gradX[i] = sx;
      gradY[i] = sy;
    }
  }
  const gh = r.gradHByDir;
  if (!withGradient || gh === undefined || gh.length === 0) return { aepMwh, perDirectionMwh, perTurbineMwh, gradX, gradY };
  const gradH = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sh = 0;
    for (let at = i; at < nDir * n; at += n) sh += gh[at];
    gradH[i] = sh;
  }
  return { aepMwh, perDirectionMwh, perTurbineMwh, gradX, gradY, gradH };
}

/** Free-stream Gaussian configuration (k, 1/ξ²) for aep.ts, for a model the solve plan gives the native kernel. */
export function freeStreamConfig(turbine: Turbine, wind: WindResource, spec: FarmModelSpec, k: number, invXi2: number, isa: IsaChoice): Float64Array {
  const cfg = baseConfig(turbine, wind, isa);
  cfg[CFG.SUPERPOSITION] = spec.superposition === 'linear' ? 0 : spec.superposition === 'sos' ? 1 : 2;
  cfg[CFG.FS_K] = k;
  cfg[CFG.FS_INV_XI2] = invXi2;
  cfg[CFG.FS_EXP_FACTOR] = -0.5 * cfg[CFG.FS_INV_XI2];
  return cfg;
}
