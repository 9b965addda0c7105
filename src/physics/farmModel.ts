/**
 * A wind farm model composed from parts the user chooses (PyWake's idea): a wake deficit model
 * and a superposition rule. Names are what the CLI and case files accept.
 */
export type WakeModelName = 'iea37' | 'bastankhah2014' | 'jensen';
export type SuperpositionName = 'sos' | 'linear' | 'max';

export interface FarmModelSpec {
  wake: WakeModelName;
  superposition: SuperpositionName;
  /** Model parameters by name (e.g. { k: 0.0324555 }); defaults documented in each model file. */
  params?: Record<string, number>;
}

export const WAKE_MODEL_NAMES: readonly WakeModelName[] = ['iea37', 'bastankhah2014', 'jensen'];
export const SUPERPOSITION_NAMES: readonly SuperpositionName[] = ['sos', 'linear', 'max'];
