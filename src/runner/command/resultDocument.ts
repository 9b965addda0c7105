/**
 * Reading a program's result document (schemas/result.v1.json) into what the task returns.
 * Strict like every input: unknown keys are refused with the nearest known one, and a document
 * that breaks the schema is a permanent failure (the same seed writes it again). Faithful: the
 * layout is returned as the program gave it (a wrong turbine count or a point outside the site
 * reaches the runner's checks, which name it), and Python's `NaN` / `Infinity` tokens, which
 * `json.dump` writes by default, are read as the numbers they mean rather than as garbage.
 */
import { z } from 'zod';
import { strict } from '../../io/zodIssue.js';
import { PARAM_KEY } from '../../campaign/paramsSchema.js';
import { MAX_METRICS, RESULT_PROTOCOL } from './protocol.js';
import { printable } from '../../util/printable.js';

/** What a program answered for one task. */
export type ProgramAnswer =
  | {
      kind: 'result';
      x: Float64Array;
      y: Float64Array;
      xInitial: Float64Array | null;
      yInitial: Float64Array | null;
      aepMwh: number | null;
      iterations: number | null;
      evaluations: number | null;
      metrics: Record<string, number> | null;
    }
  | { kind: 'error'; message: string; permanent: boolean };

const NONFINITE = '\u0000wflo-nonfinite:';

/**
 * JSON.parse that also takes the bare tokens NaN, Infinity and -Infinity where a value may stand
 * (Python's json module writes them); anything else that is not JSON still fails.
 */
export function parseJsonAllowingNonFinite(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    if (!/NaN|Infinity/.test(text)) throw err;
  }
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      // copy a string literal as it is
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
      continue;
    }
    const m = /^(-?Infinity|NaN)/.exec(text.slice(i, i + 9));
    if (m && !/[A-Za-z0-9_]/.test(text[i - 1] ?? ' ')) {
      out += JSON.stringify(NONFINITE + m[1]);
      i += m[1].length;
      continue;
    }
    out += ch;
    i++;
  }
  return JSON.parse(out, (_k, v: unknown) => (typeof v === 'string' && v.startsWith(NONFINITE) ? Number(v.slice(NONFINITE.length)) : v));
}

const MAX_TURBINES = 100_000;
/** Any number, NaN and ±Infinity included: the layout checks and the gate name them. */
const anyNumber = z.custom<number>((v) => typeof v === 'number', { error: 'expected a number' });
const coordinate = anyNumber;
const coordinates = z.array(coordinate).max(MAX_TURBINES);
const layout = strict({ x: coordinates, y: coordinates });
const count = z.int().min(0).refine(Number.isSafeInteger).optional();
const metricName = z.string().regex(PARAM_KEY, { error: 'metric names are letters, digits and _, not starting with a digit, at most 64 characters' });

const resultSchema = strict({
  protocol: z.literal(RESULT_PROTOCOL).optional(),
  task_id: z.string().max(200).optional(),
  layout: layout.optional(),
  aep_mwh: anyNumber.optional(),
  initial_layout: layout.optional(),
  iterations: count,
  evaluations: count,
  metrics: z
    .record(metricName, z.number().refine(Number.isFinite, { error: 'expected a finite number' }))
    .refine((m) => Object.keys(m).length <= MAX_METRICS, { error: `at most ${MAX_METRICS} metrics` })
    .optional(),
  error: z.string().optional(),
  permanent: z.boolean().optional(),
});

/** A field path as a reader sees it: `layout.x[3]`. */
function where(p: readonly PropertyKey[]): string {
  let s = '';
  for (const part of p) s += typeof part === 'number' ? `[${part}]` : s === '' ? String(part) : `.${String(part)}`;
  return s || '(document)';
}

/**
 * Read one result document. `expectTaskId`: the task it must answer (persistent mode requires the
 * field; per-task mode checks it when present). Never throws: a bad document is an error answer.
 */
export function readResultDocument(text: string, expectTaskId: string, requireTaskId: boolean): ProgramAnswer {
  let value: unknown;
  try {
    value = parseJsonAllowingNonFinite(text);
  } catch (err) {
    const snippet = printable(text.slice(0, 60).replace(/\s+/g, ' '));
    const why = printable((err as Error).message.replace(/\s+/g, ' ')).slice(0, 160);
    return { kind: 'error', permanent: false, message: `result is not JSON (${why}; it begins '${snippet}')` };
  }
  // From here on the program wrote a JSON document that says the wrong thing: it would say it again
  // (the same seed gives the same answer), so the failure is permanent.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { kind: 'error', permanent: true, message: 'result is not a JSON object' };
  const parsed = resultSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const p = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0]] : issue.path;
    return { kind: 'error', permanent: true, message: `result: ${where(p)}: ${printable(issue.message)}` };
  }
  const r = parsed.data;
  if (r.task_id !== undefined ? r.task_id !== expectTaskId : requireTaskId) {
    return {
      kind: 'error',
      permanent: false,
      message: r.task_id === undefined ? 'result has no task_id' : `result is for task '${printable(r.task_id)}', not ${expectTaskId}`,
    };
  }
  if (r.error !== undefined)
    return { kind: 'error', permanent: r.permanent === true, message: printable(r.error.split('\n')[0].slice(0, 500)) || 'error without a message' };
  if (!r.layout) return { kind: 'error', permanent: true, message: 'result has neither a layout nor an error' };
  return {
    kind: 'result',
    x: Float64Array.from(r.layout.x),
    y: Float64Array.from(r.layout.y),
    xInitial: r.initial_layout ? Float64Array.from(r.initial_layout.x) : null,
    yInitial: r.initial_layout ? Float64Array.from(r.initial_layout.y) : null,
    aepMwh: r.aep_mwh ?? null,
    iterations: r.iterations ?? null,
    evaluations: r.evaluations ?? null,
    metrics: r.metrics ?? null,
  };
}
