/**
 * The solve plan's seam, checked on the text of src/ and bench/: the solvers' declarations
 * (files named *Covers.ts) are imported by physics/solvePlan.ts and by one another only, so the plan
 * is their only reader; WFLO_KERNEL is read by the plan alone; physics/engineChoice.ts, the old
 * second place that chose, is gone; and the native runners and their configurations are built for
 * what the plan gives the native kernel and never return null to decline (issue 41).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// dist/test/architecture → the repository root.
const root = path.resolve(here, '..', '..', '..');
const PLAN = path.join(root, 'src', 'physics', 'solvePlan.ts');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const files = [...sourceFiles(path.join(root, 'src')), ...sourceFiles(path.join(root, 'bench'))];
const isDeclaration = (file: string): boolean => /Covers\.ts$/.test(file);
const rel = (file: string): string => path.relative(root, file);

test("the solvers' declarations are read by the solve plan only", () => {
  assert.ok(files.filter(isDeclaration).length >= 4, 'the four declarations are found');
  const readers = files.filter(
    (f) => f !== PLAN && !isDeclaration(f) && /^\s*(?:import|export)\s[^;]*?from\s+'[^']*Covers\.js'/m.test(fs.readFileSync(f, 'utf8')),
  );
  assert.deepEqual(readers.map(rel), [], 'files other than physics/solvePlan.ts importing a declaration');
});

test('WFLO_KERNEL is read by the solve plan only, and engineChoice.ts is gone', () => {
  // A benchmark may set it for a run, as a user does (bench/hub.ts); no source file but the plan reads it.
  const readers = files.filter(
    (f) => f !== PLAN && !rel(f).startsWith('bench') && /process\.env\.WFLO_KERNEL|process\.env\[['"]WFLO_KERNEL/.test(fs.readFileSync(f, 'utf8')),
  );
  assert.deepEqual(readers.map(rel), []);
  assert.equal(fs.existsSync(path.join(root, 'src', 'physics', 'engineChoice.ts')), false);
  assert.deepEqual(files.filter((f) => /engineChoice\.js/.test(fs.readFileSync(f, 'utf8'))).map(rel), []);
});

test('the native runners and configurations do not decline: none returns null', () => {
  const text = (p: string) => fs.readFileSync(path.join(root, 'src', 'physics', p), 'utf8');
  const signatures = [
    [text('nativeKernel.ts'), /export function (wakedConfig|freeStreamConfig)\([^)]*\): ([^{]+)\{/g],
    [text('wakedNative.ts'), /export function (createNativeWakedRunner)\([^)]*\): ([^{]+)\{/g],
    [text('freeStreamNative.ts'), /export function (createNativeFreeStreamRunner)\([^)]*\): ([^{]+)\{/g],
    [text('engine/freeStream.ts'), /export function (createFreeStreamNativeRunner)\([^)]*\): ([^{]+)\{/g],
    [text('aep.ts'), /export function (createNativeRunner)\([^)]*\): ([^{]+)\{/g],
  ] as const;
  let found = 0;
  for (const [source, re] of signatures) {
    for (const m of source.matchAll(re)) {
      found++;
      assert.doesNotMatch(m[2], /null/, `${m[1]} returns ${m[2].trim()}`);
    }
  }
  assert.equal(found, 6, 'every runner and configuration is found');
});
