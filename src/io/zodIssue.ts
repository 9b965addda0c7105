/** Turn the first zod issue into one line: `<file>: <field.path>: <message>`. */
import type { ZodError } from 'zod';
import { InputError } from '../util/errors.js';

export function zodToInputError(err: ZodError, file: string): InputError {
  const issue = err.issues[0];
  const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(top level)';
  return new InputError(`${file}: ${path}: ${issue.message}`);
}
