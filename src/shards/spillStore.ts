/**
 * Spill files: where probe children park the records they read, so the parent holds only a
 * small index (key, AEP, digest, location) and the merge streams sorted records back from disk.
 * This is what keeps a merge of thousands of shards memory-bounded.
 *
 * A record is one little-endian Float64 block:
 *   [farmId, farmType, seed, nTurbines, aep, aepInitial, iterations, evaluations, wallS, attempts,
 *    nInitial, aepReported (NaN: none), sourceBytes, x[nTurbines], y[nTurbines], xInitial[nInitial],
 *    yInitial[nInitial], source (sourceBytes of UTF-8, padded to whole doubles)]
 * (all values are exact in a double: ids/counts are safe integers). The source bytes are written
 * and read through a byte view of the block, never as doubles, so no bit pattern is changed.
 */
import fs from 'node:fs';
import { taskIdOf, type LayoutRecord } from '../io/layoutRecord.js';
import type { SpillLocation } from './shardTypes.js';

const HEADER = 13;

export function encodeRecord(r: LayoutRecord): Float64Array {
  const n = r.x.length;
  const nInitial = r.xInitial.length;
  const source = r.source !== undefined ? Buffer.from(r.source, 'utf8') : null;
  const sourceWords = source ? Math.ceil(source.length / 8) : 0;
  const block = new Float64Array(HEADER + 2 * n + 2 * nInitial + sourceWords);
  block.set([
    r.farmId,
    r.farmType,
    r.seed,
    r.nTurbines,
    r.aep,
    r.aepInitial,
    r.iterations,
    r.evaluations,
    r.wallS,
    r.attempts,
    nInitial,
    r.aepReported ?? NaN,
    source ? source.length : -1,
  ]);
  block.set(r.x, HEADER);
  block.set(r.y, HEADER + n);
  block.set(r.xInitial, HEADER + 2 * n);
  block.set(r.yInitial, HEADER + 2 * n + nInitial);
  if (source) new Uint8Array(block.buffer, block.byteOffset + 8 * (HEADER + 2 * n + 2 * nInitial), source.length).set(source);
  return block;
}

export function decodeRecord(block: Float64Array): LayoutRecord {
  const [farmId, farmType, seed, nTurbines, aep, aepInitial, iterations, evaluations, wallS, attempts, nInitial, aepReported, sourceBytes] = block;
  const n = nTurbines;
  const at = (start: number, count: number) => block.slice(start, start + count);
  const sourceAt = 8 * (HEADER + 2 * n + 2 * nInitial);
  const source = sourceBytes >= 0 ? Buffer.from(block.buffer, block.byteOffset + sourceAt, sourceBytes).toString('utf8') : undefined;
  return {
    taskId: taskIdOf(farmId, farmType, seed),
    farmId,
    farmType,
    seed,
    nTurbines,
    aep,
    aepInitial,
    x: at(HEADER, n),
    y: at(HEADER + n, n),
    xInitial: at(HEADER + 2 * n, nInitial),
    yInitial: at(HEADER + 2 * n + nInitial, nInitial),
    iterations,
    evaluations,
    wallS,
    attempts,
    ...(Number.isNaN(aepReported) ? {} : { aepReported }),
    ...(source !== undefined ? { source } : {}),
  };
}

/** Append-only writer used by one probe child. */
export class SpillWriter {
  private readonly fd: number;
  private position = 0;

  constructor(readonly path: string) {
    this.fd = fs.openSync(path, 'w');
  }

  append(record: LayoutRecord): Omit<SpillLocation, 'file'> {
    const block = encodeRecord(record);
    const bytes = new Uint8Array(block.buffer, block.byteOffset, block.byteLength);
    const offset = this.position;
    let written = 0;
    while (written < bytes.length) written += fs.writeSync(this.fd, bytes, written, bytes.length - written, offset + written);
    this.position += bytes.length;
    return { offset, length: bytes.length };
  }

  close(): void {
    fs.closeSync(this.fd);
  }
}

/** Positioned reads from the spill files of every probe child. */
export class SpillReader {
  private readonly fds = new Map<number, number>();

  constructor(private readonly pathOf: (file: number) => string) {}

  read(location: SpillLocation): LayoutRecord {
    let fd = this.fds.get(location.file);
    if (fd === undefined) {
      fd = fs.openSync(this.pathOf(location.file), 'r');
      this.fds.set(location.file, fd);
    }
    const buffer = new ArrayBuffer(location.length);
    const bytes = new Uint8Array(buffer);
    let got = 0;
    while (got < location.length) {
      const n = fs.readSync(fd, bytes, got, location.length - got, location.offset + got);
      if (n === 0)
        throw new Error(`spill file ${this.pathOf(location.file)} ends at ${location.offset + got}, record needs ${location.offset + location.length}`);
      got += n;
    }
    return decodeRecord(new Float64Array(buffer));
  }

  close(): void {
    for (const fd of this.fds.values()) fs.closeSync(fd);
    this.fds.clear();
  }
}
