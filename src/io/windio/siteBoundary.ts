/**
 * windIO site boundaries and exclusion zones → wflo Boundary.
 *
 * `site.boundaries` is `{circle: {center: {x, y}, radius}}` or `{polygons: [...]}`, each polygon
 * `{x: [...], y: [...]}` (windIO `coordinates`) or a list of `{x, y}` points. Coordinates are
 * windIO's local metric frame, x west→east and y south→north, which is wflo's frame, so they are
 * used as they are. A quirk of the published IEA37 cs3 example: it writes one polygon as the flow
 * sequence `[x: [...], y: [...]]`, which YAML reads as two one-key mappings; consecutive one-key
 * mappings {x} and {y} are joined into one polygon.
 *
 * Exclusions (`site.exclusions` and the system's
 * `optimisation.constraints.area_constraints.exclusion_zones`, both `{polygons}` or `{circle}`)
 * become `Boundary.exclusions`; a circle exclusion becomes the regular 72-gon circumscribed about
 * it (it contains the circle, so a turbine outside the 72-gon is outside the circle; the excluded
 * area grows by under 0.07 %).
 */
import type { Boundary, ExclusionZone, Point } from '../../geometry/boundary.js';
import { validateBoundary } from '../../geometry/validateBoundary.js';
import type { WindioNode } from './windioTree.js';

export const CIRCLE_EXCLUSION_SIDES = 72;

function xyLists(node: WindioNode): Point[] {
  const xNode = node.require('x', 'x coordinates, metres');
  const yNode = node.require('y', 'y coordinates, metres');
  const x = xNode.numbers('x coordinates (m)');
  const y = yNode.numbers('y coordinates (m)');
  if (x.length !== y.length) yNode.fail(`${y.length} y values for ${x.length} x values`);
  return Array.from(x, (xi, i) => [xi, y[i]] as const);
}

function polygonPoints(node: WindioNode): Point[] {
  let points: Point[];
  if (node.isMap) points = xyLists(node.get('vertices').exists ? node.get('vertices') : node);
  else if (node.isSeq) {
    points = node.items().map((p) => {
      if (!p.isMap) p.fail('expected a vertex {x, y}');
      return [p.require('x', 'metres').number('a coordinate in metres'), p.require('y', 'metres').number('a coordinate in metres')] as const;
    });
  } else return node.fail('expected a polygon {x: [...], y: [...]} or a list of {x, y} vertices');
  if (points.length < 3) node.fail(`a polygon needs at least 3 vertices, got ${points.length}`);
  return points;
}

/** The polygons of a `polygons:` list, joining the `[x: [...], y: [...]]` quirk. */
function polygonList(node: WindioNode): Point[][] {
  if (!node.isSeq || node.length === 0) node.fail('expected a non-empty list of polygons');
  const items = node.items();
  const out: Point[][] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const keys = item.keys();
    if (item.isMap && keys.length === 1 && keys[0] === 'x' && i + 1 < items.length) {
      const next = items[i + 1];
      const nextKeys = next.keys();
      if (next.isMap && nextKeys.length === 1 && nextKeys[0] === 'y') {
        const x = item.get('x').numbers('x coordinates (m)');
        const y = next.get('y').numbers('y coordinates (m)');
        if (x.length !== y.length) next.get('y').fail(`${y.length} y values for ${x.length} x values`);
        if (x.length < 3) item.fail(`a polygon needs at least 3 vertices, got ${x.length}`);
        out.push(Array.from(x, (xi, k) => [xi, y[k]] as const));
        i++;
        continue;
      }
    }
    out.push(polygonPoints(item));
  }
  return out;
}

function circleOf(node: WindioNode): { center: Point; radius: number } {
  const c = node.require('center', '{x, y} in metres');
  let center: Point;
  if (c.isMap) center = [c.require('x', 'metres').number('a coordinate in metres'), c.require('y', 'metres').number('a coordinate in metres')];
  else if (c.isSeq && c.length === 2) {
    const v = c.numbers('[x, y] in metres');
    center = [v[0], v[1]];
  } else return c.fail('expected {x, y}');
  const radiusNode = node.require('radius', 'metres');
  const radius = radiusNode.number('a radius in metres');
  if (!(radius > 0)) radiusNode.fail(`must be > 0, got ${radius}`);
  return { center, radius };
}

/** `site.boundaries` → Boundary (without exclusions). */
export function readBoundaries(node: WindioNode): Boundary {
  let boundary: Boundary;
  if (node.get('circle').exists) {
    const { center, radius } = circleOf(node.get('circle'));
    boundary = { kind: 'circle', center, radius };
  } else if (node.get('polygons').exists) {
    const polygons = polygonList(node.get('polygons'));
    boundary = polygons.length === 1 ? { kind: 'polygon', vertices: polygons[0] } : { kind: 'multipolygon', polygons };
  } else {
    return node.fail('expected polygons: [...] or circle: {center, radius}');
  }
  const problem = validateBoundary(boundary);
  if (problem) node.fail(problem);
  return boundary;
}

/** Exclusion zones from a `{polygons}` / `{circle}` node; names `<label>[i]`. */
export function readExclusions(node: WindioNode, label: string): ExclusionZone[] {
  if (node.get('circle').exists) {
    const { center, radius } = circleOf(node.get('circle'));
    const r = radius / Math.cos(Math.PI / CIRCLE_EXCLUSION_SIDES);
    const vertices = Array.from({ length: CIRCLE_EXCLUSION_SIDES }, (_, k) => {
      const a = (2 * Math.PI * k) / CIRCLE_EXCLUSION_SIDES;
      return [center[0] + r * Math.cos(a), center[1] + r * Math.sin(a)] as const;
    });
    return [{ name: `${label} circle`, vertices }];
  }
  if (node.get('polygons').exists) {
    return polygonList(node.get('polygons')).map((vertices, i) => {
      const problem = validateBoundary({ kind: 'polygon', vertices });
      if (problem) node.get('polygons').get(i).fail(problem);
      return { name: `${label}[${i}]`, vertices };
    });
  }
  return node.fail('expected polygons: [...] or circle: {center, radius}');
}
