/**
 * Where a field path (['farms', 1, 'n_turbines']) sits in a YAML file, for error messages of
 * the form `campaign.yaml:12: farms[1].n_turbines: …`. Uses the `yaml` package's node ranges;
 * when the field itself is missing, the nearest enclosing node that exists is reported.
 */
import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';

export type FieldPath = readonly (string | number)[];

/** `farms[1].n_turbines`; `(top level)` for the empty path. */
export function formatFieldPath(path: FieldPath): string {
  if (path.length === 0) return '(top level)';
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? part : `.${part}`;
  }
  return out;
}

/** The node at `path`, or the deepest existing ancestor; `keyOf` returns the key node of the last step instead. */
function findNode(doc: Document, path: FieldPath, keyOf: boolean): Node | null {
  let node: unknown = doc.contents;
  let found: Node | null = (doc.contents as Node | null) ?? null;
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part));
      if (!pair) return found;
      if (keyOf && i === path.length - 1) return (pair.key as Node) ?? found;
      node = pair.value;
      if (node) found = node as Node;
      else return (pair.key as Node) ?? found;
    } else if (isSeq(node) && typeof part === 'number') {
      const item = node.items[part];
      if (!item) return found;
      node = item;
      found = item as Node;
    } else {
      return found;
    }
  }
  return found;
}

/** 1-based line of the field at `path` (or of its nearest existing ancestor); null if unknown. */
export function lineOf(doc: Document, lineCounter: LineCounter, path: FieldPath, keyOf = false): number | null {
  const node = findNode(doc, path, keyOf);
  const offset = node?.range?.[0];
  if (offset === undefined) return null;
  return lineCounter.linePos(offset).line;
}
