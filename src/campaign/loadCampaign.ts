/**
 * Read, validate and resolve a campaign file. Every error is one InputError line of the form
 * `<file>:<line>: <field path>: <what was expected>` (io/sourceMap.ts finds the line), also for
 * inline turbine, wind and boundary mappings at any depth; an error inside a referenced file
 * names that file and its line. Turbines, winds and boundaries are resolved here (built-in names,
 * files relative to the campaign file, or inline mappings) and every farm × farm type is checked
 * for room (io/plausibility.ts) so that a bad input fails before any task runs. A grid of more
 * than MAX_CAMPAIGN_TASKS tasks is refused before anything is expanded. A farm built on a case
 * file shares settings with it; who owns each (and what is refused) is settingsOwner.ts.
 */
import path from 'node:path';
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import { resolveFarmModel } from '../io/farmModelFields.js';
import { farmConflict } from '../physics/solvePlan.js';
import type { Boundary } from '../geometry/boundary.js';
import { validateBoundary } from '../geometry/validateBoundary.js';
import { OPTIMIZER_METHODS } from '../optimize/settings.js';
import { InputError } from '../util/errors.js';
import { caseFileEconomics, loadCase, resolveBoundary, resolveTurbine, resolveWind } from '../io/caseFile.js';
import {
  BUILTIN_CASE_NAMES,
  BUILTIN_TURBINE_NAMES,
  BUILTIN_WIND_NAMES,
  builtinCase,
  isBuiltinCase,
  isBuiltinTurbine,
  isBuiltinWind,
} from '../io/builtinCases.js';
import type { Case } from '../case/case.js';
import { parseTaskId, taskIdOf } from '../io/layoutRecord.js';
import { readInputText, parseYamlText } from '../io/yamlFile.js';
import { errorAt, LocatedInputError, type FieldPath } from '../io/sourceMap.js';
import { zodToInputError } from '../io/zodIssue.js';
import { nearestKey } from '../io/didYouMean.js';
import { maxTurbinesBound, capacityProblem, spacingProblem } from '../io/plausibility.js';
import { modelsRoomProblem, readFarmModels, readNeighbours, type FailAt, type LayoutTurbinesAt, type TurbineAt } from '../io/farmTurbines.js';
import { caseTypeOf } from '../optimize/caseEvaluator.js';
import { campaignSchema, type CampaignDocument } from './campaignSchema.js';
import { translateOptimizerKeys, snakeToCamel } from './optimizerKeys.js';
import { farmSpecHash, farmTypeSpecHash, optimizerSpecHash } from './specHash.js';
import type { Campaign, FarmSpec, FarmTypeSpec, OptimizerSettings, WindAsWritten } from './campaign.js';
import { COMMAND_METHOD, resolveCommandOptimizer } from './commandOptimizer.js';
import { directionsProblem, readDirectionsField } from '../io/directionsField.js';
import { objectiveProblem } from '../io/objectiveField.js';
import { caseForTask } from './caseForTask.js';
import { caseListedWind, caseTreatment } from '../optimize/caseDirections.js';
import { pricedTurbinesProblem } from '../cost/plausibility.js';
import { turbineCountProblem, windBins } from '../io/turbineCount.js';
import { economicsForTurbines, resolveEconomicsSpec, siteOutsideGrid, substationReachProblem } from '../io/costFields.js';
import { resolveFarmSite } from './farmSite.js';
import { farmSettingOwners, farmTypeSettingOwners, readCaseStatements, takenFarmTypeSettings, type CaseStatements, type FarmCase } from './settingsOwner.js';
import type { CaseFileOwners, SettingOwner } from './settingsOwnerTypes.js';

/**
 * Most tasks one campaign may have (farms × farm types × seeds). The coordinator keeps one task
 * record per task of the grid in memory (task id, spec hash, indices: 270 bytes measured, 360 with
 * the ledger's per-task state map); at 10⁶ tasks that is about 360 MB, inside the 500 MB the
 * coordinator is allowed (issue 8), where 10⁷ would need 3.6 GB. Larger studies are split into
 * several campaigns (or output folders) of at most this size.
 */
export const MAX_CAMPAIGN_TASKS = 1_000_000;

export interface LoadOptions {
  /** The runner's check of the optimizer settings: the offending field (under `optimizer`) and why. */
  optimizerProblem?: (settings: OptimizerSettings) => { field: string; message: string } | null;
  /** Replaces the file's `output` (the CLI's --out), resolved against the current directory. */
  outputOverride?: string;
}

/** Load a campaign file from disk. */
export function loadCampaign(file: string, options: LoadOptions = {}): Campaign {
  return parseCampaign(readInputText(file, 'campaign file'), file, options);
}

type Fail = (fieldPath: FieldPath, message: string, keyOf?: boolean) => never;

/** Validate and resolve campaign text; `file` names it in errors and anchors relative paths. */
export function parseCampaign(text: string, file: string, options: LoadOptions = {}): Campaign {
  const raw = parseYamlText(text, file, { uniqueKeys: true });
  const fail: Fail = (fieldPath, message, keyOf = false) => {
    throw errorAt(raw, fieldPath, message, file, keyOf);
  };
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    fail([], 'expected a mapping with name, farms, farm_types, seeds and optimizer');
  }
  const parsed = campaignSchema.safeParse(raw);
  if (!parsed.success) throw zodToInputError(parsed.error, file, raw);
  const c = parsed.data;
  const rawDoc = raw as { farms: Record<string, unknown>[]; farm_types: Record<string, unknown>[]; optimizer: Record<string, unknown> };
  const baseDir = path.dirname(path.resolve(file));

  const seedCount = Array.isArray(c.seeds) ? c.seeds.length : c.seeds.count;
  const gridSize = c.farms.length * c.farm_types.length * seedCount;
  if (gridSize > MAX_CAMPAIGN_TASKS) {
    fail(
      Array.isArray(c.seeds) ? ['seeds'] : ['seeds', 'count'],
      `${c.farms.length} farms × ${c.farm_types.length} farm types × ${seedCount} seeds = ${gridSize} tasks, over the limit of ${MAX_CAMPAIGN_TASKS} tasks per campaign; split it into several campaigns`,
    );
  }
  if (!Array.isArray(c.seeds) && c.seeds.start + c.seeds.count - 1 > Number.MAX_SAFE_INTEGER) fail(['seeds'], 'seeds must stay below 2^53');

  const resolvedFarms = c.farms.map((f, i) => resolveFarm(f, rawDoc.farms[i], i, baseDir, file, raw, fail));
  const farms = resolvedFarms.map((r) => r.farm);
  // Settings a case file shares with the farm types (campaign/settingsOwner.ts): taken where the farm type leaves them out and every case file agrees.
  const typeSides = c.farm_types.map((_, j) => ({ root: raw, file, at: ['farm_types', j], raw: rawDoc.farm_types[j] }));
  const taken = takenFarmTypeSettings(
    resolvedFarms.map((r) => r.farmCase),
    typeSides,
  );
  const farmTypes = c.farm_types.map((t, i) => resolveFarmType({ ...t, ...taken[i] }, { ...rawDoc.farm_types[i], ...taken[i] }, i, baseDir, file, fail));
  checkUniqueIds(
    farms.map((f) => f.id),
    'farms',
    fail,
  );
  checkUniqueIds(
    farmTypes.map((t) => t.id),
    'farm_types',
    fail,
  );
  const settingOwners: CaseFileOwners[] = resolvedFarms
    .filter((r) => r.farmCase.statements !== null)
    .map((r) => ({
      farmId: r.farm.id,
      caseFile: r.farmCase.statements!.file,
      settings: [
        ...r.owners!,
        ...farmTypes.flatMap((t, j) => farmTypeSettingOwners(r.farmCase.index, r.farmCase.statements!, r.farmCase.base!, t, typeSides[j]!, taken[j]!)),
      ],
    }));
  checkRoom(farms, farmTypes, fail, (i, field) => rawDoc.farms[i]![field] !== undefined);

  const seeds = Array.isArray(c.seeds) ? c.seeds : Array.from({ length: c.seeds.count }, (_, k) => (c.seeds as { start: number }).start + k);
  if (Array.isArray(c.seeds)) {
    const seen = new Map<number, number>();
    c.seeds.forEach((s, i) => {
      if (seen.has(s)) fail(['seeds', i], `seed ${s} is listed twice (also at seeds[${seen.get(s)}])`);
      seen.set(s, i);
    });
    if (c.seeds.some((s) => s > Number.MAX_SAFE_INTEGER)) fail(['seeds'], 'seeds must stay below 2^53');
  }

  let outputDir: string | null = null;
  if (options.outputOverride !== undefined) outputDir = path.resolve(options.outputOverride);
  else if (c.output !== undefined) outputDir = path.resolve(baseDir, c.output);

  let optimizer = c.optimizer as OptimizerSettings;
  const command = optimizer.method === COMMAND_METHOD;
  if (command) {
    optimizer = resolveCommandOptimizer(rawDoc.optimizer, file, baseDir, outputDir);
    farms.forEach((f, i) => {
      f.windAsWritten = windAsWritten(c.farms[i], rawDoc.farms[i], baseDir, optimizer.workdir as string);
    });
  } else {
    // params go to a user's program; wflo's own optimizers would silently ignore them.
    const where = c.farms.findIndex((f) => f.params !== undefined);
    if (where >= 0) fail(['farms', where, 'params'], `params are passed to a \`method: command\` program; method '${optimizer.method}' reads none`, true);
    const whereType = c.farm_types.findIndex((t) => t.params !== undefined);
    if (whereType >= 0)
      fail(['farm_types', whereType, 'params'], `params are passed to a \`method: command\` program; method '${optimizer.method}' reads none`, true);
  }
  if (!command && (OPTIMIZER_METHODS as readonly string[]).includes(optimizer.method)) {
    const translated = translateOptimizerKeys(rawDoc.optimizer);
    if (translated.problem) fail(['optimizer', translated.problem.key], translated.problem.message, true);
    optimizer = translated.settings as OptimizerSettings;
  }
  const optimizerProblem = options.optimizerProblem?.(optimizer);
  if (optimizerProblem) {
    // Name the key as the file wrote it (max_iterations), not as translated (maxIterations).
    const written = Object.keys(rawDoc.optimizer).find((k) => snakeToCamel(k) === optimizerProblem.field) ?? optimizerProblem.field;
    const message = written !== optimizerProblem.field ? optimizerProblem.message.replace(optimizerProblem.field, written) : optimizerProblem.message;
    fail(optimizerProblem.field ? ['optimizer', written] : ['optimizer'], message);
  }

  let only: string[] | null = null;
  if (c.only) {
    const farmIds = new Set(farms.map((f) => f.id)),
      typeIds = new Set(farmTypes.map((t) => t.id)),
      seedSet = new Set(seeds);
    const seen = new Set<string>();
    c.only.forEach((id, i) => {
      const t = parseTaskId(id);
      if (!t || !farmIds.has(t.farmId) || !typeIds.has(t.farmType) || !seedSet.has(t.seed) || id !== taskIdOf(t.farmId, t.farmType, t.seed)) {
        fail(['only', i], `task '${id}' is not in this campaign's grid of farms × farm_types × seeds`);
      }
      if (seen.has(id)) fail(['only', i], `task '${id}' is listed twice`);
      seen.add(id);
    });
    only = c.only;
  }

  return {
    name: c.name,
    file: path.resolve(file),
    sourceText: text,
    outputDir,
    farms,
    farmTypes,
    seeds,
    optimizer,
    optimizerHash: optimizerSpecHash(optimizer),
    workers: c.workers ?? null,
    timeoutS: c.timeout_s,
    retry: { attempts: c.attempts, backoffInitialS: c.backoff.initial_s, backoffFactor: c.backoff.factor, backoffMaxS: c.backoff.max_s },
    maxFailures: c.max_failures ?? null,
    exportEveryResults: c.export.every_results,
    exportEveryS: c.export.every_s,
    only,
    ...(settingOwners.length > 0 ? { settingOwners } : {}),
  };
}

/**
 * Run a resolver from io/ and re-anchor its InputError at the campaign field that caused it.
 * Errors that already name their file, line and path (inline mappings of this file, or a
 * referenced file) pass unchanged.
 */
function anchored<T>(fieldPath: FieldPath, fail: Fail, file: string, resolve: () => T): T {
  try {
    return resolve();
  } catch (err) {
    if (!(err instanceof InputError) || err instanceof LocatedInputError) throw err;
    const inlinePrefix = new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\([a-z ]+\\): `);
    return fail(fieldPath, err.message.replace(inlinePrefix, ''));
  }
}

const looksLikeFile = (s: string): boolean => /\.(ya?ml|csv)$/i.test(s) || s.includes('/') || s.includes(path.sep);

function unknownName(kind: string, name: string, known: readonly string[], what: string): string {
  const near = nearestKey(name, known);
  return `unknown ${kind} '${name}'${near ? `; did you mean '${near}'?` : ''}: not a ${what} (${known.join(', ')}) and not a .yaml file path`;
}

/** A campaign farm resolved, with its case file (if any) and who owns the settings it shares with it. */
interface ResolvedFarm {
  farm: FarmSpec;
  farmCase: FarmCase;
  owners: SettingOwner[] | null;
}

/** A case file's path as messages name it: relative to the working directory when inside it. */
function casePathShown(absolute: string): string {
  const relative = path.relative(process.cwd(), absolute);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : absolute;
}

function resolveFarm(
  f: CampaignDocument['farms'][number],
  raw: Record<string, unknown>,
  i: number,
  baseDir: string,
  file: string,
  root: unknown,
  fail: Fail,
): ResolvedFarm {
  let base: Case | null = null;
  let statements: CaseStatements | null = null;
  if (f.case !== undefined) {
    if (looksLikeFile(f.case)) {
      // windIO plant / case file
      const caseFile = casePathShown(path.resolve(baseDir, f.case));
      base = anchored(['farms', i, 'case'], fail, file, () => loadCase(caseFile));
      statements = anchored(['farms', i, 'case'], fail, file, () => readCaseStatements(caseFile));
    } else if (!isBuiltinCase(f.case)) {
      const near = nearestKey(f.case, BUILTIN_CASE_NAMES);
      fail(['farms', i, 'case'], `unknown built-in case '${f.case}'${near ? `; did you mean '${near}'?` : ''} (known: ${BUILTIN_CASE_NAMES.join(', ')})`);
    }
    base ??= builtinCase(f.case);
    // A hub height as a design variable is the case file's optimizer setting (optimize/hubHeight.ts); a campaign row has no hub height to store or verify yet.
    if (base.hubHeightRange)
      fail(
        ['farms', i, 'case'],
        `${f.case}: optimize.hub_height (the hub height as a design variable) is not supported in campaigns yet; leave it out of the case file (docs/site.md)`,
      );
  }
  let boundary: Boundary | null = base?.boundary ?? null;
  if (f.boundary !== undefined) {
    const spec = raw.boundary;
    if (typeof spec === 'string' && !looksLikeFile(spec) && !isBuiltinCase(spec)) {
      fail(['farms', i, 'boundary'], unknownName('boundary', spec, BUILTIN_CASE_NAMES, 'built-in case'));
    }
    boundary = anchored(['farms', i, 'boundary'], fail, file, () => resolveBoundary(spec, baseDir, file));
  }
  // A case file's wind as listed (its `directions` are the farm's unless the farm gives its own).
  let wind: WindResource | null = base ? caseListedWind(base) : null;
  if (f.wind !== undefined) {
    const spec = raw.wind;
    if (typeof spec === 'string' && !looksLikeFile(spec) && !isBuiltinWind(spec)) {
      fail(['farms', i, 'wind'], unknownName('wind resource', spec, BUILTIN_WIND_NAMES, 'built-in wind'));
    }
    wind = anchored(['farms', i, 'wind'], fail, file, () => resolveWind(spec, baseDir, file));
  }
  if (!boundary) fail(['farms', i], 'no boundary: give a built-in `case` or a `boundary`');
  if (!wind) fail(['farms', i], 'no wind resource: give a built-in `case` or a `wind`');
  const treatment =
    raw.directions !== undefined ? readDirectionsField(raw.directions, raw, ['directions'], file) : base ? caseTreatment(base) : { kind: 'bins' as const };
  const treatmentProblem = directionsProblem(treatment, wind!);
  if (treatmentProblem) fail(['farms', i, raw.directions !== undefined ? 'directions' : 'case'], treatmentProblem);
  const directions = treatment.kind !== 'bins' ? treatment : undefined;
  const problem = validateBoundary(boundary!);
  if (problem) fail(['farms', i, f.boundary !== undefined ? 'boundary' : 'case'], `bad boundary: ${problem}`);
  const model = resolveFarmModel(f, base?.model, ['farms', i], fail);
  const site = resolveFarmSite(raw, ['farms', i], file, base?.model.site, boundary!, fail);
  if (site) model.site = site;
  const at: FieldPath = ['farms', i, 'neighbours'];
  const neighbours =
    raw.neighbours !== undefined
      ? readNeighbours(raw.neighbours, at, file, baseDir, turbineResolver(baseDir, file, fail), layoutTurbinesLoader(file, fail), fail as FailAt, boundary!)
      : base?.neighbours;
  // The farm's own `economics:`, else its case file's (like its site: taken, never silently dropped).
  const economics =
    f.economics !== undefined
      ? resolveEconomicsSpec(f.economics, ['farms', i, 'economics'], baseDir, fail as FailAt)
      : base
        ? caseFileEconomics(base)
        : undefined;
  const outside = economics ? siteOutsideGrid(economics, boundary, null) : null;
  if (outside) fail(['farms', i, 'economics', 'bathymetry'], outside);
  const far = economics ? substationReachProblem(economics, boundary, null) : null;
  if (far) fail(f.economics !== undefined ? ['farms', i, 'economics', 'substations', far.index] : ['farms', i, 'case'], far.message);
  const farm: FarmSpec = {
    id: f.id,
    label: f.label ?? f.case ?? `farm_${f.id}`,
    boundary: boundary!,
    wind: wind!,
    model,
    ...(f.params !== undefined ? { params: f.params } : {}),
    ...(neighbours && neighbours.x.length > 0 ? { neighbours } : {}),
    ...(directions ? { directions } : {}),
    ...(economics ? { economics } : {}),
    hash: farmSpecHash({
      boundary,
      wind,
      model,
      params: f.params,
      neighbours: neighbours && neighbours.x.length > 0 ? neighbours : undefined,
      directions,
      economics,
    }),
  };
  // The farm settings its case file writes: taken when the farm leaves them out, refused when it gives another value.
  const owners = statements ? farmSettingOwners(statements, base!, farm, { root, file, at: ['farms', i], raw }) : null;
  return { farm, farmCase: { index: i, statements, base }, owners };
}

/** Resolves a turbine spec at a campaign field: a built-in name (did-you-mean), a file, a mapping. */
function turbineResolver(baseDir: string, file: string, fail: Fail): TurbineAt {
  return (spec, fieldPath) => {
    if (typeof spec === 'string' && !looksLikeFile(spec) && !isBuiltinTurbine(spec)) {
      fail(fieldPath, unknownName('turbine', spec, BUILTIN_TURBINE_NAMES, 'built-in turbine'));
    }
    return anchored(fieldPath, fail, file, () => resolveTurbine(spec, baseDir, file));
  };
}

/** The turbines of a layout or case file named as neighbours: positions and models. */
function layoutTurbinesLoader(file: string, fail: Fail): LayoutTurbinesAt {
  return (layoutFile, fieldPath) => {
    const c = anchored(fieldPath, fail, file, () => loadCase(layoutFile));
    if (!c.layout) fail(fieldPath, `${layoutFile} holds no layout (x and y of turbines)`);
    return { x: c.layout!.x, y: c.layout!.y, types: c.turbines ? c.turbines.types : [c.turbine], typeOf: caseTypeOf({ ...c, nTurbines: c.layout!.x.length }) };
  };
}

function resolveFarmType(
  t: CampaignDocument['farm_types'][number],
  raw: Record<string, unknown>,
  i: number,
  baseDir: string,
  file: string,
  fail: Fail,
): FarmTypeSpec {
  const several = readFarmModels(raw, ['farm_types', i], file, turbineResolver(baseDir, file, fail), fail as FailAt);
  if (several) {
    const { models, nTurbines } = several;
    const names = (raw.turbines !== undefined ? (raw.turbines as { turbine: unknown }[]).map((e) => e.turbine) : (raw.turbine_choice as unknown[])).map(
      (spec, k) => (typeof spec === 'string' ? spec : models.turbines[k]!.name),
    );
    const minSpacingM = Math.max(...models.minSpacingByType);
    const label = models.counts ? models.counts.map((n, k) => `${names[k]} x${n}`).join(' + ') : `${nTurbines} of ${names.join('/')}`;
    return {
      id: t.id,
      label: t.label ?? label,
      turbine: models.turbines[0]!,
      nTurbines,
      minSpacingM,
      models,
      ...(t.params !== undefined ? { params: t.params } : {}),
      ...(t.objective !== undefined ? { objective: t.objective } : {}),
      hash: farmTypeSpecHash({ turbine: models.turbines[0]!, nTurbines, minSpacingM, params: t.params, models, objective: t.objective }),
    };
  }
  const spec = raw.turbine;
  if (typeof spec === 'string' && !looksLikeFile(spec) && !isBuiltinTurbine(spec)) {
    fail(['farm_types', i, 'turbine'], unknownName('turbine', spec, BUILTIN_TURBINE_NAMES, 'built-in turbine'));
  }
  const turbine: Turbine = anchored(['farm_types', i, 'turbine'], fail, file, () => resolveTurbine(spec, baseDir, file));
  if (t.min_spacing_m !== undefined && t.min_spacing_diameters !== undefined) {
    fail(['farm_types', i, 'min_spacing_m'], 'give min_spacing_m or min_spacing_diameters, not both');
  }
  const minSpacingM = t.min_spacing_m ?? (t.min_spacing_diameters ?? 2) * turbine.diameter;
  const spacing = spacingProblem(minSpacingM, turbine.diameter, t.min_spacing_m !== undefined ? 'metres' : 'diameters', turbine.name);
  if (spacing) fail(['farm_types', i, t.min_spacing_m !== undefined ? 'min_spacing_m' : 'min_spacing_diameters'], spacing);
  return {
    id: t.id,
    label: t.label ?? (typeof spec === 'string' ? `${spec} x${t.n_turbines}` : `${turbine.name} x${t.n_turbines}`),
    turbine,
    nTurbines: t.n_turbines!,
    minSpacingM,
    ...(t.params !== undefined ? { params: t.params } : {}),
    ...(t.objective !== undefined ? { objective: t.objective } : {}),
    // The turbine's name does not change results; only its numbers are hashed.
    hash: farmTypeSpecHash({ turbine, nTurbines: t.n_turbines!, minSpacingM, params: t.params, objective: t.objective }),
  };
}

/** The farm's wind as the campaign wrote it, for a command optimizer's program (file paths relative to its working directory). */
function windAsWritten(f: CampaignDocument['farms'][number], raw: Record<string, unknown>, baseDir: string, workdir: string): WindAsWritten {
  const spec = raw.wind;
  const fromWorkdir = (p: string): string => path.relative(workdir, path.resolve(baseDir, p)).split(path.sep).join('/');
  if (typeof spec === 'string') return looksLikeFile(spec) ? { kind: 'file', path: fromWorkdir(spec) } : { kind: 'builtin', name: spec };
  if (spec !== undefined && spec !== null && typeof spec === 'object') return { kind: 'inline', mapping: spec as Record<string, unknown> };
  return { kind: 'case', case: looksLikeFile(f.case!) ? fromWorkdir(f.case!) : f.case! };
}

/**
 * Every farm must have room for every farm type's turbines at its spacing (see io/plausibility.ts),
 * and its model must be one the engines can evaluate for that farm type (physics/solvePlan.ts farmConflict).
 */
function checkRoom(farms: FarmSpec[], types: FarmTypeSpec[], fail: Fail, written: (farm: number, field: string) => boolean): void {
  const allModelNames = [...new Set(types.flatMap((t) => (t.models ? t.models.turbines : [t.turbine]).map((m) => m.name)))];
  for (const [i, f] of farms.entries()) {
    const bounds = new Map<number, number>();
    for (const [j, t] of types.entries()) {
      // What the engines cannot evaluate (physics/solvePlan.ts farmConflict: the weighted sum with several models or neighbours, …).
      const limit = farmConflict(f.model, {
        types: t.models ? t.models.turbines : [t.turbine],
        neighbours: !!f.neighbours && f.neighbours.x.length > 0,
        wind: f.wind,
      });
      if (limit)
        fail(['farms', i, written(i, limit.field) ? limit.field : 'case'], `farm ${f.id} (${f.label}) × farm type ${t.id} (${t.label}): ${limit.message}`);
      // Every farm type's models need a rated rotor speed in the farm's economics.
      // The engines' time grows as n² (io/turbineCount.ts).
      const countProblem = turbineCountProblem(t.nTurbines, windBins(f.wind));
      if (countProblem)
        fail(
          ['farm_types', j, t.models?.counts ? 'turbines' : 'n_turbines'],
          `farm ${f.id} (${f.label}, farms[${i}]) × farm type ${t.id} (${t.label}): ${countProblem}`,
        );
      // Pricing routes the cables, whose time grows as n^2.4 (cost/plausibility.ts).
      const tooMany = f.economics ? pricedTurbinesProblem(t.nTurbines) : null;
      if (tooMany)
        fail(
          ['farm_types', j, t.models?.counts ? 'turbines' : 'n_turbines'],
          `farm ${f.id} (${f.label}, farms[${i}]) × farm type ${t.id} (${t.label}): ${tooMany}`,
        );
      if (f.economics)
        economicsForTurbines(
          f.economics,
          t.models ? t.models.turbines : [t.turbine],
          ['farms', i, 'economics'],
          (p, message, keyOf) => fail(p, `farm type ${t.id} (${t.label}): ${message}`, keyOf),
          allModelNames,
        );
      // A cost objective needs the farm's economics (the task's case carries them: caseForTask.ts).
      if (t.objective !== undefined && t.objective !== 'aep') {
        const problem = objectiveProblem(t.objective, caseForTask(f, t).economics !== undefined);
        if (problem) fail(['farm_types', j, 'objective'], `farm ${f.id} (${f.label}, farms[${i}]) × farm type ${t.id} (${t.label}): ${problem}`);
      }
      if (t.models) {
        const problem = modelsRoomProblem(f.boundary, t.models, t.nTurbines);
        if (problem)
          fail(
            ['farm_types', j, t.models.counts ? 'turbines' : 'n_turbines'],
            `farm ${f.id} (${f.label}, farms[${i}]) × farm type ${t.id} (${t.label}): ${problem}`,
          );
        continue;
      }
      let bound = bounds.get(t.minSpacingM);
      if (bound === undefined) {
        bound = maxTurbinesBound(f.boundary, t.minSpacingM);
        bounds.set(t.minSpacingM, bound);
      }
      if (t.nTurbines <= bound) continue;
      const problem = capacityProblem(f.boundary, t.nTurbines, t.minSpacingM)!;
      fail(['farm_types', j, 'n_turbines'], `farm ${f.id} (${f.label}, farms[${i}]) × farm type ${t.id} (${t.label}): ${problem}`);
    }
  }
}

function checkUniqueIds(ids: number[], field: string, fail: Fail): void {
  const seen = new Map<number, number>();
  ids.forEach((id, i) => {
    if (seen.has(id)) fail([field, i, 'id'], `id ${id} is used twice (also by ${field}[${seen.get(id)}])`);
    seen.set(id, i);
  });
}
