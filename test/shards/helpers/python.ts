/**
 * Test helper: find a Python 3 with h5py (Debian's python3-h5py) and run scripts with it.
 * Python is only an independent reader/writer for interoperability tests, never a runtime
 * dependency. Tests that need it skip with H5PY_SKIP_MESSAGE when it is missing.
 */
import { execFileSync, spawnSync } from 'node:child_process';

export const H5PY_SKIP_MESSAGE =
  'python3 with h5py not found (apt-get install -y python3-h5py hdf5-tools; or set WFLO_PYTHON); h5py interoperability subtests skipped';
export const H5DUMP_SKIP_MESSAGE = 'h5dump not found (apt-get install -y hdf5-tools); h5dump subtests skipped';

let cachedPython: string | null | undefined;

/** A python executable that can `import h5py`, or null. */
export function h5pyPython(): string | null {
  if (cachedPython !== undefined) return cachedPython;
  const candidates = [process.env.WFLO_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => !!c);
  cachedPython = null;
  for (const candidate of candidates) {
    const probe = spawnSync(candidate, ['-c', 'import h5py, numpy'], { stdio: 'ignore' });
    if (probe.status === 0) {
      cachedPython = candidate;
      break;
    }
  }
  return cachedPython;
}

/** Whether h5dump is on PATH. */
export function hasH5dump(): boolean {
  return spawnSync('h5dump', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Run a python script (source text) with args and optional stdin; returns stdout. Throws on failure. */
export function runPython(script: string, args: string[] = [], input?: string): string {
  const python = h5pyPython();
  if (!python) throw new Error(H5PY_SKIP_MESSAGE);
  return execFileSync(python, ['-c', script, ...args], { input, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
}

/**
 * Python source that dumps an HDF5 file as JSON: every attribute and dataset with its numpy
 * dtype, shape and values (NaN as the string "NaN", bytes decoded as ASCII).
 */
export const DUMP_H5_SCRIPT = String.raw`
import h5py, json, sys, math
import numpy as np

def py(v):
    if isinstance(v, bytes):
        return v.decode('ascii')
    if isinstance(v, h5py.Reference):
        # Dimension-scale bookkeeping (DIMENSION_LIST, REFERENCE_LIST) refers to datasets: their paths.
        return f[v].name if v else None
    if isinstance(v, np.ndarray):
        return [py(x) for x in v.tolist()] if v.dtype.kind != 'S' else [x.decode('ascii') for x in v.ravel().tolist()]
    if isinstance(v, (list, tuple)):
        return [py(x) for x in v]
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return 'NaN'
    if isinstance(v, bytes):
        return v.decode('ascii')
    return v

def attrs_of(obj):
    out = {}
    for k in obj.attrs.keys():
        aid = obj.attrs.get_id(k)
        out[k] = {'dtype': aid.dtype.str, 'value': py(obj.attrs[k])}
    return out

def walk(group, out, prefix):
    for k, v in group.items():
        name = prefix + k
        if isinstance(v, h5py.Dataset):
            out['datasets'][name] = {'dtype': v.dtype.str, 'shape': list(v.shape), 'attrs': attrs_of(v), 'value': py(v[()])}
        else:
            out['groups'][name] = {'attrs': attrs_of(v)}
            walk(v, out, name + '/')

f = h5py.File(sys.argv[1], 'r')
out = {'attrs': attrs_of(f), 'datasets': {}, 'groups': {}}
walk(f, out, '')
print(json.dumps(out))
`;

export interface H5pyDump {
  attrs: Record<string, { dtype: string; value: unknown }>;
  datasets: Record<string, { dtype: string; shape: number[]; attrs: Record<string, { dtype: string; value: unknown }>; value: unknown }>;
  groups: Record<string, { attrs: Record<string, { dtype: string; value: unknown }> }>;
}

/** Read a whole HDF5 file with h5py. */
export function dumpWithH5py(path: string): H5pyDump {
  return JSON.parse(runPython(DUMP_H5_SCRIPT, [path])) as H5pyDump;
}
