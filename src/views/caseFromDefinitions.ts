/**
 * Rebuilds a `Case` from the farm and farm-type definitions a campaign stores as JSON (the
 * ledger's `farms` / `farm_types` tables and the HDF5 `/farms/<id>`, `/types/<id>` groups), so a
 * stored result can be evaluated and drawn with exactly the physics it was optimized with.
 * Typed arrays were written as plain arrays; they come back as Float64Array. Several turbine
 * models and neighbours come back when the definitions hold them (campaign/definitionExtras.ts).
 */
import { readDirectionsField } from '../io/directionsField.js';
import { withDirections } from '../optimize/caseDirections.js';
import type { Case } from '../case/case.js';
import type { Turbine } from '../physics/turbine.js';
import type { WindResource } from '../physics/windResource.js';
import type { FarmModelSpec } from '../physics/farmModel.js';
import type { Boundary } from '../geometry/boundary.js';
import { InputError } from '../util/errors.js';
import { typeOfCounts } from '../io/farmTurbines.js';
import { economicsForTurbines, economicsSpecProblem, economicsSpecSchema } from '../io/costFields.js';
import { readSiteBlock } from '../io/siteFields.js';

type Json = Record<string, unknown>;

const floats = (v: unknown): Float64Array => Float64Array.from((v ?? []) as ArrayLike<number>);

function reviveTurbine(t: Json): Turbine {
  const power = t.power as Json;
  const thrust = t.thrust as Json;
  return {
    ...(t as unknown as Turbine),
    power: power.kind === 'table' ? { kind: 'table', speeds: floats(power.speeds), powerW: floats(power.powerW) } : (power as unknown as Turbine['power']),
    thrust:
      thrust.kind === 'table'
        ? {
            kind: 'table',
            speeds: floats(thrust.speeds),
            ct: floats(thrust.ct),
            ...(thrust.outside === 'zero' || thrust.outside === 'clamp' ? { outside: thrust.outside } : {}),
          }
        : (thrust as unknown as Turbine['thrust']),
  };
}

function reviveWind(w: Json): WindResource {
  const series = w.series as Json | undefined;
  return {
    directionsDeg: floats(w.directionsDeg),
    speeds: floats(w.speeds),
    probability: floats(w.probability),
    turbulenceIntensity: typeof w.turbulenceIntensity === 'number' ? w.turbulenceIntensity : 0.075,
    ...(typeof w.hoursPerYear === 'number' ? { hoursPerYear: w.hoursPerYear } : {}),
    ...(w.turbulenceIntensityByBin ? { turbulenceIntensityByBin: floats(w.turbulenceIntensityByBin) } : {}),
    ...(series
      ? {
          series: {
            directionsDeg: floats(series.directionsDeg),
            speeds: floats(series.speeds),
            weights: floats(series.weights),
            ...(series.turbulenceIntensity ? { turbulenceIntensity: floats(series.turbulenceIntensity) } : {}),
          },
        }
      : {}),
  };
}

/** Labels of a farm / farm type definition (for titles and tables). */
export function definitionLabel(def: unknown, fallback: string): string {
  const label = (def as Json | undefined)?.label;
  return typeof label === 'string' && label !== '' ? label : fallback;
}

/**
 * The case of (farm, type) from their stored definitions. `where` names the source for the
 * one-line error when a definition is missing or not in the shape wflo writes.
 */
/** The stored farm model; a site that is not uniform comes back from its inline block (never from a file a stored definition names). */
function storedModel(model: Json, where: string): FarmModelSpec {
  const { site, ...rest } = model;
  if (site === undefined) return model as unknown as FarmModelSpec;
  if (site === null || typeof site !== 'object' || 'file' in site)
    throw new InputError(`${where}: farm definition: model.site: expected the inline site block (speedup, ti, shear), not a file`);
  return { ...(rest as unknown as FarmModelSpec), site: readSiteBlock(site, site, [], `${where}: farm definition: model.site`) };
}

export function caseFromDefinitions(farm: unknown, type: unknown, where: string): Case {
  const f = farm as Json | undefined,
    t = type as Json | undefined;
  if (!f || typeof f !== 'object' || !f.wind || !f.model)
    throw new InputError(`${where}: farm definition missing or not written by wflo (needs wind and model)`);
  if (!t || typeof t !== 'object' || !t.turbine || typeof t.n_turbines !== 'number')
    throw new InputError(`${where}: farm type definition missing or not written by wflo (needs turbine and n_turbines)`);
  const turbine = reviveTurbine(t.turbine as Json);
  // Several models and neighbours (campaign/definitionExtras.ts), when the definitions have them.
  const m = t.models as Json | undefined;
  const models = m && Array.isArray(m.turbines) ? (m.turbines as Json[]).map(reviveTurbine) : null;
  const nb = f.neighbours as Json | undefined;
  const c: Case = {
    ...(models
      ? {
          turbines: {
            types: models,
            minSpacingByType: floats(m!.min_spacing_m),
            choice: !Array.isArray(m!.counts),
            typeOf: Array.isArray(m!.counts) ? typeOfCounts(m!.counts as number[]) : new Int32Array(t.n_turbines),
          },
        }
      : {}),
    ...(nb && Array.isArray(nb.turbines)
      ? {
          neighbours: { x: floats(nb.x), y: floats(nb.y), typeOf: Int32Array.from(nb.type as number[]), types: (nb.turbines as Json[]).map(reviveTurbine) },
        }
      : {}),
    name: `farm_${String(f.id)}_type_${String(t.id)}`,
    turbine,
    wind: reviveWind(f.wind as Json),
    boundary: (f.boundary as Boundary | undefined) ?? null,
    nTurbines: t.n_turbines,
    minSpacing: typeof t.min_spacing_m === 'number' ? t.min_spacing_m : 2 * turbine.diameter,
    model: storedModel(f.model as Json, where),
    layout: null,
  };
  // The farm's economics and the type's cost objective (campaign/definitionExtras.ts): checked
  // like any stored input (an edited or foreign file), then built for the type's models.
  if (f.economics !== undefined) {
    const parsed = economicsSpecSchema.safeParse(f.economics);
    const problem = parsed.success ? economicsSpecProblem(parsed.data) : `${parsed.error.issues[0]?.path.join('.')}: ${parsed.error.issues[0]?.message}`;
    if (problem || !parsed.success) throw new InputError(`${where}: farm definition: economics: ${problem}`);
    c.economics = economicsForTurbines(
      parsed.data,
      models ?? [turbine],
      ['economics'],
      (p, message) => {
        throw new InputError(`${where}: farm definition: ${p.join('.')}: ${message}`);
      },
      typeof parsed.data.ratedRpm === 'number' ? null : Object.keys(parsed.data.ratedRpm),
    ); // the farm's other types' models may be named too
    if (t.objective === 'lcoe' || t.objective === 'npv') c.objective = t.objective;
  }
  // The farm's direction treatment (campaign/definitionExtras.ts): its AEPs are on the treated wind.
  return f.directions !== undefined ? withDirections(c, readDirectionsField(f.directions, f, ['directions'], `${where}: farm definition`)) : c;
}
