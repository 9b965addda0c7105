/**
 * Water depth over a site: a regular grid with bilinear interpolation and its exact gradient, or a
 * constant. Both have the shape of cost/economicModel.ts's WaterDepthField (`at(x, y, grad)`; this
 * layer comes before cost/, so the shape is matched, not imported).
 *
 * Outside the grid the depth is CLAMPED: a point beyond an edge takes the value on that edge (the
 * nearest point of the grid), and the gradient across the edge is zero. The grid must cover the
 * site: io/ refuses, when the file is read, a boundary (or fixed layout) that reaches outside it
 * (`BathymetryGrid.outside`); so clamping only ever applies to an optimizer's trial points outside
 * the site, which the boundary constraint pushes back — refusing there would stop a run over a
 * point the answer never contains, and extrapolating could give a negative depth.
 *
 * Depth is positive down, in metres; coordinates in the layout's frame, metres.
 */

export class BathymetryGrid {
  /** Nodes x0 + i·dx (i < nx) by y0 + j·dy (j < ny); depth[j·nx + i] at (x_i, y_j). */
  constructor(
    readonly x0: number,
    readonly dx: number,
    readonly nx: number,
    readonly y0: number,
    readonly dy: number,
    readonly ny: number,
    readonly depth: Float64Array,
  ) {
    if (!(nx >= 2 && ny >= 2 && dx > 0 && dy > 0))
      throw new Error(`a bathymetry grid needs ≥ 2 × 2 nodes and positive spacing (got ${nx} × ${ny}, dx ${dx}, dy ${dy})`);
    if (depth.length !== nx * ny) throw new Error(`bathymetry grid: ${depth.length} depths for ${nx} × ${ny} nodes`);
  }

  get xMax(): number {
    return this.x0 + (this.nx - 1) * this.dx;
  }

  get yMax(): number {
    return this.y0 + (this.ny - 1) * this.dy;
  }

  /** The first of the points (x[k], y[k]) outside the grid (beyond a relative 1e-9 of an edge), or null. */
  outside(xs: ArrayLike<number>, ys: ArrayLike<number>): { x: number; y: number } | null {
    const ex = 1e-9 * Math.max(1, Math.abs(this.x0), Math.abs(this.xMax));
    const ey = 1e-9 * Math.max(1, Math.abs(this.y0), Math.abs(this.yMax));
    for (let k = 0; k < xs.length; k++) {
      const x = xs[k];
      const y = ys[k];
      if (!(x >= this.x0 - ex && x <= this.xMax + ex && y >= this.y0 - ey && y <= this.yMax + ey)) return { x, y };
    }
    return null;
  }

  /** Depth at (x, y), bilinear in the cell holding the point (clamped outside); with grad, ∂/∂x, ∂/∂y. */
  at(x: number, y: number, grad: Float64Array | null): number {
    let u = (x - this.x0) / this.dx;
    let v = (y - this.y0) / this.dy;
    let inX = true;
    let inY = true;
    if (u <= 0) {
      inX = u === 0;
      u = 0;
    } else if (u >= this.nx - 1) {
      inX = u === this.nx - 1;
      u = this.nx - 1;
    }
    if (v <= 0) {
      inY = v === 0;
      v = 0;
    } else if (v >= this.ny - 1) {
      inY = v === this.ny - 1;
      v = this.ny - 1;
    }
    // The cell: on a node line the cell above/right of it, the last cell on the far edge.
    const i = Math.min(Math.floor(u), this.nx - 2);
    const j = Math.min(Math.floor(v), this.ny - 2);
    const tx = u - i;
    const ty = v - j;
    const d = this.depth;
    const k = j * this.nx + i;
    const d00 = d[k];
    const d10 = d[k + 1];
    const d01 = d[k + this.nx];
    const d11 = d[k + this.nx + 1];
    if (grad) {
      grad[0] = inX ? ((1 - ty) * (d10 - d00) + ty * (d11 - d01)) / this.dx : 0;
      grad[1] = inY ? ((1 - tx) * (d01 - d00) + tx * (d11 - d10)) / this.dy : 0;
    }
    return (1 - ty) * ((1 - tx) * d00 + tx * d10) + ty * ((1 - tx) * d01 + tx * d11);
  }
}

/** The same depth everywhere. */
export class ConstantDepth {
  constructor(readonly depth: number) {}

  at(_x: number, _y: number, grad: Float64Array | null): number {
    if (grad) {
      grad[0] = 0;
      grad[1] = 0;
    }
    return this.depth;
  }
}
