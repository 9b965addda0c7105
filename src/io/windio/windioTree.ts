/**
 * A windIO YAML tree with `!include` resolved and every node located: each `WindioNode` knows
 * the file and line it comes from and its field path from the top document, so any problem
 * becomes one InputError line `file:line: site.energy_resource.wind_resource.probability: …`.
 *
 * `!include REL` (windIO's YAML tag) is replaced by the root of the file REL, resolved relative
 * to the file that contains the tag. Every include of the whole tree is checked when the top
 * file is opened, so a missing file, an include cycle, an include leaving the plant folder or a
 * plant that expands beyond its limits (includePolicy.ts) fails at once, naming the line of the
 * offending tag. Each file is read (bounded: boundedRead.ts, yamlBudget.ts) and parsed once, by
 * its real path, however often it is included; its expansion is computed once too. Messages
 * quote values only by their start (util/printable.ts `excerpt`), never a file's contents.
 * The `yaml` package reports `!include` as an unresolved tag (a warning, not an error); the
 * tagged scalar keeps its text, which is all we need.
 */
import path from 'node:path';
import fs from 'node:fs';
import { isAlias, isMap, isPair, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { InputError } from '../../util/errors.js';
import { describeText, excerpt } from '../../util/printable.js';
import { readBoundedText, UnreadableFile } from '../boundedRead.js';
import { composeYaml, MAX_YAML_BYTES } from '../yamlFile.js';
import {
  ALLOW_OUTSIDE_OPTION,
  includesMayLeavePlant,
  isInside,
  MAX_INCLUDE_DEPTH,
  MAX_PLANT_BYTES,
  MAX_PLANT_ELEMENTS,
  plantFolderOf,
} from './includePolicy.js';

export type WindioPath = readonly (string | number)[];

/** `site.boundaries.polygons[0].x`; `(top level)` for the empty path. */
export function formatWindioPath(p: WindioPath): string {
  if (p.length === 0) return '(top level)';
  let out = '';
  for (const part of p) out += typeof part === 'number' ? `[${part}]` : out === '' ? part : `.${part}`;
  return out;
}

interface SourceFile {
  /** The name errors use (as the user gave it, or joined to the includer's). */
  file: string;
  /** Absolute path as resolved (relative includes resolve against its folder, as windIO does). */
  abs: string;
  doc: Document;
  lineCounter: LineCounter;
  bytes: number;
}

const INCLUDE_TAG = '!include';

/** The size of a node's expansion: includes and aliases followed, as often as they occur. */
interface Expansion {
  elements: number;
  bytes: number;
  /** Longest chain of nested includes below. */
  depth: number;
}

/** Parsed files by real path, shared by every node of one tree: each file is read and parsed once. */
class SourceCache {
  private readonly files = new Map<string, SourceFile>();
  /** Each file's expansion, computed once (a file included many times is walked once). */
  private readonly expansions = new Map<string, Expansion>();
  /** Real paths of the files being expanded, outermost first (include cycles). */
  private readonly expanding: string[] = [];

  constructor(readonly plantFolder: string) {}

  /** Read and parse a file (`shown` names it in errors); the cached one when already read. */
  load(abs: string, shown: string): SourceFile {
    let real: string;
    try {
      real = fs.realpathSync(abs);
    } catch {
      real = abs; // the bounded read names the problem (not found, a link loop)
    }
    const cached = this.files.get(real);
    if (cached) return cached;
    let text: string;
    try {
      text = readBoundedText(abs, { what: 'file', expected: 'a YAML file' }, MAX_YAML_BYTES);
    } catch (err) {
      throw err instanceof UnreadableFile ? err.named(shown) : err;
    }
    const { doc, lineCounter } = composeYaml(text, shown, { located: false });
    const src = { file: shown, abs, doc, lineCounter, bytes: Buffer.byteLength(text) };
    this.files.set(real, src);
    return src;
  }

  /**
   * The file an `!include REL` tag at `here` (in `from`) names, checked and loaded: inside the
   * plant folder (unless allowed), readable, parsed. Every problem is `here`'s line.
   */
  include(from: SourceFile, rel: string, here: WindioNode): SourceFile {
    const abs = path.resolve(path.dirname(from.abs), rel);
    const shown = path.isAbsolute(rel) ? rel : path.join(path.dirname(from.file), rel);
    const tag = `${INCLUDE_TAG} '${excerpt(rel, 200)}'`;
    let real: string | null = null;
    try {
      real = fs.realpathSync(abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') here.fail(`${tag}: file not found (looked for ${abs})`);
    }
    if (real !== null && !includesMayLeavePlant() && !isInside(real, this.plantFolder)) {
      here.fail(
        `${tag}: ${real === abs ? abs : `${abs} (${real})`} is outside the plant folder ${this.plantFolder}; refused unread (${ALLOW_OUTSIDE_OPTION} allows it)`,
      );
    }
    try {
      return this.load(abs, shown);
    } catch (err) {
      // The included file could not be read at all: said at the tag. (Its syntax errors name its own line.)
      if (err instanceof UnreadableFile && err.file === shown) here.fail(`${tag}: ${err.reason}`);
      throw err;
    }
  }

  /**
   * The expansion of a whole file (every include and alias below it followed), computed once per
   * file; throws at the first include that makes a cycle or goes over a limit.
   */
  expansion(src: SourceFile, root: WindioNode): Expansion {
    const real = fs.realpathSync(src.abs);
    const known = this.expansions.get(real);
    if (known) return known;
    this.expanding.push(real);
    const byNode = new Map<Node, Expansion | 'expanding'>();
    const pathStack: (string | number)[] = [...root.path];
    const total = (a: Expansion, b: Expansion): Expansion => ({
      elements: a.elements + b.elements,
      bytes: a.bytes + b.bytes,
      depth: Math.max(a.depth, b.depth),
    });
    const within = (e: Expansion, here: () => WindioNode): Expansion => {
      if (e.elements > MAX_PLANT_ELEMENTS)
        here().fail(`the plant expands to over ${MAX_PLANT_ELEMENTS} YAML elements (includes and aliases followed, each time they are used): refused`);
      if (e.bytes > MAX_PLANT_BYTES)
        here().fail(`the plant expands to over ${MAX_PLANT_BYTES / 2 ** 20} MiB (included files counted each time they are included): refused`);
      return e;
    };
    const nodeAt = (n: Node): WindioNode => root.at(n, src, [...pathStack]);
    const walk = (node: unknown): Expansion => {
      let n = node as Node;
      if (isAlias(n)) {
        const target = n.resolve(src.doc) as Node | undefined;
        if (!target) return { elements: 1, bytes: 0, depth: 0 };
        const seen = byNode.get(target);
        if (seen === 'expanding') return nodeAt(n).fail(`the alias *${excerpt(n.source, 80)} refers to a node that holds it`);
        if (seen) return seen;
        n = target;
      }
      const memoKey = n;
      byNode.set(memoKey, 'expanding');
      let e: Expansion = { elements: 1, bytes: 0, depth: 0 };
      if (isMap(n)) {
        for (const pair of n.items) {
          if (!isPair(pair)) continue;
          pathStack.push(String(isScalar(pair.key) ? pair.key.value : pair.key));
          e = within(total(e, walk(pair.value)), () => nodeAt((pair.value as Node | null) ?? n));
          pathStack.pop();
        }
      } else if (isSeq(n)) {
        n.items.forEach((item, i) => {
          pathStack.push(i);
          e = within(total(e, walk(item)), () => nodeAt((item as Node | null) ?? n));
          pathStack.pop();
        });
      } else if (isScalar(n) && n.tag === INCLUDE_TAG) {
        const here = nodeAt(n);
        const target = here.includedFile();
        const targetReal = fs.realpathSync(target.abs);
        const cycleFrom = this.expanding.indexOf(targetReal);
        if (cycleFrom >= 0) {
          const names = [...this.expanding.slice(cycleFrom), targetReal].map((p) => path.basename(p));
          here.fail(`${INCLUDE_TAG} cycle: ${names.join(' → ')}`);
        }
        if (this.expanding.length >= MAX_INCLUDE_DEPTH) here.fail(`${INCLUDE_TAG}: includes nest deeper than ${MAX_INCLUDE_DEPTH} files`);
        const inner = this.expansion(target, here.included(target));
        if (this.expanding.length + inner.depth >= MAX_INCLUDE_DEPTH) here.fail(`${INCLUDE_TAG}: includes nest deeper than ${MAX_INCLUDE_DEPTH} files`);
        e = within({ elements: inner.elements, bytes: inner.bytes, depth: inner.depth + 1 }, () => here);
      }
      byNode.set(memoKey, e);
      return e;
    };
    const body = walk(src.doc.contents);
    const own = within({ elements: body.elements, bytes: body.bytes + src.bytes, depth: body.depth }, () => root);
    this.expanding.pop();
    this.expansions.set(real, own);
    return own;
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
    /** Where an absent node is reported: its parent. */
    private readonly anchor: Node | null = node,
  ) {}

  /**
   * Open a windIO file and check every `!include` in it, recursively (each file read once): each
   * inside the plant folder (includePolicy.ts), no cycle, the expanded plant within its limits.
   */
  static open(file: string): WindioNode {
    const abs = path.resolve(file);
    let plantFolder: string;
    try {
      plantFolder = plantFolderOf(abs);
    } catch {
      plantFolder = path.dirname(path.dirname(abs)); // the read below names the problem
    }
    const cache = new SourceCache(plantFolder);
    const src = cache.load(abs, file);
    const root = new WindioNode(src.doc.contents as Node | null, src, [], cache);
    cache.expansion(src, root);
    return root;
  }

  /** A node of `src` at `nodePath` (for messages about nodes found while walking). */
  at(node: Node, src: SourceFile, nodePath: WindioPath): WindioNode {
    return new WindioNode(node, src, nodePath, this.cache);
  }

  /** The root of an included file, at this node's path. */
  included(src: SourceFile): WindioNode {
    return new WindioNode(src.doc.contents as Node | null, src, this.path, this.cache);
  }

  /** The file this `!include` scalar names (checked, read once). */
  includedFile(): SourceFile {
    const n = this.node;
    const rel = isScalar(n) && typeof n.value === 'string' ? n.value.trim() : '';
    if (rel === '') this.fail(`${INCLUDE_TAG} needs a file name`);
    if (/\.(nc|netcdf|h5|hdf5)$/i.test(rel))
      this.fail(`${INCLUDE_TAG} '${excerpt(rel, 200)}': NetCDF/HDF5 resources are not supported (give the data in YAML)`);
    return this.cache.include(this.src, rel, this);
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

  /** Whether this node is a whole file (the root of the top file or of an included one). */
  get isFileRoot(): boolean {
    return this.node !== null && this.node === this.src.doc.contents;
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
    items.forEach((item, i) => {
      out[i] = item.number('a number');
    });
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
    return new WindioNode(null, this.src, childPath, this.cache, this.anchor);
  }

  private resolve(node: Node, childPath: WindioPath): WindioNode {
    let n: Node = node;
    if (isAlias(n)) n = (n.resolve(this.src.doc) as Node | undefined) ?? n;
    if (isScalar(n) && n.tag === INCLUDE_TAG) {
      // Checked and loaded when the tree was opened: this finds the cached file.
      const here = new WindioNode(n, this.src, childPath, this.cache);
      return here.included(here.includedFile());
    }
    return new WindioNode(n, this.src, childPath, this.cache);
  }
}

/** A short description of what a node holds, for "expected X, got Y". */
export function describe(n: WindioNode): string {
  if (!n.exists) return 'nothing';
  if (n.isMap) return 'a mapping';
  if (n.isSeq) return `a list of ${n.length}`;
  const v = n.scalar;
  // A file that is one string (a text file included by mistake) is never quoted back; other
  // values are quoted by their start only, on one line.
  if (typeof v === 'string' && n.isFileRoot) return `the file's whole text (${v.length} characters), not YAML data`;
  return v === null ? 'null' : typeof v === 'string' ? describeText(v) : String(v);
}
