/**
 * The figures a Markdown file states and the directives that say where each comes from
 * (CONTRIBUTING.md, "Figures in docs"). A directive is an HTML comment, invisible on the rendered
 * page, in the paragraph of the figure or on its own line right after that paragraph, table or
 * fenced block (directives are read outside fenced blocks only):
 *
 *   <!-- figure: value="56 793.89" cmd="./wflo optimize examples/x.yaml --seed 1 --json" path="aep_mwh" -->
 *   <!-- figure: value="104.5" cmd="…" re="overhead median ([\d.]+) µs" -->   stdout, first group
 *   <!-- figure: value="1.07" measured-on="2026-12-07 15:01 UTC, 2 shared cores, load 6" -->
 *   <!-- figure: value="418 924.41" cited="Baker et al. 2019, IEA37 cs1 best layout" -->
 *   <!-- figure: value="60" input="the example's electricity price" -->
 *
 * `value` is the figure as the text writes it (spaces and commas as thousands separators allowed)
 * and must occur in that paragraph, table or block. A measured figure (`cmd`) must agree with the
 * number the command prints, at `path` of its `--json` output (`a.b[0].c`) or in the first group
 * of `re` on its stdout, within `tol` (absolute) or `rel` (relative), by default to the digits the
 * figure states (half a unit of its last digit); `scale` multiplies the printed number first
 * (`scale="1e-6"`: the command prints €, the text writes M€). `slow="reason"`: a command too long for the
 * suite, checked only with WFLO_DOC_FIGURES=all. Timing figures carry `measured-on` (date,
 * machine, load) and are never asserted. `cited` (a published value, with its source) and `input`
 * (a value the example sets, not a result) are exempt from measurement.
 *
 * `scanFigures` finds the figures a directive must cover: numbers followed by an energy or money
 * unit (MWh, GWh, kWh, €, k€, M€, EUR, €/MWh, /MWh), lists of them before one unit ("56309,
 * 55218, 55978 MWh", "2.01 / 3.61 MWh", "266.97 against 267.14 M€"), in prose, tables and code
 * blocks alike; and the cells of a table column whose header names such a unit (`AEP (MWh)`).
 * Fenced blocks are found as test/helpers/docCommands.ts finds them.
 */
import { FENCE } from './docCommands.js';

export interface FigureDirective {
  file: string;
  /** 1-based line of the comment. */
  line: number;
  value: string;
  cmd?: string;
  path?: string;
  re?: string;
  /** The printed number times this is the figure (1e-6: € printed, M€ written). */
  scale?: number;
  tol?: number;
  rel?: number;
  slow?: string;
  measuredOn?: string;
  cited?: string;
  input?: string;
  /** Index of the chunk (paragraph, table or fenced block) the directive belongs to. */
  chunk: number;
}

export interface ScannedFigure {
  file: string;
  line: number;
  /** The number as written ("2 978 888.5"). */
  text: string;
  unit: string;
  chunk: number;
}

/** A paragraph, a table or a fenced block: 1-based first and last line. */
export interface Chunk {
  first: number;
  last: number;
  fenced: boolean;
}

const DIRECTIVE = /<!--\s*figure:\s*(.*?)\s*-->/g;
const KEYS = new Set(['value', 'cmd', 'path', 're', 'scale', 'tol', 'rel', 'slow', 'measured-on', 'cited', 'input']);

/** The number a figure's text means: "2 978 888.5" and "269,001.9" → 2978888.5, 269001.9. */
export function figureNumber(text: string): number {
  const plain = text
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/,(?=\d{3}(?:\D|$))/g, '')
    .replace(/−/g, '-');
  const n = Number(plain);
  if (!Number.isFinite(n)) throw new Error(`'${text}' is not a number`);
  return n;
}

/** Half a unit of the last digit the text states: "56 793.89" → 0.005, "56309" → 0.5, "1.41e5" → 500. */
export function statedPrecision(text: string): number {
  const plain = text.replace(/[\s\u00a0\u202f,]/g, '');
  const m = /^[-−]?\d*(?:\.(\d*))?(?:e([-+]?\d+))?$/i.exec(plain);
  if (!m) throw new Error(`'${text}' is not a number`);
  const decimals = m[1]?.length ?? 0;
  const exponent = m[2] ? Number(m[2]) : 0;
  return 0.5 * 10 ** (exponent - decimals);
}

/** Paragraphs (runs of non-blank lines), tables and fenced blocks; a run of directive-only lines belongs to the chunk above it. */
export function chunks(lines: string[]): { chunks: Chunk[]; chunkOf: number[]; inFence: boolean[] } {
  const out: Chunk[] = [];
  const chunkOf: number[] = new Array(lines.length).fill(-1);
  const inFence: boolean[] = new Array(lines.length).fill(false);
  let i = 0;
  while (i < lines.length) {
    if (lines[i].trim() === '') {
      i++;
      continue;
    }
    const open = FENCE.exec(lines[i]);
    const first = i;
    if (open) {
      i++;
      while (i < lines.length && !lines[i].trimStart().startsWith(open[2])) i++;
      i++;
      for (let k = first; k < Math.min(i, lines.length); k++) inFence[k] = true;
      out.push({ first: first + 1, last: Math.min(i, lines.length), fenced: true });
    } else {
      while (i < lines.length && lines[i].trim() !== '' && !FENCE.exec(lines[i])) i++;
      const onlyDirectives = lines.slice(first, i).every((l) => l.replace(DIRECTIVE, '').trim() === '');
      if (onlyDirectives && out.length > 0) {
        for (let k = first; k < i; k++) chunkOf[k] = out.length - 1;
        continue;
      }
      out.push({ first: first + 1, last: i, fenced: false });
    }
    for (let k = first; k < Math.min(i, lines.length); k++) chunkOf[k] = out.length - 1;
  }
  return { chunks: out, chunkOf, inFence };
}

/** `key="…"` / `key='…'` pairs of one directive. */
function attributes(body: string, where: string): Record<string, string> {
  const out: Record<string, string> = {};
  const re = /([\w-]+)=(?:"((?:[^"\\]|\\.)*)"|'([^']*)')\s*/gy;
  let m: RegExpExecArray | null;
  let at = 0;
  while ((m = re.exec(body)) !== null) {
    const key = m[1];
    if (!KEYS.has(key)) throw new Error(`${where}: unknown figure key '${key}' (known: ${[...KEYS].join(', ')})`);
    out[key] = m[2] !== undefined ? m[2].replace(/\\"/g, '"') : m[3];
    at = re.lastIndex;
  }
  if (body.slice(at).trim() !== '') throw new Error(`${where}: cannot read figure directive at '${body.slice(at)}' (key="value" pairs)`);
  return out;
}

export function parseFigureDirectives(markdown: string, file: string): FigureDirective[] {
  const lines = markdown.split('\n');
  const { chunkOf, inFence } = chunks(lines);
  const out: FigureDirective[] = [];
  lines.forEach((text, k) => {
    if (inFence[k]) return;
    const c = chunkOf[k];
    for (const m of text.matchAll(DIRECTIVE)) {
      const where = `${file}:${k + 1}`;
      const a = attributes(m[1], where);
      if (a.value === undefined) throw new Error(`${where}: figure directive without value="…"`);
      figureNumber(a.value);
      const kinds = ['cmd', 'measured-on', 'cited', 'input'].filter((key) => a[key] !== undefined);
      if (kinds.length !== 1)
        throw new Error(`${where}: a figure directive has exactly one of cmd, measured-on, cited, input (got ${kinds.join(', ') || 'none'})`);
      if (a.cmd !== undefined && (a.path === undefined) === (a.re === undefined))
        throw new Error(`${where}: a cmd figure names where its number is: path="…" (JSON) or re="…" (stdout), one of them`);
      if (a.cmd === undefined && ['path', 're', 'tol', 'rel', 'slow'].some((key) => a[key] !== undefined))
        throw new Error(`${where}: path, re, tol, rel and slow go with cmd`);
      if (a['measured-on'] !== undefined && !/\b\d{4}-\d{2}-\d{2}\b/.test(a['measured-on']))
        throw new Error(`${where}: measured-on="${a['measured-on']}" names no date (YYYY-MM-DD; and the machine and its load)`);
      for (const key of ['cited', 'input', 'slow'])
        if (a[key] !== undefined && a[key].trim() === '') throw new Error(`${where}: ${key}="" says nothing: name the source or the reason`);
      if (a.cmd !== undefined && /(^|\s)(-o|--out|--force)(\s|=|$)|>|\btee\b/.test(a.cmd))
        throw new Error(`${where}: cmd="${a.cmd}" writes files; a figure's command only prints (it runs in the repository's folder)`);
      for (const key of ['tol', 'rel']) if (a[key] !== undefined && !(Number(a[key]) >= 0)) throw new Error(`${where}: ${key}="${a[key]}" is not a number ≥ 0`);
      out.push({
        file,
        line: k + 1,
        value: a.value,
        cmd: a.cmd,
        path: a.path,
        re: a.re,
        scale: a.scale !== undefined ? Number(a.scale) : undefined,
        tol: a.tol !== undefined ? Number(a.tol) : undefined,
        rel: a.rel !== undefined ? Number(a.rel) : undefined,
        slow: a.slow,
        measuredOn: a['measured-on'],
        cited: a.cited,
        input: a.input,
        chunk: c,
      });
    }
  });
  return out;
}

const NUM = String.raw`[-−]?\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d+)?(?![\d])|[-−]?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d])|[-−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?`;
const SEP = String.raw`\s*(?:,|/|–|\bagainst\b|\band\b|\bto\b|\bor\b)\s*`;
const UNIT = String.raw`(?:M€|k€|€/MWh|€|EUR\b|/MWh\b|MWh\b|GWh\b|kWh\b|TWh\b)`;
const FIGURE = new RegExp(String.raw`(?<![\w.])((?:(?:${NUM})${SEP})*(?:${NUM}))\s?(${UNIT})`, 'g');
const ONE = new RegExp(NUM, 'g');

const HEADER_UNIT = new RegExp(String.raw`\((${UNIT})\)`);
/** A cell that is one number (bold or not), perhaps with a parenthesis after it: not a formula. */
const CELL_NUMBER = new RegExp(String.raw`^[*_\s]*(${NUM})[*_]*(?:\s+\([^()]*\))?\s*$`);

/** The cells of a table row (`| a | b |`), trimmed. */
function tableCells(line: string): string[] {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((c) => c.trim());
}

/**
 * Every number followed by an energy or money unit (and the numbers listed before it), with its
 * line; and in a table whose column header names such a unit in parentheses (`AEP (MWh)`,
 * `LCOE (€/MWh)`), the number each cell of that column starts with.
 */
export function scanFigures(markdown: string, file: string): ScannedFigure[] {
  const lines = markdown.split('\n');
  const { chunkOf, inFence } = chunks(lines);
  const out: ScannedFigure[] = [];
  let columns: (string | null)[] | null = null;
  lines.forEach((raw, k) => {
    const text = raw.replace(DIRECTIVE, (m) => ' '.repeat(m.length));
    for (const m of text.matchAll(FIGURE)) {
      for (const n of m[1].matchAll(ONE)) out.push({ file, line: k + 1, text: n[0], unit: m[2], chunk: chunkOf[k] });
    }
    const isRow = !inFence[k] && /^\s*\|/.test(text);
    if (!isRow) {
      columns = null;
      return;
    }
    if (columns === null) {
      // A header row when the next line is the delimiter row.
      if (k + 1 < lines.length && /^\s*\|?\s*:?-{3,}/.test(lines[k + 1])) columns = tableCells(text).map((c) => HEADER_UNIT.exec(c)?.[1] ?? null);
      return;
    }
    if (/^\s*\|?\s*:?-{3,}/.test(text)) return;
    tableCells(text).forEach((cell, c) => {
      const unit = columns![c];
      if (!unit) return;
      // A figure the unit follows in the cell is already scanned above.
      if (new RegExp(String.raw`${UNIT}`).test(cell)) return;
      const n = CELL_NUMBER.exec(cell);
      if (n) out.push({ file, line: k + 1, text: n[1], unit, chunk: chunkOf[k] });
    });
  });
  return out;
}

/** The text of a chunk with its directives blanked (where a directive's value must occur). */
export function chunkText(markdown: string, chunk: number): string {
  const lines = markdown.split('\n');
  const { chunks: cs } = chunks(lines);
  return lines
    .slice(cs[chunk].first - 1, cs[chunk].last)
    .join('\n')
    .replace(DIRECTIVE, ' ');
}

/** Whether `text` states the number `value` (as a whole number, not part of a longer one). */
export function statesNumber(text: string, value: string): boolean {
  const want = figureNumber(value);
  for (const m of text.matchAll(new RegExp(`(?<![\\w.])(?:${NUM})(?![\\w])`, 'g'))) {
    try {
      if (figureNumber(m[0]) === want && statedPrecision(m[0]) === statedPrecision(value)) return true;
    } catch {
      /* not a number */
    }
  }
  return false;
}

/** The number at `path` ("economics.lcoe", "rows[2].aep_mwh") of a parsed JSON value. */
export function jsonAt(value: unknown, path: string): number {
  let v: unknown = value;
  for (const part of path.split(/\.|(?=\[)/).filter(Boolean)) {
    const index = /^\[(\d+)\]$/.exec(part);
    if (v === null || typeof v !== 'object') throw new Error(`no '${part}' in the output (path ${path})`);
    v = index ? (v as unknown[])[Number(index[1])] : (v as Record<string, unknown>)[part];
  }
  if (typeof v !== 'number') throw new Error(`path ${path} is ${JSON.stringify(v)}, not a number`);
  return v;
}

/** The number a measured figure's command printed, from its stdout. */
export function measuredNumber(d: FigureDirective, stdout: string): number {
  return printedNumber(d, stdout) * (d.scale ?? 1);
}

function printedNumber(d: FigureDirective, stdout: string): number {
  if (d.path !== undefined) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(stdout);
    } catch {
      throw new Error(`\`${d.cmd}\` did not print JSON (path="${d.path}" needs --json)`);
    }
    return jsonAt(parsed, d.path);
  }
  const m = new RegExp(d.re!).exec(stdout);
  if (!m || m[1] === undefined) throw new Error(`\`${d.cmd}\`: re="${d.re}" found nothing in its stdout`);
  return figureNumber(m[1]);
}

/** The tolerance a measured figure is checked to, and its words for a message. */
export function tolerance(d: FigureDirective, measured: number): { abs: number; says: string } {
  if (d.tol !== undefined) return { abs: d.tol, says: `tol ${d.tol}` };
  if (d.rel !== undefined) return { abs: d.rel * Math.abs(measured), says: `rel ${d.rel}` };
  const half = statedPrecision(d.value);
  return { abs: half * (1 + 1e-9), says: `to the digits stated (±${half})` };
}
