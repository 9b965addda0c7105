/**
 * A windIO YAML tree with `!include` resolved and every node located: each `WindioNode` knows
 * the file and line it comes from and its field path from the top document, so any problem
 * becomes one InputError line `file:line: site.energy_resource.wind_resource.probability: …`.
 *
 * `!include REL` (windIO's YAML tag) is replaced by the root of the file REL, resolved relative
 * to the file that contains the tag. Every include of the whole tree is followed when the top
 * file is opened, so a missing file or an include cycle fails at once, naming the line of the
 * offending tag. The `yaml` package reports `!include` as an unresolved tag (a warning, not an
 * error); the tagged scalar keeps its text, which is all we need.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { InputError } from '../../util/errors.js';

export type WindioPath = readonly (string | number)[];

/** `site.boundaries.polygons[0].x`; `(top level)` for the empty path. */
export function formatWindioPath(p: WindioPath): string {
  if (p.length === 0) return '(top level)';
  let out = '';
  for (const part of p) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

interface SourceFile {
  file: string;
  doc: Document;
  lineCounter: LineCounter;
}

const INCLUDE_TAG = '!include';
/** Largest windIO file read (the syntax tree costs ~40 bytes per input byte). */
const MAX_FILE_BYTES = 64 * 2 ** 20;

/** Parsed files by absolute path, shared by every node of one tree. */
class SourceCache {
  private readonly files = new Map<string, SourceFile>();

  /** `shown` is the name errors use (as the user gave it, or relative to the includer). */
  load(abs: string, shown: string): SourceFile {
    const cached = this.files.get(abs);
    if (cached) return cached;
    let text: string;
    try {
      const size = fs.statSync(abs).size;
      if (size > MAX_FILE_BYTES) throw new InputError(`${shown}: file is ${(size / 2 ** 20).toFixed(1)} MiB, over the ${MAX_FILE_BYTES / 2 ** 20} MiB limit for windIO files`);
      text = fs.readFileSync(abs, 'utf8');
    } catch (err) {
      if (err instanceof InputError) throw err;
      const e = err as NodeJS.ErrnoException;
      if (e.code === 'ENOENT') throw new InputError(`${shown}: file not found`);
      if (e.code === 'EISDIR') throw new InputError(`${shown}: is a directory, expected a YAML file`);
      throw new InputError(`${shown}: cannot read (${e.code ?? e.message})`);
    }
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, uniqueKeys: false, prettyErrors: false });
    if (doc.errors.length > 0) {
      const err = doc.errors[0];
      const line = err.pos?.[0] !== undefined ? lineCounter.linePos(err.pos[0]).line : undefined;
      throw new InputError(`${shown}${line ? `:${line}` : ''}: malformed YAML: ${err.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`);
    }
    const src = { file: shown, doc, lineCounter };
    this.files.set(abs, src);
    return src;
  }
}

/** One node of a windIO tree (a mapping, a sequence, a scalar, or absent). */
export class WindioNode {
  private constructor(
    /** The yaml node; null when the field is absent (then `src`/line are the parent's). */
    readonly node: Node | null,
    private readonly src: SourceFile,
    readonly path: WindioPath,
    private readonly cache: SourceCache,
    /** Absolute paths of the files included on the way here (cycle detection). */
    private readonly includeChain: readonly string[],
    /** Where an absent node is reported: its parent. */
    private readonly anchor: Node | null = node,
  ) {}

  /** Open a windIO file and check every `!include` in it, recursively. */
  static open(file: string): WindioNode {
    const cache = new SourceCache();
    const abs = path.resolve(file);
    const root = new WindioNode(cache.load(abs, file).doc.contents as Node | null, cache.load(abs, file), [], cache, [abs]);
    root.followAllIncludes();
    return root;
  }

  get file(): string {
    return this.src.file;
  }

  /** 1-based line of this node (or of the enclosing node that exists). */
  get line(): number | null {
    const offset = this.anchor?.range?.[0];
    return offset === undefined ? null : this.src.lineCounter.linePos(offset).line;
  }

  /** `file:line: path` — the prefix of every message about this node. */
  where(): string {
    const line = this.line;
    return `${this.src.file}${line ? `:${line}` : ''}: ${formatWindioPath(this.path)}`;
  }

  fail(message: string): never {
    throw new InputError(`${this.where()}: ${message}`);
  }

  get exists(): boolean {
    return this.node !== null;
  }
  get isMap(): boolean {
    return isMap(this.node);
  }
  get isSeq(): boolean {
    return isSeq(this.node);
  }
  get isScalar(): boolean {
    return isScalar(this.node);
  }

  /** The scalar value (number, string, boolean, null); undefined for collections and absent nodes. */
  get scalar(): unknown {
    return isScalar(this.node) ? this.node.value : undefined;
  }

  /** A child by key (mappings) or index (sequences), includes and aliases followed; absent → a node with `exists` false. */
  get(key: string | number): WindioNode {
    const childPath = [...this.path, key];
    let child: unknown = null;
    if (isMap(this.node) && typeof key === 'string') {
      // Last one wins for duplicate keys, as PyYAML does.
      for (const pair of this.node.items) {
        if (isPair(pair) && isScalar(pair.key) && String(pair.key.value) === key) child = pair.value ?? null;
      }
      if (child === null) {
        // An absent or empty field is reported at its parent's line.
        return this.absent(childPath);
      }
    } else if (isSeq(this.node) && typeof key === 'number') {
      child = this.node.items[key] ?? null;
      if (child === null) return this.absent(childPath);
    } else {
      return this.absent(childPath);
    }
    return this.resolve(child as Node, childPath);
  }

  /** A child that must exist (reported at this node's line when it does not). */
  require(key: string, what: string): WindioNode {
    const c = this.get(key);
    if (!c.exists) c.fail(`missing (${what})`);
    return c;
  }

  /** A child that must be a mapping. */
  requireMap(key: string, what: string): WindioNode {
    const c = this.require(key, what);
    if (!c.isMap) c.fail(`expected a mapping (${what}), got ${describe(c)}`);
    return c;
  }

  /** Keys of a mapping, in document order. */
  keys(): string[] {
    if (!isMap(this.node)) return [];
    return this.node.items.filter(isPair).map((p) => String(isScalar(p.key) ? p.key.value : p.key));
  }

  /** Items of a sequence. */
  items(): WindioNode[] {
    if (!isSeq(this.node)) return [];
    return this.node.items.map((_, i) => this.get(i));
  }

  get length(): number {
    return isSeq(this.node) ? this.node.items.length : 0;
  }

  /** A finite number, or fail naming what was expected. */
  number(what = 'a number'): number {
    const v = this.scalar;
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(`expected ${what}, got ${describe(this)}`);
    return v as number;
  }

  /** A list of finite numbers (a bare YAML list). */
  numbers(what = 'a list of numbers'): Float64Array {
    if (!this.isSeq) this.fail(`expected ${what}, got ${describe(this)}`);
    const items = this.items();
    const out = new Float64Array(items.length);
    items.forEach((item, i) => { out[i] = item.number('a number'); });
    return out;
  }

  string(what = 'a string'): string {
    const v = this.scalar;
    if (typeof v !== 'string') this.fail(`expected ${what}, got ${describe(this)}`);
    return v as string;
  }

  /** A plain JavaScript copy (includes followed), for values we only pass through. */
  toJS(): unknown {
    if (this.isMap) return Object.fromEntries(this.keys().map((k) => [k, this.get(k).toJS()]));
    if (this.isSeq) return this.items().map((n) => n.toJS());
    return this.scalar;
  }

  private absent(childPath: WindioPath): WindioNode {
    return new WindioNode(null, this.src, childPath, this.cache, this.includeChain, this.anchor);
  }

  private resolve(node: Node, childPath: WindioPath): WindioNode {
    let n: Node = node;
    if (isAlias(n)) n = (n.resolve(this.src.doc) as Node | undefined) ?? n;
    if (isScalar(n) && n.tag === INCLUDE_TAG) {
      const here = new WindioNode(n, this.src, childPath, this.cache, this.includeChain);
      const rel = typeof n.value === 'string' ? n.value.trim() : '';
      if (rel === '') here.fail(`${INCLUDE_TAG} needs a file name`);
      if (/\.(nc|netcdf|h5|hdf5)$/i.test(rel)) here.fail(`${INCLUDE_TAG} '${rel}': NetCDF/HDF5 resources are not supported (give the data in YAML)`);
      const abs = path.resolve(path.dirname(this.includeChain[this.includeChain.length - 1]), rel);
      if (this.includeChain.includes(abs)) {
        const cycle = [...this.includeChain.slice(this.includeChain.indexOf(abs)), abs].map((p) => path.basename(p)).join(' → ');
        here.fail(`${INCLUDE_TAG} cycle: ${cycle}`);
      }
      let src: SourceFile;
      try {
        src = this.cache.load(abs, path.join(path.dirname(this.src.file), rel));
      } catch (err) {
        if (err instanceof InputError && /file not found$/.test(err.message)) here.fail(`${INCLUDE_TAG} '${rel}': file not found (looked for ${abs})`);
        throw err;
      }
      return new WindioNode(src.doc.contents as Node | null, src, childPath, this.cache, [...this.includeChain, abs]);
    }
    return new WindioNode(n, this.src, childPath, this.cache, this.includeChain);
  }

  /**
   * Check every `!include` of this file and of the files it includes (syntax-tree walk: aliases
   * are not expanded, so an alias bomb costs nothing here).
   */
  private followAllIncludes(): void {
    const walk = (node: unknown, p: (string | number)[]): void => {
      if (isMap(node)) {
        for (const pair of node.items) if (isPair(pair)) walk(pair.value, [...p, String(isScalar(pair.key) ? pair.key.value : pair.key)]);
      } else if (isSeq(node)) {
        node.items.forEach((item, i) => walk(item, [...p, i]));
      } else if (isScalar(node) && node.tag === INCLUDE_TAG) {
        this.resolve(node, p).followAllIncludes();
      }
    };
    walk(this.node, [...this.path]);
  }
}

/** A short description of what a node holds, for "expected X, got Y". */
export function describe(n: WindioNode): string {
  if (!n.exists) return 'nothing';
  if (n.isMap) return 'a mapping';
  if (n.isSeq) return `a list of ${n.length}`;
  const v = n.scalar;
  return v === null ? 'null' : typeof v === 'string' ? `'${v}'` : String(v);
}
