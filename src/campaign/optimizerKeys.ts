/**
 * Optimizer settings keys in campaign files: snake_case like every other key in wflo's files
 * (`max_iterations`, `hop_wec`), with the optimizer's own camelCase names (`maxIterations`)
 * kept as documented aliases. Keys are translated to camelCase before the optimizer sees them,
 * so both spellings give the same spec hash; an unknown key gets the nearest known one.
 * The known keys are read from optimize/settings.ts itself (the fields resolveSettings returns,
 * plus those its unknown-field message lists), so settings added there are known here at once.
 */
import { resolveSettings, OPTIMIZER_METHODS, type OptimizerSettings } from '../optimize/settings.js';
import { nearestKey } from '../io/didYouMean.js';

export const snakeToCamel = (key: string): string => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
export const camelToSnake = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

let known: string[] | null = null;

/** The optimizer's setting names (camelCase). */
export function knownOptimizerKeys(): string[] {
  if (known) return known;
  const keys = new Set<string>(['method']);
  try {
    for (const k of Object.keys(resolveSettings({ method: OPTIMIZER_METHODS[0] }))) keys.add(k);
  } catch {
    /* defaults always resolve; keep what we have */
  }
  try {
    resolveSettings({ method: OPTIMIZER_METHODS[0], __wflo_probe__: 1 } as OptimizerSettings);
  } catch (err) {
    const list = /\(known: ([^)]*)\)/.exec((err as Error).message)?.[1];
    for (const k of list?.split(',') ?? []) if (k.trim()) keys.add(k.trim());
  }
  known = [...keys];
  return known;
}

export interface TranslatedSettings {
  settings: Record<string, unknown>;
  /** Problem with a key, as written in the file. */
  problem: { key: string; message: string } | null;
}

/**
 * Settings for one of optimize/'s methods, keys translated to camelCase. Reports an unknown key
 * (with did-you-mean in the spelling style the file used) and a key given in both spellings.
 */
export function translateOptimizerKeys(raw: Record<string, unknown>): TranslatedSettings {
  const keys = knownOptimizerKeys();
  const settings: Record<string, unknown> = {};
  const writtenAs = new Map<string, string>();
  for (const [key, value] of Object.entries(raw)) {
    const camel = snakeToCamel(key);
    if (!keys.includes(camel)) {
      const snakeStyle = key.includes('_') || key === key.toLowerCase();
      const candidates = keys.map((k) => (snakeStyle ? camelToSnake(k) : k));
      const near = nearestKey(key, candidates);
      return {
        settings,
        problem: {
          key,
          message: near
            ? `unknown optimizer setting '${key}'; did you mean '${near}'?`
            : `unknown optimizer setting '${key}' (known: ${keys.map(camelToSnake).join(', ')})`,
        },
      };
    }
    if (writtenAs.has(camel)) {
      return { settings, problem: { key, message: `'${key}' and '${writtenAs.get(camel)}' are the same setting; give it once` } };
    }
    writtenAs.set(camel, key);
    settings[camel] = value;
  }
  return { settings, problem: null };
}
