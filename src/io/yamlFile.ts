/**
 * Reading YAML files with user-facing errors: a missing file, a directory, or malformed YAML
 * becomes one InputError line naming the file (and the line, for syntax errors).
 * Duplicate keys are accepted (last one wins), as PyYAML does: the IEA37 cs3 wind rose has one.
 */
import fs from 'node:fs';
import { parseDocument } from 'yaml';
import { InputError } from '../util/errors.js';

export function readYamlFile(path: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new InputError(`${path}: file not found`);
    if (e.code === 'EISDIR') throw new InputError(`${path}: is a directory, expected a YAML file`);
    throw new InputError(`${path}: cannot read (${e.code ?? e.message})`);
  }
  return parseYamlText(text, path);
}

export function parseYamlText(text: string, path: string): unknown {
  const doc = parseDocument(text, { uniqueKeys: false, prettyErrors: true });
  if (doc.errors.length > 0) {
    const err = doc.errors[0];
    const line = err.linePos?.[0]?.line;
    const reason = err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
    throw new InputError(`${path}: malformed YAML${line ? ` at line ${line}` : ''}: ${reason}`);
  }
  return doc.toJS({ maxAliasCount: 1000 });
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
  if (!Array.isArray(value) && Object.prototype.hasOwnProperty.call(value, key)) {
    return (value as Record<string, unknown>)[key];
  }
  for (const child of Object.values(value as Record<string, unknown>)) {
    const found = findKey(child, key);
    if (found !== undefined) return found;
  }
  return undefined;
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
