/**
 * Signed distance to a circular site (IEA37 case studies 1 and 2): radius − |p − c|, positive
 * inside. Its gradient is −(p − c)/|p − c|; at the centre, where the cone has its peak and no
 * gradient, the zero vector (a valid supergradient) is returned.
 */

/** Value at (px, py); the gradient is written to gradOut[0], gradOut[1]. */
export function circleSignedDistance(centerX: number, centerY: number, radius: number, px: number, py: number, gradOut: Float64Array): number {
  const offsetX = px - centerX,
    offsetY = py - centerY;
  const fromCenter = Math.sqrt(offsetX * offsetX + offsetY * offsetY);
  if (fromCenter > 0) {
    gradOut[0] = -offsetX / fromCenter;
    gradOut[1] = -offsetY / fromCenter;
  } else {
    gradOut[0] = 0;
    gradOut[1] = 0;
  }
  return radius - fromCenter;
}
