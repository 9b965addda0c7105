/**
 * The overwrite rule shared by every command that writes a file the user names (`export -o`,
 * `optimize -o`, `optimize --history`, `missing -o`): an existing file is replaced only when wflo wrote it
 * (a `wflo-layouts` HDF5 file, a YAML file wflo wrote: it carries a `wflo:` block or a
 * `written by wflo` / "Written by `wflo" header, or a `--history` file: its CSV's "Written by
 * `wflo" line, its JSON's `wflo-history/` format) or when `--force` is given. Anything else is
 * somebody's data: refused with exit 2 before any work starts. A new file's folder must exist and be
 * writable (else the work would be done and then lost at the write).
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../util/errors.js';
import { LAYOUTS_FORMAT_NAME } from './hdf5/layoutsSchema.js';
import { fileTypeName, readBoundedText, readFileHead } from './boundedRead.js';

const HDF5_SIGNATURE = Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Text files larger than this are not wflo's YAML outputs (a layout of 10⁵ turbines is ~5 MB). */
const MAX_SNIFF_BYTES = 64 * 1024 * 1024;

async function writtenByWflo(file: string): Promise<boolean> {
  const head = readFileHead(file, 8);
  if (head === null) return false;
  if (head.equals(HDF5_SIGNATURE)) {
    // Loaded here: importing h5wasm compiles its wasm module, which every command would pay at start-up.
    const { openH5, closeQuietly } = await import('./hdf5/h5wasmRuntime.js');
    let h5;
    try {
      h5 = await openH5(file, 'r');
      return String(h5.attrs.format?.value ?? '') === LAYOUTS_FORMAT_NAME;
    } catch {
      return false;
    } finally {
      closeQuietly(h5);
    }
  }
  let text: string;
  try {
    text = readBoundedText(file, {}, MAX_SNIFF_BYTES);
  } catch {
    return false;
  }
  // …, or an optimization history (io/historyFile.ts: its CSV's first line, its JSON's format).
  return /^wflo:\s*$/m.test(text) || /^# (Written by `wflo |windIO .* written by wflo )/m.test(text) || text.startsWith('{"format":"wflo-history/');
}

/** Throw unless a new `file` can be made: its folder exists, is a folder and may be written (checked before any work starts). */
function checkFolderOf(file: string, flag: string): void {
  const folder = path.dirname(path.resolve(file));
  let st: fs.Stats;
  try {
    st = fs.statSync(folder);
  } catch {
    throw new InputError(`${flag} ${file}: folder ${folder} does not exist`);
  }
  if (!st.isDirectory()) throw new InputError(`${flag} ${file}: ${folder} is not a folder`);
  try {
    fs.accessSync(folder, fs.constants.W_OK);
  } catch {
    throw new InputError(`${flag} ${file}: folder ${folder} is not writable`);
  }
}

/** Throw unless `file` may be written: it does not exist (and its folder does), wflo wrote it, or `force`. */
export async function checkOverwrite(file: string, force: boolean, flag: string): Promise<void> {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    checkFolderOf(file, flag);
    return;
  }
  if (st.isDirectory()) throw new InputError(`${flag} ${file}: is a directory, expected a file name`);
  // A device or FIFO is never written through (an atomic write would replace the node itself).
  if (!st.isFile()) throw new InputError(`${flag} ${file}: is ${fileTypeName(st)}, not a regular file; expected a file name`);
  if (force) return;
  if (await writtenByWflo(file)) return;
  throw new InputError(`${flag} ${file}: the file exists and was not written by wflo; not replaced (give --force to replace it)`);
}
