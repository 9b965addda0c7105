/**
 * Child process for the "writer SIGKILLed mid-write" test: writes many rows to the target
 * slowly (small slices, a pause between batches) and prints `rows <n>` as it goes, so the
 * parent can kill it while the temp file is half written. Runs only with WFLO_TEST_CHILD=1
 * (it lives under test/ and must do nothing when a test runner imports it).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { writeLayoutsFile } from '../../../src/io/hdf5/index.js';
import { makeRecord } from './records.js';
import type { LayoutRecord } from '../../../src/io/layoutRecord.js';

async function* slowBatches(total: number): AsyncGenerator<LayoutRecord[]> {
  for (let start = 0; start < total; start += 20) {
    const batch: LayoutRecord[] = [];
    for (let seed = start; seed < Math.min(total, start + 20); seed++) batch.push(makeRecord({ farmId: 0, farmType: 0, seed, nTurbines: 8 }));
    yield batch;
    process.stdout.write(`rows ${Math.min(total, start + 20)}\n`);
    await sleep(10);
  }
}

if (process.env.WFLO_TEST_CHILD === '1') {
  const [target, total] = [process.argv[2], Number(process.argv[3])];
  await writeLayoutsFile(
    target,
    slowBatches(total),
    { campaignName: 'slow', campaignHash: 'slow', nExpected: total, complete: true, maxTurbines: 8 },
    { rowsPerSlice: 20 },
  );
  process.stdout.write('done\n');
}
