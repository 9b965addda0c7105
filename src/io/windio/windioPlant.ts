/**
 * windIO plant files as published → wflo's Case (and its parts for campaign farm entries).
 *
 * A `wind_energy_system` (name, site, wind_farm, attributes) gives everything: the site's
 * boundary and exclusions, its energy resource, the farm's turbine and initial layout, the
 * analysis block's wake model, and `attributes.net_AEP` (GWh) as the reference AEP in MWh.
 * windIO 2's `turbine_types` and several layouts (several farms per system) become the case's
 * several models and its neighbours (windFarmTypes.ts: the first layout is the farm).
 * A gridded `wind_resource` (quantities over x, y) becomes the model's per-point `site`
 * (griddedResource.ts), checked to cover the layout and the boundary's box.
 * A `site` file (boundaries + energy_resource) gives a boundary and a wind resource, and a
 * top-level `energy_resource` (name + wind_resource) a wind resource.
 *
 * Recognising a windIO file from an already-parsed document (`windioKind`) is how the case and
 * campaign readers decide to hand a file to this module; the file is then read again here,
 * with `!include` and line numbers (windioTree.ts).
 */
import path from 'node:path';
import type { WindResource } from '../../physics/windResource.js';
import type { Boundary, ExclusionZone } from '../../geometry/boundary.js';
import type { Case, Layout } from '../../case/case.js';
import { WindioNode } from './windioTree.js';
import { readBoundaries, readExclusions } from './siteBoundary.js';
import { readWindResource, windResourceNode } from './energyResource.js';
import type { BinnedResource } from './binnedResource.js';
import { readTurbine } from './turbine.js';
import { readLayout, turbineNode } from './windFarmLayout.js';
import { analysisNode, readAnalysisModel } from './analysisModel.js';
import { readWindioFarms, usesFarmTypes } from './windFarmTypes.js';
import { containsPoint } from '../../geometry/containsPoint.js';
import { prepareBoundary } from '../../geometry/preparedBoundary.js';
import type { Turbine } from '../../physics/turbine.js';
import type { Site } from '../../physics/site/site.js';
import { siteLayoutProblem } from '../siteFields.js';
import { boundingBox } from '../../geometry/boundingBox.js';
import { farmConflict } from '../../physics/solvePlan.js';
import { neighbourCountProblem, neighbourReachProblem, siteBoxOf } from '../neighbourLimits.js';

export type WindioKind = 'wind_energy_system' | 'site' | 'wind_farm' | 'energy_resource';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Which windIO plant document `doc` is, or null. windIO boundaries are `{polygons}` or
 * `{circle}` (IEA37 boundary files also have `boundaries`, keyed by polygon name); windIO sites
 * and energy resources have a top-level `name` (wflo's native wind files, which may also nest
 * `energy_resource.wind_resource`, have none).
 */
export function windioKind(doc: unknown): WindioKind | null {
  if (!isObject(doc)) return null;
  if ('site' in doc && 'wind_farm' in doc) return 'wind_energy_system';
  const b = doc.boundaries;
  if (('energy_resource' in doc && 'name' in doc) || (isObject(b) && ('polygons' in b || 'circle' in b))) return 'site';
  if ('layouts' in doc && ('turbines' in doc || 'turbine_types' in doc)) return 'wind_farm';
  if ('name' in doc && 'wind_resource' in doc) return 'energy_resource';
  return null;
}

/** The (possibly included) site node of a system or site file. */
function siteOf(root: WindioNode, kind: WindioKind): WindioNode {
  if (kind === 'wind_energy_system') {
    return root.requireMap('site', 'boundaries and energy_resource');
  }
  if (kind === 'site') return root;
  return root.fail(`a windIO ${kind} file has no site: give a wind_energy_system or site file`);
}

function kindOf(root: WindioNode): WindioKind {
  // Only the keys matter for recognising the kind: no need to copy the (large) data.
  const keysOf = (n: WindioNode) => Object.fromEntries(n.keys().map((k) => [k, true]));
  const boundaries = root.get('boundaries');
  const kind = windioKind({ ...keysOf(root), ...(boundaries.isMap ? { boundaries: keysOf(boundaries) } : {}) });
  if (!kind) root.fail('not a windIO plant file (expected wind_energy_system, site, wind_farm or energy_resource fields)');
  return kind!;
}

function boundaryOf(root: WindioNode, site: WindioNode): Boundary {
  const boundary = readBoundaries(site.requireMap('boundaries', 'polygons or circle'));
  const exclusions: ExclusionZone[] = [];
  const siteExclusions = site.get('exclusions');
  if (siteExclusions.exists) exclusions.push(...readExclusions(siteExclusions, 'site.exclusions'));
  const areaExclusions = root.get('optimisation').get('constraints').get('area_constraints').get('exclusion_zones');
  if (areaExclusions.exists) exclusions.push(...readExclusions(areaExclusions, 'area_constraints.exclusion_zones'));
  return exclusions.length > 0 ? { ...boundary, exclusions } : boundary;
}

function resourceNodeOf(root: WindioNode, kind: WindioKind): WindioNode {
  if (kind === 'energy_resource') return windResourceNode(root);
  const site = siteOf(root, kind);
  return windResourceNode(site.requireMap('energy_resource', 'name and wind_resource'));
}

function resourceOf(root: WindioNode, kind: WindioKind): BinnedResource {
  return readWindResource(resourceNodeOf(root, kind));
}

/**
 * A gridded resource's site must cover the farm: every turbine of the layout and the corners of
 * the boundary's box (an optimizer may place a turbine anywhere in it) inside its x–y grid, as for
 * a case file's `site:` block (io/siteFields.ts siteLayoutProblem).
 */
function checkSiteCovers(wr: WindioNode, site: Site, layout: Layout, boundary: Boundary): void {
  const names: Record<string, string> = {
    'weibull.A': 'weibull_a',
    'weibull.k': 'weibull_k',
    'weibull.frequency': 'sector_probability',
    ti: 'turbulence_intensity',
  };
  const outside = siteLayoutProblem(site, layout.x, layout.y);
  if (outside) wr.get(names[outside.field] ?? outside.field).fail(outside.message);
  const box = boundingBox(boundary);
  const corner = siteLayoutProblem(site, [box.minX, box.maxX, box.maxX, box.minX], [box.minY, box.minY, box.maxY, box.maxY]);
  if (corner)
    wr.get(names[corner.field] ?? corner.field).fail(
      `the site boundary reaches outside the grid (a corner of its bounding box, ${corner.message.replace(/^turbine \d+ at /, '').replace(/ is outside/, ', is outside')})`,
    );
}

/** A windIO wind_energy_system file → Case. */
export function windioCase(file: string): Case {
  const root = WindioNode.open(file);
  const kind = kindOf(root);
  if (kind !== 'wind_energy_system') {
    root.fail(`a windIO ${kind} file is not a whole plant: give the wind_energy_system file (site + wind_farm)`);
  }
  const site = siteOf(root, kind);
  const boundary = boundaryOf(root, site);
  // A turbulence intensity that varies between bins is kept per bin (wind.turbulenceIntensityByBin).
  const wr = resourceNodeOf(root, kind);
  const { wind, site: fieldSite } = readWindResource(wr);
  const windFarm = root.requireMap('wind_farm', 'layouts and turbines');
  const { model: analysed, fixedThrust } = readAnalysisModel(analysisNode(root));
  // A gridded resource (x, y in its dims) is a per-point site, evaluated as a case file's `site:`.
  const model = fieldSite ? { ...analysed, site: fieldSite } : analysed;
  const withThrust = (t: Turbine): Turbine => (fixedThrust !== undefined ? { ...t, thrust: { kind: 'constant', ct: fixedThrust } } : t);
  const several = usesFarmTypes(windFarm) ? severalOf(windFarm, boundary, withThrust) : null;
  const turbine = several ? several.turbine : withThrust(readTurbine(turbineNode(windFarm)));
  const layout = several ? several.layout : readLayout(windFarm);
  if (fieldSite) checkSiteCovers(wr, fieldSite, layout, boundary);
  // What the solvers cannot evaluate (physics/solvePlan.ts), named at the analysis block's key.
  const limit = farmConflict(model, { types: several?.turbines ? several.turbines.types : [turbine], neighbours: !!several?.neighbours, wind });
  if (limit) {
    const analysis = analysisNode(root);
    const keys = limit.field === 'blockage' ? ['blockage_model', 'blockage'] : limit.field === 'rotorAverage' ? ['rotor_averaging'] : ['superposition_model'];
    const node = keys.map((k) => analysis.get(k)).find((n) => n.exists) ?? (analysis.exists ? analysis : root);
    node.fail(limit.message);
  }
  const netAep = root.get('attributes').get('net_AEP');
  const nameNode = root.get('name');
  return {
    name: nameNode.exists ? String(nameNode.scalar) : path.basename(file).replace(/\.ya?ml$/i, ''),
    turbine,
    wind,
    boundary,
    nTurbines: layout.x.length,
    minSpacing: several?.turbines ? Math.max(...several.turbines.minSpacingByType) : 2 * turbine.diameter,
    model,
    layout,
    ...(several?.turbines ? { turbines: several.turbines } : {}),
    ...(several?.neighbours ? { neighbours: several.neighbours } : {}),
    // windIO states AEP in GWh.
    referenceAepMwh: netAep.exists ? netAep.number('net AEP in GWh') * 1000 : undefined,
  };
}

/**
 * A wind_farm with windIO 2's `turbine_types` or several layouts: the first layout's turbines and
 * models (several models only when the file has several), and the other layouts as neighbours,
 * each outside the site.
 */
function severalOf(
  windFarm: WindioNode,
  boundary: Boundary,
  withThrust: (t: Turbine) => Turbine,
): { turbine: Turbine; layout: Layout; turbines?: Case['turbines']; neighbours?: Case['neighbours'] } {
  const { types: read, farms } = readWindioFarms(windFarm, () => readTurbine(turbineNode(windFarm)));
  const types = read.map(withThrust);
  const own = farms[0]!;
  const layout = { x: own.x, y: own.y };
  const turbines =
    types.length > 1 ? { types, minSpacingByType: Float64Array.from(types, (t) => 2 * t.diameter), typeOf: own.typeOf, choice: false } : undefined;
  if (farms.length === 1) return { turbine: types[own.typeOf[0]!]!, layout, ...(turbines ? { turbines } : {}) };
  const site = prepareBoundary(boundary);
  const box = siteBoxOf(boundary);
  const layouts = windFarm.get('layouts');
  const x: number[] = [],
    y: number[] = [],
    typeOf: number[] = [];
  farms.slice(1).forEach((f, k) => {
    for (let i = 0; i < f.x.length; i++) {
      if (containsPoint(site, f.x[i]!, f.y[i]!)) {
        layouts
          .get(k + 1)
          .fail(
            `turbine ${i} at (${f.x[i]}, ${f.y[i]}) m is inside the site; wflo reads the first layout as the farm and the others as its neighbours, which must stand outside it`,
          );
      }
      // Neighbours' count and reach (io/neighbourLimits.ts), as for every door.
      const problem = neighbourReachProblem(f.x[i]!, f.y[i]!, box, `turbine ${i} of layout ${k + 1} (a neighbour)`) ?? neighbourCountProblem(x.length + 1);
      if (problem) layouts.get(k + 1).fail(problem);
      x.push(f.x[i]!);
      y.push(f.y[i]!);
      typeOf.push(f.typeOf[i]!);
    }
  });
  return {
    turbine: types[own.typeOf[0]!]!,
    layout,
    ...(turbines ? { turbines } : {}),
    neighbours: { x: Float64Array.from(x), y: Float64Array.from(y), types, typeOf: Int32Array.from(typeOf) },
  };
}

/** The boundary (with exclusions) of a windIO wind_energy_system or site file. */
export function windioBoundary(file: string): Boundary {
  const root = WindioNode.open(file);
  const kind = kindOf(root);
  return boundaryOf(root, siteOf(root, kind));
}

/**
 * The wind resource of a windIO wind_energy_system, site or energy_resource file. A gridded
 * resource (a per-point site) is refused as a case's rose (its site would be dropped) unless
 * `listed` asks for its listed rose only (describing the file).
 */
export function windioWind(file: string, opts: { listed?: boolean } = {}): WindResource {
  const root = WindioNode.open(file);
  const wr = resourceNodeOf(root, kindOf(root));
  const { wind, site } = readWindResource(wr);
  if (site && !opts.listed) {
    wr.fail(
      'a gridded wind_resource (quantities over x, y) is a per-point site, not one rose: give the wind_energy_system file (site, wind_farm) to evaluate it',
    );
  }
  return wind;
}

/** The initial layout of a windIO wind_farm or wind_energy_system file. */
export function windioLayout(file: string): Layout {
  const root = WindioNode.open(file);
  const kind = kindOf(root);
  if (kind === 'wind_farm') return readLayout(root);
  if (kind === 'wind_energy_system') return readLayout(root.requireMap('wind_farm', 'layouts and turbines'));
  return root.fail(`a windIO ${kind} file has no layout: give a wind_farm or wind_energy_system file`);
}

/** The resource with its turbulence intensity of every bin (also for one value). */
export function windioBinnedResource(file: string): BinnedResource {
  const root = WindioNode.open(file);
  return resourceOf(root, kindOf(root));
}
