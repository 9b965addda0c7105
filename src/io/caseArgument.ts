/**
 * The one reading of a case given on the command line (`wflo aep CASE`, `aep --case`,
 * `optimize CASE`, `plot CASE`, `plot --case`, `validate CASE`): a built-in case name
 * (`wflo cases`) or a file. A built-in name wins over a file of the same name in the current
 * folder (write `./NAME` for the file); a word that is neither is one line with the nearest
 * built-in name.
 */
import fs from 'node:fs';
import { InputError } from '../util/errors.js';
import { BUILTIN_CASE_NAMES, isBuiltinCase } from './builtinCases.js';
import { nearestKey } from './didYouMean.js';

export type CaseArgument = { kind: 'builtin'; name: string } | { kind: 'file'; file: string };

/** Written as a path: a folder separator or a file extension. */
const looksLikePath = (spec: string): boolean => /[\\/]/.test(spec) || /\.[A-Za-z0-9]+$/.test(spec);

/** `where`: what the message names (`--case`, or nothing for a command's own argument). */
export function caseArgument(spec: string, where?: string): CaseArgument {
  if (isBuiltinCase(spec)) return { kind: 'builtin', name: spec };
  if (looksLikePath(spec) || fs.existsSync(spec)) return { kind: 'file', file: spec };
  const near = nearestKey(spec, BUILTIN_CASE_NAMES);
  throw new InputError(
    `${where ? `${where}: ` : ''}unknown case '${spec}': not a built-in case (${BUILTIN_CASE_NAMES.join(', ')}) ` +
      `and no file of that name${near ? `; did you mean '${near}'?` : ''}`,
  );
}
