/**
 * Read a turbine, wind resource or boundary from a YAML file in either the IEA37 case-study
 * format or wflo's native (windIO-named) format, detected from the content, and check it.
 */
import { turbineProblem, type Turbine } from '../physics/turbine.js';
import { windResourceProblem, type WindResource } from '../physics/windResource.js';
import type { Boundary } from '../geometry/boundary.js';
import { validateBoundary } from '../geometry/validateBoundary.js';
import { InputError } from '../util/errors.js';
import { readYamlFile } from './yamlFile.js';
import { isIea37Document, iea37Turbine, iea37WindRose, iea37Boundary } from './iea37Format.js';
import { turbineFromNative, windFromNative, boundaryFromNative } from './nativeFormat.js';

export function turbineFromDocument(doc: unknown, file: string): Turbine {
  const t = isIea37Document(doc) ? iea37Turbine(doc, file) : turbineFromNative(doc, file);
  const problem = turbineProblem(t);
  if (problem) throw new InputError(`${file}: ${problem}`);
  return t;
}

export function windFromDocument(doc: unknown, file: string): WindResource {
  const w = isIea37Document(doc) ? iea37WindRose(doc, file) : windFromNative(doc, file);
  const problem = windResourceProblem(w);
  if (problem) throw new InputError(`${file}: ${problem}`);
  return w;
}

export function boundaryFromDocument(doc: unknown, file: string): Boundary {
  const d = doc as Record<string, unknown> | null;
  const b = d && typeof d === 'object' && 'boundaries' in d ? iea37Boundary(doc, file) : boundaryFromNative(doc, file);
  const problem = validateBoundary(b);
  if (problem) throw new InputError(`${file}: boundary: ${problem}`);
  return b;
}

export const readTurbineFile = (path: string): Turbine => turbineFromDocument(readYamlFile(path), path);
export const readWindFile = (path: string): WindResource => windFromDocument(readYamlFile(path), path);
export const readBoundaryFile = (path: string): Boundary => boundaryFromDocument(readYamlFile(path), path);
