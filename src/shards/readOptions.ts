/**
 * Builds ShardReadOptions from the user's flags: `--shape auto|groups|rows`, `--key-pattern`,
 * repeated `--field NAME=CANDIDATE[,CANDIDATE...]` (e.g. `--field aep=AEP_opt`,
 * `--field group=results/run_3`, `--field group=/`, `--field placeholder=init,dummy`),
 * `--max-turbines` and `--max-rows`. A mapped field replaces that field's default candidates.
 * Only `group` names a path (where the records are); every other name is a member of the
 * record's own group or of the records location.
 */
import { InputError } from '../util/errors.js';
import { DEFAULT_KEY_PATTERN, keyPatternToRegex } from './keyPattern.js';
import { DEFAULT_MAX_ROWS } from '../io/hdf5/declaredSize.js';
import { DEFAULT_FIELD_NAMES, DEFAULT_MAX_TURBINES, type FieldName, type FieldNames, type ShardReadOptions, type ShardShape } from './shardTypes.js';

export interface ReadFlags {
  shape?: string;
  keyPattern?: string;
  fields?: string[];
  maxTurbines?: number;
  maxRows?: number;
}

/** `results/run_3/` -> `results/run_3`; `/` or `` -> `/` (the root). */
export function normalizeGroupPath(candidate: string): string {
  const trimmed = candidate.replace(/\/+/g, '/').replace(/^\/|\/$/g, '');
  return trimmed === '' ? '/' : trimmed;
}

export function buildReadOptions(flags: ReadFlags = {}): ShardReadOptions {
  const shape = flags.shape ?? 'auto';
  let shapes: ShardShape[];
  if (shape === 'auto') shapes = ['groups', 'rows'];
  else if (shape === 'groups' || shape === 'rows') shapes = [shape];
  else throw new InputError(`--shape "${shape}": expected auto, groups or rows`);
  const fields: FieldNames = structuredClone(DEFAULT_FIELD_NAMES);
  for (const mapping of flags.fields ?? []) {
    const m = /^([a-z_]+)=(.+)$/.exec(mapping.trim());
    if (!m) throw new InputError(`--field "${mapping}": expected NAME=DATASET (e.g. aep=AEP_opt)`);
    const name = m[1] as FieldName;
    if (!(name in fields)) throw new InputError(`--field "${mapping}": unknown field ${m[1]} (known: ${Object.keys(fields).join(', ')})`);
    let candidates = m[2]
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
    if (candidates.length === 0) throw new InputError(`--field "${mapping}": no name given`);
    if (name === 'group') {
      candidates = candidates.map(normalizeGroupPath);
      if (candidates.some((c) => c.split('/').some((part) => part === '.' || part === '..'))) {
        throw new InputError(`--field "${mapping}": a group path inside the file, without . or .. (e.g. results/run_3, or / for the root)`);
      }
    } else if (candidates.some((c) => c.includes('/'))) {
      throw new InputError(`--field "${mapping}": ${name} names a member of the record's group, without "/" (where the records are is --field group=PATH)`);
    }
    fields[name] = candidates;
  }
  const keyPatternText = flags.keyPattern ?? DEFAULT_KEY_PATTERN;
  return {
    shapes,
    keyRegex: keyPatternToRegex(keyPatternText),
    keyPatternText,
    fields,
    maxTurbines: flags.maxTurbines ?? DEFAULT_MAX_TURBINES,
    maxRows: flags.maxRows ?? DEFAULT_MAX_ROWS,
  };
}
