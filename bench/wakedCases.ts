/**
 * Benchmark problems for the waked-inflow engine: the Vestas V80 of the PyWake reference cases
 * (test/data/reference/, computed with PyWake; SOURCE.md there) on square grids, with the
 * 360 × 23 Weibull rose of aepCases.ts.
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

/** The V80 and a reference case's model spec, or null when the reference folder is absent. */
export function referenceCase(prefix: string): { turbine: Turbine; model: FarmModelSpec } | null {
  if (!fs.existsSync(REFERENCE_DIR)) return null;
  const file = fs.readdirSync(REFERENCE_DIR).find((f) => f.startsWith(prefix) && f.endsWith('.yaml'));
  if (!file) return null;
  const full = path.join(REFERENCE_DIR, file);
  const c = caseFromReferenceDocument(readYamlFile(full), full);
  return { turbine: c.turbine, model: c.model };
}
