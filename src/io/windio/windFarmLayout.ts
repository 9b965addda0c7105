/**
 * The turbine positions of a windIO `wind_farm`: `layouts.initial_layout.coordinates {x, y}`
 * (the schema and the IEA37 examples), also accepted as `layouts: [{coordinates}]` (a list of
 * layouts: the first is used) and `layouts.initial_layout {x, y}`. Metres, x west→east,
 * y south→north: wflo's frame, used as is.
 */
import type { Layout } from '../../case/case.js';
import type { WindioNode } from './windioTree.js';

export function readLayout(windFarm: WindioNode): Layout {
  const layouts = windFarm.require('layouts', 'initial_layout.coordinates {x, y}');
  let holder: WindioNode;
  if (layouts.isSeq) {
    if (layouts.length === 0) layouts.fail('no layouts');
    holder = layouts.get(0);
  } else {
    holder = layouts.require('initial_layout', 'coordinates {x, y}');
  }
  const { x, y } = layoutCoordinates(holder);
  const types = holder.get('turbine_types');
  if (types.exists && types.isSeq && new Set(types.items().map((t) => String(t.scalar))).size > 1) {
    types.fail('layouts with several turbine types are not supported (one turbine type per farm)');
  }
  return { x, y };
}

/** The `coordinates {x, y}` of one windIO layout (or `{x, y}` directly in it), metres; at least one turbine. */
export function layoutCoordinates(layout: WindioNode): { x: Float64Array; y: Float64Array; xNode: WindioNode; yNode: WindioNode } {
  const holder = layout.get('coordinates').exists ? layout.get('coordinates') : layout;
  const xNode = holder.require('x', 'x coordinates in metres');
  const yNode = holder.require('y', 'y coordinates in metres');
  const x = xNode.numbers('x coordinates (m)');
  const y = yNode.numbers('y coordinates (m)');
  if (x.length !== y.length) yNode.fail(`${y.length} y values for ${x.length} x values`);
  if (x.length === 0) xNode.fail('no turbines');
  return { x, y, xNode, yNode };
}

/** `wind_farm.turbines`: one turbine mapping (or a list / map of exactly one). */
export function turbineNode(windFarm: WindioNode): WindioNode {
  const t = windFarm.require('turbines', 'the turbine definition');
  if (t.isSeq) {
    if (t.length !== 1) t.fail(`${t.length} turbine types: only one turbine type per farm is supported`);
    return t.get(0);
  }
  if (t.isMap && !t.get('performance').exists) {
    const keys = t.keys();
    if (keys.length === 1 && t.get(keys[0]).isMap && t.get(keys[0]).get('performance').exists) return t.get(keys[0]);
    if (keys.length > 1 && keys.every((k) => t.get(k).isMap && t.get(k).get('performance').exists)) {
      t.fail(`${keys.length} turbine types: only one turbine type per farm is supported`);
    }
  }
  return t;
}
