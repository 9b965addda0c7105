/**
 * A campaign farm's site that is not uniform (`site:`, the case file's block: io/siteFields.ts,
 * docs/site.md), or the one its `case:` file brings. A netCDF file named by the block is read
 * here, at campaign load: its fields travel in the farm (and in a queue job's payload as the inline
 * block, siteDocument), so a worker never reads a path, and the spec hash covers the fields'
 * values, not the file's name (campaign/specHash.ts). An optimizer may place a turbine anywhere in
 * the boundary, so (unless `outside: limit`) the boundary's bounding box must lie inside every
 * field's x–y grid, as for a case file.
 */
import type { Site } from '../physics/site/site.js';
import type { Boundary } from '../geometry/boundary.js';
import { boundingBox } from '../geometry/boundingBox.js';
import { readSiteBlock, siteLayoutProblem } from '../io/siteFields.js';
import type { FieldPath } from '../io/sourceMap.js';

/** The farm's site: its own block (`raw.site`), else its case's, else none (a uniform site). */
export function resolveFarmSite(
  raw: Record<string, unknown>,
  at: FieldPath,
  file: string,
  caseSite: Site | undefined,
  boundary: Boundary,
  fail: (fieldPath: FieldPath, message: string) => never,
): Site | undefined {
  const site = raw.site !== undefined ? readSiteBlock(raw.site, raw, ['site'], file) : caseSite;
  if (!site) return undefined;
  const box = boundingBox(boundary);
  const corner = siteLayoutProblem(site, [box.minX, box.maxX, box.maxX, box.minX], [box.minY, box.minY, box.maxY, box.maxY]);
  if (corner) {
    fail(
      [...at, raw.site !== undefined ? 'site' : 'case', ...(raw.site !== undefined ? [corner.field] : [])],
      `the boundary reaches outside the field's grid (a corner of its bounding box, ${corner.message.replace(/^turbine \d+ at /, '').replace(/ is outside/, ', is outside')}); extend the grid or give outside: limit`,
    );
  }
  return site;
}
