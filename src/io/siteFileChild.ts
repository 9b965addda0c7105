/**
 * Child process of io/siteFile.ts: opens one netCDF-4/HDF5 site file with h5wasm and prints, as
 * one JSON line, every dataset's name, shape, attached dimension scales (netCDF dimensions),
 * `units` attribute and values (numeric datasets of at most 10⁷ values; others as shape only).
 * A file is untrusted: a corrupt one can leave the wasm instance unusable (h5wasm issue #46), so it
 * is opened here, in a process of its own, never in the caller's. Usage: node siteFileChild.js FILE
 */
import { closeQuietly, loadH5, openH5Sync } from './hdf5/h5wasmRuntime.js';

/** One variable of the file as the child reports it to io/siteFile.ts. */
export interface Variable {
  name: string;
  shape: number[];
  dims: (string | null)[];
  units: string | null;
  values: number[] | null;
}

const MAX_VALUES = 10_000_000;

async function main(): Promise<void> {
  const file = process.argv[2];
  const h5 = await loadH5();
  let f: ReturnType<typeof openH5Sync> | undefined;
  try {
    f = openH5Sync(h5, file, 'r');
    const out: Variable[] = [];
    for (const name of f.keys()) {
      const entity = f.get(name);
      if (!(entity instanceof h5.Dataset)) continue;
      const shape = (entity.shape ?? []).map(Number);
      const dims: (string | null)[] = shape.map((_, i) => {
        const scales = entity.get_attached_scales(i) as string[] | undefined;
        return scales && scales.length > 0 ? scales[0].replace(/^\//, '') : null;
      });
      const unitsAttr = entity.attrs.units;
      const units = unitsAttr ? String(unitsAttr.value) : null;
      const count = shape.reduce((a, b) => a * b, 1);
      const dtype = String(entity.dtype);
      const numeric = /^<?[fdi]|^[<>]?[fiu]\d|float|int/.test(dtype) && !/S|str/i.test(dtype);
      let values: number[] | null = null;
      if (numeric && count <= MAX_VALUES) {
        const v = entity.value as unknown;
        values = typeof v === 'number' ? [v] : typeof v === 'bigint' ? [Number(v)] : Array.from(v as ArrayLike<number | bigint>, Number);
      }
      out.push({ name, shape, dims, units, values });
    }
    process.stdout.write(JSON.stringify({ variables: out }) + '\n');
  } finally {
    closeQuietly(f);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
