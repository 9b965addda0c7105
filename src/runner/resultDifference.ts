/**
 * How two results of one task differ, for the conflict lines of `wflo collect` and `wflo run
 * --adopt`: printing two equal AEPs says nothing, so the line also says how far apart the layouts
 * are (a float32 copy of a float64 layout is a few micrometres off).
 */
import { formatMwh } from '../campaign/verifyRecord.js';

/** Largest distance between turbine i of `a` and turbine i of `b`, m; NaN when the counts differ. */
export function layoutsApartM(a: { x: ArrayLike<number>; y: ArrayLike<number> }, b: { x: ArrayLike<number>; y: ArrayLike<number> }): number {
  if (a.x.length !== b.x.length || a.y.length !== b.y.length) return NaN;
  let worst = 0;
  for (let i = 0; i < a.x.length; i++) worst = Math.max(worst, Math.hypot(a.x[i]! - b.x[i]!, a.y[i]! - b.y[i]!));
  return worst;
}

/** How two results of one task differ, for a conflict line: the AEPs, then the layouts. */
export function differenceText(keptAep: number, droppedAep: number, apartM: number | undefined): string {
  const aeps = Object.is(keptAep, droppedAep) ? `the same AEP ${formatMwh(keptAep)} MWh` : `AEP ${formatMwh(keptAep)} vs ${formatMwh(droppedAep)} MWh`;
  if (apartM === undefined) return aeps;
  const layouts = Number.isNaN(apartM)
    ? 'layouts of different turbine counts'
    : apartM === 0
      ? 'the same layout'
      : `layouts up to ${apartM.toPrecision(2)} m apart${apartM < 1e-3 ? ' (a rounded copy, e.g. float32?)' : ''}`;
  return `${aeps}, ${layouts}`;
}
