/**
 * A boundary validated once and laid out as flat typed arrays for the hot loops (signed distance,
 * penalties, containment). Every geometry function accepts either a plain Boundary (prepared on
 * each call: validation is O(E log E) plus edge pairs, cheap for IEA37 sites) or a
 * PreparedBoundary; an optimizer should call prepareBoundary once and pass the result.
 *
 * Edges of all parts share one set of arrays; each part is counter-clockwise, so the interior is
 * on the left of every edge. Because parts are disjoint (validated), even-odd crossing parity
 * over all edges is containment in the union.
 */
import type { Boundary, BoundingBox } from './boundary.js';
import { normalizeBoundary } from './normalizeBoundary.js';
import { signedRingArea } from './ring.js';
import { validateBoundary } from './validateBoundary.js';
import { InputError } from '../util/errors.js';

export interface PreparedBoundary {
  readonly kind: 'prepared';
  /** The cleaned boundary (normalizeBoundary of the input). */
  readonly normalized: Boundary;
  readonly isCircle: boolean;
  /** Circle only (0 otherwise). */
  readonly centerX: number;
  readonly centerY: number;
  readonly radius: number;
  /** Polygon edges, all parts; edge k runs from (edgeStartX[k], edgeStartY[k]) to (edgeEndX[k], edgeEndY[k]). */
  readonly edgeCount: number;
  readonly edgeStartX: Float64Array;
  readonly edgeStartY: Float64Array;
  readonly edgeEndX: Float64Array;
  readonly edgeEndY: Float64Array;
  /** end − start, by edge. */
  readonly edgeAlongX: Float64Array;
  readonly edgeAlongY: Float64Array;
  /** 1 / |end − start|², by edge. */
  readonly edgeInvLengthSq: Float64Array;
  /** Unit normal pointing into the site, by edge. */
  readonly edgeInwardNormalX: Float64Array;
  readonly edgeInwardNormalY: Float64Array;
  /** Number of parts (1 for circle and polygon). Edges of part p: [partEdgeStart[p], partEdgeStart[p + 1]). */
  readonly partCount: number;
  readonly partEdgeStart: Uint32Array;
  readonly partArea: Float64Array;
  readonly partBox: readonly BoundingBox[];
  readonly box: BoundingBox;
  /** Total area, m². */
  readonly area: number;
  /** Largest side of the bounding box, m (the scale for relative tolerances). */
  readonly extent: number;
  /** Holes and exclusion zones (a turbine must be outside each), in the input's order. */
  readonly exclusions: readonly PreparedExclusion[];
}

/** One exclusion zone: its name and its polygon laid out like a one-part site. */
export interface PreparedExclusion {
  readonly name: string;
  readonly zone: PreparedBoundary;
}

export type BoundaryLike = Boundary | PreparedBoundary;

/** Validate (InputError naming the first problem) and lay out; a PreparedBoundary is returned as is. */
export function prepareBoundary(boundary: BoundaryLike): PreparedBoundary {
  if (boundary.kind === 'prepared') return boundary;
  const problem = validateBoundary(boundary);
  if (problem !== null) throw new InputError(`invalid boundary: ${problem}`);
  const normalized = normalizeBoundary(boundary);
  const exclusions: PreparedExclusion[] = (normalized.exclusions ?? []).map((zone) => ({
    name: zone.name,
    zone: prepareRings({ kind: 'polygon', vertices: zone.vertices }, [zone.vertices], []),
  }));
  if (normalized.kind === 'circle') return prepareCircle(normalized, exclusions);
  const rings = normalized.kind === 'polygon' ? [normalized.vertices] : normalized.polygons;
  return prepareRings(normalized, rings, exclusions);
}

function prepareCircle(circle: Extract<Boundary, { kind: 'circle' }>, exclusions: PreparedExclusion[]): PreparedBoundary {
  const [centerX, centerY] = circle.center;
  const { radius } = circle;
  const box = { minX: centerX - radius, minY: centerY - radius, maxX: centerX + radius, maxY: centerY + radius };
  const area = Math.PI * radius * radius;
  const none = new Float64Array(0);
  return {
    kind: 'prepared',
    normalized: circle,
    isCircle: true,
    centerX,
    centerY,
    radius,
    edgeCount: 0,
    edgeStartX: none,
    edgeStartY: none,
    edgeEndX: none,
    edgeEndY: none,
    edgeAlongX: none,
    edgeAlongY: none,
    edgeInvLengthSq: none,
    edgeInwardNormalX: none,
    edgeInwardNormalY: none,
    partCount: 1,
    partEdgeStart: new Uint32Array([0, 0]),
    partArea: new Float64Array([area]),
    partBox: [box],
    box,
    area,
    extent: 2 * radius,
    exclusions,
  };
}

function prepareRings(normalized: Boundary, rings: (readonly (readonly [number, number])[])[], exclusions: PreparedExclusion[]): PreparedBoundary {
  const edgeCount = rings.reduce((sum, ring) => sum + ring.length, 0);
  const edgeStartX = new Float64Array(edgeCount),
    edgeStartY = new Float64Array(edgeCount);
  const edgeEndX = new Float64Array(edgeCount),
    edgeEndY = new Float64Array(edgeCount);
  const edgeAlongX = new Float64Array(edgeCount),
    edgeAlongY = new Float64Array(edgeCount);
  const edgeInvLengthSq = new Float64Array(edgeCount);
  const edgeInwardNormalX = new Float64Array(edgeCount),
    edgeInwardNormalY = new Float64Array(edgeCount);
  const partEdgeStart = new Uint32Array(rings.length + 1);
  const partArea = new Float64Array(rings.length);
  const partBox: BoundingBox[] = [];
  const box: BoundingBox = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  let edge = 0;
  rings.forEach((ring, part) => {
    partEdgeStart[part] = edge;
    partArea[part] = signedRingArea(ring);
    const ringBox: BoundingBox = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
    for (let i = 0; i < ring.length; i++, edge++) {
      const [ax, ay] = ring[i]!;
      const [bx, by] = ring[(i + 1) % ring.length]!;
      edgeStartX[edge] = ax;
      edgeStartY[edge] = ay;
      edgeEndX[edge] = bx;
      edgeEndY[edge] = by;
      const alongX = bx - ax,
        alongY = by - ay;
      const lengthSq = alongX * alongX + alongY * alongY;
      const length = Math.sqrt(lengthSq);
      edgeAlongX[edge] = alongX;
      edgeAlongY[edge] = alongY;
      edgeInvLengthSq[edge] = 1 / lengthSq;
      // Counter-clockwise ring: the interior is on the left, i.e. along the left normal (−y, x).
      edgeInwardNormalX[edge] = -alongY / length;
      edgeInwardNormalY[edge] = alongX / length;
      ringBox.minX = Math.min(ringBox.minX, ax);
      ringBox.maxX = Math.max(ringBox.maxX, ax);
      ringBox.minY = Math.min(ringBox.minY, ay);
      ringBox.maxY = Math.max(ringBox.maxY, ay);
    }
    partBox.push(ringBox);
    box.minX = Math.min(box.minX, ringBox.minX);
    box.maxX = Math.max(box.maxX, ringBox.maxX);
    box.minY = Math.min(box.minY, ringBox.minY);
    box.maxY = Math.max(box.maxY, ringBox.maxY);
  });
  partEdgeStart[rings.length] = edge;
  const area = partArea.reduce((sum, value) => sum + value, 0);
  return {
    kind: 'prepared',
    normalized,
    isCircle: false,
    centerX: 0,
    centerY: 0,
    radius: 0,
    edgeCount,
    edgeStartX,
    edgeStartY,
    edgeEndX,
    edgeEndY,
    edgeAlongX,
    edgeAlongY,
    edgeInvLengthSq,
    edgeInwardNormalX,
    edgeInwardNormalY,
    partCount: rings.length,
    partEdgeStart,
    partArea,
    partBox,
    box,
    area,
    extent: Math.max(box.maxX - box.minX, box.maxY - box.minY),
    exclusions,
  };
}
