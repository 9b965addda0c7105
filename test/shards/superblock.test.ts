/**
 * Byte-level HDF5 reading without the library: lookup3 against the published test vectors of
 * Bob Jenkins' lookup3.c, and superblock decoding against files written by h5py (HDF5 1.10)
 * in every superblock version, with and without a user block, whole and truncated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lookup3 } from '../../src/shards/lookup3.js';
import { readSuperblock, signatureOffsets, HDF5_SIGNATURE } from '../../src/shards/superblock.js';
import { checkBytes } from '../../src/shards/byteCheck.js';
import { H5PY_SKIP_MESSAGE, h5pyPython } from './helpers/python.js';
import { writeWithH5py } from './helpers/corpus.js';

function readerOf(bytes: Uint8Array) {
  return (position: number, length: number) => bytes.subarray(position, Math.min(bytes.length, position + length));
}

test('lookup3 matches the test vectors published in lookup3.c', () => {
  assert.equal(lookup3(new Uint8Array(0)), 0xdeadbeef);
  const text = new TextEncoder().encode('Four score and seven years ago');
  assert.equal(lookup3(text, 0), 0x17770551);
  assert.equal(lookup3(text, 1), 0xcd628161);
});

test('the signature is searched at 0, 512, 1024, 2048, ... (user block sizes)', () => {
  assert.deepEqual(signatureOffsets(100), [0]);
  assert.deepEqual(signatureOffsets(5000), [0, 512, 1024, 2048, 4096]);
  // Signature at 1024 in otherwise meaningless bytes: found there, and a v0 superblock decoded.
  const bytes = new Uint8Array(4096);
  bytes.set(HDF5_SIGNATURE, 1024);
  bytes[1024 + 8] = 0; // version 0
  bytes[1024 + 13] = 8; // size of offsets
  bytes[1024 + 14] = 8; // size of lengths
  new DataView(bytes.buffer).setBigUint64(1024 + 24, 1024n, true); // base address
  new DataView(bytes.buffer).setBigUint64(1024 + 24 + 16, 4000n, true); // end of file
  const result = readSuperblock(readerOf(bytes), bytes.length);
  assert.equal(result.kind, 'ok');
  assert.equal(result.kind === 'ok' && result.info.signatureOffset, 1024);
  assert.equal(result.kind === 'ok' && result.info.endOfFile, 4000);
  const cut = bytes.subarray(0, 3000);
  const truncated = readSuperblock(readerOf(cut), cut.length);
  assert.equal(truncated.kind, 'truncated');
  assert.match(
    truncated.kind === 'truncated' ? truncated.detail : '',
    /file is 3000 bytes but its superblock \(v0\) records end of file at 4000; 1000 bytes missing/,
  );
  // A signature at 700 (not a power of two >= 512) is not a valid place: no signature.
  const misplaced = new Uint8Array(2000);
  misplaced.set(HDF5_SIGNATURE, 700);
  assert.equal(readSuperblock(readerOf(misplaced), misplaced.length).kind, 'no_signature');
  // Cut inside the signature.
  assert.equal(readSuperblock(readerOf(HDF5_SIGNATURE.subarray(0, 5)), 5).kind, 'truncated');
});

test('superblocks of h5py files: versions 0, 2 and 3, user block, truncation, checksum', (t) => {
  if (!h5pyPython()) return t.skip(H5PY_SKIP_MESSAGE);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-sb-'));
  const file = (name: string) => path.join(dir, name);
  writeWithH5py([
    { path: file('v0.h5'), post: "h['x'] = np.arange(500.0)" },
    { path: file('v3.h5'), libver: 'latest', post: "h['x'] = np.arange(500.0)" },
    { path: file('ub.h5'), userblock: 512, post: "h['x'] = np.arange(500.0)" },
    { path: file('v2.h5'), libver: ['v108', 'v108'], post: "h['x'] = np.arange(10.0)" },
  ]);
  const cases: Array<[string, number, number]> = [
    ['v0.h5', 0, 0],
    ['v3.h5', 3, 0],
    ['ub.h5', 0, 512],
  ];
  for (const [name, version, userBlock] of cases) {
    const bytes = fs.readFileSync(file(name));
    const result = readSuperblock(readerOf(bytes), bytes.length);
    assert.equal(result.kind, 'ok', `${name}: ${JSON.stringify(result)}`);
    if (result.kind !== 'ok') continue;
    assert.equal(result.info.version, version, name);
    assert.equal(result.info.signatureOffset, userBlock, name);
    assert.equal(result.info.endOfFile, bytes.length, `${name}: a complete file ends where its superblock says`);
    if (version >= 2) assert.equal(result.info.checksumOk, true, `${name}: lookup3 checksum`);
    // Cut one byte short, half way and just after the superblock: all truncated.
    for (const cutAt of [bytes.length - 1, Math.floor(bytes.length / 2), userBlock + result.info.superblockLength + 1]) {
      const cut = bytes.subarray(0, cutAt);
      assert.equal(readSuperblock(readerOf(cut), cut.length).kind, 'truncated', `${name} cut at ${cutAt}`);
    }
    // Cut inside the superblock.
    const inside = bytes.subarray(0, userBlock + 20);
    assert.equal(readSuperblock(readerOf(inside), inside.length).kind, 'truncated', `${name} cut inside the superblock`);
  }
  const v2 = fs.readFileSync(file('v2.h5'));
  const v2result = readSuperblock(readerOf(v2), v2.length);
  assert.equal(v2result.kind === 'ok' && v2result.info.version, 2);
  assert.equal(v2result.kind === 'ok' && v2result.info.checksumOk, true);
  // A flipped bit in a v3 superblock's EOF address breaks the checksum: unreadable, not truncated.
  const damaged = Buffer.from(fs.readFileSync(file('v3.h5')));
  damaged[12 + 16] ^= 0x01;
  fs.writeFileSync(file('v3bad.h5'), damaged);
  const check = checkBytes(file('v3bad.h5'));
  assert.equal(check.class, 'unreadable');
  assert.match(check.detail, /checksum mismatch/);
});
