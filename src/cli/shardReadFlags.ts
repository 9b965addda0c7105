/**
 * How foreign HDF5 files are read, as command-line options: defined once here for `wflo shards
 * check|merge|missing` and `wflo run --adopt` (docs/shards.md, "Reading other pipelines' files").
 * Parsing and defaults only; what the options mean is src/shards/readOptions.ts.
 */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';
import { DEFAULT_SHARD_PATTERN } from '../shards/fileSelection.js';
import { DEFAULT_MAX_ROWS } from '../io/hdf5/declaredSize.js';
import { buildReadOptions } from '../shards/readOptions.js';
import { DEFAULT_MAX_TURBINES, type ShardReadOptions } from '../shards/shardTypes.js';

/** The options as commander hands them over (no defaults set, so a given option can be told apart). */
export interface ShardReadCliFlags {
  pattern?: string;
  shape?: string;
  keyPattern?: string;
  field: string[];
  jobs?: string;
  timeout?: string;
  maxTurbines?: string;
  maxRows?: string;
}

/** Flags and their option names, for "needs --adopt" messages. */
const FLAG_NAMES: [keyof ShardReadCliFlags, string][] = [
  ['pattern', '--pattern'],
  ['shape', '--shape'],
  ['keyPattern', '--key-pattern'],
  ['field', '--field'],
  ['jobs', '--jobs'],
  ['timeout', '--timeout'],
  ['maxTurbines', '--max-turbines'],
  ['maxRows', '--max-rows'],
];

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

export function intFlag(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new InputError(`${flag}: expected an integer >= ${min}, got '${value}'`);
  return n;
}

/** Add the reading options to `command`; `files` says what they apply to in the help text. */
export function withShardReadFlags(command: Command, files = 'the files'): Command {
  return command
    .option('--pattern <glob>', `file name pattern inside a folder of ${files} (default ${DEFAULT_SHARD_PATTERN})`)
    .option('--shape <shape>', 'auto (default) | groups (one entry per record: <group>/<key>) | rows (columns farm_id, farm_type, seed, aep, layout)')
    .option(
      '--key-pattern <pattern>',
      'record key format: template with {farm} {type} {seed} (default farm_{farm}_type_{type}_seed_{seed}), or a regex with those named groups',
    )
    .option(
      '--field <name=dataset>',
      'map a field to the name used in the files, e.g. aep=AEP_opt, farm_id=farm; group=PATH says where the records are (results/run_3, or / for the root) (repeatable)',
      collect,
      [],
    )
    .option('--jobs <n>', `probe processes opening ${files} in parallel (default 2)`)
    .option('--timeout <s>', 'seconds allowed per file before it is declared unreadable (default 120)')
    .option('--max-turbines <n>', `reject records with more turbines (default ${DEFAULT_MAX_TURBINES})`)
    .option('--max-rows <n>', `refuse row datasets declaring more rows, unread (default ${DEFAULT_MAX_ROWS})`);
}

/** The reading options given on the command line (for refusing them where they mean nothing). */
export function givenShardReadFlags(opts: ShardReadCliFlags): string[] {
  return FLAG_NAMES.filter(([key]) => (key === 'field' ? opts.field.length > 0 : opts[key] !== undefined)).map(([, name]) => name);
}

export interface ShardReading {
  read: ShardReadOptions;
  pattern: string;
  jobs?: number;
  timeoutMs: number;
}

export function shardReadingOf(opts: ShardReadCliFlags): ShardReading {
  const read = buildReadOptions({
    shape: opts.shape,
    keyPattern: opts.keyPattern,
    fields: opts.field,
    maxTurbines: intFlag('--max-turbines', opts.maxTurbines, 1),
    maxRows: intFlag('--max-rows', opts.maxRows, 1),
  });
  return {
    read,
    pattern: opts.pattern ?? DEFAULT_SHARD_PATTERN,
    jobs: intFlag('--jobs', opts.jobs, 1),
    timeoutMs: (intFlag('--timeout', opts.timeout, 1) ?? 120) * 1000,
  };
}
