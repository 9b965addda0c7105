/**
 * Where a value of a parsed YAML file came from, for errors of the form
 * `file:line: field.path: what is wrong`. readYamlFile / parseYamlText register every mapping and
 * list they produce here (a WeakMap from the JS object to its YAML node), so any validator that
 * holds the raw parsed object and a path inside it can name the file, the line and the full
 * path from the document root, also when the object is an inline mapping of a larger file (a
 * boundary inside a campaign's farm). Objects built in code are not registered: errors about them
 * fall back to `file: path: message`.
 */
import { isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { InputError } from '../util/errors.js';

export type FieldPath = readonly (string | number)[];

interface Origin {
  file: string;
  /** Path of this object from the document root. */
  path: FieldPath;
  node: Node;
  lineCounter: LineCounter;
}

const origins = new WeakMap<object, Origin>();
/** Mappings that had a key twice (files read with duplicates allowed): the second occurrence. */
const duplicates = new WeakMap<object, { key: string; line: number | null }>();

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

/** Record the origin of every mapping and list of `value` (the toJS of `doc`). Aliases are not followed. */
export function registerOrigins(doc: Document, value: unknown, file: string, lineCounter: LineCounter): void {
  const walk = (node: unknown, js: unknown, path: (string | number)[]): void => {
    if (js === null || typeof js !== 'object' || origins.has(js)) return;
    if (isMap(node)) {
      origins.set(js, { file, path: [...path], node: node as Node, lineCounter });
      const seen = new Set<string>();
      for (const pair of node.items) {
        if (!isPair(pair) || !isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        if (seen.has(key) && !duplicates.has(js)) {
          const offset = pair.key.range?.[0];
          duplicates.set(js, { key, line: offset === undefined ? null : lineCounter.linePos(offset).line });
        }
        seen.add(key);
        path.push(key);
        walk(pair.value, (js as Record<string, unknown>)[key], path);
        path.pop();
      }
    } else if (isSeq(node) && Array.isArray(js)) {
      origins.set(js, { file, path: [...path], node: node as Node, lineCounter });
      node.items.forEach((item, i) => {
        const child = js[i];
        if (child === null || typeof child !== 'object') return;
        path.push(i);
        walk(item, child, path);
        path.pop();
      });
    }
  };
  walk(doc.contents, value, []);
}

/** The YAML node at `path` below `node` (the key node of the last step with `keyOf`), or the deepest one found. */
function descend(node: Node, path: FieldPath, keyOf: boolean): Node {
  let cur: unknown = node;
  let found: Node = node;
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    if (isMap(cur)) {
      const pair = cur.items.find((p) => isPair(p) && isScalar(p.key) && String(p.key.value) === String(part));
      if (!pair) return found;
      if (keyOf && i === path.length - 1 && pair.key) return pair.key as Node;
      cur = pair.value;
      if (cur) found = cur as Node;
      else return (pair.key as Node) ?? found;
    } else if (isSeq(cur) && typeof part === 'number') {
      const item = cur.items[part];
      if (!item) return found;
      cur = item;
      found = item as Node;
    } else {
      return found;
    }
  }
  return found;
}

export interface Location {
  file: string;
  line: number | null;
  /** Full path from the root of the file. */
  path: FieldPath;
}

/**
 * Where `path` (relative to the raw parsed object `root`) is: the file and line of the deepest
 * registered object on the way, the rest of the path looked up in its YAML node. `keyOf` points at
 * the key of the last step (for unknown keys). Null when nothing on the way is registered.
 */
export function locate(root: unknown, path: FieldPath, keyOf = false): Location | null {
  let best: { origin: Origin; consumed: number } | null = null;
  let v: unknown = root;
  if (v !== null && typeof v === 'object' && origins.has(v)) best = { origin: origins.get(v)!, consumed: 0 };
  // With keyOf the last step is looked up in its parent's node (its key), never in its own.
  const walk = keyOf ? path.length - 1 : path.length;
  for (let i = 0; i < walk; i++) {
    if (v === null || typeof v !== 'object' || !Object.hasOwn(v, path[i])) break;
    v = (v as Record<string | number, unknown>)[path[i]];
    if (v !== null && typeof v === 'object' && origins.has(v)) best = { origin: origins.get(v)!, consumed: i + 1 };
  }
  if (!best) return null;
  const rest = path.slice(best.consumed);
  const node = descend(best.origin.node, rest, keyOf);
  const offset = node.range?.[0];
  return {
    file: best.origin.file,
    line: offset === undefined ? null : best.origin.lineCounter.linePos(offset).line,
    path: [...best.origin.path, ...rest],
  };
}

/** The file a registered object came from (null when it was built in code). */
export const originFile = (value: unknown): string | null => (value !== null && typeof value === 'object' ? (origins.get(value)?.file ?? null) : null);

/**
 * An error at `path` inside the raw parsed object `root`: `file:line: full.path: message` when
 * `root` came from a YAML file, else `fallbackFile: path: message`.
 */
export function errorAt(root: unknown, path: FieldPath, message: string, fallbackFile: string, keyOf = false): InputError {
  const loc = locate(root, path, keyOf);
  if (!loc) return new LocatedInputError(`${fallbackFile}: ${formatFieldPath(path)}: ${message}`);
  return new LocatedInputError(`${loc.file}${loc.line !== null ? `:${loc.line}` : ''}: ${formatFieldPath(loc.path)}: ${message}`);
}

/**
 * Throw if a mapping at or below `root` had a key twice (YAML keeps the last one silently; wflo's
 * own formats refuse it). IEA37 files are read without this check: a published one has a duplicate.
 */
export function rejectDuplicateKeys(root: unknown): void {
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== 'object' || !origins.has(v)) return;
    const dup = duplicates.get(v);
    if (dup) {
      const o = origins.get(v)!;
      throw new LocatedInputError(
        `${o.file}${dup.line !== null ? `:${dup.line}` : ''}: ${formatFieldPath([...o.path, dup.key])}: '${dup.key}' is given twice in this mapping`,
      );
    }
    for (const child of Object.values(v)) visit(child);
  };
  visit(root);
}

/** An InputError that already names its file, line and full path: callers pass it on unchanged. */
export class LocatedInputError extends InputError {}
