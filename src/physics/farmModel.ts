/**
 * A wind farm model composed from parts the user chooses (PyWake's idea): a wake deficit model,
 * a superposition rule, and, for the waked-inflow engine, how the inflow is solved, which Ct→a
 * relation and reference speed the deficit uses, added turbulence and rotor averaging. Names are
 * what the CLI and case files accept; docs/physics.md lists every option with its default.
 */
import type { InductionName } from './inductionFactor.js';
import type { Site } from './site/site.js';
import type { TurbulenceSuperpositionName } from './turbulence/crespoHernandez.js';
import type { DeficitModel } from './wake/deficitModel.js';
import { deficitModel, deficitModelNames } from './wake/registry.js';

/** A registered wake model's name (wake/registry.ts: the built-in ones and any registered at run time). */
export type WakeModelName = string;
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
  /**
   * A site that is not uniform (site/site.ts: speed-up and TI fields, shear): each turbine's own
   * free stream; which solver and kernel evaluate it is the solve plan's choice, from what each solver
   * declares it covers (physics/solvePlan.ts). Absent: a uniform site.
   */
  site?: Site;
}

export type GroundModelName = 'none' | 'mirror';
export const GROUND_MODEL_NAMES: readonly GroundModelName[] = ['none', 'mirror'];

/** `selfsimilarity2020`: Troldborg & Meyer Forsting's self-similar induction, 2020 fit (blockage/selfSimilarity2020.ts). */
export type BlockageModelName = 'selfsimilarity2020';
export const BLOCKAGE_MODEL_NAMES: readonly BlockageModelName[] = ['selfsimilarity2020'];

/** The built-in wake models' names (the registry may hold more: wake/registry.ts deficitModelNames()). */
export const WAKE_MODEL_NAMES: readonly WakeModelName[] = deficitModelNames() as WakeModelName[];
/** Models of the free-stream engine (those with a free-stream form); every model runs in the waked engine. */
export const FREE_STREAM_WAKE_MODEL_NAMES: readonly WakeModelName[] = WAKE_MODEL_NAMES.filter((m) => deficitModel(m)?.freeStream !== undefined);
export const SUPERPOSITION_NAMES: readonly SuperpositionName[] = ['sos', 'linear', 'max', 'weighted'];
export const INFLOW_NAMES: readonly InflowName[] = ['waked', 'free-stream'];

export type { WakedDefaults, LibraryDefaults } from './wake/deficitModel.js';

/** The wake model of this name (a descriptor of wake/deficitModel.ts), or an Error naming the known ones. */
export function wakeModelOf(name: string): DeficitModel {
  const model = deficitModel(name);
  if (!model) throw new Error(`unknown wake model '${name}' (known: ${deficitModelNames().join(', ')})`);
  return model;
}

/** Whether the model has a free-stream form (the IEA37 case-study engine of aep.ts). */
export function hasFreeStreamForm(name: string): boolean {
  return deficitModel(name)?.freeStream !== undefined;
}
