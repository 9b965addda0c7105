/**
 * What a wake deficit model is, in one place: the description each model file exports (its
 * names, parameters with defaults and physical ranges, the engine forms it has and their
 * defaults, what PyWake's literature model of the same name chooses, and whether the native kernel
 * computes it). The registry (wake/registry.ts) lists them; every input reader, the resolver
 * (io/farmModelFields.ts resolveFarmModel), the engines and the docs ask it, so that adding a model is one file
 * and one registry line (CONTRIBUTING.md shows the recipe).
 */
import type { LocalWakeFactory } from './localWake.js';
import type { WakeDeficitModel } from './wakeModel.js';
import type { InductionName } from '../inductionFactor.js';

/** One model parameter: its default, the closed range of values that are physical, and what it is. */
export interface ParameterSpec {
  default: number;
  /** Smallest allowed value (exclusive when `minExclusive`). */
  min: number;
  max: number;
  minExclusive?: boolean;
  /** One line: the meaning and the unit (shown by `wflo cases --models` and in errors). */
  doc: string;
}

/** Per-model options of the waked engine (PyWake's literature models' choices). */
export interface WakedDefaults {
  ct2a: InductionName;
  deficitReference: 'free-stream' | 'source-effective';
  /**
   * With the free-stream reference on a site that is not uniform: whose free stream scales the
   * deficit — the source's (`WS_ilk`, the default) or the target's (`WS_jlk`: PyWake's TurbOPark,
   * TurboGaussianDeficit.WS_key). The same on a uniform site.
   */
  freeStreamReference?: 'source' | 'target';
  useEffectiveTi: boolean;
  turbulence: 'none' | 'crespo-hernandez';
  rotorAverage: string;
  turbulenceParams?: Record<string, number>;
}

/**
 * What "library default" means in a reference case file: PyWake's literature wind farm model of
 * this deficit chooses these where the waked defaults do not say it already — its superposition,
 * parameters whose PyWake default differs, its ground model — and lists, by field, what it uses
 * that wflo lacks (so that a file asking for it is refused rather than computed otherwise).
 */
export interface LibraryDefaults {
  superposition: 'sos' | 'linear' | 'max' | 'weighted';
  params?: Record<string, number>;
  ground?: 'none' | 'mirror';
  unsupported?: { rotor_average?: string; ground?: string };
}

/** The native kernel's wake forms (native/wakedKernel.inc) and the parameters each reads. */
export type NativeWake =
  | { kind: 'linear-gaussian'; k0: number; kTi: number; ceps: number; epsOrCtlim: number }
  | { kind: 'turbopark'; A: number; cTI1: number; cTI2: number; ceps: number; ctlim: number }
  | { kind: 'top-hat'; k: number };

export interface DeficitModel {
  /** The name inputs and outputs use (lower case, no spaces). */
  readonly name: string;
  /** The paper, one line. */
  readonly reference: string;
  /**
   * Other spellings that name it in input files: windIO names, PyWake class names, common short
   * names. Compared after lower-casing and dropping everything but letters and digits.
   */
  readonly aliases: readonly string[];
  /** How a free-text description names it (a reference case file's `deficit: Niayifar & Porte-Agel 2016 Gaussian`). */
  readonly describedBy: RegExp;
  /** The shape of the wake's cross-section (the weighted sum needs a Gaussian one). */
  readonly profile: 'gaussian' | 'super-gaussian' | 'top-hat';
  /** The model this one is a variant of: a description matching both means this one (IEA37 refines Bastankhah). */
  readonly refines?: string;
  /** Every parameter an input may set (either engine form reads it), with default and range. */
  readonly parameters: Readonly<Record<string, ParameterSpec>>;
  /** The waked-inflow form (engine/): every model has one. */
  readonly waked: LocalWakeFactory;
  /** The free-stream form (aep.ts, the IEA37 case-study engine), where the model has one. */
  readonly freeStream?: WakeDeficitModel;
  readonly wakedDefaults: WakedDefaults;
  readonly library: LibraryDefaults;
  /**
   * The windIO `wake_expansion_coefficient` {k_a, k_b} (k = k_a·TI + k_b): which parameters take
   * k_a and k_b (k_a null: the expansion is constant, k_a must be 0); absent: the model has none.
   */
  readonly windioExpansion?: { ka: string | null; kb: string };
  /**
   * True when the free-stream form reads `wec`, the wake expansion continuation factor (widened
   * wakes the gradient method starts from, then narrows: optimize/gradientStages.ts).
   */
  readonly wakeExpansionContinuation?: boolean;
  /** The native kernel's form of the waked model from its parameters (absent: JavaScript only). */
  readonly native?: (p: Readonly<Record<string, number>>) => NativeWake;
}

/** The parameter defaults of a model, by name. */
export function parameterDefaults(model: DeficitModel): Record<string, number> {
  return Object.fromEntries(Object.entries(model.parameters).map(([k, v]) => [k, v.default]));
}

/**
 * Why `value` is not an allowed value of parameter `name` (spec `spec`), or null: lower bounds are
 * the signs the formulas need, upper bounds where the parameter stops describing a wake (about 10×
 * or more above every published value, so no fitted value is refused but `k: 1e300` is).
 */
export function parameterRangeProblem(name: string, spec: ParameterSpec, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return `expected a finite number, got ${JSON.stringify(value)}`;
  const interval = `${spec.minExclusive ? '(' : '['}${spec.min}, ${spec.max}]`;
  if (spec.minExclusive ? !(value > spec.min) : !(value >= spec.min)) {
    if (name === 'ctlim') return `must be in ${interval}, got ${value}`;
    if (spec.min === 0) return `${spec.minExclusive ? 'must be > 0' : 'must be >= 0'}, got ${value}`;
    return `must be in ${interval}, got ${value} (${spec.doc})`;
  }
  if (value > spec.max) {
    if (name === 'ctlim') return `must be in ${interval}, got ${value}`;
    return `must be at most ${spec.max}, got ${value} (${spec.doc})`;
  }
  return null;
}
