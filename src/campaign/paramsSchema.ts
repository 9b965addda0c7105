/**
 * `params:` mappings (campaign `optimizer.params`, farm `params`, farm type `params`): free-form
 * values a `method: command` optimizer passes through to the user's program. Any JSON value is
 * allowed, with the limits a queue job enforces too (runner/executors/bullmq/jobPayload.ts), so a
 * campaign that loads here also travels through Redis: keys are names (letters, digits, `_`, not
 * starting with a digit, at most 64 characters; a program reads them as identifiers), numbers are
 * finite, strings at most 10 000 characters, lists at most 1 000 000 entries.
 */
import { z } from 'zod';

export type ParamValue = number | string | boolean | null | ParamValue[] | { [key: string]: ParamValue };
export type Params = Record<string, ParamValue>;

export const PARAM_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** A mapping whose keys are usable names (checked per key, so the message names the key). */
function mapping<T extends z.ZodType>(value: T) {
  return z.record(z.string(), value).superRefine((m, ctx) => {
    for (const k of Object.keys(m)) {
      if (!PARAM_KEY.test(k) || RESERVED.has(k)) {
        ctx.addIssue({
          code: 'custom',
          path: [k],
          message: `'${k}' is not a usable parameter name (letters, digits and _, not starting with a digit, at most 64 characters)`,
        });
      }
    }
  });
}

const scalar = z.union([
  z.number(), // zod refuses NaN and ±Infinity
  z.string().max(10_000, { error: 'strings in params are at most 10 000 characters' }),
  z.boolean(),
  z.null(),
]);

export const paramValueSchema: z.ZodType<ParamValue> = z.lazy(() => z.union([scalar, z.array(paramValueSchema).max(1_000_000), mapping(paramValueSchema)]));

export const paramsSchema = mapping(paramValueSchema);
