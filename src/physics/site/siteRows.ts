/**
 * A site sampled at every turbine of a layout for a block of directions, as the native kernel
 * takes it (wakedNative.ts): rows [d·n + i] of the speed factor s·f_shear, the ambient TI and,
 * with a per-point Weibull, the packed (f, ∂f/∂x, ∂f/∂y, A, …, k, …) of turbine i at direction d.
 *
 * Sampling every field at every (turbine, direction) costs a multilinear interpolation with its
 * derivatives per field, turbine and direction (a 360-direction rose: 360 of them per turbine and
 * field), which is most of the time of a native .wrg evaluation. A field is multilinear in wd, its
 * last dimension (siteField.ts), so its value at a direction is the linear blend of its values at
 * the two wd grid nodes around it: the fields are sampled once per layout at each wd node (a .wrg:
 * 12 sectors and the wrap node) and blended per direction. The same numbers as sampleSite up to the
 * order of additions (a few units in the last place); a field without wd is sampled once. Where a
 * node cannot be sampled (a turbine outside the grid) or a direction falls outside a wd grid that
 * does not close the circle, sampleSite itself is called, so the error is its own message.
 */
import { createSiteSamples, sampleSite, shearFactor, shearSlope, type Site } from './site.js';
import { sampleField, type FieldSample, type SiteField } from './siteField.js';

/** Values at every wd node of a field, by [node·n + i] (value, ∂/∂x, ∂/∂y). */
interface NodeSamples {
  field: SiteField;
  /** The field's wd grid, or null when it has no wd (one node). */
  wd: Float64Array | null;
  value: Float64Array;
  dx: Float64Array;
  dy: Float64Array;
  /** ∂/∂h at the hub height sampled (0 where the field has no h dimension). */
  dh: Float64Array;
}

// dh present: sampleField also gives the field's ∂/∂h (the hub-height gradient, wakedNative.ts).
const sample: FieldSample = { value: 0, dx: 0, dy: 0, dh: 0 };

/** Samples a field at every wd node for every turbine; false when a turbine is outside its grid. */
function sampleNodes(site: Site, field: SiteField, x: Float64Array, y: Float64Array, hub: number, into: NodeSamples): boolean {
  const n = x.length;
  const w = field.dims.indexOf('wd');
  const wd = w >= 0 ? field.coords[w] : null;
  const nodes = wd ? wd.length : 1;
  if (into.value.length !== nodes * n) {
    into.value = new Float64Array(nodes * n);
    into.dx = new Float64Array(nodes * n);
    into.dy = new Float64Array(nodes * n);
    into.dh = new Float64Array(nodes * n);
  }
  into.wd = wd;
  const limit = site.outside === 'limit';
  for (let m = 0; m < nodes; m++) {
    for (let i = 0; i < n; i++) {
      if (sampleField(field, x[i], y[i], hub, wd ? wd[m] : 0, sample, limit) !== null) return false;
      into.value[m * n + i] = sample.value;
      into.dx[m * n + i] = sample.dx;
      into.dy[m * n + i] = sample.dy;
      into.dh[m * n + i] = sample.dh!;
    }
  }
  return true;
}

/** The two nodes and the weight of the upper one for direction wdDeg, or null where sampleField would refuse it. */
function cellOfDirection(wd: Float64Array, wdDeg: number, limit: boolean, out: { i: number; f: number }): boolean {
  const m = wd.length;
  const v = limit ? Math.min(Math.max(wdDeg, wd[0]), wd[m - 1]) : wdDeg;
  if (m === 1) {
    out.i = 0;
    out.f = 0;
    return v === wd[0];
  }
  if (!(v >= wd[0] && v <= wd[m - 1])) return false;
  let lo = 0,
    hi = m - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (wd[mid] <= v) lo = mid;
    else hi = mid;
  }
  out.i = lo;
  out.f = (v - wd[lo]) / (wd[lo + 1] - wd[lo]);
  return true;
}

export class SiteRows {
  n = -1;
  speed = new Float64Array(0);
  speedDx = new Float64Array(0);
  speedDy = new Float64Array(0);
  ti = new Float64Array(0);
  tiDx = new Float64Array(0);
  tiDy = new Float64Array(0);
  /** ∂/∂h of the speed factor (s_h·f + s·f') and of the ambient TI, by [d·n + i] (with the gradient). */
  speedDh = new Float64Array(0);
  tiDh = new Float64Array(0);
  /** Per-point Weibull: [(d·n + i)·9] f, ∂f/∂x, ∂f/∂y, A, ∂A/∂x, ∂A/∂y, k, ∂k/∂x, ∂k/∂y (empty without one). */
  weibull = new Float64Array(0);
  /** The kernel's adjoints ∂AEP/∂s_i, ∂AEP/∂TI₀_i by [d·n + i]. */
  speedBar = new Float64Array(0);
  tiBar = new Float64Array(0);
  private identity = new Int32Array(0);
  private samples = createSiteSamples(0);
  private readonly nodes: NodeSamples[];
  private readonly cell = { i: 0, f: 0 };

  constructor(
    private readonly site: Site,
    private readonly hubHeight: number,
    private readonly directionsDeg: Float64Array,
  ) {
    const w = site.weibull;
    const fields = [site.speedup, site.ti, w?.frequency ?? null, w?.a ?? null, w?.k ?? null];
    this.nodes = fields.map((field) => ({
      field: field!,
      wd: null,
      value: new Float64Array(0),
      dx: new Float64Array(0),
      dy: new Float64Array(0),
      dh: new Float64Array(0),
    }));
  }

  /** Samples directions dirFrom…dirTo−1 at hub height `hub` (a turbine outside a field's grid: the InputError of sampleSite). */
  fill(x: Float64Array, y: Float64Array, dirFrom: number, dirTo: number, withGradient: boolean, hub = this.hubHeight): void {
    const n = x.length,
      nDir = this.directionsDeg.length,
      site = this.site,
      withTi = site.ti !== null,
      weibull = site.weibull ?? null;
    if (n !== this.n) {
      this.n = n;
      const rows = () => new Float64Array(nDir * n);
      this.speed = rows();
      this.speedDx = rows();
      this.speedDy = rows();
      this.speedDh = rows();
      this.speedBar = rows();
      if (withTi) {
        this.ti = rows();
        this.tiDx = rows();
        this.tiDy = rows();
        this.tiDh = rows();
        this.tiBar = rows();
      }
      if (weibull) this.weibull = new Float64Array(nDir * n * 9);
      this.identity = Int32Array.from({ length: n }, (_, i) => i);
      this.samples = createSiteSamples(n);
    }
    const shear = shearFactor(site.shear, hub),
      shearH = shearSlope(site.shear, hub);
    let nodesOk = true;
    for (const node of this.nodes)
      if (node.field && !sampleNodes(site, node.field, x, y, hub, node)) {
        nodesOk = false;
        break;
      }
    const [speedup, ti, freq, wa, wk] = this.nodes;
    for (let d = dirFrom; d < dirTo; d++) {
      const at = d * n;
      const wdDeg = this.directionsDeg[d];
      if (!nodesOk || !this.blendable(wdDeg)) {
        this.fillBySampling(x, y, d, withGradient, hub);
        continue;
      }
      if (speedup.field) this.blend(speedup, wdDeg, shear, this.speed, this.speedDx, this.speedDy, at, 1);
      else {
        this.speed.fill(shear, at, at + n);
        this.speedDx.fill(0, at, at + n);
        this.speedDy.fill(0, at, at + n);
      }
      if (withTi) this.blend(ti, wdDeg, 1, this.ti, this.tiDx, this.tiDy, at, 1);
      if (withGradient) {
        // ∂s/∂h = s_h·f + s·f' (site.ts sampleSite), the speed-up's s_h and s blended as its value is.
        if (speedup.field) this.blendDh(speedup, wdDeg, this.speedDh, at, shear, shearH);
        else this.speedDh.fill(shearH, at, at + n);
        if (withTi) this.blendDh(ti, wdDeg, this.tiDh, at, 1, 0);
      }
      if (weibull) {
        const wb = this.weibull;
        this.blend(freq, wdDeg, 1, wb, wb, wb, at * 9, 9, 0);
        this.blend(wa, wdDeg, 1, wb, wb, wb, at * 9, 9, 3);
        this.blend(wk, wdDeg, 1, wb, wb, wb, at * 9, 9, 6);
      }
    }
  }

  /** Whether every field's wd grid holds direction wdDeg (else sampleSite is asked, for its error). */
  private blendable(wdDeg: number): boolean {
    const limit = this.site.outside === 'limit';
    for (const node of this.nodes) if (node.field && node.wd && !cellOfDirection(node.wd, wdDeg, limit, this.cell)) return false;
    return true;
  }

  /**
   * Writes a field's blended value (times `factor`) and its ∂/∂x, ∂/∂y for every turbine at
   * direction wdDeg into v, vx, vy at [at + i·stride + offset] (offset + 1, + 2 for the partials when
   * the three arrays are one packed array, stride 9).
   */
  private blend(
    node: NodeSamples,
    wdDeg: number,
    factor: number,
    v: Float64Array,
    vx: Float64Array,
    vy: Float64Array,
    at: number,
    stride: number,
    offset = -1,
  ): void {
    const n = this.n;
    const { a, b, f, g } = this.nodesAround(node, wdDeg);
    const { value, dx, dy } = node;
    for (let i = 0; i < n; i++) {
      const val = f === 0 ? value[a + i] : g * value[a + i] + f * value[b + i];
      const gx = f === 0 ? dx[a + i] : g * dx[a + i] + f * dx[b + i];
      const gy = f === 0 ? dy[a + i] : g * dy[a + i] + f * dy[b + i];
      if (offset < 0) {
        v[at + i] = val * factor;
        vx[at + i] = gx * factor;
        vy[at + i] = gy * factor;
      } else {
        const k = at + i * stride + offset;
        v[k] = val;
        v[k + 1] = gx;
        v[k + 2] = gy;
      }
    }
  }

  /** The rows [a, a + n) and [b, b + n) of a field's wd nodes around direction wdDeg, and their weights g = 1 − f and f. */
  private nodesAround(node: NodeSamples, wdDeg: number): { a: number; b: number; f: number; g: number } {
    let i0 = 0,
      f = 0;
    if (node.wd) {
      cellOfDirection(node.wd, wdDeg, this.site.outside === 'limit', this.cell);
      i0 = this.cell.i;
      f = this.cell.f;
    }
    const n = this.n;
    return { a: i0 * n, b: (node.wd && node.wd.length > 1 ? i0 + 1 : i0) * n, f, g: 1 - f };
  }

  /** A field's blended ∂/∂h times `factor`, plus its blended value times `valueFactor`, for every turbine at direction wdDeg into v[at + i]. */
  private blendDh(node: NodeSamples, wdDeg: number, v: Float64Array, at: number, factor: number, valueFactor: number): void {
    const n = this.n;
    const { a, b, f, g } = this.nodesAround(node, wdDeg);
    const { value, dh } = node;
    for (let i = 0; i < n; i++) {
      const h = f === 0 ? dh[a + i] : g * dh[a + i] + f * dh[b + i];
      if (valueFactor === 0) {
        v[at + i] = h * factor;
        continue;
      }
      const val = f === 0 ? value[a + i] : g * value[a + i] + f * value[b + i];
      v[at + i] = h * factor + val * valueFactor;
    }
  }

  /** Direction d sampled turbine by turbine (sampleSite: its values, or its error). */
  private fillBySampling(x: Float64Array, y: Float64Array, d: number, withGradient: boolean, hub: number): void {
    const n = this.n,
      s = this.samples,
      at = d * n;
    sampleSite(this.site, x, y, this.identity, () => hub, this.directionsDeg[d], s);
    this.speed.set(s.speed, at);
    if (this.site.ti !== null) this.ti.set(s.ti, at);
    if (withGradient) {
      this.speedDx.set(s.speedDx, at);
      this.speedDy.set(s.speedDy, at);
      this.speedDh.set(s.speedDh, at);
      if (this.site.ti !== null) {
        this.tiDx.set(s.tiDx, at);
        this.tiDy.set(s.tiDy, at);
        this.tiDh.set(s.tiDh, at);
      }
    }
    if (this.site.weibull) {
      const wb = this.weibull;
      for (let i = 0; i < n; i++) {
        const k = (at + i) * 9;
        wb[k] = s.wf[i];
        wb[k + 1] = s.wfDx[i];
        wb[k + 2] = s.wfDy[i];
        wb[k + 3] = s.wa[i];
        wb[k + 4] = s.waDx[i];
        wb[k + 5] = s.waDy[i];
        wb[k + 6] = s.wk[i];
        wb[k + 7] = s.wkDx[i];
        wb[k + 8] = s.wkDy[i];
      }
    }
  }

  /**
   * Adds the gradient through the speed and TI fields, ∂AEP/∂s_i·∂s_i/∂x + ∂AEP/∂TI₀_i·∂TI₀_i/∂x, to
   * the rows, and writes ∂AEP/∂h_i = ∂AEP/∂s_i·∂s_i/∂h + ∂AEP/∂TI₀_i·∂TI₀_i/∂h into gh when given.
   */
  chain(gx: Float64Array, gy: Float64Array, dirFrom: number, dirTo: number, gh?: Float64Array): void {
    const n = this.n,
      withTi = this.site.ti !== null;
    const withH = gh !== undefined && gh.length > 0;
    for (let at = dirFrom * n; at < dirTo * n; at++) {
      const sb = this.speedBar[at];
      gx[at] += withTi ? sb * this.speedDx[at] + this.tiBar[at] * this.tiDx[at] : sb * this.speedDx[at];
      gy[at] += withTi ? sb * this.speedDy[at] + this.tiBar[at] * this.tiDy[at] : sb * this.speedDy[at];
      if (withH) gh![at] = withTi ? sb * this.speedDh[at] + this.tiBar[at] * this.tiDh[at] : sb * this.speedDh[at];
    }
  }
}
