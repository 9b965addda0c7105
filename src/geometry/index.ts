/**
 * The geometry layer's public API in one import: site boundaries, signed distances, spacing,
 * penalties and aggregated constraints with exact gradients, feasibility reports, repair and
 * initial layouts. All functions are pure over Float64Array (except projectInside, which moves
 * turbines in place, and the penalty/KS functions, which add into the gradient arrays given).
 */
export type { Boundary, BoundingBox, ExclusionZone, Point } from './boundary.js';
export { prepareBoundary, type BoundaryLike, type PreparedBoundary, type PreparedExclusion } from './preparedBoundary.js';
export { validateBoundary } from './validateBoundary.js';
export { normalizeBoundary } from './normalizeBoundary.js';
export { boundingBox } from './boundingBox.js';
export { boundaryArea } from './boundaryArea.js';
export { containsPoint } from './containsPoint.js';
export {
  boundaryDistance,
  signedDistanceAt,
  siteSignedDistanceAt,
  exclusionClearanceAt,
  type BoundaryDistance,
} from './boundaryDistance.js';
export { boundaryPenalty } from './boundaryPenalty.js';
export { pairCount, pairIndex } from './pairs.js';
export {
  spacingConstraint,
  spacingPenalty,
  type SpacingConstraint,
  type SpacingConstraintOptions,
} from './spacing.js';
export { spacingKs, boundaryKs } from './ksAggregate.js';
export { checkFeasibility, worstWithPositions, type FeasibilityReport } from './feasibility.js';
export { pairMinimum, largestSpacing, spacingByTurbine, type SpacingRule } from './pairSpacing.js';
export { projectInside } from './projectInside.js';
export { randomFeasibleLayout, defaultSamplingAttempts, type LayoutArrays } from './sampling.js';
export { gridLayout } from './gridLayout.js';
export {
  structuredLayout,
  perimeterLength,
  perimeterPoint,
  STRUCTURED_FAMILIES,
  type StructuredFamily,
} from './structuredLayouts.js';
