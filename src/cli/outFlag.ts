/**
 * The one output flag: `-o, --out PATH` names where a command writes. PATH is a FILE for the
 * commands that write one file (`optimize`, `plot`, `report`, `export`, `shards merge`,
 * `missing`, `shards missing`: the campaign for the missing tasks) and a DIR for those whose
 * result is a campaign output folder (`run`, `collect`, `slurm`, `slurm status`, `validate`).
 * The spellings these commands had before (`--output FILE`, `--write FILE`) are still accepted,
 * hidden from --help and without a warning; giving two different paths is a usage error.
 */
import { Option, type Command } from 'commander';
import { InputError } from '../util/errors.js';

export type OutKind = 'file' | 'dir';

/** Adds `-o, --out <file|dir>` and the old spellings `aliases` (e.g. `--output`) as hidden options. */
export function withOutFlag(command: Command, kind: OutKind, description: string, aliases: readonly string[] = []): Command {
  command.option(`-o, --out <${kind}>`, description);
  for (const alias of aliases) command.addOption(new Option(`${alias} <${kind}>`).hideHelp());
  return command;
}

const optionKey = (flag: string): string => flag.replace(/^--/, '').replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The path given with -o/--out or one of `aliases`, and the flag as messages name it (`-o`, or the old spelling typed). */
export function outFlagGiven(opts: object, aliases: readonly string[] = []): { path: string; flag: string } | undefined {
  const values = opts as Record<string, unknown>;
  const given = ['--out', ...aliases]
    .map((flag) => ({ flag: flag === '--out' ? '-o' : flag, path: values[optionKey(flag)] }))
    .filter((g): g is { flag: string; path: string } => typeof g.path === 'string');
  if (new Set(given.map((g) => g.path)).size > 1) throw new InputError(`${given.map((g) => `${g.flag} ${g.path}`).join(' and ')}: give one output path`);
  return given[0];
}

/** The path given with -o/--out or one of `aliases` (undefined: none given). */
export function outFlag(opts: object, aliases: readonly string[] = []): string | undefined {
  return outFlagGiven(opts, aliases)?.path;
}
