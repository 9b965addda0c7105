/**
 * The adjoint of the added-turbulence component: ∂J/∂I₊ of one candidate pair (target at position
 * p, its source q) back to both turbines' wind-frame coordinates and to the source's Ct and TI,
 * from the partials the forward pass kept (ws.tDx … tTi).
 */
import type { Workspace } from './workspace.js';

export function addTurbulenceAdjoint(ws: Workspace, p: number, e: number, aBar: number): void {
  const q = ws.candSrc[e];
  const gx = aBar * ws.tDx[e],
    gy = aBar * ws.tDy[e];
  ws.gxw[p] += gx;
  ws.gxw[q] -= gx;
  ws.gyw[p] += gy;
  ws.gyw[q] -= gy;
  ws.ctBar[q] += aBar * ws.tCt[e];
  ws.tiBar[q] += aBar * ws.tTi[e];
}
