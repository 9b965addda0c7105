/**
 * The wake deficit models wflo knows, by name. Adding a model: one file that exports its
 * DeficitModel (wake/deficitModel.ts) and one line in BUILT_IN below (plus kernel code if it has a
 * native form). `registerDeficitModel` adds one at run time (a test adds a toy model this way).
 */
import type { DeficitModel } from './deficitModel.js';
import { iea37 } from './iea37.js';
import { bastankhah2014 } from './bastankhah2014.js';
import { jensen } from './jensen.js';
import { niayifar2016 } from './niayifar2016.js';
import { turbopark2022 } from './turbopark2022.js';
import { zong2020 } from './zong2020.js';
import { blondel2020 } from './blondel2020.js';
import { carbajofuertes2018 } from './carbajofuertes2018.js';

const BUILT_IN: readonly DeficitModel[] = [iea37, bastankhah2014, jensen, niayifar2016, turbopark2022, zong2020, blondel2020, carbajofuertes2018];

const byName = new Map<string, DeficitModel>();
const byAlias = new Map<string, DeficitModel>();

/** Lower case, letters and digits only: how names and aliases are compared. */
export function normalizeModelName(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]/g, '');
}

export function registerDeficitModel(model: DeficitModel): void {
  if (!/^[a-z][a-z0-9]*$/.test(model.name)) throw new Error(`wake model name '${model.name}': lower-case letters and digits only`);
  for (const spelling of [model.name, ...model.aliases]) {
    const key = normalizeModelName(spelling);
    const taken = byAlias.get(key);
    if (taken && taken !== model) throw new Error(`wake model '${model.name}': the name '${spelling}' is already '${taken.name}'s`);
  }
  byName.set(model.name, model);
  for (const spelling of [model.name, ...model.aliases]) byAlias.set(normalizeModelName(spelling), model);
}

for (const model of BUILT_IN) registerDeficitModel(model);

/** The model of this exact name, or undefined. */
export function deficitModel(name: string): DeficitModel | undefined {
  return byName.get(name);
}

/** The model a spelling names (its name or an alias, compared normalized), or undefined. */
export function deficitModelBySpelling(spelling: string): DeficitModel | undefined {
  return byAlias.get(normalizeModelName(spelling));
}

/** The model a free-text description names (describedBy patterns; a variant wins over what it refines), or undefined. */
export function deficitModelByDescription(text: string): DeficitModel | undefined {
  const matching = [...byName.values()].filter((m) => m.describedBy.test(text));
  const refined = new Set(matching.map((m) => m.refines).filter((r): r is string => r !== undefined));
  const left = matching.filter((m) => !refined.has(m.name));
  left.sort((a, b) => text.search(a.describedBy) - text.search(b.describedBy));
  return left[0];
}

/** Every model's name, in registration order. */
export function deficitModelNames(): string[] {
  return [...byName.keys()];
}
