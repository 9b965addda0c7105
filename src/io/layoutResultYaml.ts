/**
 * An optimized layout as YAML in the IEA37 case-study layout shape (definitions.position.items
 * with xc/yc lists, plant_energy.annual_energy_production), so the case study's own tools and
 * `wflo aep` read it, plus a `wflo:` block with how it was made.
 */
import { stringify } from 'yaml';
import { VERSION } from '../version.js';
import { writeFileAtomic } from './atomicWrite.js';

export interface LayoutResultInfo {
  caseName: string;
  turbineRef: string;
  windRef: string;
  seed: number;
  method: string;
  settings: Record<string, unknown>;
  x: Float64Array;
  y: Float64Array;
  aepMwh: number;
  perDirectionMwh: Float64Array;
  aepInitialMwh: number;
  iterations: number;
  evaluations: number;
  wallS: number;
  feasible: boolean;
  maxViolationM: number;
  starts?: number;
}

const round = (v: number, digits: number) => Number(v.toFixed(digits));

export function layoutResultYaml(r: LayoutResultInfo): string {
  const doc = {
    input_format_version: 0,
    title: `wflo optimized layout: ${r.caseName}, seed ${r.seed}`,
    description: `${r.x.length} turbines, AEP ${r.aepMwh.toFixed(5)} MWh (${r.method}), written by wflo ${VERSION}`,
    definitions: {
      wind_plant: {
        type: 'object',
        properties: { layout: { type: 'array', items: [{ $ref: '#/definitions/position' }, { $ref: r.turbineRef }] } },
      },
      position: {
        type: 'array',
        // Full double precision: the file must reproduce the AEP and feasibility exactly.
        items: { xc: Array.from(r.x), yc: Array.from(r.y) },
        additionalItems: false,
        units: 'm',
      },
      plant_energy: {
        type: 'object',
        properties: {
          wind_resource_selection: { type: 'object', properties: { type: 'array', items: [{ $ref: r.windRef }] } },
          annual_energy_production: {
            type: 'number',
            binned: Array.from(r.perDirectionMwh, (v) => round(v, 5)),
            default: round(r.aepMwh, 5),
            units: 'MWh',
          },
        },
      },
    },
    wflo: {
      version: VERSION, case: r.caseName, seed: r.seed, method: r.method, settings: r.settings,
      aep_mwh: r.aepMwh, aep_initial_mwh: r.aepInitialMwh, iterations: r.iterations, evaluations: r.evaluations,
      wall_s: round(r.wallS, 3), feasible: r.feasible, max_violation_m: r.maxViolationM,
      ...(r.starts !== undefined ? { starts: r.starts } : {}),
    },
  };
  return stringify(doc, { lineWidth: 0, flowCollectionPadding: false });
}

export function writeLayoutResult(file: string, r: LayoutResultInfo): void {
  writeFileAtomic(file, layoutResultYaml(r));
}
