/**
 * Declared sizes against reality: an HDF5 dataset says how many values it holds (its shape), and
 * reading it costs time and memory in proportion to that claim, whether or not the bytes exist.
 * A dataset created with a huge shape and never written (a preallocated chunked dataset, or a
 * contiguous one whose storage was never allocated) reads back as fill values: a 2.5 KB file can
 * claim 10^12 rows. Such a dataset is refused before any value is read, in one line.
 *
 * Plausible means: at most COMPRESSION_CEILING times the file's size plus SIZE_SLACK_BYTES
 * (deflate, the compressor every HDF5 build has, cannot exceed about 1032:1; the slack lets a
 * small file preallocate a few thousand rows), and, for row datasets, at most `--max-rows` rows.
 * Used by the shard doctor (src/shards/) on other pipelines' files and by the layouts reader on
 * wflo's own format (a layouts.h5 edited or forged to claim rows it does not hold).
 */

/** Deflate's largest possible compression ratio is about 1032:1; nothing real gets past this. */
export const COMPRESSION_CEILING = 1024;

/** Bytes any file may declare beyond COMPRESSION_CEILING × its size (small preallocations). */
export const SIZE_SLACK_BYTES = 1024 * 1024;

/** Default `--max-rows` of the shard doctor: rows per row dataset (a 10^6-task campaign's file has 10^6). */
export const DEFAULT_MAX_ROWS = 10_000_000;

/** The most bytes of values a file of `fileBytes` bytes can plausibly hold. */
export function plausibleBytes(fileBytes: number): number {
  return fileBytes * COMPRESSION_CEILING + SIZE_SLACK_BYTES;
}

/** `1000000000000` -> `1e12` (exact integers below 10^7 as they are). */
function count(n: number): string {
  return n < 1e7
    ? String(n)
    : n
        .toExponential(2)
        .replace(/\.?0+e/, 'e')
        .replace('e+', 'e');
}

export interface DeclaredDataset {
  /** How messages name it, e.g. `layout` or `results/aep`. */
  name: string;
  shape: readonly number[];
  /** Bytes per value (HDF5's element size). */
  itemBytes: number;
}

/**
 * Why `dataset` must not be read, or null. `maxRows` applies to row datasets (their first
 * dimension counts records); pass undefined for a dataset that is one record's.
 */
export function declaredSizeProblem(dataset: DeclaredDataset, fileBytes: number, maxRows?: number): string | null {
  const { name, shape } = dataset;
  if (shape.some((d) => !Number.isFinite(d) || d < 0)) return `dataset ${name} declares shape (${shape.join(', ')}): not a size`;
  const values = shape.reduce((a, b) => a * b, 1);
  const bytes = values * Math.max(1, dataset.itemBytes);
  const rows = shape.length === 0 ? 1 : shape[0];
  if (bytes > plausibleBytes(fileBytes)) {
    return (
      `dataset ${name} declares ${shape.map(count).join(' × ')} values (${count(bytes)} bytes) in a file of ${count(fileBytes)} bytes: ` +
      'they were never written (a preallocated or forged size); not read'
    );
  }
  if (maxRows !== undefined && rows > maxRows) {
    return `dataset ${name} declares ${count(rows)} rows, more than --max-rows ${count(maxRows)}; not read`;
  }
  return null;
}
