/**
 * The `layouts_*` requests of `wflo serve --stdio` (docs/python.md): a wflo `layouts.h5` read with
 * wflo's own reader (io/hdf5/layoutsReader.ts: the same checks, the same one-line refusal of a file
 * that is not a layouts file) and handed over as binary columns, so a client needs no HDF5 library
 * (Python's `wflo.read_layouts`). `layouts_open` gives the file's shape and attributes; each
 * `layouts_rows` the numeric columns of the next rows as float64 arrays (int32 and int64 values
 * are whole numbers, exact in float64 up to 2^53: anything beyond is refused, not rounded) and the
 * text columns in the header, as many rows as fit in one frame; `layouts_definitions` the
 * /farms and /types definitions as JSON text in pieces; `layouts_close` releases the file.
 */
import { InputError, WfloError } from '../util/errors.js';
import type { LayoutsFileReader } from '../io/hdf5/layoutsReader.js';
import { metricNameOf, type ColumnSpec } from '../io/hdf5/layoutsSchema.js';

/** A response (session.ts's Reply). */
interface Reply {
  header: Record<string, unknown>;
  arrays?: Record<string, Float64Array>;
}

/** Each kind's header fields and arrays (merged into session.ts's table). */
export const LAYOUTS_KINDS: Record<string, { fields: string[]; arrays: string[] }> = {
  layouts_open: { fields: ['file'], arrays: [] },
  layouts_rows: { fields: ['handle', 'start'], arrays: [] },
  layouts_definitions: { fields: ['handle', 'offset'], arrays: [] },
  layouts_close: { fields: ['handle'], arrays: [] },
};

/** Files one session may hold open at once. */
const MAX_OPEN_FILES = 64;
/** One array's limit in values (frames.ts: 8 000 000 bytes). */
const MAX_VALUES = 1_000_000;
/** Bytes of text (task ids, spec hashes, sources) one response header carries, below the 64 KiB limit. */
const TEXT_BUDGET = 48 * 1024;
/** Characters of definitions JSON per response (at most 6 bytes each once escaped: < 64 KiB). */
const DEFINITION_CHARS = 8000;
const TEXT_COLUMNS = new Set(['task_id', 'spec_hash', 'source']);

interface OpenFile {
  reader: LayoutsFileReader;
  columns: ColumnSpec[];
  definitions: string | null;
  /** Rows the previous layouts_rows response carried: the next one reads about that many, not rows the header could not carry. */
  lastCount: number | null;
}

/** The columns a file holds (a column newer than its format version is absent, as h5py sees it). */
function columnsOf(reader: LayoutsFileReader): ColumnSpec[] {
  return reader.info.columns.filter((c) => (c.since ?? 1) <= reader.info.formatVersion || metricNameOf(c) !== null);
}

/** Values per row of a numeric column ([Tmax, 2] layouts, [Tmax] turbine types, else 1). */
function rowShape(spec: ColumnSpec, tmax: number): number[] {
  return spec.kind === 'xy' ? [tmax, 2] : spec.kind === 'per-turbine' ? [tmax] : [];
}

export class LayoutsRequests {
  private files = new Map<number, OpenFile>();
  private nextHandle = 1;

  /** The reply to one layouts request (the header's fields were checked against LAYOUTS_KINDS). */
  async reply(kind: string, header: Record<string, unknown>, base: Record<string, unknown>): Promise<Reply> {
    switch (kind) {
      case 'layouts_open':
        return { header: { ...base, ...(await this.open(header.file)) } };
      case 'layouts_rows':
        return this.rows(this.fileOf(kind, header.handle), count(kind, 'start', header.start), base);
      case 'layouts_definitions':
        return { header: { ...base, ...this.definitions(this.fileOf(kind, header.handle), count(kind, 'offset', header.offset)) } };
      default: {
        // layouts_close
        const handle = this.handleOf(kind, header.handle);
        this.files.get(handle)!.reader.close();
        this.files.delete(handle);
        return { header: base };
      }
    }
  }

  private async open(file: unknown): Promise<Record<string, unknown>> {
    if (typeof file !== 'string' || file.length === 0 || file.length > 4096) throw new InputError('layouts_open.file: expected the path of a layouts.h5 file');
    if (this.files.size >= MAX_OPEN_FILES) throw new InputError(`layouts_open: ${MAX_OPEN_FILES} files are open; close some first`);
    // Loaded on the first request: an engine that never reads a file never loads the HDF5 runtime.
    const { LayoutsFileReader } = await import('../io/hdf5/layoutsReader.js');
    const reader = await LayoutsFileReader.open(file);
    const columns = columnsOf(reader);
    const handle = this.nextHandle++;
    this.files.set(handle, { reader, columns, definitions: null, lastCount: null });
    const { info } = reader;
    return {
      handle,
      file,
      rows: info.rows,
      max_turbines: info.maxTurbines,
      format_version: info.formatVersion,
      attributes: info.attributes,
      columns: columns.map((c) => ({ name: c.name, kind: c.kind, ...(c.units ? { units: c.units } : {}), description: c.description })),
      metric_names: info.metricNames,
    };
  }

  /**
   * Rows [start, start + count): numeric columns as arrays named by the column (`metrics`: the
   * metric columns side by side, [count, metrics], in `metric_names` order), text columns as lists.
   */
  private rows(f: OpenFile, start: number, base: Record<string, unknown>): Reply {
    const { reader, columns } = f;
    const total = reader.rows;
    if (start > total) throw new InputError(`layouts_rows.start: ${start} is past the file's ${total} rows`);
    const tmax = reader.info.maxTurbines;
    const metrics = columns.filter((c) => metricNameOf(c) !== null);
    const widest = Math.max(1, 2 * tmax, metrics.length);
    const guess = f.lastCount === null ? 4096 : Math.ceil(f.lastCount * 1.25) + 1;
    let end = Math.min(total, start + Math.max(1, Math.floor(MAX_VALUES / widest)), start + 4096, start + guess);
    const slice = reader.readSlice(start, end);
    // As many rows as the header can carry the text of (at least one: 3 entries of at most 256 bytes, escaped).
    const text = columns.filter((c) => TEXT_COLUMNS.has(c.name)).map((c) => ({ spec: c, values: slice.column(c) as string[] }));
    let bytes = 0;
    for (let row = 0; row < end - start; row++) {
      for (const t of text) bytes += Buffer.byteLength(JSON.stringify(t.values[row])) + 1;
      if (bytes > TEXT_BUDGET && row > 0) {
        end = start + row;
        break;
      }
    }
    const n = end - start;
    f.lastCount = n;
    const arrays: Record<string, Float64Array> = {};
    for (const spec of columns) {
      if (TEXT_COLUMNS.has(spec.name) || metricNameOf(spec) !== null) continue;
      const perRow = rowShape(spec, tmax).reduce((a, b) => a * b, 1);
      arrays[spec.name] = asFloat64(spec.name, start, perRow, slice.column(spec) as Float64Array | Int32Array | BigInt64Array, n * perRow);
    }
    if (metrics.length > 0) {
      const side = new Float64Array(n * metrics.length);
      metrics.forEach((spec, m) => {
        const values = slice.column(spec) as Float64Array;
        for (let row = 0; row < n; row++) side[row * metrics.length + m] = values[row];
      });
      arrays.metrics = side;
    }
    const strings = Object.fromEntries(text.map((t) => [t.spec.name, t.values.slice(0, n)]));
    return { header: { ...base, start, count: n, text: strings }, arrays };
  }

  private definitions(f: OpenFile, offset: number): Record<string, unknown> {
    f.definitions ??= JSON.stringify(f.reader.definitions());
    const all = f.definitions;
    if (offset > all.length) throw new InputError(`layouts_definitions.offset: ${offset} is past the ${all.length} characters`);
    let end = Math.min(all.length, offset + DEFINITION_CHARS);
    const last = all.charCodeAt(end - 1);
    if (end < all.length && last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    return { offset, text: all.slice(offset, end), total_chars: all.length };
  }

  private handleOf(kind: string, handle: unknown): number {
    if (typeof handle !== 'number' || !Number.isSafeInteger(handle) || !this.files.has(handle)) {
      throw new InputError(
        `${kind}.handle: ${typeof handle === 'number' && Number.isFinite(handle) ? `no open layouts file ${handle}` : 'expected the handle a layouts_open response gave'}`,
      );
    }
    return handle;
  }

  private fileOf(kind: string, handle: unknown): OpenFile {
    return this.files.get(this.handleOf(kind, handle))!;
  }
}

/** A whole number >= 0 of a request (start, offset). */
function count(kind: string, field: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new InputError(`${kind}.${field}: expected a whole number >= 0`);
  return value;
}

/** The first `n` values of a numeric column as float64; an int64 beyond 2^53 is refused (float64 would round it). */
function asFloat64(name: string, start: number, perRow: number, data: Float64Array | Int32Array | BigInt64Array, n: number): Float64Array {
  if (data instanceof Float64Array) return data.subarray(0, n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = data[i];
    if (typeof v === 'bigint' && (v > BigInt(Number.MAX_SAFE_INTEGER) || v < -BigInt(Number.MAX_SAFE_INTEGER))) {
      throw new WfloError(`/${name}[${start + Math.floor(i / perRow)}]: ${v} is beyond 2^53 and cannot travel as float64 exactly; read it with h5py`, 1);
    }
    out[i] = Number(v);
  }
  return out;
}
