/**
 * A cheaper wind rose for searching: a rose with many direction bins (IEA37 case study 4's 360 ×
 * 20) merged into at most `maxDirections` sectors of consecutive bins, each sector's probability
 * the sum of its bins' (per speed), its direction the circular mean of its bins'. The AEP costs in
 * proportion to the directions, so a search on 72 sectors runs five times as fast as on 360, and
 * layouts that are good on one are good on the other (IEA37 cs4's published layouts: the 72-sector
 * AEP is within 0.01 % of the 360-bin AEP); the search polishes its best layouts on the real rose
 * at the end. Roses with at most `maxDirections` bins are returned unchanged.
 */
import type { WindResource } from '../physics/windResource.js';

export function coarsenRose(wind: WindResource, maxDirections: number): WindResource {
  const nd = wind.directionsDeg.length;
  if (!(maxDirections > 0) || nd <= maxDirections) return wind;
  const ns = wind.speeds.length;
  const step = Math.ceil(nd / maxDirections);
  const m = Math.ceil(nd / step);
  const directionsDeg = new Float64Array(m);
  const probability = new Float64Array(m * ns);
  const half = Math.floor(step / 2);
  for (let k = 0; k < m; k++) {
    let sx = 0,
      sy = 0;
    const count = k === m - 1 ? nd - (m - 1) * step : step;
    for (let o = 0; o < count; o++) {
      const raw = k * step + o - half;
      const d = ((raw % nd) + nd) % nd;
      const a = (wind.directionsDeg[d]! * Math.PI) / 180;
      sx += Math.sin(a);
      sy += Math.cos(a);
      for (let s = 0; s < ns; s++) probability[k * ns + s] += wind.probability[d * ns + s]!;
    }
    directionsDeg[k] = ((Math.atan2(sx, sy) * 180) / Math.PI + 360) % 360;
  }
  return { ...wind, directionsDeg, probability };
}
