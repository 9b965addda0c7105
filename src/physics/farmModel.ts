/**
 * A wind farm model composed from parts the user chooses (PyWake's idea): a wake deficit model,
 * a superposition rule, and, for the waked-inflow engine, how the inflow is solved, which Ct→a
 * relation and reference speed the deficit uses, added turbulence and rotor averaging. Names are
 * what the CLI and case files accept; docs/physics.md lists every option with its default.
 */
import type { InductionName } from './inductionFactor.js';
import type { TurbulenceSuperpositionName } from './turbulence/crespoHernandez.js';

export type WakeModelName = 'iea37' | 'bastankhah2014' | 'jensen' | 'niayifar2016' | 'turbopark2022' | 'zong2020' | 'blondel2020' | 'carbajofuertes2018';
/** `weighted`: Zong & Porté-Agel's momentum-conserving weighted sum (superposition/weightedSum.ts; its exact gradient: weightedSumGradient.ts). */
export type SuperpositionName = 'sos' | 'linear' | 'max' | 'weighted';
/**
 * `waked`: per direction and speed, turbines in downstream order, each one's Ct and power at the
 * speed it sees (PyWake's PropagateDownwind). `free-stream`: Ct at the free-stream speed, deficits
 * as fractions of it (the IEA37 case-study engine; exact for a constant Ct).
 */
export type InflowName = 'waked' | 'free-stream';
/** Speed a deficit fraction multiplies: the free stream (= ambient speed at the target on a uniform site) or the source's effective speed. */
export type DeficitReferenceName = 'free-stream' | 'source-effective';
export type TurbulenceModelName = 'none' | 'crespo-hernandez';

export interface FarmModelSpec {
  wake: WakeModelName;
  superposition: SuperpositionName;
  /** Model parameters by name (e.g. { k: 0.0324555 }); defaults documented in each model file. */
  params?: Record<string, number>;
  /** Default: `waked` for a tabulated-Ct turbine or a model the free-stream engine lacks, else `free-stream`. */
  inflow?: InflowName;
  /** Ct→induction relation of the waked engine (default per model, see docs/physics.md). */
  ct2a?: InductionName;
  deficitReference?: DeficitReferenceName;
  /** Whether TI-dependent wakes use the source's effective TI (default per model). */
  useEffectiveTi?: boolean;
  turbulence?: TurbulenceModelName;
  turbulenceSuperposition?: TurbulenceSuperpositionName;
  /** Crespo–Hernández constants c0…c3 (defaults in turbulence/crespoHernandez.ts). */
  turbulenceParams?: Record<string, number>;
  /** Ct→induction relation inside Crespo–Hernández (default mom1d; PyWake's CrespoHernandez() class default is madsen). */
  turbulenceCt2a?: InductionName;
  /** `center`, `area-overlap` (top-hat models), `cgi4`, `gauss2`…`gauss8` (default per model). */
  rotorAverage?: string;
  /** An induction (blockage) model solved with the wakes (blockageSolve.ts); absent: no blockage. */
  blockage?: BlockageModelName;
  /**
   * `mirror`: the ground as a mirror (PyWake's `Mirror` ground model): every source also casts the
   * wake of an image below the ground, at vertical offset dz + 2·h_source from the target, and the
   * two deficits of a pair are combined by the superposition rule before the farm sum. Waked
   * engine only (not with the weighted sum or blockage). Default `none`.
   */
  ground?: GroundModelName;
}

export type GroundModelName = 'none' | 'mirror';
export const GROUND_MODEL_NAMES: readonly GroundModelName[] = ['none', 'mirror'];

/** Why a model's ground cannot be computed with its other options, or null. */
export function groundConflict(model: FarmModelSpec): string | null {
  if ((model.ground ?? 'none') === 'none') return null;
  if (model.blockage) return 'the ground mirror is not supported with blockage';
  if (model.superposition === 'weighted') return "the ground mirror is not supported with the weighted sum (use 'linear' or 'sos')";
  return null;
}

/** `selfsimilarity2020`: Troldborg & Meyer Forsting's self-similar induction, 2020 fit (blockage/selfSimilarity2020.ts). */
export type BlockageModelName = 'selfsimilarity2020';
export const BLOCKAGE_MODEL_NAMES: readonly BlockageModelName[] = ['selfsimilarity2020'];

/** Models of the free-stream engine (wake/registry.ts); every model runs in the waked engine. */
export const FREE_STREAM_WAKE_MODEL_NAMES: readonly WakeModelName[] = ['iea37', 'bastankhah2014', 'jensen'];
export const WAKE_MODEL_NAMES: readonly WakeModelName[] = ['iea37', 'bastankhah2014', 'jensen', 'niayifar2016', 'turbopark2022', 'zong2020', 'blondel2020', 'carbajofuertes2018'];
export const SUPERPOSITION_NAMES: readonly SuperpositionName[] = ['sos', 'linear', 'max', 'weighted'];
export const INFLOW_NAMES: readonly InflowName[] = ['waked', 'free-stream'];

/** Per-model defaults of the waked engine: PyWake's literature models (py_wake.literature). */
export interface WakedDefaults {
  ct2a: InductionName;
  deficitReference: DeficitReferenceName;
  useEffectiveTi: boolean;
  turbulence: TurbulenceModelName;
  rotorAverage: string;
  turbulenceParams?: Record<string, number>;
}

export const WAKED_DEFAULTS: Readonly<Record<WakeModelName, WakedDefaults>> = {
  iea37: { ct2a: 'mom1d', deficitReference: 'free-stream', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'center' },
  bastankhah2014: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'center' },
  jensen: { ct2a: 'mom1d', deficitReference: 'free-stream', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'area-overlap' },
  niayifar2016: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: true, turbulence: 'crespo-hernandez', rotorAverage: 'center' },
  turbopark2022: { ct2a: 'mom1d', deficitReference: 'free-stream', useEffectiveTi: false, turbulence: 'none', rotorAverage: 'center' },
  zong2020: { ct2a: 'madsen', deficitReference: 'source-effective', useEffectiveTi: true, turbulence: 'crespo-hernandez', rotorAverage: 'center', turbulenceParams: { c0: 0.73, c1: 0.83, c2: 0.03, c3: -0.32 } },
  blondel2020: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: true, turbulence: 'none', rotorAverage: 'center' },
  carbajofuertes2018: { ct2a: 'mom1d', deficitReference: 'source-effective', useEffectiveTi: true, turbulence: 'crespo-hernandez', rotorAverage: 'center' },
};

/**
 * What "library default" means in a reference case file: PyWake's literature wind farm models
 * (py_wake.literature) choose these where the waked defaults above do not say it already —
 * the superposition each one uses, parameters whose PyWake default differs from wflo's, and the
 * ground model (TurbOPark's `Nygaard_2022` mirrors the ground). Rotor averages PyWake chooses that
 * wflo lacks are listed by field, so that a file asking for them is refused rather than computed otherwise.
 */
export interface LibraryDefaults {
  superposition: SuperpositionName;
  params?: Record<string, number>;
  ground?: GroundModelName;
  unsupported?: { rotor_average?: string; ground?: string };
}

export const LIBRARY_DEFAULTS: Readonly<Record<WakeModelName, LibraryDefaults>> = {
  iea37: { superposition: 'sos' },
  bastankhah2014: { superposition: 'linear' },
  jensen: { superposition: 'sos', params: { k: 0.1 } },
  niayifar2016: { superposition: 'linear', unsupported: { rotor_average: 'Gaussian-overlap rotor average (GaussianOverlapAvgModel)' } },
  turbopark2022: { superposition: 'sos', ground: 'mirror', unsupported: { rotor_average: 'Gaussian-overlap rotor average (Nygaard_2022)' } },
  zong2020: { superposition: 'weighted' },
  blondel2020: { superposition: 'linear' },
  carbajofuertes2018: { superposition: 'linear', unsupported: { rotor_average: 'Gaussian-overlap rotor average (GaussianOverlapAvgModel)' } },
};
