/**
 * The test suite's reporter (`npm test`): node's own spec reporter, with the slowest test files
 * listed just before its summary (so the runner's summary stays the last thing printed). A file's
 * time is the sum of its top-level tests' durations, measured by the runner itself.
 */
import { Readable } from 'node:stream';
import path from 'node:path';
import { spec as Spec } from 'node:test/reporters';

const SHOWN = 8;

async function* withSlowestFiles(source) {
  const byFile = new Map();
  let listed = false;
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0 && event.data.file) {
      byFile.set(event.data.file, (byFile.get(event.data.file) ?? 0) + (event.data.details?.duration_ms ?? 0));
    }
    // The summary starts with "tests N": say which files took longest just before it.
    if (!listed && event.type === 'test:diagnostic' && event.data.nesting === 0 && /^tests \d+$/.test(event.data.message)) {
      listed = true;
      const slowest = [...byFile].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);
      const total = [...byFile.values()].reduce((s, v) => s + v, 0);
      yield {
        type: 'test:diagnostic',
        data: { nesting: 0, message: `slowest test files (of ${byFile.size}, ${(total / 1000).toFixed(0)} s of tests in all):` },
      };
      for (const [file, ms] of slowest) {
        yield { type: 'test:diagnostic', data: { nesting: 0, message: `  ${(ms / 1000).toFixed(1).padStart(6)} s  ${path.relative(process.cwd(), file)}` } };
      }
    }
    yield event;
  }
}

export default async function* reporter(source) {
  yield* Readable.from(withSlowestFiles(source)).pipe(new Spec());
}
