/**
 * `wflo cases`: the built-in cases, turbines and wind resources with the parameters they stand
 * for, as plain data (the CLI prints it as text or JSON).
 */
import { BUILTIN_CASE_NAMES, BUILTIN_TURBINE_NAMES, BUILTIN_WIND_NAMES, builtinCase, builtinTurbine, builtinWind } from './builtinCases.js';
import { describeBoundary, describeTurbine, describeWind } from './inputKind.js';
import { maxTurbinesBound } from './plausibility.js';

export interface BuiltinCatalog {
  cases: Record<string, unknown>[];
  turbines: Record<string, unknown>[];
  winds: Record<string, unknown>[];
}

export function builtinCatalog(): BuiltinCatalog {
  return {
    cases: BUILTIN_CASE_NAMES.map((name) => {
      const c = builtinCase(name);
      return {
        name,
        n_turbines: c.nTurbines,
        turbine: c.turbine.name,
        wind: `${c.wind.directionsDeg.length} directions × ${c.wind.speeds.length} speeds`,
        boundary: c.boundary ? describeBoundary(c.boundary) : null,
        min_spacing_m: c.minSpacing,
        room_for_at_most: c.boundary ? Math.floor(maxTurbinesBound(c.boundary, c.minSpacing)) : null,
        wake_model: c.model.wake,
        superposition: c.model.superposition,
        reference_aep_mwh: c.referenceAepMwh ?? null,
      };
    }),
    turbines: BUILTIN_TURBINE_NAMES.map((name) => ({ ...describeTurbine(builtinTurbine(name)), name })),
    winds: BUILTIN_WIND_NAMES.map((name) => ({ name, ...describeWind(builtinWind(name)) })),
  };
}

/** The catalog as text: one line per entry. */
export function formatCatalog(c: BuiltinCatalog): string {
  const lines = ['cases:'];
  for (const k of c.cases) {
    const b = k.boundary as Record<string, unknown> | null;
    const site = !b
      ? 'no boundary'
      : b.kind === 'circle'
        ? `circle r = ${b.radius_m} m`
        : b.kind === 'polygon'
          ? `polygon of ${b.vertices} vertices`
          : `${b.polygons} polygons`;
    lines.push(
      `  ${String(k.name).padEnd(14)} ${String(k.n_turbines).padStart(3)} × ${k.turbine}, ${k.wind}, ${site}, spacing ${k.min_spacing_m} m, ` +
        `${k.wake_model}/${k.superposition}${k.reference_aep_mwh !== null ? `, reference AEP ${k.reference_aep_mwh} MWh` : ''}`,
    );
  }
  lines.push('turbines:');
  for (const t of c.turbines) {
    lines.push(
      `  ${String(t.name).padEnd(14)} D = ${t.rotor_diameter_m} m, hub ${t.hub_height_m} m, rated ${Number(t.rated_power_w) / 1e6} MW, ` +
        `cut-in ${t.cutin_wind_speed} m/s, cut-out ${t.cutout_wind_speed} m/s, ${t.power}, ${t.thrust}`,
    );
  }
  lines.push('winds:');
  for (const w of c.winds) {
    lines.push(
      `  ${String(w.name).padEnd(14)} ${w.directions} directions × ${w.speeds} speeds (${(w.speed_range as number[]).join('–')} m/s), ` +
        `mean ${w.mean_speed} m/s, TI ${w.turbulence_intensity}`,
    );
  }
  return lines.join('\n');
}
