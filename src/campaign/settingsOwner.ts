/**
 * Who owns each setting a campaign farm shares with its case file (`case: farm.yaml`): one rule,
 * applied when the campaign is loaded (loadCampaign.ts) and reported by `wflo validate` and
 * `wflo run --dry-run` (runner/dryRun.ts; `--json` carries it as `settings`).
 *
 * - Farm settings (FARM_SETTINGS: boundary, wind, the farm model's fields, site, neighbours,
 *   directions, economics) belong to the farm. The case file's value is used when the campaign
 *   farm leaves the field out; a campaign farm that writes the field too must resolve to the same
 *   value (same numbers: paths may differ), else the load fails.
 * - Farm-type settings (FARM_TYPE_SETTINGS: turbine, turbines, turbine_choice, n_turbines,
 *   min_spacing_diameters / min_spacing_m, objective) belong to the farm type, which every farm of
 *   the campaign is combined with. A case file that writes one must agree with every farm type.
 *   A farm type that leaves a setting with a default (the spacing, the objective) out takes the
 *   case files' value when every farm of the campaign is built on a case file that writes that
 *   same value; when only some do (or they differ), the load fails: the farm type must say it.
 *
 * A disagreement is one InputError line at the campaign's field naming the case file's line:
 * `campaign.yaml:12: farm_types[0].min_spacing_diameters: 2 differs from farm.yaml:7
 * min_spacing_diameters 4 (…)`. Only what a native case file writes counts: a built-in case
 * (`case: iea37-cs1-16`, or a case file's `base:`) and windIO / IEA37 files give their farm
 * settings as defaults a campaign farm may replace, and state no farm-type setting.
 */
import type { Case } from '../case/case.js';
import { caseListedWind, caseTreatment } from '../optimize/caseDirections.js';
import { caseFileEconomics } from '../io/caseFile.js';
import { readYamlFile } from '../io/yamlFile.js';
import { windioKind } from '../io/windio/windioPlant.js';
import { iea37Kind } from '../io/iea37Format.js';
import { errorAt, formatFieldPath, locate, type FieldPath } from '../io/sourceMap.js';
import type { FarmSpec, FarmTypeSpec } from './campaign.js';
import { FARM_TYPE_HASHED, farmSpecHash, hashValue } from './specHash.js';
import {
  FARM_SETTINGS,
  FARM_TYPE_SETTINGS,
  type CaseFileOwners,
  type FarmSetting,
  type FarmTypeSetting,
  type SettingOwner,
  type SettingOwnerKind,
} from './settingsOwnerTypes.js';

/** The spacing: one setting, written in either unit. */
const SPACING: readonly FarmTypeSetting[] = ['min_spacing_diameters', 'min_spacing_m'];
/** Farm-type settings with a default, which a farm type that leaves them out may take from the case files. */
const TAKEN_GROUPS: readonly (readonly FarmTypeSetting[])[] = [SPACING, ['objective']];

/** What a case file writes: its parsed document (lines registered; a key present is a setting it states). */
export interface CaseStatements {
  file: string;
  doc: Record<string, unknown>;
}

/** The case file's own statements, or null for a file that is not a native case file (windIO, IEA37). */
export function readCaseStatements(file: string): CaseStatements | null {
  const doc = readYamlFile(file);
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc) || windioKind(doc) !== null || iea37Kind(doc) !== null) return null;
  return { file, doc: doc as Record<string, unknown> };
}

const writes = (doc: Record<string, unknown>, key: string): boolean => doc[key] !== undefined;

/** `file:line` of a key of a registered mapping (the key's own line). */
function lineOf(root: unknown, fieldPath: FieldPath, fallbackFile: string): string {
  const loc = locate(root, fieldPath, true);
  return loc ? `${loc.file}${loc.line !== null ? `:${loc.line}` : ''}` : fallbackFile;
}

/** A written value as a message shows it: a scalar as written, a list or mapping by its kind. */
function shown(value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return `(a list of ${value.length})`;
  return '(a mapping)';
}

const ownerOf = (campaign: boolean, caseFile: boolean): SettingOwnerKind =>
  campaign && caseFile ? 'both' : campaign ? 'campaign' : caseFile ? 'case file' : 'neither';

/** The campaign's side of a check: its parsed document (lines registered), its file, and the path of the farm or farm type. */
export interface CampaignSide {
  root: unknown;
  file: string;
  at: FieldPath;
  raw: Record<string, unknown>;
}

// ---------------------------------------------------------------- farm settings

type FarmValues = Pick<FarmSpec, 'boundary' | 'wind' | 'model' | 'neighbours' | 'directions' | 'economics'>;

const NOTHING = { boundary: null, wind: null, model: {} };
const nonEmpty = <T extends { x: ArrayLike<number> }>(n: T | undefined): T | undefined => (n && n.x.length > 0 ? n : undefined);

/** Each farm setting's resolved value as compared (equal exactly when the farm's spec hash would be for that setting). */
const FARM_VALUE: { readonly [K in FarmSetting]: (f: FarmValues) => string } = {
  boundary: (f) => hashValue(f.boundary),
  wind: (f) => hashValue(f.wind),
  wake_model: (f) => f.model.wake,
  superposition: (f) => f.model.superposition,
  wake_params: (f) => hashValue(f.model.params ?? null),
  blockage: (f) => f.model.blockage ?? 'none',
  ground: (f) => f.model.ground ?? 'none',
  site: (f) => farmSpecHash({ ...NOTHING, model: f.model.site ? { site: f.model.site } : {} }),
  neighbours: (f) => farmSpecHash({ ...NOTHING, neighbours: nonEmpty(f.neighbours) }),
  directions: (f) => farmSpecHash({ ...NOTHING, directions: f.directions }),
  economics: (f) => farmSpecHash({ ...NOTHING, economics: f.economics }),
};

/** The farm settings of a case as its file gave them (what the campaign farm takes when it leaves a field out). */
function caseFarmValues(base: Case): FarmValues {
  const treatment = caseTreatment(base);
  const economics = caseFileEconomics(base);
  return {
    boundary: base.boundary!,
    wind: caseListedWind(base),
    model: base.model,
    ...(base.neighbours ? { neighbours: base.neighbours } : {}),
    ...(treatment.kind !== 'bins' ? { directions: treatment } : {}),
    ...(economics ? { economics } : {}),
  };
}

/**
 * Check the farm settings of a campaign farm (resolved: `farm`) against its case file's and say
 * who owns each; throws the one-line InputError of the first that differs.
 */
export function farmSettingOwners(st: CaseStatements, base: Case, farm: FarmValues, side: CampaignSide): SettingOwner[] {
  const fromCase = caseFarmValues(base);
  return FARM_SETTINGS.map((setting) => {
    const inCase = writes(st.doc, setting),
      inCampaign = side.raw[setting] !== undefined;
    // The case's own wind or boundary, taken as it is, needs no hashing (a long time series is costly to hash).
    const taken = (setting === 'wind' && farm.wind === fromCase.wind) || (setting === 'boundary' && farm.boundary === fromCase.boundary);
    if (inCase && !taken && FARM_VALUE[setting](farm) !== FARM_VALUE[setting](fromCase)) {
      // A field the campaign leaves out can still change the case's value: another wake model drops the case's wake_params.
      const campaignField = inCampaign ? setting : setting === 'wake_params' && side.raw.wake_model !== undefined ? 'wake_model' : setting;
      const written = side.raw[campaignField];
      const campaignValue = written !== undefined ? `${shown(written)} ` : '(not given) ';
      const verb = campaignField === setting ? 'differs from' : 'drops';
      throw errorAt(
        side.root,
        [...side.at, campaignField],
        `${campaignValue}${verb} ${lineOf(st.doc, [setting], st.file)} ${setting} ${shown(st.doc[setting])} (the farm's case file): a farm's setting is given once, ` +
          "in the case file or in the campaign farm (the case file's is used when the farm leaves it out); remove one of the two, or make them equal",
        side.file,
        true,
      );
    }
    return {
      setting,
      farmType: null,
      owner: ownerOf(inCampaign, inCase),
      campaignAt: inCampaign ? lineOf(side.root, [...side.at, setting], side.file) : null,
      caseAt: inCase ? lineOf(st.doc, [setting], st.file) : null,
    };
  });
}

// ---------------------------------------------------------------- farm-type settings

/** One farm of the campaign as the farm-type rule sees it: its case file's statements and case (null: not built on a case file). */
export interface FarmCase {
  /** Index in the campaign's farms. */
  index: number;
  statements: CaseStatements | null;
  base: Case | null;
}

/**
 * What each farm type takes from the case files (by farm type index): a setting with a default that
 * the farm type leaves out and every farm's case file writes alike. Throws when only some farms'
 * case files write it, or they write different values.
 */
export function takenFarmTypeSettings(farms: readonly FarmCase[], types: readonly CampaignSide[]): Record<string, unknown>[] {
  return types.map((side) => {
    const taken: Record<string, unknown> = {};
    for (const group of TAKEN_GROUPS) {
      if (group.some((k) => side.raw[k] !== undefined)) continue;
      const stated = farms.map((f) => {
        const key = f.statements ? group.find((k) => writes(f.statements!.doc, k)) : undefined;
        return { farm: f, key, value: key ? f.statements!.doc[key] : undefined };
      });
      const first = stated.find((s) => s.key !== undefined);
      if (!first) continue;
      const other = stated.find((s) => s.key !== first.key || s.value !== first.value);
      if (!other) {
        taken[first.key!] = first.value;
        continue;
      }
      const otherSays =
        other.key !== undefined
          ? `farms[${other.farm.index}]'s case file says ${lineOf(other.farm.statements!.doc, [other.key], other.farm.statements!.file)} ${other.key} ${shown(other.value)}`
          : `farms[${other.farm.index}] ${other.farm.statements ? 'has a case file that does not say' : 'has no case file to say'}`;
      throw errorAt(
        side.root,
        [...side.at, first.key!],
        `(not given: ${defaultShown(first.key!)}) differs from ${lineOf(first.farm.statements!.doc, [first.key!], first.farm.statements!.file)} ${first.key} ${shown(first.value)} ` +
          `(farms[${first.farm.index}]'s case file), and a farm type takes a case file's value only when every farm's says the same, but ${otherSays}: write ${first.key} in ${formatFieldPath(side.at)}`,
        side.file,
        true,
      );
    }
    return taken;
  });
}

const defaultShown = (key: string): string => (key === 'objective' ? 'aep' : key === 'min_spacing_m' ? '2 rotor diameters' : '2');

const sameNumber = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
const turbineNumbers = (t: FarmTypeSpec['turbine']): string => hashValue(FARM_TYPE_HASHED.turbine(t));

/** The farm type's models and their spacings in metres (one model: its turbine and spacing). */
function typeModels(type: FarmTypeSpec): {
  turbines: FarmTypeSpec['turbine'][];
  spacingM: number[];
  counts: number[] | null;
  form: 'turbine' | 'turbines' | 'turbine_choice';
} {
  if (!type.models) return { turbines: [type.turbine], spacingM: [type.minSpacingM], counts: [type.nTurbines], form: 'turbine' };
  return {
    turbines: type.models.turbines,
    spacingM: type.models.minSpacingByType,
    counts: type.models.counts,
    form: type.models.counts ? 'turbines' : 'turbine_choice',
  };
}

/** The case's value of a farm-type setting it writes, and whether the farm type's resolved value equals it. */
function typeSettingAgrees(setting: FarmTypeSetting, st: CaseStatements, base: Case, type: FarmTypeSpec): boolean {
  const m = typeModels(type);
  switch (setting) {
    case 'turbine':
      return m.form === 'turbine' && turbineNumbers(m.turbines[0]!) === turbineNumbers(base.turbine);
    case 'turbines':
    case 'turbine_choice': {
      const c = base.turbines!;
      if (m.form !== setting || m.turbines.length !== c.types.length) return false;
      if (m.turbines.some((t, k) => turbineNumbers(t) !== turbineNumbers(c.types[k]!))) return false;
      if (setting === 'turbines') {
        const counts = c.types.map((_, k) => c.typeOf.filter((v) => v === k).length);
        if (counts.some((n, k) => n !== m.counts![k])) return false;
        // A model's own spacing in the case file's list is part of what it says about that model.
        const ownSpacing = (st.doc.turbines as Record<string, unknown>[]).some(
          (e) => e && (e.min_spacing_m !== undefined || e.min_spacing_diameters !== undefined),
        );
        if (ownSpacing && m.spacingM.some((s, k) => !sameNumber(s, c.minSpacingByType[k]!))) return false;
      }
      return true;
    }
    case 'n_turbines':
      return type.nTurbines === base.nTurbines;
    case 'min_spacing_diameters': {
      const d = st.doc.min_spacing_diameters as number;
      return m.turbines.every((t, k) => sameNumber(m.spacingM[k]! / t.diameter, d));
    }
    case 'min_spacing_m':
      return m.spacingM.every((s) => sameNumber(s, st.doc.min_spacing_m as number));
    case 'objective':
      return (type.objective ?? 'aep') === st.doc.objective;
  }
}

/** The farm type's value of a setting as a message shows it (what it writes, else what it resolved to). */
function typeValueShown(setting: FarmTypeSetting, type: FarmTypeSpec, raw: Record<string, unknown>): { field: string; text: string } {
  const m = typeModels(type);
  if (setting === 'turbine' || setting === 'turbines' || setting === 'turbine_choice') {
    const names = m.turbines.map((t) => t.name).join(', ');
    return {
      field: m.form,
      text:
        raw[m.form] !== undefined && typeof raw[m.form] === 'string'
          ? String(raw[m.form])
          : m.form === 'turbine'
            ? names
            : `[${names}]${m.counts && m.form === 'turbines' ? ` × [${m.counts.join(', ')}]` : ''}`,
    };
  }
  if (setting === 'n_turbines') return { field: raw.n_turbines !== undefined ? 'n_turbines' : m.form, text: String(type.nTurbines) };
  if (setting === 'objective') return { field: 'objective', text: raw.objective !== undefined ? String(raw.objective) : '(not given: aep)' };
  const writtenKey = raw.min_spacing_diameters !== undefined ? 'min_spacing_diameters' : raw.min_spacing_m !== undefined ? 'min_spacing_m' : null;
  const inDiameters = m.turbines.map((t, k) => +(m.spacingM[k]! / t.diameter).toPrecision(6)).join('/');
  const inMetres = m.spacingM.map((s) => +s.toPrecision(6)).join('/');
  if (writtenKey) return { field: writtenKey, text: `${String(raw[writtenKey])} (${inDiameters} D, ${inMetres} m)` };
  return { field: setting, text: `(not given: ${inDiameters} D, ${inMetres} m)` };
}

/**
 * Check the farm-type settings a farm's case file writes against one farm type (resolved) and say
 * who owns each; throws the one-line InputError of the first that differs. `taken`: the settings
 * the farm type took from the case files (takenFarmTypeSettings); `side.raw` is the farm type as
 * the campaign writes it (without them).
 */
export function farmTypeSettingOwners(
  farmIndex: number,
  st: CaseStatements,
  base: Case,
  type: FarmTypeSpec,
  side: CampaignSide,
  taken: Record<string, unknown>,
): SettingOwner[] {
  return FARM_TYPE_SETTINGS.map((setting) => {
    // The spacing is one setting written in either unit: a farm type's min_spacing_m answers a case file's min_spacing_diameters.
    const campaignKey = SPACING.includes(setting) ? (SPACING.find((k) => side.raw[k] !== undefined) ?? setting) : setting;
    const inCase = writes(st.doc, setting),
      inCampaign = side.raw[campaignKey] !== undefined;
    if (inCase && !typeSettingAgrees(setting, st, base, type)) {
      const v = typeValueShown(setting, type, side.raw);
      throw errorAt(
        side.root,
        [...side.at, v.field],
        `${v.text} differs from ${lineOf(st.doc, [setting], st.file)} ${setting} ${shown(st.doc[setting])} (farms[${farmIndex}]'s case file): ` +
          `a farm type's setting holds for every farm it is combined with; write the same in both files, or leave it out of the case file`,
        side.file,
        true,
      );
    }
    return {
      setting,
      farmType: type.id,
      owner: setting in taken ? 'case file' : ownerOf(inCampaign, inCase),
      campaignAt: inCampaign ? lineOf(side.root, [...side.at, campaignKey], side.file) : null,
      caseAt: inCase ? lineOf(st.doc, [setting], st.file) : null,
    };
  });
}

/** The lines `wflo validate` prints: per farm built on a case file, who owns each setting either file writes. */
export function formatSettingOwners(owners: readonly CaseFileOwners[]): string[] {
  const lines: string[] = [];
  for (const o of owners) {
    lines.push(`farm ${o.farmId} settings shared with its case file ${o.caseFile} (a disagreement is refused; docs/inputs.md):`);
    const written = o.settings.filter((s) => s.owner !== 'neither');
    for (const s of written) {
      const setting = s.farmType === null ? s.setting : `farm type ${s.farmType} ${s.setting}`;
      const where =
        s.owner === 'both'
          ? `both, equal (${s.campaignAt}, ${s.caseAt})`
          : s.owner === 'campaign'
            ? `campaign (${s.campaignAt})`
            : `case file (${s.caseAt})${s.farmType !== null ? ', taken by the farm type' : ''}`;
      lines.push(`  ${setting}: ${where}`);
    }
    // The spacing is one setting in two units: the unit nobody wrote is not "written by neither" when the other is written.
    const spacingWritten = new Set(written.filter((s) => SPACING.includes(s.setting as FarmTypeSetting)).map((s) => s.farmType));
    const rest = o.settings.filter((s) => s.owner === 'neither' && !(SPACING.includes(s.setting as FarmTypeSetting) && spacingWritten.has(s.farmType)));
    if (rest.length > 0) lines.push(`  written by neither (defaults, or the case file's base): ${[...new Set(rest.map((s) => s.setting))].join(', ')}`);
  }
  return lines;
}
