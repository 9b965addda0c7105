/**
 * Read, validate and resolve a campaign file. Every error is one InputError line of the form
 * `<file>:<line>: <field path>: <what was expected>`, the line found from the YAML node ranges.
 * Turbines, winds and boundaries are resolved here (built-in names, files relative to the
 * campaign file, or inline mappings) so that a bad reference fails before any task runs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import type { ZodError } from 'zod';
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import type { FarmModelSpec, SuperpositionName, WakeModelName } from '../physics/farmModel.js';
import type { Boundary } from '../geometry/boundary.js';
import { validateBoundary } from '../geometry/validateBoundary.js';
import { InputError } from '../util/errors.js';
import { resolveBoundary, resolveTurbine, resolveWind } from '../io/caseFile.js';
import {
  BUILTIN_CASE_NAMES, BUILTIN_TURBINE_NAMES, BUILTIN_WIND_NAMES, builtinCase, isBuiltinCase, isBuiltinTurbine, isBuiltinWind,
} from '../io/builtinCases.js';
import type { Case } from '../io/case.js';
import { taskIdOf } from '../io/layoutRecord.js';
import { campaignSchema, KNOWN_FIELDS, type CampaignDocument } from './campaignSchema.js';
import { formatFieldPath, lineOf, type FieldPath } from './yamlLocation.js';
import { hashValue } from './specHash.js';
import type { Campaign, FarmSpec, FarmTypeSpec, OptimizerSettings } from './campaign.js';

export interface LoadOptions {
  /** The runner's check of the optimizer settings: the offending field (under `optimizer`) and why. */
  optimizerProblem?: (settings: OptimizerSettings) => { field: string; message: string } | null;
  /** Replaces the file's `output` (the CLI's --out), resolved against the current directory. */
  outputOverride?: string;
}

/** Load a campaign file from disk. */
export function loadCampaign(file: string, options: LoadOptions = {}): Campaign {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new InputError(`${file}: campaign file not found`);
    if (e.code === 'EISDIR') throw new InputError(`${file}: is a directory, expected a campaign YAML file`);
    throw new InputError(`${file}: cannot read campaign file (${e.code ?? e.message})`);
  }
  return parseCampaign(text, file, options);
}

/** Validate and resolve campaign text; `file` names it in errors and anchors relative paths. */
export function parseCampaign(text: string, file: string, options: LoadOptions = {}): Campaign {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const line = err.pos?.[0] !== undefined ? lineCounter.linePos(err.pos[0]).line : undefined;
    throw new InputError(`${file}${line ? `:${line}` : ''}: malformed YAML: ${err.message.split('\n')[0]}`);
  }
  const fail = (fieldPath: FieldPath, message: string, keyOf = false): never => {
    const line = lineOf(doc, lineCounter, fieldPath, keyOf);
    throw new InputError(`${file}${line ? `:${line}` : ''}: ${formatFieldPath(fieldPath)}: ${message}`);
  };

  const raw = doc.toJS({ maxAliasCount: 1000 }) as unknown;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    fail([], 'expected a mapping with name, farms, farm_types, seeds and optimizer');
  }
  const parsed = campaignSchema.safeParse(raw);
  if (!parsed.success) reportZodIssue(parsed.error, doc, raw, fail);
  const c = (parsed as { data: CampaignDocument }).data;
  const baseDir = path.dirname(path.resolve(file));

  const farms = c.farms.map((f, i) => resolveFarm(f, i, baseDir, file, fail));
  const farmTypes = c.farm_types.map((t, i) => resolveFarmType(t, i, baseDir, file, fail));
  checkUniqueIds(farms.map((f) => f.id), 'farms', fail);
  checkUniqueIds(farmTypes.map((t) => t.id), 'farm_types', fail);

  const seeds = Array.isArray(c.seeds) ? c.seeds : Array.from({ length: c.seeds.count }, (_, k) => (c.seeds as { start: number }).start + k);
  if (Array.isArray(c.seeds)) {
    const seen = new Map<number, number>();
    c.seeds.forEach((s, i) => {
      if (seen.has(s)) fail(['seeds', i], `seed ${s} is listed twice (also at seeds[${seen.get(s)}])`);
      seen.set(s, i);
    });
  }
  if (seeds[seeds.length - 1] > Number.MAX_SAFE_INTEGER) fail(['seeds'], 'seeds must stay below 2^53');

  const optimizer = c.optimizer as OptimizerSettings;
  const optimizerProblem = options.optimizerProblem?.(optimizer);
  if (optimizerProblem) fail(optimizerProblem.field ? ['optimizer', optimizerProblem.field] : ['optimizer'], optimizerProblem.message);

  let only: string[] | null = null;
  if (c.only) {
    const grid = new Set<string>();
    for (const f of farms) for (const t of farmTypes) for (const s of seeds) grid.add(taskIdOf(f.id, t.id, s));
    const seen = new Set<string>();
    c.only.forEach((id, i) => {
      if (!grid.has(id)) fail(['only', i], `task '${id}' is not in this campaign's grid of farms × farm_types × seeds`);
      if (seen.has(id)) fail(['only', i], `task '${id}' is listed twice`);
      seen.add(id);
    });
    only = c.only;
  }

  let outputDir: string | null = null;
  if (options.outputOverride !== undefined) outputDir = path.resolve(options.outputOverride);
  else if (c.output !== undefined) outputDir = path.resolve(baseDir, c.output);

  return {
    name: c.name,
    file: path.resolve(file),
    sourceText: text,
    outputDir,
    farms,
    farmTypes,
    seeds,
    optimizer,
    optimizerHash: hashValue(optimizer),
    workers: c.workers ?? null,
    timeoutS: c.timeout_s,
    retry: { attempts: c.attempts, backoffInitialS: c.backoff.initial_s, backoffFactor: c.backoff.factor, backoffMaxS: c.backoff.max_s },
    maxFailures: c.max_failures ?? null,
    exportEveryResults: c.export.every_results,
    exportEveryS: c.export.every_s,
    only,
  };
}

type Fail = (fieldPath: FieldPath, message: string, keyOf?: boolean) => never;

/**
 * Run a resolver from io/ and re-anchor its InputError at the campaign field that caused it
 * (an inline mapping's error names the campaign file again as "<file> (wind): …": drop that).
 */
function anchored<T>(fieldPath: FieldPath, fail: Fail, file: string, resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    const inlinePrefix = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\([a-z ]+\\): `);
    return fail(fieldPath, err.message.replace(inlinePrefix, ''));
  }
}

const looksLikeFile = (s: string): boolean => /\.ya?ml$/i.test(s) || s.includes('/') || s.includes(path.sep);

function resolveFarm(f: CampaignDocument['farms'][number], i: number, baseDir: string, file: string, fail: Fail): FarmSpec {
  let base: Case | null = null;
  if (f.case !== undefined) {
    if (!isBuiltinCase(f.case)) fail(['farms', i, 'case'], `unknown built-in case '${f.case}' (known: ${BUILTIN_CASE_NAMES.join(', ')})`);
    base = builtinCase(f.case);
  }
  let boundary: Boundary | null = base?.boundary ?? null;
  if (f.boundary !== undefined) {
    const spec = f.boundary;
    if (typeof spec === 'string' && !looksLikeFile(spec) && !isBuiltinCase(spec)) {
      fail(['farms', i, 'boundary'], `unknown boundary '${spec}': not a built-in case (${BUILTIN_CASE_NAMES.join(', ')}) and not a .yaml file path`);
    }
    boundary = anchored(['farms', i, 'boundary'], fail, file, () => resolveBoundary(spec, baseDir, file));
  }
  let wind: WindResource | null = base?.wind ?? null;
  if (f.wind !== undefined) {
    const spec = f.wind;
    if (typeof spec === 'string' && !looksLikeFile(spec) && !isBuiltinWind(spec)) {
      fail(['farms', i, 'wind'], `unknown wind resource '${spec}': not a built-in wind (${BUILTIN_WIND_NAMES.join(', ')}) and not a .yaml file path`);
    }
    wind = anchored(['farms', i, 'wind'], fail, file, () => resolveWind(spec, baseDir, file));
  }
  if (!boundary) fail(['farms', i], 'no boundary: give a built-in `case` or a `boundary`');
  if (!wind) fail(['farms', i], 'no wind resource: give a built-in `case` or a `wind`');
  const problem = validateBoundary(boundary!);
  if (problem) fail(['farms', i, f.boundary !== undefined ? 'boundary' : 'case'], `bad boundary: ${problem}`);
  const model: FarmModelSpec = {
    wake: (f.wake_model as WakeModelName | undefined) ?? base?.model.wake ?? 'iea37',
    superposition: (f.superposition as SuperpositionName | undefined) ?? base?.model.superposition ?? 'sos',
  };
  const params = f.wake_params ?? base?.model.params;
  if (params !== undefined) model.params = params;
  return {
    id: f.id,
    label: f.label ?? f.case ?? `farm_${f.id}`,
    boundary: boundary!,
    wind: wind!,
    model,
    hash: hashValue({ boundary, wind, model }),
  };
}

function resolveFarmType(t: CampaignDocument['farm_types'][number], i: number, baseDir: string, file: string, fail: Fail): FarmTypeSpec {
  const spec = t.turbine;
  if (typeof spec === 'string' && !looksLikeFile(spec) && !isBuiltinTurbine(spec)) {
    fail(['farm_types', i, 'turbine'], `unknown turbine '${spec}': not a built-in turbine (${BUILTIN_TURBINE_NAMES.join(', ')}) and not a .yaml file path`);
  }
  const turbine: Turbine = anchored(['farm_types', i, 'turbine'], fail, file, () => resolveTurbine(spec, baseDir, file));
  if (t.min_spacing_m !== undefined && t.min_spacing_diameters !== undefined) {
    fail(['farm_types', i, 'min_spacing_m'], 'give min_spacing_m or min_spacing_diameters, not both');
  }
  const minSpacingM = t.min_spacing_m ?? (t.min_spacing_diameters ?? 2) * turbine.diameter;
  // The turbine's name does not change results; only its numbers are hashed.
  const { name: _name, ...turbineNumbers } = turbine;
  return {
    id: t.id,
    label: t.label ?? (typeof spec === 'string' ? `${spec} x${t.n_turbines}` : `${turbine.name} x${t.n_turbines}`),
    turbine,
    nTurbines: t.n_turbines,
    minSpacingM,
    hash: hashValue({ turbine: turbineNumbers, nTurbines: t.n_turbines, minSpacingM }),
  };
}

function checkUniqueIds(ids: number[], field: string, fail: Fail): void {
  const seen = new Map<number, number>();
  ids.forEach((id, i) => {
    if (seen.has(id)) fail([field, i, 'id'], `id ${id} is used twice (also by ${field}[${seen.get(id)}])`);
    seen.set(id, i);
  });
}

function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return `a list of ${v.length}`;
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}…` : v}'`;
  return String(v);
}

function valueAt(root: unknown, fieldPath: FieldPath): unknown {
  let v = root;
  for (const part of fieldPath) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[part];
  }
  return v;
}

function knownFieldsAt(fieldPath: FieldPath): readonly string[] {
  const head = fieldPath[0];
  if (fieldPath.length === 0) return KNOWN_FIELDS.campaign;
  if (head === 'farms') return KNOWN_FIELDS.farm;
  if (head === 'farm_types') return KNOWN_FIELDS.farmType;
  if (head === 'seeds') return KNOWN_FIELDS.seeds;
  if (head === 'backoff') return KNOWN_FIELDS.backoff;
  if (head === 'export') return KNOWN_FIELDS.export;
  return [];
}

/** Turn zod's first issue into one located line. */
function reportZodIssue(error: ZodError, doc: Document, raw: unknown, fail: Fail): never {
  // A misspelt key also makes its correct spelling "missing": report the unknown key first.
  const issue = error.issues.find((i) => i.code === 'unrecognized_keys') ?? error.issues[0];
  const fieldPath = issue.path.filter((p): p is string | number => typeof p !== 'symbol');
  const value = valueAt(raw, fieldPath);
  switch (issue.code) {
    case 'unrecognized_keys': {
      const key = issue.keys[0];
      const known = knownFieldsAt(fieldPath);
      return fail([...fieldPath, key], `unknown field${known.length ? ` (expected one of: ${known.join(', ')})` : ''}`, true);
    }
    case 'invalid_type':
      if (value === undefined) return fail(fieldPath, `missing (expected ${issue.expected})`);
      if (issue.expected === 'int') return fail(fieldPath, `expected an integer, got ${describeValue(value)}`);
      return fail(fieldPath, `expected ${issue.expected}, got ${describeValue(value)}`);
    case 'invalid_union':
      return fail(fieldPath, `${issue.message}, got ${describeValue(value)}`);
    case 'invalid_value':
      return fail(fieldPath, `expected one of: ${issue.values.map(String).join(', ')}; got ${describeValue(value)}`);
    case 'too_small':
    case 'too_big':
      if (Array.isArray(value) || typeof value === 'string') return fail(fieldPath, issue.message);
      return fail(fieldPath, `${/^(Too|Invalid)/.test(issue.message) ? `must be ${issue.code === 'too_small' ? '>' : '<'}${issue.inclusive ? '=' : ''} ${issue.code === 'too_small' ? issue.minimum : issue.maximum}` : issue.message}, got ${describeValue(value)}`);
    default:
      return fail(fieldPath, `${issue.message}${value !== undefined ? `, got ${describeValue(value)}` : ''}`);
  }
  void doc;
}
