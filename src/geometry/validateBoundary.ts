/**
 * validateBoundary: the first problem with a boundary as one sentence, or null when it is usable.
 * Vertex and edge numbers in messages are 0-based indices into the caller's own vertex list, so a
 * user can find them in their file. Exclusion zones (holes) must each have a name and be a simple
 * polygon, and together they must leave some of the site free. Repeated consecutive vertices (and a closing copy of the first
 * vertex) are not problems: they are dropped silently, as normalizeBoundary does.
 */
import type { Boundary, Point } from './boundary.js';
import { dropRepeatedVertices, ringExtent, ringFanAbsoluteArea, signedRingArea } from './ring.js';
import { orientation, segmentsIntersect } from './segmentIntersection.js';

/** A simple polygon whose area is below this fraction of extent² is a sliver, not a site. */
const NEAR_ZERO_AREA_RELATIVE = 1e-8;
/** Below this fraction of extent² the fan area is rounding noise: every vertex is on one line. */
const COLLINEAR_AREA_RELATIVE = 1e-13;
/** Adjacent edges whose sine of angle is below this run back over each other. */
const FOLD_BACK_SINE = 1e-12;

export function validateBoundary(boundary: Boundary): string | null {
  if (boundary === null || typeof boundary !== 'object') {
    return 'boundary must be an object with kind circle, polygon or multipolygon';
  }
  const siteProblem = validateSite(boundary);
  if (siteProblem !== null) return siteProblem;
  return validateExclusions(boundary);
}

function validateSite(boundary: Boundary): string | null {
  switch (boundary.kind) {
    case 'circle':
      return validateCircle(boundary.center, boundary.radius);
    case 'polygon':
      return validateRing(boundary.vertices, 'polygon');
    case 'multipolygon':
      return validateMultipolygon(boundary.polygons);
    default:
      return `unknown boundary kind ${JSON.stringify((boundary as { kind: unknown }).kind)}; expected circle, polygon or multipolygon`;
  }
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`;
  return JSON.stringify(value) ?? String(value);
}

function isFinitePoint(value: unknown): value is Point {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'number' &&
    typeof value[1] === 'number' &&
    Number.isFinite(value[0]) &&
    Number.isFinite(value[1])
  );
}

function validateCircle(center: unknown, radius: unknown): string | null {
  if (!isFinitePoint(center)) return `circle center must be two finite numbers [x, y], got ${describe(center)}`;
  if (typeof radius !== 'number' || !Number.isFinite(radius) || radius <= 0) {
    return `circle radius must be a positive finite number of metres, got ${describe(radius)}`;
  }
  return null;
}

function edgeName(originalIndexByVertex: number[], edge: number): string {
  const count = originalIndexByVertex.length;
  return `${originalIndexByVertex[edge]}→${originalIndexByVertex[(edge + 1) % count]}`;
}

/** Checks one ring; `label` names it in messages ("polygon", "multipolygon part 2"). */
function validateRing(vertices: unknown, label: string): string | null {
  if (!Array.isArray(vertices)) return `${label} vertices must be a list of [x, y] points, got ${describe(vertices)}`;
  for (let i = 0; i < vertices.length; i++) {
    if (!isFinitePoint(vertices[i])) {
      return `${label} vertex ${i} must be two finite numbers [x, y], got ${describe(vertices[i])}`;
    }
  }
  const { vertices: ring, originalIndexByVertex } = dropRepeatedVertices(vertices as Point[]);
  if (ring.length < 3) {
    return `${label} has ${ring.length} distinct vertices; at least 3 are needed`;
  }
  const extent = ringExtent(ring);
  if (ringFanAbsoluteArea(ring) <= COLLINEAR_AREA_RELATIVE * extent * extent) {
    return `${label} has zero area: all its vertices lie on one line`;
  }
  const foldBack = findFoldBack(ring);
  if (foldBack !== null) {
    return (
      `${label} is self-intersecting: edge ${edgeName(originalIndexByVertex, foldBack)} runs back over edge ` +
      `${edgeName(originalIndexByVertex, (foldBack + 1) % ring.length)} (0-based vertex indices)`
    );
  }
  const crossing = findCrossingEdges(ring);
  if (crossing !== null) {
    return (
      `${label} is self-intersecting: edge ${edgeName(originalIndexByVertex, crossing[0])} meets edge ` +
      `${edgeName(originalIndexByVertex, crossing[1])} (0-based vertex indices)`
    );
  }
  const area = Math.abs(signedRingArea(ring));
  if (area <= NEAR_ZERO_AREA_RELATIVE * extent * extent) {
    return `${label} area ${area.toPrecision(3)} m² is near zero for its ${extent.toPrecision(3)} m extent`;
  }
  return null;
}

/** First edge k such that edge k+1 turns straight back along it (a zero-width spike), or null. */
function findFoldBack(ring: Point[]): number | null {
  const count = ring.length;
  for (let k = 0; k < count; k++) {
    const [ax, ay] = ring[k]!;
    const [bx, by] = ring[(k + 1) % count]!;
    const [cx, cy] = ring[(k + 2) % count]!;
    const ux = bx - ax,
      uy = by - ay,
      vx = cx - bx,
      vy = cy - by;
    const cross = orientation(ax, ay, bx, by, cx, cy);
    const lengths = Math.sqrt((ux * ux + uy * uy) * (vx * vx + vy * vy));
    if (Math.abs(cross) <= FOLD_BACK_SINE * lengths && ux * vx + uy * vy < 0) return k;
  }
  return null;
}

/**
 * First pair of non-adjacent edges that meet, as [lower, higher] edge index, or null.
 * Sweep over edges sorted by their smallest x so that far-apart edges are never compared.
 */
function findCrossingEdges(ring: Point[]): [number, number] | null {
  const count = ring.length;
  const minXByEdge = new Float64Array(count);
  const maxXByEdge = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const a = ring[k]!,
      b = ring[(k + 1) % count]!;
    minXByEdge[k] = Math.min(a[0], b[0]);
    maxXByEdge[k] = Math.max(a[0], b[0]);
  }
  const edgeOrder = Array.from({ length: count }, (_, k) => k).sort((p, q) => minXByEdge[p]! - minXByEdge[q]! || p - q);
  let found: [number, number] | null = null;
  for (let oi = 0; oi < count; oi++) {
    const i = edgeOrder[oi]!;
    const a = ring[i]!,
      b = ring[(i + 1) % count]!;
    for (let oj = oi + 1; oj < count; oj++) {
      const j = edgeOrder[oj]!;
      if (minXByEdge[j]! > maxXByEdge[i]!) break;
      if (j === (i + 1) % count || i === (j + 1) % count) continue;
      const c = ring[j]!,
        d = ring[(j + 1) % count]!;
      if (Math.max(c[1], d[1]) < Math.min(a[1], b[1]) || Math.min(c[1], d[1]) > Math.max(a[1], b[1])) continue;
      if (segmentsIntersect(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])) {
        const pair: [number, number] = [Math.min(i, j), Math.max(i, j)];
        // Report the pair that comes first in the user's vertex order, whatever the sweep order.
        if (found === null || pair[0] < found[0] || (pair[0] === found[0] && pair[1] < found[1])) found = pair;
      }
    }
  }
  return found;
}

/** Even-odd containment of a point in one ring (points on an edge may go either way). */
function ringContains(ring: Point[], px: number, py: number): boolean {
  let inside = false;
  for (let k = 0, previous = ring.length - 1; k < ring.length; previous = k++) {
    const [ax, ay] = ring[previous]!;
    const [bx, by] = ring[k]!;
    if (ay > py !== by > py && px < ax + ((py - ay) * (bx - ax)) / (by - ay)) inside = !inside;
  }
  return inside;
}

function validateMultipolygon(polygons: unknown): string | null {
  if (!Array.isArray(polygons) || polygons.length === 0) {
    return `multipolygon polygons must be a non-empty list of polygons, got ${describe(polygons)}`;
  }
  for (let p = 0; p < polygons.length; p++) {
    const problem = validateRing(polygons[p], `multipolygon part ${p}`);
    if (problem !== null) return problem;
  }
  const parts = (polygons as Point[][]).map((vertices) => dropRepeatedVertices(vertices));
  for (let p = 0; p < parts.length; p++) {
    for (let q = p + 1; q < parts.length; q++) {
      const problem = findPartOverlap(parts[p]!.vertices, parts[q]!.vertices, parts[p]!.originalIndexByVertex, parts[q]!.originalIndexByVertex, p, q);
      if (problem !== null) return problem;
    }
  }
  return null;
}

/**
 * Parts must be disjoint: no edge of one meets an edge of the other (touching counts, since a
 * shared border is better given as one polygon), and neither lies inside the other.
 */
function findPartOverlap(first: Point[], second: Point[], firstOriginal: number[], secondOriginal: number[], p: number, q: number): string | null {
  for (let i = 0; i < first.length; i++) {
    const a = first[i]!,
      b = first[(i + 1) % first.length]!;
    for (let j = 0; j < second.length; j++) {
      const c = second[j]!,
        d = second[(j + 1) % second.length]!;
      if (Math.max(c[0], d[0]) < Math.min(a[0], b[0]) || Math.min(c[0], d[0]) > Math.max(a[0], b[0])) continue;
      if (Math.max(c[1], d[1]) < Math.min(a[1], b[1]) || Math.min(c[1], d[1]) > Math.max(a[1], b[1])) continue;
      if (segmentsIntersect(a[0], a[1], b[0], b[1], c[0], c[1], d[0], d[1])) {
        return (
          `multipolygon parts ${p} and ${q} overlap or touch: edge ${edgeName(firstOriginal, i)} of part ${p} ` +
          `meets edge ${edgeName(secondOriginal, j)} of part ${q} (0-based vertex indices)`
        );
      }
    }
  }
  if (ringContains(first, second[0]![0], second[0]![1])) return `multipolygon part ${q} lies inside part ${p}`;
  if (ringContains(second, first[0]![0], first[0]![1])) return `multipolygon part ${p} lies inside part ${q}`;
  return null;
}

/** Free points are looked for on a grid of this many points per side over the site's box. */
const COVER_GRID = 65;

/** Exclusion zones: a list of {name, vertices}, each a simple polygon, not covering the whole site. */
function validateExclusions(boundary: Boundary): string | null {
  const zones: unknown = boundary.exclusions;
  if (zones === undefined) return null;
  if (!Array.isArray(zones)) return `exclusions must be a list of {name, vertices} zones, got ${describe(zones)}`;
  for (let k = 0; k < zones.length; k++) {
    const zone = zones[k] as { name?: unknown; vertices?: unknown } | null;
    if (zone === null || typeof zone !== 'object') return `exclusion zone ${k} must be {name, vertices}, got ${describe(zone)}`;
    if (typeof zone.name !== 'string' || zone.name.trim() === '') {
      return `exclusion zone ${k} needs a non-empty name, got ${describe(zone.name)}`;
    }
    const problem = validateRing(zone.vertices, `exclusion zone '${zone.name}'`);
    if (problem !== null) return problem;
  }
  if (zones.length === 0) return null;
  return findCoveringZones(
    boundary,
    (zones as { name: string; vertices: Point[] }[]).map((z) => ({ name: z.name, ring: dropRepeatedVertices(z.vertices).vertices })),
  );
}

/**
 * Sample a grid over the site's box: when no grid point inside the site lies outside every zone,
 * the zones cover the site (named when one zone alone does).
 */
function findCoveringZones(boundary: Boundary, zones: { name: string; ring: Point[] }[]): string | null {
  const inSite = siteContainsFunction(boundary);
  const box = siteBox(boundary);
  let insideSite = 0;
  const coveredByZone = new Int32Array(zones.length);
  for (let row = 0; row < COVER_GRID; row++) {
    const py = box.minY + ((row + 0.5) / COVER_GRID) * (box.maxY - box.minY);
    for (let column = 0; column < COVER_GRID; column++) {
      const px = box.minX + ((column + 0.5) / COVER_GRID) * (box.maxX - box.minX);
      if (!inSite(px, py)) continue;
      insideSite++;
      let covered = false;
      for (let k = 0; k < zones.length; k++) {
        if (ringContains(zones[k]!.ring, px, py)) {
          coveredByZone[k]!++;
          covered = true;
        }
      }
      if (!covered) return null;
    }
  }
  if (insideSite === 0) return null;
  for (let k = 0; k < zones.length; k++) {
    if (coveredByZone[k] === insideSite) return `exclusion zone '${zones[k]!.name}' covers the whole site`;
  }
  return `exclusion zones ${zones.map((z) => `'${z.name}'`).join(', ')} together cover the whole site`;
}

function siteContainsFunction(boundary: Boundary): (px: number, py: number) => boolean {
  switch (boundary.kind) {
    case 'circle': {
      const [cx, cy] = boundary.center;
      const r2 = boundary.radius * boundary.radius;
      return (px, py) => (px - cx) ** 2 + (py - cy) ** 2 <= r2;
    }
    case 'polygon': {
      const ring = dropRepeatedVertices(boundary.vertices).vertices;
      return (px, py) => ringContains(ring, px, py);
    }
    case 'multipolygon': {
      const rings = boundary.polygons.map((p) => dropRepeatedVertices(p).vertices);
      return (px, py) => rings.some((ring) => ringContains(ring, px, py));
    }
  }
}

function siteBox(boundary: Boundary): { minX: number; minY: number; maxX: number; maxY: number } {
  if (boundary.kind === 'circle') {
    const [cx, cy] = boundary.center;
    return { minX: cx - boundary.radius, minY: cy - boundary.radius, maxX: cx + boundary.radius, maxY: cy + boundary.radius };
  }
  const points = boundary.kind === 'polygon' ? boundary.vertices : boundary.polygons.flat();
  const box = { minX: Infinity, minY: Infinity, maxX: -Infinity, maxY: -Infinity };
  for (const [px, py] of points) {
    box.minX = Math.min(box.minX, px);
    box.maxX = Math.max(box.maxX, px);
    box.minY = Math.min(box.minY, py);
    box.maxY = Math.max(box.maxY, py);
  }
  return box;
}
