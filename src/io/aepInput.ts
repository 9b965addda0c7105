/**
 * What `wflo aep` evaluates: a case (file or built-in name) and a layout, with command-line
 * overrides for the turbine, wind resource and farm model.
 */
import { coincidentProblem } from '../geometry/coincidentPoints.js';
import path from 'node:path';
import type { SuperpositionName, BlockageModelName, GroundModelName } from '../physics/farmModel.js';
import { modelNameProblem, type ModelField } from '../physics/modelNames.js';
import { wakeParamsProblem } from './wakeParams.js';
import { farmConflict } from '../physics/solvePlan.js';
import { InputError } from '../util/errors.js';
import type { Case } from '../case/case.js';
import { readYamlFile } from './yamlFile.js';
import { iea37Kind } from './iea37Format.js';
import { caseArgument } from './caseArgument.js';
import { caseFromDocument, caseFromIea37Layout, loadCase, readLayoutFile, resolveTurbine, resolveWind } from './caseFile.js';
import { windioCase, windioKind } from './windio/windioPlant.js'; // windIO plant files (src/io/windio/)
import { caseFromReferenceDocument, isReferenceCaseDocument } from './referenceCase.js'; // wake-model reference cases (physics)
import { groundConflict } from '../physics/solvePlan.js';
import type { DirectionTreatment } from '../physics/directionTreatment.js';
import { caseListedWind, caseTreatment, withDirections } from '../optimize/caseDirections.js';
import { directionsProblem, parseDirectionsFlag } from './directionsField.js';

export interface AepRequest {
  /** A layout file (IEA37 layout or native case/layout YAML). */
  file?: string;
  /** A built-in case name; with `file`, the file only supplies the layout. */
  caseName?: string;
  turbine?: string;
  wind?: string;
  wake?: string;
  superposition?: string;
  wakeParams?: Record<string, number>;
  /** An induction model to add (blockageSolve.ts). */
  blockage?: string;
  /** A ground model (farmModel.ts `ground`): mirror or none. */
  ground?: string;
  /** `--directions bins|spread:N|gaussian:SIGMA:N|refine:STEP`: replaces the file's `directions`. */
  directions?: string;
}

export function resolveAepRequest(request: AepRequest): Case {
  let req = request;
  // A built-in case name where the layout file goes is that case, with its layout (`wflo aep iea37-cs1-16`).
  if (req.file !== undefined && caseArgument(req.file).kind === 'builtin') {
    if (req.caseName !== undefined) throw new InputError(`give the case once: ${req.file} is a built-in case, and --case ${req.caseName} another`);
    req = { ...req, caseName: req.file, file: undefined };
  }
  const cwd = process.cwd();
  const turbine = req.turbine !== undefined ? resolveTurbine(req.turbine, cwd, '--turbine', false) : undefined;
  const wind = req.wind !== undefined ? resolveWind(req.wind, cwd, '--wind', false) : undefined;
  let c: Case;
  if (req.caseName !== undefined) {
    c = loadCase(req.caseName, '--case');
    if (req.file !== undefined) {
      const layout = readLayoutFile(req.file);
      c = { ...c, layout, nTurbines: layout.x.length, referenceAepMwh: undefined };
    }
  } else if (req.file !== undefined) {
    const doc = readYamlFile(req.file);
    c = isReferenceCaseDocument(doc)
      ? caseFromReferenceDocument(doc, req.file) // wake-model reference case (physics)
      : windioKind(doc) !== null
        ? windioCase(req.file) // windIO plant file (src/io/windio/)
        : iea37Kind(doc) === 'layout'
          ? caseFromIea37Layout(doc, req.file, { turbine, wind })
          : caseFromDocument(doc, req.file);
  } else {
    throw new InputError('give a layout FILE or --case NAME');
  }
  // The file's direction treatment is applied again at the end, to the wind the overrides leave.
  const fileTreatment = caseTreatment(c);
  c = withDirections(c, { kind: 'bins' });
  if (turbine && c.turbines) throw new InputError(`--turbine: ${req.file ?? req.caseName} lists several turbine types; change them in the file`);
  if (turbine) c = { ...c, turbine, referenceAepMwh: undefined };
  if (wind) c = { ...c, wind, referenceAepMwh: undefined };
  // Each flag's name is checked by the registry's rule (physics/modelNames.ts), as in case files.
  const flagName = (flag: string, field: ModelField, value: string): string => {
    const problem = modelNameProblem(field, value);
    if (problem) throw new InputError(`--${flag}: ${problem}`);
    return value;
  };
  if (req.wake !== undefined) {
    c = { ...c, model: { ...c.model, wake: flagName('wake', 'wake', req.wake), params: undefined }, referenceAepMwh: undefined };
  }
  if (req.superposition !== undefined) {
    c = {
      ...c,
      model: { ...c.model, superposition: flagName('superposition', 'superposition', req.superposition) as SuperpositionName },
      referenceAepMwh: undefined,
    };
  }
  if (req.blockage !== undefined) {
    c = { ...c, model: { ...c.model, blockage: flagName('blockage', 'blockage', req.blockage) as BlockageModelName }, referenceAepMwh: undefined };
  }
  if (req.ground !== undefined) {
    const ground = flagName('ground', 'ground', req.ground) as GroundModelName;
    const { ground: _, ...rest } = c.model;
    c = { ...c, model: ground === 'none' ? rest : { ...rest, ground }, referenceAepMwh: undefined };
  }
  const conflict = groundConflict(c.model);
  if (conflict) throw new InputError(`${req.ground !== undefined ? '--ground' : `${req.file ?? req.caseName}: ground`}: ${conflict}`);
  if (req.wakeParams) {
    const problem = wakeParamsProblem(c.model.wake, req.wakeParams);
    if (problem) throw new InputError(`--${problem.name}: ${problem.message}`);
    c = { ...c, model: { ...c.model, params: { ...c.model.params, ...req.wakeParams } }, referenceAepMwh: undefined };
  }
  // What the engines cannot evaluate (physics/solvePlan.ts farmConflict); the files were checked when read, so a flag made it.
  const limit = farmConflict(c.model, {
    types: c.turbines ? c.turbines.types : [c.turbine],
    neighbours: !!c.neighbours && c.neighbours.x.length > 0,
    wind: c.wind,
  });
  if (limit) {
    const flag =
      limit.field === 'blockage' && req.blockage !== undefined
        ? '--blockage'
        : limit.field === 'superposition' && req.superposition !== undefined
          ? '--superposition'
          : req.wind !== undefined
            ? '--wind'
            : req.turbine !== undefined
              ? '--turbine'
              : req.wake !== undefined
                ? '--wake'
                : null;
    throw new InputError(`${flag ?? `${req.file ?? req.caseName}: ${limit.field}`}: ${limit.message}`);
  }
  if (!c.layout) throw new InputError(`${req.file ?? req.caseName}: no layout to evaluate`);
  // Two turbines at one point, or one on a substation of the case's economics (coincidentPoints.ts).
  const points = coincidentProblem(c.layout.x, c.layout.y, c.economics?.substations ?? []);
  if (points) throw new InputError(`${req.file ?? req.caseName}: layout: ${points}`);
  c = applyDirectionsFlag(c, req.directions, fileTreatment, req.file ?? req.caseName ?? '');
  return { ...c, name: c.name || path.basename(req.file ?? '') };
}

/**
 * The case with `--directions` (when given) or else the treatment its file asked for; a time
 * series refuses spread and refine in one line.
 */
export function applyDirectionsFlag(c: Case, flag: string | undefined, fileTreatment: DirectionTreatment, source: string): Case {
  const treatment = flag !== undefined ? parseDirectionsFlag(flag) : fileTreatment;
  const problem = directionsProblem(treatment, caseListedWind(c), flag !== undefined ? 'flag' : 'field');
  if (problem) throw new InputError(`${flag !== undefined ? '--directions' : `${source}: directions`}: ${problem}`);
  return withDirections(c, treatment);
}

/** A case (`loadCase`) with `--directions` applied when given (`wflo optimize` and its worker processes). */
export function loadCaseWithDirections(spec: string, flag: string | undefined): Case {
  const c = loadCase(spec);
  return flag === undefined ? c : applyDirectionsFlag(c, flag, caseTreatment(c), spec);
}
