/**
 * A queue job's payload: everything a worker needs to run one attempt of one task and nothing
 * else (no campaign file, no shared disk): the farm (boundary, wind, wake model), the farm type
 * (turbine, count, spacing; several turbine models when it has them), the farm's fixed
 * neighbours, the optimizer settings, seed, attempt, per-attempt timeout, the engine version and
 * the task's spec hash; for command optimizers also the farm's and farm type's params and the
 * farm's wind as written.
 *
 * Jobs travel as JSON, where typed arrays do not survive: `encodeJob` turns them into number
 * arrays and `decodeJob` back. `decodeJob` validates the payload with a strict zod schema
 * (finite numbers, bounded sizes, no unexpected keys) and then recomputes the spec hash from what
 * it decoded with this worker's engine version: a payload that was tampered with, truncated, or
 * made by another engine version is rejected before anything runs, rather than producing a
 * result under a spec hash that does not describe it.
 */
import { economicsSpecProblem, economicsSpecSchema } from '../../../io/costFields.js';
import type { ObjectiveName } from '../../../cost/economicModel.js';
import { z } from 'zod';
import type { FarmSpec, FarmTypeSpec, OptimizerSettings, WindAsWritten } from '../../../campaign/campaign.js';
import {
  FARM_TYPE_HASHED_FIELDS,
  farmSpecHash,
  farmTypeSpecHash,
  optimizerSpecHash,
  taskSpecHash,
  type FarmTypeHashedField,
} from '../../../campaign/specHash.js';
import { paramsSchema, type Params } from '../../../campaign/paramsSchema.js';
import type { Boundary } from '../../../geometry/boundary.js';
import type { Turbine } from '../../../physics/turbine.js';
import type { WindResource, WindSeries } from '../../../physics/windResource.js';
import type { FarmModelSpec } from '../../../physics/farmModel.js';
import type { DirectionTreatment } from '../../../physics/directionTreatment.js';
import { MAX_DIRECTION_POINTS, MIN_REFINE_DEG } from '../../../io/directionsField.js';
import { WAKE_MODEL_NAMES, SUPERPOSITION_NAMES, INFLOW_NAMES, BLOCKAGE_MODEL_NAMES, GROUND_MODEL_NAMES } from '../../../physics/farmModel.js';
import { INDUCTION_NAMES } from '../../../physics/inductionFactor.js';
import { TURBULENCE_SUPERPOSITION_NAMES } from '../../../physics/turbulence/crespoHernandez.js';
import { ENGINE_VERSION } from '../../../version.js';
import type { EconomicsSpec } from '../../../io/costFields.js';
import type { Dispatch, ExecutorSetup } from '../executor.js';
import { readSiteBlock, siteDocument } from '../../../io/siteFields.js';
import { InputError } from '../../../util/errors.js';

export const PAYLOAD_VERSION = 1;

/** Bounds that no real campaign reaches and that keep a hostile payload from exhausting a worker. */
const MAX_ARRAY = 1_000_000;
const MAX_TURBINES = 10_000;

/** A job's data as JSON (what BullMQ stores). */
export interface JobData {
  v: number;
  engine: string;
  taskId: string;
  specHash: string;
  campaign: { name: string; hash: string };
  farmId: number;
  farmType: number;
  seed: number;
  attempt: number;
  timeoutS: number;
  farm: EncodedFarm;
  type: EncodedType;
  optimizer: OptimizerSettings;
}

interface EncodedFarm {
  boundary: Boundary;
  wind: {
    directionsDeg: number[];
    speeds: number[];
    probability: number[];
    turbulenceIntensity: number;
    hoursPerYear?: number;
    turbulenceIntensityByBin?: number[];
    series?: { directionsDeg: number[]; speeds: number[]; weights: number[]; turbulenceIntensity?: number[] };
  };
  /** The farm model; a site that is not uniform as its inline block (io/siteFields.ts siteDocument: the fields' values, never a file's path). */
  model: Omit<FarmModelSpec, 'site'> & { site?: Record<string, unknown> };
  /** Command optimizers only: the farm's params (hashed) and its wind as written (not hashed). */
  params?: Params;
  windAsWritten?: WindAsWritten;
  neighbours?: { x: number[]; y: number[]; types: EncodedTurbine[]; typeOf: number[] };
  /** The direction treatment (hashed; absent: the bins as listed). */
  directions?: DirectionTreatment;
  /** Cost-model inputs (hashed, the bathymetry file's path not). */
  economics?: EconomicsSpec;
}

type EncodedCurve = { kind: 'cubic'; ratedSpeed: number } | { kind: 'table'; speeds: number[]; powerW: number[] };
type EncodedThrust = { kind: 'constant'; ct: number } | { kind: 'table'; speeds: number[]; ct: number[]; outside?: 'clamp' | 'zero' };

type EncodedTurbine = Omit<Turbine, 'power' | 'thrust'> & { power: EncodedCurve; thrust: EncodedThrust };

interface EncodedType {
  turbine: EncodedTurbine;
  nTurbines: number;
  minSpacingM: number;
  params?: Params;
  models?: { turbines: EncodedTurbine[]; minSpacingByType: number[]; counts: number[] | null };
  /** What the farm type's optimizations minimize or maximize (hashed when not aep). */
  objective?: ObjectiveName;
}

// ---- encoding (coordinator) ----

const arr = (a: Float64Array): number[] => Array.from(a);

function encodeFarm(f: FarmSpec): EncodedFarm {
  return {
    boundary: f.boundary,
    wind: {
      directionsDeg: arr(f.wind.directionsDeg),
      speeds: arr(f.wind.speeds),
      probability: arr(f.wind.probability),
      turbulenceIntensity: f.wind.turbulenceIntensity,
      ...(f.wind.hoursPerYear !== undefined ? { hoursPerYear: f.wind.hoursPerYear } : {}),
      ...(f.wind.turbulenceIntensityByBin ? { turbulenceIntensityByBin: arr(f.wind.turbulenceIntensityByBin) } : {}),
      ...(f.wind.series ? { series: encodeSeries(f.wind.series) } : {}),
    },
    model: f.model.site ? { ...f.model, site: siteDocument(f.model.site) } : (f.model as EncodedFarm['model']),
    ...(f.params !== undefined ? { params: f.params } : {}),
    ...(f.windAsWritten !== undefined ? { windAsWritten: f.windAsWritten } : {}),
    ...(f.directions !== undefined ? { directions: f.directions } : {}),
    ...(f.economics !== undefined ? { economics: f.economics } : {}),
    ...(f.neighbours !== undefined
      ? {
          neighbours: { x: arr(f.neighbours.x), y: arr(f.neighbours.y), types: f.neighbours.types.map(encodeTurbine), typeOf: Array.from(f.neighbours.typeOf) },
        }
      : {}),
  };
}

function encodeTurbine(t: Turbine): EncodedTurbine {
  const p = t.power,
    c = t.thrust;
  return {
    ...t,
    power: p.kind === 'cubic' ? { kind: 'cubic', ratedSpeed: p.ratedSpeed } : { kind: 'table', speeds: arr(p.speeds), powerW: arr(p.powerW) },
    thrust:
      c.kind === 'constant'
        ? { kind: 'constant', ct: c.ct }
        : { kind: 'table', speeds: arr(c.speeds), ct: arr(c.ct), ...(c.outside !== undefined ? { outside: c.outside } : {}) },
  };
}

function encodeSeries(s: WindSeries): NonNullable<EncodedFarm['wind']['series']> {
  return {
    directionsDeg: arr(s.directionsDeg),
    speeds: arr(s.speeds),
    weights: arr(s.weights),
    ...(s.turbulenceIntensity ? { turbulenceIntensity: arr(s.turbulenceIntensity) } : {}),
  };
}

/**
 * How each field of a farm type travels: one codec per field of its spec hash (campaign/specHash.ts
 * FARM_TYPE_HASHED). The table is typed by that list, so a field the hash covers cannot be left out
 * of the payload (the farm type's `objective` once was, when the fields were listed here by hand).
 */
type Codec<Spec, Encoded> = { encode: (v: Spec) => Encoded; decode: (v: Encoded) => Spec };
const same = <T>(): Codec<T, T> => ({ encode: (v) => v, decode: (v) => v });
const TYPE_CODECS: { readonly [K in FarmTypeHashedField]: Codec<NonNullable<FarmTypeSpec[K]>, NonNullable<EncodedType[K]>> } = {
  turbine: { encode: encodeTurbine, decode: (t) => decodeTurbine(t) },
  nTurbines: same(),
  minSpacingM: same(),
  params: same(),
  models: {
    encode: (m) => ({ turbines: m.turbines.map(encodeTurbine), minSpacingByType: [...m.minSpacingByType], counts: m.counts ? [...m.counts] : null }),
    decode: (m) => ({ turbines: m.turbines.map(decodeTurbine), minSpacingByType: m.minSpacingByType, counts: m.counts }),
  },
  objective: same(),
};

/** Every hashed field of a farm type through its codec (absent fields stay absent). */
function convertType(from: Record<string, unknown>, direction: 'encode' | 'decode'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of FARM_TYPE_HASHED_FIELDS) {
    const v = from[k];
    if (v !== undefined) out[k] = (TYPE_CODECS[k][direction] as (value: unknown) => unknown)(v);
  }
  return out;
}

function encodeType(t: FarmTypeSpec): EncodedType {
  return convertType(t as unknown as Record<string, unknown>, 'encode') as unknown as EncodedType;
}

/**
 * Builds job payloads for one campaign. Farms and types are encoded once and shared by every
 * job that uses them (BullMQ serializes each job anyway; the coordinator keeps one copy).
 */
export class JobEncoder {
  private readonly farms: (EncodedFarm | undefined)[] = [];
  private readonly types: (EncodedType | undefined)[] = [];
  constructor(private readonly setup: ExecutorSetup) {}

  encode(d: Dispatch): JobData {
    const t = d.task;
    const farm = (this.farms[t.farmIndex] ??= encodeFarm(this.setup.farms[t.farmIndex]));
    const type = (this.types[t.typeIndex] ??= encodeType(this.setup.farmTypes[t.typeIndex]));
    return {
      v: PAYLOAD_VERSION,
      engine: ENGINE_VERSION,
      taskId: t.taskId,
      specHash: t.specHash,
      campaign: { name: this.setup.campaignName, hash: this.setup.campaignHash },
      farmId: t.farmId,
      farmType: t.farmType,
      seed: t.seed,
      attempt: d.attempt,
      timeoutS: this.setup.timeoutS,
      farm,
      type,
      optimizer: this.setup.optimizer,
    };
  }
}

// ---- schema + decoding (worker) ----

const finite = z.number().finite();
const numbers = z.array(finite).max(MAX_ARRAY);
const point = z.tuple([finite, finite]);
const ring = z.array(point).min(3).max(MAX_ARRAY);
const exclusion = z.strictObject({ name: z.string().max(200), vertices: ring });
const exclusions = z.array(exclusion).max(10_000).optional();
const boundary = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('circle'), center: point, radius: finite.positive(), exclusions }),
  z.strictObject({ kind: z.literal('polygon'), vertices: ring, exclusions }),
  z.strictObject({ kind: z.literal('multipolygon'), polygons: z.array(ring).min(1).max(10_000), exclusions }),
]);
const safeKey = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'expected a setting name (letters, digits, _)')
  .refine((k) => k !== '__proto__' && k !== 'constructor' && k !== 'prototype', 'reserved name');
const wind = z
  .strictObject({
    directionsDeg: numbers.min(1),
    speeds: numbers.min(1),
    probability: numbers.min(1),
    turbulenceIntensity: finite.nonnegative(),
    hoursPerYear: finite.positive().optional(),
    turbulenceIntensityByBin: numbers.optional(),
    series: z
      .strictObject({ directionsDeg: numbers.min(1), speeds: numbers.min(1), weights: numbers.min(1), turbulenceIntensity: numbers.optional() })
      .refine(
        (s) =>
          s.speeds.length === s.directionsDeg.length &&
          s.weights.length === s.directionsDeg.length &&
          (s.turbulenceIntensity?.length ?? s.directionsDeg.length) === s.directionsDeg.length,
        { message: 'one speed, weight (and turbulence intensity) per sample' },
      )
      .optional(),
  })
  .refine((w) => w.probability.length === w.directionsDeg.length * w.speeds.length, {
    message: 'probability must have directions × speeds entries',
    path: ['probability'],
  })
  .refine((w) => w.turbulenceIntensityByBin === undefined || w.turbulenceIntensityByBin.length === w.probability.length, {
    message: 'one turbulence intensity per bin',
    path: ['turbulenceIntensityByBin'],
  });
const model = z.strictObject({
  wake: z.enum(WAKE_MODEL_NAMES as [string, ...string[]]),
  superposition: z.enum(SUPERPOSITION_NAMES as [string, ...string[]]),
  params: z.record(safeKey, finite).optional(),
  inflow: z.enum(INFLOW_NAMES as [string, ...string[]]).optional(),
  ct2a: z.enum(INDUCTION_NAMES as [string, ...string[]]).optional(),
  deficitReference: z.enum(['free-stream', 'source-effective']).optional(),
  useEffectiveTi: z.boolean().optional(),
  turbulence: z.enum(['none', 'crespo-hernandez']).optional(),
  turbulenceSuperposition: z.enum(TURBULENCE_SUPERPOSITION_NAMES as [string, ...string[]]).optional(),
  turbulenceParams: z.record(safeKey, finite).optional(),
  rotorAverage: z
    .string()
    .regex(/^[a-z0-9-]{1,32}$/)
    .optional(),
  blockage: z.enum(BLOCKAGE_MODEL_NAMES as [string, ...string[]]).optional(),
  ground: z.enum(GROUND_MODEL_NAMES as [string, ...string[]]).optional(),
  // The inline `site:` block (no `file`: a worker reads no path a payload names); io/siteFields.ts checks it in full on decoding.
  site: z
    .strictObject({
      speedup: z.record(z.string(), z.unknown()).optional(),
      ti: z.record(z.string(), z.unknown()).optional(),
      shear: z.record(z.string(), z.unknown()).optional(),
      outside: z.enum(['error', 'limit']).optional(),
    })
    .optional(),
});
const table = <K extends string>(k: K) =>
  z.strictObject({ kind: z.literal('table'), speeds: numbers.min(2), [k]: numbers.min(2) } as { kind: z.ZodLiteral<'table'>; speeds: typeof numbers } & Record<
    K,
    typeof numbers
  >);
const turbine = z.strictObject({
  name: z.string().max(200),
  diameter: finite.positive(),
  hubHeight: finite.nonnegative(),
  ratedPowerW: finite.positive(),
  cutIn: finite.nonnegative(),
  cutOut: finite.positive(),
  power: z.union([z.strictObject({ kind: z.literal('cubic'), ratedSpeed: finite.positive() }), table('powerW')]),
  thrust: z.union([
    z.strictObject({ kind: z.literal('constant'), ct: finite.nonnegative() }),
    z.strictObject({ kind: z.literal('table'), speeds: numbers.min(2), ct: numbers.min(2), outside: z.enum(['clamp', 'zero']).optional() }),
  ]),
  cutOutInclusive: z.boolean().optional(),
});
const windAsWritten = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('builtin'), name: z.string().max(200) }),
  z.strictObject({ kind: z.literal('file'), path: z.string().max(4096) }),
  z.strictObject({ kind: z.literal('inline'), mapping: z.record(z.string().max(200), z.unknown()) }),
  z.strictObject({ kind: z.literal('case'), case: z.string().max(4096) }),
]);
// The bounds of io/directionsField.ts (a payload is not read through it).
const directions = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('bins') }),
  z.strictObject({ kind: z.literal('spread'), n: z.number().int().min(1).max(MAX_DIRECTION_POINTS) }),
  z.strictObject({ kind: z.literal('gaussian'), sigmaDeg: finite.positive().max(60), n: z.number().int().min(1).max(MAX_DIRECTION_POINTS) }),
  z.strictObject({ kind: z.literal('refine'), stepDeg: finite.min(MIN_REFINE_DEG).max(360) }),
]);
type Json = number | string | boolean | null | Json[] | { [k: string]: Json };
const jsonScalar = z.union([finite, z.string().max(10_000), z.boolean(), z.null()]);
const jsonValue: z.ZodType<Json> = z.lazy(() => z.union([jsonScalar, z.array(jsonValue).max(MAX_ARRAY), z.record(safeKey, jsonValue)]));
const int = z.number().int().refine(Number.isSafeInteger, 'expected a safe integer');

// The farm's economics as io/costFields.ts resolved it (plain data); the grid's shape is checked on decoding.
const economics = economicsSpecSchema;

// One schema entry per hashed field of a farm type (the `satisfies` makes a missing one a compile error).
const typeShape = {
  turbine,
  nTurbines: int.min(1).max(MAX_TURBINES),
  minSpacingM: finite.nonnegative(),
  params: paramsSchema.optional(),
  models: z
    .strictObject({
      turbines: z.array(turbine).min(1).max(100),
      minSpacingByType: z.array(finite.nonnegative()).max(100),
      counts: z.array(int.min(1)).max(100).nullable(),
    })
    .optional(),
  objective: z.enum(['aep', 'lcoe', 'npv']).optional(),
} satisfies { [K in FarmTypeHashedField]: z.ZodType };

export const jobDataSchema = z.strictObject({
  v: z.literal(PAYLOAD_VERSION),
  engine: z.string().max(100),
  taskId: z.string().regex(/^farm_-?\d+_type_-?\d+_seed_-?\d+$/, 'expected farm_<f>_type_<t>_seed_<s>'),
  specHash: z.string().regex(/^[0-9a-f]{32}$/, 'expected 32 hex digits'),
  campaign: z.strictObject({ name: z.string().max(500), hash: z.string().max(100) }),
  farmId: int,
  farmType: int,
  seed: int,
  attempt: int.min(1),
  timeoutS: finite.positive().max(1e7),
  farm: z.strictObject({
    boundary,
    wind,
    model,
    params: paramsSchema.optional(),
    windAsWritten: windAsWritten.optional(),
    directions: directions.optional(),
    economics: economics.optional(),
    neighbours: z
      .strictObject({
        x: numbers.max(MAX_TURBINES),
        y: numbers.max(MAX_TURBINES),
        types: z.array(turbine).min(1).max(100),
        typeOf: z.array(int.min(0).max(99)).max(MAX_TURBINES),
      })
      .optional(),
  }),
  type: z.strictObject(typeShape),
  optimizer: z.record(safeKey, jsonValue).refine((o) => typeof o.method === 'string', { message: 'expected a method name', path: ['method'] }),
});

/** A job a worker must not run: what is wrong, in one line. Never retried by the queue. */
export class PayloadRejected extends Error {
  readonly permanent = true;
}

export interface DecodedJob {
  data: JobData;
  farm: FarmSpec;
  type: FarmTypeSpec;
  optimizer: OptimizerSettings;
}

const f64 = (a: number[]): Float64Array => Float64Array.from(a);

function decodeTurbine(et: EncodedTurbine): Turbine {
  return {
    ...et,
    power: et.power.kind === 'cubic' ? et.power : { kind: 'table', speeds: f64(et.power.speeds), powerW: f64(et.power.powerW) },
    thrust:
      et.thrust.kind === 'constant'
        ? et.thrust
        : { kind: 'table', speeds: f64(et.thrust.speeds), ct: f64(et.thrust.ct), ...(et.thrust.outside !== undefined ? { outside: et.thrust.outside } : {}) },
  };
}

/** The spec hash of a task from its decoded parts (the same recipe as campaign/loadCampaign.ts + taskGrid.ts). */
export function specHashOf(
  farm: Omit<FarmSpec, 'id' | 'label' | 'hash'>,
  type: Omit<FarmTypeSpec, 'id' | 'label' | 'hash'>,
  optimizer: OptimizerSettings,
  seed: number,
): { farmHash: string; typeHash: string; specHash: string } {
  const farmHash = farmSpecHash(farm);
  const typeHash = farmTypeSpecHash(type);
  return { farmHash, typeHash, specHash: taskSpecHash(farmHash, typeHash, optimizerSpecHash(optimizer), seed) };
}

const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

/** Path of the first own key that could reach an object's prototype (the schema would silently drop it). */
function reservedKeyPath(value: unknown, path: string, depth = 0): string | null {
  if (value === null || typeof value !== 'object' || depth > 64) return null;
  if (Array.isArray(value)) {
    // Number arrays are the bulk of a payload: only look into arrays of objects.
    for (let i = 0; i < value.length; i++) {
      if (typeof value[i] !== 'object' || value[i] === null) continue;
      const p = reservedKeyPath(value[i], `${path}.${i}`, depth + 1);
      if (p) return p;
    }
    return null;
  }
  for (const key of Object.keys(value)) {
    if (RESERVED_KEYS.has(key)) return `${path}.${key}`;
    const p = reservedKeyPath((value as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
    if (p) return p;
  }
  return null;
}

/** Validate and decode a job's data; throws PayloadRejected with one line. */
export function decodeJob(raw: unknown, jobId = '?'): DecodedJob {
  const reserved = reservedKeyPath(raw, '');
  if (reserved) throw new PayloadRejected(`job ${jobId}: payload rejected: ${reserved.slice(1)}: reserved key`);
  const parsed = jobDataSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(payload)';
    throw new PayloadRejected(`job ${jobId}: payload rejected: ${where}: ${issue.message}`);
  }
  const data = parsed.data as unknown as JobData;
  if (data.engine !== ENGINE_VERSION) {
    throw new PayloadRejected(`job ${jobId}: refused: it needs engine ${data.engine}, this worker runs ${ENGINE_VERSION} (results would not be bit-identical)`);
  }
  const w = data.farm.wind;
  const windResource: WindResource = {
    directionsDeg: f64(w.directionsDeg),
    speeds: f64(w.speeds),
    probability: f64(w.probability),
    turbulenceIntensity: w.turbulenceIntensity,
    ...(w.hoursPerYear !== undefined ? { hoursPerYear: w.hoursPerYear } : {}),
    ...(w.turbulenceIntensityByBin ? { turbulenceIntensityByBin: f64(w.turbulenceIntensityByBin) } : {}),
    ...(w.series
      ? {
          series: {
            directionsDeg: f64(w.series.directionsDeg),
            speeds: f64(w.series.speeds),
            weights: f64(w.series.weights),
            ...(w.series.turbulenceIntensity ? { turbulenceIntensity: f64(w.series.turbulenceIntensity) } : {}),
          },
        }
      : {}),
  };
  const treatment = data.farm.directions;
  if (treatment && windResource.series && (treatment.kind === 'spread' || treatment.kind === 'refine')) {
    throw new PayloadRejected(`job ${jobId}: payload rejected: farm.directions: ${treatment.kind} needs a binned rose, the wind is a time series`);
  }
  const nb = data.farm.neighbours;
  if (nb && (nb.y.length !== nb.x.length || nb.typeOf.length !== nb.x.length || nb.typeOf.some((t) => t >= nb.types.length))) {
    throw new PayloadRejected(`job ${jobId}: payload rejected: farm.neighbours: positions and models do not match`);
  }
  const models = data.type.models;
  if (
    models &&
    (models.minSpacingByType.length !== models.turbines.length ||
      (models.counts !== null && (models.counts.length !== models.turbines.length || models.counts.reduce((t, n) => t + n, 0) !== data.type.nTurbines)))
  ) {
    throw new PayloadRejected(`job ${jobId}: payload rejected: type.models: one spacing and count per model, counts summing to nTurbines, expected`);
  }
  const economicsProblem = data.farm.economics ? economicsSpecProblem(data.farm.economics) : null;
  if (economicsProblem) throw new PayloadRejected(`job ${jobId}: payload rejected: farm.economics.${economicsProblem}`);
  let farmModel: FarmModelSpec;
  try {
    const { site, ...rest } = data.farm.model;
    farmModel = site ? { ...(rest as FarmModelSpec), site: readSiteBlock(site, site, [], '(queue payload) farm.model.site') } : (rest as FarmModelSpec);
  } catch (err) {
    if (!(err instanceof InputError)) throw err;
    throw new PayloadRejected(`job ${jobId}: payload rejected: farm.model.site: ${err.message.replace(/^\(queue payload\) farm\.model\.site:? ?/, '')}`);
  }
  const farmParts = {
    boundary: data.farm.boundary,
    wind: windResource,
    model: farmModel,
    ...(data.farm.economics !== undefined ? { economics: data.farm.economics } : {}),
    ...(data.farm.params !== undefined ? { params: data.farm.params } : {}),
    ...(data.farm.windAsWritten !== undefined ? { windAsWritten: data.farm.windAsWritten } : {}),
    ...(data.farm.directions !== undefined ? { directions: data.farm.directions } : {}),
    ...(nb ? { neighbours: { x: f64(nb.x), y: f64(nb.y), types: nb.types.map(decodeTurbine), typeOf: Int32Array.from(nb.typeOf) } } : {}),
  };
  const typeParts = convertType(data.type as unknown as Record<string, unknown>, 'decode') as unknown as Omit<FarmTypeSpec, 'id' | 'label' | 'hash'>;
  const { farmHash, typeHash, specHash } = specHashOf(farmParts, typeParts, data.optimizer, data.seed);
  if (specHash !== data.specHash) {
    throw new PayloadRejected(
      `job ${jobId}: refused: its spec hash ${data.specHash} does not match its contents (${specHash}); the payload was altered or made by another wflo`,
    );
  }
  const farm: FarmSpec = { id: data.farmId, label: `farm_${data.farmId}`, ...farmParts, hash: farmHash };
  const type: FarmTypeSpec = { id: data.farmType, label: `type_${data.farmType}`, ...typeParts, hash: typeHash };
  return { data, farm, type, optimizer: data.optimizer };
}
