/**
 * "Did you mean …?" messages for unknown keys and columns of wflo's own files; the nearest known
 * name comes from util/nearestName.ts.
 */
import { excerpt } from '../util/printable.js';

import { nearestKey } from '../util/nearestName.js';

export { editDistance, nearestKey } from '../util/nearestName.js';

/** The message for an unknown key: with the nearest known key, else the list of known keys. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  // A key far longer than any known one is no misspelling of one (and is quoted by its start only).
  const near = key.length <= 100 ? nearestKey(key, known) : null;
  if (near !== null) return `unknown field '${excerpt(key)}'; did you mean '${near}'?`;
  return `unknown field '${excerpt(key)}' (known: ${known.join(', ')})`;
}

/**
 * Other tools' names for wflo's table columns (PyWake's `ws`, `wd`, `TI`, `p`, `CT`; spreadsheet
 * headers with a unit, `Wind Speed [m/s]`, `Power [kW]`): suggested, never accepted, so that one
 * column has one name in every file wflo reads.
 */
const COLUMN_ALIASES: Readonly<Record<string, string>> = {
  ws: 'wind_speed',
  u: 'wind_speed',
  speed: 'wind_speed',
  windspeed: 'wind_speed',
  v: 'wind_speed',
  wd: 'wind_direction',
  direction: 'wind_direction',
  winddirection: 'wind_direction',
  dir: 'wind_direction',
  ti: 'turbulence_intensity',
  turbulence: 'turbulence_intensity',
  turbulenceintensity: 'turbulence_intensity',
  p: 'power',
  power: 'power',
  powerw: 'power',
  powerkw: 'power',
  powermw: 'power',
  ct: 'ct',
  thrustcoefficient: 'ct',
  cts: 'ct',
  w: 'weight',
  weights: 'weight',
  freq: 'frequency',
  probability: 'frequency',
  pwd: 'frequency',
  t: 'time',
  timestamp: 'time',
};

/** An unknown column's message: the wflo name another tool's name stands for, or the nearest known one. */
export function unknownColumnMessage(name: string, known: readonly string[]): string {
  const unit = /[[(]\s*(k?W|MW)\s*[\])]\s*$/i.exec(name)?.[1] ?? /_(kw|mw)$/i.exec(name)?.[1];
  const bare = name.replace(/[[(][^\])]*[\])]\s*$/, '').trim();
  const folded = bare.toLowerCase().replace(/[\s_-]/g, '');
  const alias = COLUMN_ALIASES[folded] ?? COLUMN_ALIASES[bare.toLowerCase()];
  const near = alias !== undefined && known.includes(alias) ? alias : nearestKey(bare.replace(/\s+/g, '_'), known);
  if (near === null || near === name) return `unknown column '${name}' (known: ${known.join(', ')})`;
  const unitName = unit ? ({ w: 'W', kw: 'kW', mw: 'MW' } as Record<string, string>)[unit.toLowerCase()] : undefined;
  const unitHint = unitName && unitName !== 'W' && near === 'power' ? ` (with power_unit: ${unitName} in the turbine file)` : '';
  const pywake = ['ws', 'wd', 'ti'].includes(folded) ? ` (${name} is PyWake's name; wflo's files say ${near})` : '';
  return `unknown column '${name}'; did you mean '${near}'?${unitHint}${pywake}`;
}

/**
 * Whether a CSV's first row is recognisably a header of columns `known`: one of its cells names one
 * of them, or is another tool's name or a misspelling of one. A reader quotes the row's cells only
 * then (io/fileDoor.ts: a file that is not of the format named is never quoted back).
 */
export function looksLikeHeader(cells: readonly string[], known: readonly string[]): boolean {
  return cells.some((c) => known.includes(c) || (c.length <= 100 && /did you mean/.test(unknownColumnMessage(c, known))));
}
