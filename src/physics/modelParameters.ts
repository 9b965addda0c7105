/**
 * The parameters a wake model reads, by name: those of its waked-engine form (wake/localRegistry.ts)
 * and of its free-stream form where it has one (wake/registry.ts). `wec` (wake expansion
 * continuation) is the optimizer's, never a model parameter of a file. Input files and flags are
 * checked against them (io/wakeParams.ts), so that a parameter the model does not read (`k` of a
 * model whose expansion comes from the turbulence) is an error, not ignored.
 */
import type { WakeModelName } from './farmModel.js';
import { LOCAL_WAKE_MODELS } from './wake/localRegistry.js';
import { WAKE_MODELS } from './wake/registry.js';

/** The parameter names of `wake`, sorted. */
export function wakeParameterNames(wake: WakeModelName): string[] {
  const names = new Set<string>();
  for (const source of [LOCAL_WAKE_MODELS[wake]?.defaults, WAKE_MODELS[wake]?.defaults]) {
    for (const name of Object.keys(source ?? {})) if (name !== 'wec') names.add(name);
  }
  return [...names].sort();
}
