/**
 * The settings a campaign shares with its farms' case files, and the record of who owns each
 * (what campaign/settingsOwner.ts decides, Campaign.settingOwners keeps and `wflo validate` prints).
 */

/** The settings of a campaign farm that a case file also has. */
export const FARM_SETTINGS = [
  'boundary',
  'wind',
  'wake_model',
  'superposition',
  'wake_params',
  'blockage',
  'ground',
  'site',
  'neighbours',
  'directions',
  'economics',
] as const;
/** The settings of a campaign farm type that a case file also has. */
export const FARM_TYPE_SETTINGS = ['turbine', 'turbines', 'turbine_choice', 'n_turbines', 'min_spacing_diameters', 'min_spacing_m', 'objective'] as const;
export type FarmSetting = (typeof FARM_SETTINGS)[number];
export type FarmTypeSetting = (typeof FARM_TYPE_SETTINGS)[number];

/**
 * Whose value a setting has: the campaign's (it alone writes it), the case file's (it alone writes
 * it: taken), both (equal), or neither (a default, or the case file's `base:`).
 */
export type SettingOwnerKind = 'campaign' | 'case file' | 'both' | 'neither';

export interface SettingOwner {
  setting: FarmSetting | FarmTypeSetting;
  /** The farm type's id, for a farm-type setting (null: a farm setting). */
  farmType: number | null;
  owner: SettingOwnerKind;
  /** `file:line` of the campaign's field and of the case file's, where each writes it. */
  campaignAt: string | null;
  caseAt: string | null;
}

/** One campaign farm built on a case file, and who owns each shared setting. */
export interface CaseFileOwners {
  farmId: number;
  caseFile: string;
  settings: SettingOwner[];
}
