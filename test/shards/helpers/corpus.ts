/**
 * Test helper: builds worker-file corpora with h5py (an independent HDF5 writer, as the
 * researchers' pipelines use), in both shapes, plus byte-level damage done here in TS
 * (truncation, random bytes, 0-byte files, a smashed object header).
 */
import fs from 'node:fs';
import { runPython } from './python.js';
import type { LayoutRecord } from '../../../src/io/layoutRecord.js';

/** One record as the python writer takes it (aep null = NaN). */
export interface PyRecord {
  farm: number;
  type: number;
  seed: number;
  x: number[];
  y: number[];
  aep: number | null;
  /** Group member name (default farm_<f>_type_<t>_seed_<s>). */
  key?: string;
}

export interface PyFile {
  path: string;
  shape?: 'groups' | 'rows';
  records?: PyRecord[];
  /** Write the placeholder `init` dataset (default true, as the incident's workers did). */
  init?: boolean;
  /** Groups shape: entry kind (default dataset with the AEP as attribute). */
  entry?: 'dataset' | 'group';
  /** Groups shape with entry=group: AEP as dataset or attribute. */
  aepAs?: 'dataset' | 'attr';
  /** Name of the records group (default optimized_layouts). */
  group?: string;
  /** Name of the AEP field (default aep). */
  aepName?: string;
  userblock?: number;
  libver?: 'earliest' | 'latest' | [string, string];
  /** Python run with `h` (the open h5py.File) and `np` after the records are written. */
  post?: string;
  /** Object paths whose object-header addresses to report. */
  reportAddr?: string[];
}

const WRITER = String.raw`
import h5py, json, sys
import numpy as np
spec = json.load(sys.stdin)
report = {}
for f in spec:
    kw = {}
    if f.get('userblock'):
        kw['userblock_size'] = f['userblock']
    if f.get('libver'):
        kw['libver'] = tuple(f['libver']) if isinstance(f['libver'], list) else f['libver']
    with h5py.File(f['path'], 'w', **kw) as h:
        if f.get('init', True):
            h.create_dataset('init', data=np.zeros(1))
        recs = f.get('records') or []
        aep_name = f.get('aepName') or 'aep'
        nan = lambda v: np.nan if v is None else v
        if f.get('shape') == 'groups':
            g = h.require_group(f.get('group') or 'optimized_layouts')
            for r in recs:
                key = r.get('key') or 'farm_%d_type_%d_seed_%d' % (r['farm'], r['type'], r['seed'])
                layout = np.stack([np.array(r['x'], dtype=np.float64), np.array(r['y'], dtype=np.float64)], axis=1)
                if f.get('entry', 'dataset') == 'dataset':
                    d = g.create_dataset(key, data=layout)
                    d.attrs[aep_name] = nan(r['aep'])
                else:
                    sub = g.create_group(key)
                    sub.create_dataset('layout', data=layout)
                    if f.get('aepAs', 'dataset') == 'dataset':
                        sub.create_dataset(aep_name, data=nan(r['aep']))
                    else:
                        sub.attrs[aep_name] = nan(r['aep'])
        elif f.get('shape') == 'rows':
            n = len(recs)
            tmax = max([len(r['x']) for r in recs] + [1])
            layout = np.full((n, tmax, 2), np.nan)
            for i, r in enumerate(recs):
                layout[i, :len(r['x']), 0] = r['x']
                layout[i, :len(r['y']), 1] = r['y']
            h.create_dataset('farm_id', data=np.array([r['farm'] for r in recs], dtype=np.int64))
            h.create_dataset('farm_type', data=np.array([r['type'] for r in recs], dtype=np.int64))
            h.create_dataset('seed', data=np.array([r['seed'] for r in recs], dtype=np.int64))
            h.create_dataset('layout', data=layout)
            h.create_dataset(aep_name, data=np.array([nan(r['aep']) for r in recs], dtype=np.float64))
        if f.get('post'):
            exec(f['post'], {'h': h, 'np': np, 'h5py': h5py})
    if f.get('reportAddr'):
        with h5py.File(f['path'], 'r') as h:
            report[f['path']] = {p: h5py.h5o.get_info(h[p].id).addr for p in f['reportAddr']}
print(json.dumps(report))
`;

/** Write the files with h5py; returns requested object-header addresses by file and object path. */
export function writeWithH5py(files: PyFile[]): Record<string, Record<string, number>> {
  return JSON.parse(runPython(WRITER, [], JSON.stringify(files))) as Record<string, Record<string, number>>;
}

/** A LayoutRecord as a python record. */
export function toPy(r: LayoutRecord, aep: number | null = r.aep): PyRecord {
  return { farm: r.farmId, type: r.farmType, seed: r.seed, x: Array.from(r.x), y: Array.from(r.y), aep };
}

/** Cut a file to `bytes`. */
export function truncateFile(path: string, bytes: number): void {
  fs.truncateSync(path, bytes);
}

/** Overwrite `length` bytes at `offset` with 0xA5 (a smashed object header or superblock). */
export function smashBytes(path: string, offset: number, length: number): void {
  const fd = fs.openSync(path, 'r+');
  try {
    fs.writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset);
  } finally {
    fs.closeSync(fd);
  }
}

/** Deterministic pseudo-random bytes (not HDF5). */
export function writeNoise(path: string, bytes: number, seed: number): void {
  const buffer = Buffer.alloc(bytes);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < bytes; i++) {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    buffer[i] = state & 0xff;
  }
  fs.writeFileSync(path, buffer);
}
