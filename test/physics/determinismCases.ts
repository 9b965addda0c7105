/**
 * Fixed evaluations whose exact bits the determinism test checks: the V80 of the PyWake reference
 * cases (its own 72 × 23 wind table) on a perturbed 5 × 5 grid with each reference model's options,
 * and IEA37 case study 1 with 16 turbines (the free-stream engine). A fingerprint is the AEP's
 * IEEE-754 bits in hex and a SHA-256 of the energy-by-turbine and gradient bytes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createFarmEvaluator, type AepWithGradient } from '../../src/physics/aep.js';
import type { Turbine } from '../../src/physics/turbine.js';
import type { WindResource } from '../../src/physics/windResource.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import type { IsaChoice } from '../../src/physics/nativeKernel.js';
import { readYamlFile } from '../../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../../src/io/referenceCase.js';
import { builtinCase } from '../../src/io/builtinCases.js';
import { REPO } from '../helpers.js';

export interface DeterminismCase {
  name: string;
  turbine: Turbine;
  wind: WindResource;
  model: FarmModelSpec;
  x: Float64Array;
  y: Float64Array;
}

export const STORED = path.join(REPO, 'test', 'data', 'determinism', 'engine-3.json');

export function determinismCases(): DeterminismCase[] {
  const cases: DeterminismCase[] = [];
  for (const prefix of ['bastankhah2014', 'niayifar2016', 'turbopark2022', 'jensen1983']) {
    const file = path.join(REPO, 'test', 'data', 'reference', `${prefix}-grid5x5.yaml`);
    const c = caseFromReferenceDocument(readYamlFile(file), file);
    // The grid moved off its lattice a little (no exact symmetries: every pair differs).
    const x = Float64Array.from(c.layout!.x, (v, i) => v + 13.7 * Math.sin(1.3 * i));
    const y = Float64Array.from(c.layout!.y, (v, i) => v + 11.1 * Math.cos(0.7 * i));
    cases.push({ name: prefix, turbine: c.turbine, wind: c.wind, model: c.model, x, y });
  }
  const cs1 = builtinCase('iea37-cs1-16');
  cases.push({ name: 'iea37-cs1-16', turbine: cs1.turbine, wind: cs1.wind, model: cs1.model, x: cs1.layout!.x, y: cs1.layout!.y });
  return cases;
}

export interface Fingerprint {
  aep: string;
  aepMwh: number;
  digest: string;
}

export function fingerprint(r: AepWithGradient): Fingerprint {
  const bits = Buffer.from(Float64Array.of(r.aepMwh).buffer).toString('hex');
  const h = crypto.createHash('sha256');
  for (const a of [r.perTurbineMwh, r.gradX, r.gradY]) h.update(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
  return { aep: bits, aepMwh: r.aepMwh, digest: h.digest('hex') };
}

/** Fingerprints of every case, evaluated in this thread on the native kernel. */
export function fingerprints(isa: IsaChoice = 'best'): Record<string, Fingerprint> {
  const out: Record<string, Fingerprint> = {};
  for (const c of determinismCases()) out[c.name] = fingerprint(createFarmEvaluator(c.turbine, c.wind, c.model, 'native', isa).aepWithGradient(c.x, c.y));
  return out;
}

export function storedFingerprints(): Record<string, Fingerprint> {
  return JSON.parse(fs.readFileSync(STORED, 'utf8')).fingerprints;
}
