/**
 * Reading YAML files with user-facing errors: a missing file, a directory or device, malformed
 * YAML, a file over MAX_YAML_BYTES or over MAX_YAML_ELEMENTS (yamlBudget.ts, checked before
 * parsing) or an alias bomb becomes one InputError line naming the file and the line.
 * Every mapping and list read is registered in sourceMap.ts so later checks can name the line.
 * Duplicate keys are accepted (last one wins), as PyYAML does: the IEA37 cs3 wind rose has one.
 */
import { LineCounter, parseDocument, visit, isAlias, type Document } from 'yaml';
import { InputError } from '../util/errors.js';
import { registerOrigins, formatFieldPath } from './sourceMap.js';
import { isMap, isSeq, isPair, isScalar } from 'yaml';
import { mib, readBoundedText } from './boundedRead.js';
import { MAX_YAML_ELEMENTS, MAX_YAML_NESTING, countYamlElements } from './yamlBudget.js';

/**
 * Largest YAML file read, bytes. The element budget (yamlBudget.ts) bounds the syntax nodes; this
 * bounds what a few long scalars cost: the `yaml` package needs up to ~24 bytes per byte of a
 * double-quoted string with escapes (measured: 60 MB took 1.4 GB), ~9 per byte of a folded
 * multi-line one. A file at the element cap is 1–4 MB, the largest real inputs well under 1 MB.
 */
export const MAX_YAML_BYTES = 8 * 1024 * 1024;
/**
 * Aliases expanded while reading, counted the way the `yaml` package does (each alias weighs the
 * size of what it points to): real files use a handful; a "billion laughs" file needs millions.
 */
export const MAX_ALIAS_COUNT = 1000;

/**
 * A YAML file's text: a regular file of at most MAX_YAML_BYTES (boundedRead.ts). `what` names it
 * in "… not found"; `expected` in the refusal of a directory or a device.
 */
export function readInputText(path: string, what = 'file', expected = 'a YAML file'): string {
  return readBoundedText(path, { what, expected }, MAX_YAML_BYTES);
}

export function readYamlFile(path: string): unknown {
  return parseYamlText(readInputText(path), path);
}

export interface ParseOptions {
  /** Duplicate keys are errors (campaign files); default false (last one wins). */
  uniqueKeys?: boolean;
}

/** Parse YAML text; errors name `path` and the line. The result's objects are registered in sourceMap.ts. */
export function parseYamlText(text: string, path: string, options: ParseOptions = {}): unknown {
  return parseYamlDocument(text, path, options).value;
}

/**
 * The syntax tree of YAML text, bounded: text over MAX_YAML_BYTES or over the element budget is
 * refused before parsing, and the first syntax error is one line. `located` (default true) adds
 * the field path at the error to the message. Also used for windIO files (windio/windioTree.ts).
 */
export function composeYaml(
  text: string,
  path: string,
  options: ParseOptions & { located?: boolean } = {},
): { doc: Document; lineCounter: LineCounter; elements: number } {
  if (text.length > MAX_YAML_BYTES) throw new InputError(`${path}:1: (top level): text is over the ${mib(MAX_YAML_BYTES)} limit for YAML files`);
  const { elements, exceededAt: over, exceeded } = countYamlElements(text);
  if (over !== null) {
    let line = 1;
    for (let i = text.indexOf('\n'); i >= 0 && i < over; i = text.indexOf('\n', i + 1)) line++;
    throw new InputError(
      `${path}:${line}: (top level): ${
        exceeded === 'nesting'
          ? `nested more than ${MAX_YAML_NESTING} levels deep (or indented more than ${MAX_YAML_NESTING} columns): refused before parsing`
          : `over ${MAX_YAML_ELEMENTS} YAML elements (values, keys and list entries): refused before parsing (a longer time series goes in a CSV file, a long seed list as {start, count})`
      }`,
    );
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { uniqueKeys: options.uniqueKeys ?? false, prettyErrors: false, lineCounter });
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const offset = err.pos?.[0];
    const line = offset === undefined ? null : lineCounter.linePos(offset).line;
    const reason = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    const at = options.located === false ? '' : `${offset !== undefined ? formatFieldPath(pathAtOffset(doc.contents, offset)) : '(top level)'}: `;
    throw new InputError(`${path}${line ? `:${line}` : ''}: ${at}malformed YAML: ${reason}`);
  }
  return { doc, lineCounter, elements };
}

/** Like parseYamlText, also returning the Document (for rewriting) and its LineCounter. */
export function parseYamlDocument(text: string, path: string, options: ParseOptions = {}): { value: unknown; doc: Document; lineCounter: LineCounter } {
  const { doc, lineCounter } = composeYaml(text, path, options);
  const lineAt = (offset: number | undefined): number | null => (offset === undefined ? null : lineCounter.linePos(offset).line);
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (err) {
    if (!(err instanceof ReferenceError || /alias/i.test((err as Error).message))) throw err;
    let offset: number | undefined;
    visit(doc, {
      Alias(_key, node) {
        if (isAlias(node)) {
          offset = node.range?.[0];
          return visit.BREAK;
        }
        return undefined;
      },
    });
    const at = offset !== undefined ? formatFieldPath(pathAtOffset(doc.contents, offset)) : '(top level)';
    throw new InputError(
      `${path}:${lineAt(offset) ?? 1}: ${at}: YAML aliases expand to too much data (over ${MAX_ALIAS_COUNT} aliased nodes): an alias bomb? refused`,
    );
  }
  registerOrigins(doc, value, path, lineCounter);
  return { value, doc, lineCounter };
}

/**
 * The field path at a text offset of a (possibly partly parsed) document: into the last mapping
 * key or list item that starts at or before it, as deep as that goes.
 */
function pathAtOffset(node: unknown, offset: number): (string | number)[] {
  const path: (string | number)[] = [];
  let cur: unknown = node;
  for (let depth = 0; depth < 1000; depth++) {
    let next: unknown;
    if (isMap(cur)) {
      for (const pair of cur.items) {
        if (!isPair(pair)) continue;
        const start = (pair.key as { range?: number[] } | null)?.range?.[0];
        if (start === undefined || start > offset) break;
        if (isScalar(pair.key)) {
          path.length = depth;
          path.push(String(pair.key.value));
          next = pair.value;
        }
      }
    } else if (isSeq(cur)) {
      cur.items.forEach((item, i) => {
        const start = (item as { range?: number[] } | null)?.range?.[0];
        if (start !== undefined && start <= offset) {
          path.length = depth;
          path.push(i);
          next = item;
        }
      });
    }
    if (next === undefined || path.length !== depth + 1) break;
    cur = next;
  }
  return path;
}

/** Walk an object by keys; undefined when any step is missing. */
export function dig(value: unknown, ...keys: (string | number)[]): unknown {
  let v: unknown = value;
  for (const k of keys) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[k];
  }
  return v;
}

/** Depth-first search for the first object property named `key`; returns its value. */
export function findKey(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) {
    return (value as Record<string, unknown>)[key];
  }
  for (const child of Object.values(value as Record<string, unknown>)) {
    const found = findKey(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Depth-first search for the path of the first object property named `key`; null when absent. */
export function findKeyPath(value: unknown, key: string, path: (string | number)[] = []): (string | number)[] | null {
  if (value === null || typeof value !== 'object') return null;
  if (!Array.isArray(value) && Object.hasOwn(value, key)) return [...path, key];
  for (const [k, child] of Object.entries(value as Record<string, unknown>)) {
    const found = findKeyPath(child, key, [...path, Array.isArray(value) ? Number(k) : k]);
    if (found) return found;
  }
  return null;
}

/** Every string value of a `$ref` key in the document, in document order. */
export function collectRefs(value: unknown, out: string[] = []): string[] {
  if (value === null || typeof value !== 'object') return out;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (k === '$ref' && typeof v === 'string') out.push(v);
    else collectRefs(v, out);
  }
  return out;
}
