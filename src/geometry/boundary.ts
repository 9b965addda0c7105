/**
 * Site boundaries. Coordinates in metres, in the same frame as the layout.
 * - circle: centre and radius (IEA37 case study 1).
 * - polygon: one simple polygon, concave allowed, vertices in either orientation, not closed
 *   (the last vertex is joined to the first).
 * - multipolygon: several disjoint simple polygons; a turbine must lie inside any one of them.
 */
export type Point = readonly [number, number];

/**
 * An area a turbine may not enter (a polygon hole of the site, a windIO `area_constraints`
 * exclusion, a cable corridor, a shipping lane). `name` is what feasibility reports print.
 */
export interface ExclusionZone {
  name: string;
  vertices: Point[];
}

export type Boundary = (
  | { kind: 'circle'; center: Point; radius: number }
  | { kind: 'polygon'; vertices: Point[] }
  | { kind: 'multipolygon'; polygons: Point[][] }
) & {
  /** Holes and exclusion zones: a turbine must lie outside every one (default: none). */
  exclusions?: ExclusionZone[];
};

/** Axis-aligned box in metres (the optimizer's natural variable bounds). */
export interface BoundingBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}
