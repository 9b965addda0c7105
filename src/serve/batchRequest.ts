/**
 * The `aep_batch` request of the engine session (docs/python.md): the AEP of k layouts of one open
 * farm in one request — arrays x, y of k·n values each (layout after layout, turbine order within
 * one), `gradient: true` for the exact gradients too. Each layout is evaluated by the farm's own
 * evaluator exactly as an `aep` (`aep_and_gradient`) request would evaluate it, so the figures are
 * the single calls' bit for bit; the reply holds `aep_mwh` (k), `per_turbine_mwh` (k·n) and with
 * the gradient `grad_x`, `grad_y` (k·n). The k·n values of one array are at most one frame's limit.
 */
import { InputError } from '../util/errors.js';
import type { RequestHandler } from './sessionTypes.js';

/** Values of one array of a frame, at most (frames.ts MAX_ARRAY_BYTES / 8). */
const MAX_VALUES = 1_000_000;

function layouts(kind: string, name: string, arrays: Map<string, Float64Array>, n: number): Float64Array {
  const a = arrays.get(name);
  if (!a) throw new InputError(`${kind}: array ${name} missing`);
  if (a.length === 0 || a.length % n !== 0)
    throw new InputError(`${kind}.${name}: ${a.length} values, expected k layouts of the farm's ${n} turbines (a multiple of ${n}, at least one layout)`);
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i])) throw new InputError(`${kind}.${name}[${Math.floor(i / n)}, ${i % n}]: expected a finite number, got ${a[i]}`);
  }
  return a;
}

export const AEP_BATCH_REQUEST: RequestHandler = {
  fields: ['handle', 'gradient'],
  arrays: ['x', 'y'],
  answer(farms, h, arrays, kind) {
    const farm = farms.farm(kind, h.handle);
    if (h.gradient !== undefined && typeof h.gradient !== 'boolean') throw new InputError(`${kind}.gradient: expected true or false`);
    const n = farm.n;
    const x = layouts(kind, 'x', arrays, n),
      y = layouts(kind, 'y', arrays, n);
    if (x.length !== y.length) throw new InputError(`${kind}: x holds ${x.length / n} layouts, y ${y.length / n}`);
    if (x.length > MAX_VALUES) throw new InputError(`${kind}: ${x.length} values per array, more than ${MAX_VALUES} (one frame's limit)`);
    const k = x.length / n;
    const gradient = h.gradient === true;
    const aep = new Float64Array(k),
      perTurbine = new Float64Array(k * n);
    const gradX = gradient ? new Float64Array(k * n) : null,
      gradY = gradient ? new Float64Array(k * n) : null;
    const t0 = process.hrtime.bigint();
    for (let j = 0; j < k; j++) {
      const xs = x.slice(j * n, (j + 1) * n),
        ys = y.slice(j * n, (j + 1) * n);
      if (gradient) {
        const r = farm.evaluator.aepWithGradient(xs, ys);
        aep[j] = r.aepMwh;
        perTurbine.set(r.perTurbineMwh, j * n);
        gradX!.set(r.gradX, j * n);
        gradY!.set(r.gradY, j * n);
      } else {
        const r = farm.evaluator.aep(xs, ys);
        aep[j] = r.aepMwh;
        perTurbine.set(r.perTurbineMwh, j * n);
      }
    }
    // engine_us: the k evaluations' own time (what the client's overhead is measured against, bench/python.ts).
    const engineUs = Number(process.hrtime.bigint() - t0) / 1e3;
    return {
      fields: { k, n, engine_us: engineUs },
      arrays: { aep_mwh: aep, per_turbine_mwh: perTurbine, ...(gradient ? { grad_x: gradX!, grad_y: gradY! } : {}) },
    };
  },
};
