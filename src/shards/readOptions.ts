/**
 * Builds ShardReadOptions from the user's flags: `--shape auto|groups|rows`, `--key-pattern`,
 * and repeated `--field NAME=CANDIDATE[,CANDIDATE...]` (e.g. `--field aep=AEP_opt`,
 * `--field group=results`, `--field placeholder=init,dummy`). A mapped field replaces that
 * field's default candidates.
 */
import { InputError } from '../util/errors.js';
import { DEFAULT_KEY_PATTERN, keyPatternToRegex } from './keyPattern.js';
import { DEFAULT_FIELD_NAMES, type FieldName, type FieldNames, type ShardReadOptions, type ShardShape } from './shardTypes.js';

export interface ReadFlags {
  shape?: string;
  keyPattern?: string;
  fields?: string[];
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
    const candidates = m[2].split(',').map((c) => c.trim()).filter(Boolean);
    if (candidates.some((c) => c.includes('/'))) throw new InputError(`--field "${mapping}": names are members of one group, without "/"`);
    fields[name] = candidates;
  }
  const keyPatternText = flags.keyPattern ?? DEFAULT_KEY_PATTERN;
  return { shapes, keyRegex: keyPatternToRegex(keyPatternText), keyPatternText, fields };
}
