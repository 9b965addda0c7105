/**
 * Benchmark problems for the waked-inflow engine: the Vestas V80 of the PyWake reference cases
 * (test/data/reference/, carried in the repository) with each reference model's options, on square
 * grids, with the 360 × 23 Weibull rose of aepCases.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Turbine } from '../src/physics/turbine.js';
import type { FarmModelSpec } from '../src/physics/farmModel.js';
import { readYamlFile } from '../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../src/io/referenceCase.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const REFERENCE_DIR = path.join(REPO, 'test', 'data', 'reference');

/** The V80 and a reference case's model spec (the grid5x5 file of that model). */
export function referenceCase(prefix: string): { turbine: Turbine; model: FarmModelSpec; describe: string } {
  const full = path.join(REFERENCE_DIR, `${prefix}-grid5x5.yaml`);
  if (!fs.existsSync(full)) throw new Error(`no reference case ${full}`);
  const c = caseFromReferenceDocument(readYamlFile(full), full);
  return { turbine: c.turbine, model: c.model, describe: describeModel(c.model) };
}

/** One line of physics: model, superposition, Ct→a, turbulence. */
export function describeModel(m: FarmModelSpec): string {
  const parts: string[] = [m.wake, m.superposition];
  if (m.ct2a) parts.push(m.ct2a);
  if (m.turbulence && m.turbulence !== 'none') parts.push(m.turbulence);
  if (m.rotorAverage && m.rotorAverage !== 'center') parts.push(m.rotorAverage);
  return parts.join(', ');
}
