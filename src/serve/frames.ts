/**
 * The framing of `wflo serve --stdio` (docs/python.md, schemas/serve.v1.json): a frame is a 4-byte
 * little-endian length, that many bytes of UTF-8 JSON header, then the binary arrays the header's
 * `arrays` lists ([{name, bytes}], in order; little-endian float64, bytes a multiple of 8). The
 * decoder is incremental and bounded: a header longer than MAX_HEADER_BYTES cannot be read, so
 * the stream is out of step (a fatal frame); an array beyond MAX_ARRAY_BYTES is skipped byte by
 * byte, never buffered, and the frame is answered with an error.
 */

import os from 'node:os';

export const MAX_HEADER_BYTES = 64 * 1024;
/** One array's limit: 1 000 000 float64 values. */
export const MAX_ARRAY_BYTES = 8 * 1_000_000;
const MAX_ARRAYS = 64;
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** On a little-endian machine the wire's float64 bytes are the memory's: copied whole, not value by value. */
const LITTLE_ENDIAN = os.endianness() === 'LE';

export interface ArrayEntry {
  name: string;
  bytes: number;
}

/** One decoded frame: its header (parsed, unchecked beyond `arrays`) and its arrays by name. */
export type Frame =
  | { ok: true; header: Record<string, unknown>; arrays: Map<string, Float64Array> }
  /** A frame that could be skipped whole: answer `problem`, keep serving. */
  | { ok: false; header: Record<string, unknown> | null; problem: string; fatal: false }
  /** The stream cannot be followed past this point: answer `problem` and stop. */
  | { ok: false; header: null; problem: string; fatal: true };

/** The array list of a header, or the one-line problem with it. */
function arrayEntries(header: Record<string, unknown>): ArrayEntry[] | string {
  const list = header.arrays ?? [];
  if (!Array.isArray(list)) return 'arrays: expected a list of {name, bytes}';
  if (list.length > MAX_ARRAYS) return `arrays: at most ${MAX_ARRAYS} arrays, got ${list.length}`;
  const out: ArrayEntry[] = [];
  for (const [i, e] of list.entries()) {
    if (typeof e !== 'object' || e === null || Array.isArray(e)) return `arrays[${i}]: expected {name, bytes}`;
    const { name, bytes } = e as Record<string, unknown>;
    const extra = Object.keys(e).filter((k) => k !== 'name' && k !== 'bytes');
    if (extra.length > 0) return `arrays[${i}].${extra[0]}: unknown field (expected name, bytes)`;
    if (typeof name !== 'string' || !/^[a-z_]{1,32}$/.test(name)) return `arrays[${i}].name: expected a short lower-case name`;
    if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) return `arrays[${i}].bytes: expected a whole number of bytes ≥ 0`;
    out.push({ name, bytes });
  }
  return out;
}

/**
 * Incremental frame decoder: `push` bytes as they arrive, `next` returns each complete frame
 * (null: more bytes needed). Memory is bounded by the header and array limits.
 */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private buffered = 0;
  private state:
    | { at: 'length' }
    | { at: 'header'; bytes: number }
    | {
        at: 'arrays';
        header: Record<string, unknown>;
        entries: ArrayEntry[];
        index: number;
        arrays: Map<string, Float64Array>;
        problem: string | null;
        skip: number;
      } = { at: 'length' };

  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const out = all.subarray(0, n);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }

  next(): Frame | null {
    for (;;) {
      const s = this.state;
      if (s.at === 'length') {
        if (this.buffered < 4) return null;
        const bytes = this.take(4).readUInt32LE(0);
        if (bytes > MAX_HEADER_BYTES) {
          return {
            ok: false,
            header: null,
            fatal: true,
            problem: `frame header: ${bytes} bytes, more than the limit of ${MAX_HEADER_BYTES}; the stream cannot be followed past it`,
          };
        }
        this.state = { at: 'header', bytes };
        continue;
      }
      if (s.at === 'header') {
        if (this.buffered < s.bytes) return null;
        const raw = this.take(s.bytes);
        let header: unknown;
        try {
          header = JSON.parse(UTF8.decode(raw));
        } catch {
          return { ok: false, header: null, fatal: true, problem: 'frame header: not UTF-8 JSON; the stream cannot be followed past it' };
        }
        if (typeof header !== 'object' || header === null || Array.isArray(header)) {
          return { ok: false, header: null, fatal: true, problem: 'frame header: expected a JSON object; the stream cannot be followed past it' };
        }
        const h = header as Record<string, unknown>;
        const entries = arrayEntries(h);
        if (typeof entries === 'string')
          return { ok: false, header: null, fatal: true, problem: `frame header: ${entries}; the stream cannot be followed past it` };
        this.state = { at: 'arrays', header: h, entries, index: 0, arrays: new Map(), problem: null, skip: 0 };
        continue;
      }
      // Arrays: read each one, or skip it when it breaks a rule (the frame is then answered with the first problem).
      if (s.skip > 0) {
        const n = Math.min(s.skip, this.buffered);
        if (n === 0) return null;
        this.take(n);
        s.skip -= n;
        if (s.skip > 0) return null;
        s.index++;
        continue;
      }
      if (s.index === s.entries.length) {
        this.state = { at: 'length' };
        return s.problem === null ? { ok: true, header: s.header, arrays: s.arrays } : { ok: false, header: s.header, problem: s.problem, fatal: false };
      }
      const e = s.entries[s.index];
      const problem =
        e.bytes > MAX_ARRAY_BYTES
          ? `${e.name}: ${e.bytes} bytes, more than the limit of ${MAX_ARRAY_BYTES} (${MAX_ARRAY_BYTES / 8} numbers)`
          : e.bytes % 8 !== 0
            ? `${e.name}: ${e.bytes} bytes, not a whole number of float64 values (8 bytes each)`
            : s.arrays.has(e.name)
              ? `${e.name}: given twice`
              : null;
      if (problem !== null || s.problem !== null) {
        s.problem ??= problem;
        s.skip = e.bytes;
        if (s.skip === 0) s.index++;
        continue;
      }
      if (this.buffered < e.bytes) return null;
      const raw = this.take(e.bytes);
      const values = new Float64Array(e.bytes / 8);
      if (LITTLE_ENDIAN) new Uint8Array(values.buffer).set(raw);
      else for (let i = 0; i < values.length; i++) values[i] = raw.readDoubleLE(i * 8);
      s.arrays.set(e.name, values);
      s.index++;
    }
  }
}

/**
 * One frame's bytes: the header (its `arrays` filled in from `arrays`) and the arrays, little-endian,
 * written into one buffer of the frame's size (no intermediate buffers: this runs once per response).
 */
export function encodeFrame(header: Record<string, unknown>, arrays: Record<string, Float64Array> = {}): Buffer {
  const names = Object.keys(arrays);
  const full = names.length > 0 ? { ...header, arrays: names.map((name) => ({ name, bytes: arrays[name].length * 8 })) } : header;
  const json = JSON.stringify(full);
  const jsonBytes = Buffer.byteLength(json, 'utf8');
  let size = 4 + jsonBytes;
  for (const name of names) size += arrays[name].length * 8;
  const out = Buffer.allocUnsafe(size);
  out.writeUInt32LE(jsonBytes, 0);
  out.write(json, 4, 'utf8');
  let at = 4 + jsonBytes;
  for (const name of names) {
    const a = arrays[name];
    if (LITTLE_ENDIAN) out.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), at);
    else for (let i = 0; i < a.length; i++) out.writeDoubleLE(a[i], at + i * 8);
    at += a.length * 8;
  }
  return out;
}
