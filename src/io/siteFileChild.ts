/**
 * Child process of io/siteFile.ts: opens one netCDF-4/HDF5 site file with h5wasm and prints, as
 * one JSON line, every root dataset's name, shape, attached dimension scales (netCDF dimensions)
 * and `units` attribute; then the values of the datasets named on the command line only (other
 * variables are never read), one line each, as little-endian float64 in base64: NaN and ±inf
 * arrive as they are (JSON would make them null, read as 0).
 *
 * Bounded: the values to read are counted from the declared shapes before any is read (over
 * MAX_SITE_VALUES in total: refused); the file may not reach any other file: an external link is
 * refused by its link type, and every open of another path by the HDF5 library (external raw
 * storage, a virtual dataset's source, a link the check missed) is refused at `fs.openSync` and
 * reported, so no byte of another file is read. Refusals are one line `VARIABLE: reason` on
 * stderr with exit code 2; an unreadable file exits 1 with HDF5's reason.
 *
 * A file is untrusted: a corrupt one can leave the wasm instance unusable (h5wasm issue #46), so it
 * is opened here, in a process of its own, never in the caller's.
 * Usage: node siteFileChild.js FILE NAME,NAME,…
 */
import fs from 'node:fs';
import path from 'node:path';
import { closeQuietly, loadH5, openH5Sync } from './hdf5/h5wasmRuntime.js';

/** One variable of the file as the child reports it to io/siteFile.ts. */
export interface Variable {
  name: string;
  shape: number[];
  dims: (string | null)[];
  units: string | null;
  /** Always null on the JSON line: the values of a variable read follow it, one line each (below). */
  values: null;
  numeric: boolean;
}

/**
 * Most values read from one site file, all variables together (8 bytes each once decoded): 80 MB.
 * A 500 × 500 grid of 12 sectors with Speedup, TI and the Weibull's three is 1.5·10⁷: refused;
 * 200 × 200 × 12 of all five is 2.4·10⁶.
 */
export const MAX_SITE_VALUES = 10_000_000;

class Refused extends Error {}

async function main(): Promise<void> {
  const file = fs.realpathSync(process.argv[2]);
  const wanted = new Set((process.argv[3] ?? '').split(',').filter((n) => n !== ''));
  const h5 = await loadH5();
  // Every file the HDF5 library opens from now on must be the site file itself.
  const foreign: string[] = [];
  const openSync = fs.openSync;
  fs.openSync = ((p: fs.PathLike, ...rest: unknown[]): number => {
    const asked = path.resolve(String(p));
    if (asked !== file) {
      foreign.push(asked);
      const err = new Error(`EACCES: refused to open ${asked}`) as NodeJS.ErrnoException;
      err.code = 'EACCES';
      throw err;
    }
    return (openSync as (...a: unknown[]) => number)(p, ...rest);
  }) as typeof fs.openSync;
  const refuseForeign = (name: string): void => {
    if (foreign.length > 0)
      throw new Refused(
        `${name}: its data are in another file (${foreign[0]}: external storage or a link): refused unread; a site file must hold its own data`,
      );
  };
  let f: ReturnType<typeof openH5Sync> | undefined;
  try {
    f = openH5Sync(h5, file, 'r');
    refuseForeign('(file)');
    const out: Variable[] = [];
    const toRead: { v: Variable; entity: InstanceType<typeof h5.Dataset>; count: number }[] = [];
    for (const name of f.keys()) {
      const link = f.get_external_link(`/${name}`) as { filename?: string; obj_path?: string };
      if (link.filename !== undefined)
        throw new Refused(`${name}: an external link to ${link.filename}:${link.obj_path}: refused unread; a site file must hold its own data`);
      const entity = f.get(name);
      refuseForeign(name);
      if (!(entity instanceof h5.Dataset)) continue;
      const shape = (entity.shape ?? []).map(Number);
      const dims: (string | null)[] = shape.map((_, i) => {
        const scales = entity.get_attached_scales(i) as string[] | undefined;
        return scales && scales.length > 0 ? scales[0].replace(/^\//, '') : null;
      });
      const unitsAttr = entity.attrs.units;
      const units = unitsAttr ? String(unitsAttr.value) : null;
      refuseForeign(name);
      const count = shape.reduce((a, b) => a * b, 1);
      const dtype = String(entity.dtype);
      const numeric = /^<?[fdi]|^[<>]?[fiu]\d|float|int/.test(dtype) && !/S|str/i.test(dtype);
      const v: Variable = { name, shape, dims, units, values: null, numeric };
      out.push(v);
      if (numeric && wanted.has(name)) toRead.push({ v, entity, count });
    }
    // The total is known from the shapes before anything is read.
    const total = toRead.reduce((s, r) => s + r.count, 0);
    if (total > MAX_SITE_VALUES) {
      const largest = toRead.reduce((a, b) => (b.count > a.count ? b : a));
      throw new Refused(
        `${largest.v.name}: the variables read hold ${total} values (${largest.v.name}: ${largest.v.shape.join(' × ')}), over the limit of ${MAX_SITE_VALUES} for a site file: refused before reading`,
      );
    }
    // Line 1: the variables; then one line of values per variable read, in the order of `read`,
    // each written as soon as it is read (stdout to a pipe is synchronous): one variable's values
    // are held at a time.
    process.stdout.write(JSON.stringify({ variables: out, read: toRead.map((r) => r.v.name) }) + '\n');
    for (const { v, entity } of toRead) {
      const raw = entity.value as unknown;
      refuseForeign(v.name);
      const values =
        raw instanceof Float64Array
          ? raw
          : typeof raw === 'number'
            ? Float64Array.of(raw)
            : typeof raw === 'bigint'
              ? Float64Array.of(Number(raw))
              : Float64Array.from(raw as ArrayLike<number | bigint>, Number);
      process.stdout.write(Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString('base64') + '\n');
    }
  } finally {
    closeQuietly(f);
    fs.openSync = openSync;
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err instanceof Error ? err.message : String(err)).split('\n')[0]}\n`);
  process.exit(err instanceof Refused ? 2 : 1);
});
