/**
 * AEP units. wflo's AEPs are MWh; a file may say otherwise with a `units` (or `unit`) attribute
 * on its AEP dataset, or, for an AEP stored as an attribute, with `<name>_units` beside it or a
 * `units` attribute of the object holding it. Wh, kWh, MWh, GWh and TWh (any case, optionally per
 * year: `GWh/yr`) are converted to MWh; any other unit is refused rather than guessed: a GWh
 * figure read as MWh is 1000 times off, refused later with a puzzling AEP mismatch, or stored as
 * `aep_reported` by `--aep recompute`.
 */
import { attrNamesOf, type H5Dataset, type H5Group } from './h5Entities.js';
import { RecordProblem } from './recordValues.js';

const MWH_PER_UNIT: Record<string, number> = { wh: 1e-6, kwh: 1e-3, mwh: 1, gwh: 1e3, twh: 1e6 };
const UNIT_ATTRIBUTES = ['units', 'unit'];
/** What a layout dataset's own `units` may say of its coordinates: nothing about the AEP it carries. */
const LENGTH_UNITS = new Set(['m', 'meter', 'meters', 'metre', 'metres']);

/** A unit problem costs what the AEP belongs to: a record (groups) or the file (rows: a schema problem). */
export class AepUnitProblem extends RecordProblem {}

/** MWh per `unit` (`GWh` -> 1000, `kwh/yr` -> 0.001), or null when it is no energy unit wflo knows. */
export function mwhPerUnit(unit: string): number | null {
  const m = /^\s*([a-z]+)\s*(?:(?:\/|per)\s*(?:yr|year|a|annum))?\s*$/i.exec(unit);
  return m ? (MWH_PER_UNIT[m[1].toLowerCase()] ?? null) : null;
}

/** The text of a string attribute (a scalar or a 1-element array); undefined when absent or not text. */
function textAttribute(owner: H5Group | H5Dataset, name: string): string | undefined {
  if (!attrNamesOf(owner).has(name)) return undefined;
  let value: unknown = owner.get_attribute(name, false);
  if (Array.isArray(value) && value.length === 1) value = value[0];
  return typeof value === 'string' ? value : String(value);
}

function unitProblem(what: string, unit: string): AepUnitProblem {
  return new AepUnitProblem(`${what} has units ${JSON.stringify(unit)}; expected Wh, kWh, MWh, GWh or TWh`);
}

/** MWh per value of an energy dataset (`label` for the message): 1 without a units attribute. */
export function datasetMwhFactor(dataset: H5Dataset, label: string): number {
  for (const name of UNIT_ATTRIBUTES) {
    const unit = textAttribute(dataset, name);
    if (unit === undefined) continue;
    const factor = mwhPerUnit(unit);
    if (factor === null) throw unitProblem(label, unit);
    return factor;
  }
  return 1;
}

/**
 * MWh per value of the energy attribute `name` of `owner` (`label` names it): `<name>_units`
 * beside it says so; else the owner's `units`, when it is an energy unit (a length unit there
 * describes the layout's coordinates and is left alone; anything else is refused).
 */
export function attributeMwhFactor(owner: H5Group | H5Dataset, name: string, label: string): number {
  for (const own of UNIT_ATTRIBUTES.map((u) => `${name}_${u}`)) {
    const unit = textAttribute(owner, own);
    if (unit === undefined) continue;
    const factor = mwhPerUnit(unit);
    if (factor === null) throw unitProblem(`${label} (${own})`, unit);
    return factor;
  }
  for (const shared of UNIT_ATTRIBUTES) {
    const unit = textAttribute(owner, shared);
    if (unit === undefined) continue;
    const factor = mwhPerUnit(unit);
    if (factor !== null) return factor;
    if (LENGTH_UNITS.has(unit.trim().toLowerCase())) return 1;
    throw unitProblem(`${label} (${shared} of its holder)`, unit);
  }
  return 1;
}
