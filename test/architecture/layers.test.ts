/**
 * The architecture, checked: every file under src/ imports only from its own layer or the layers
 * before it (CONTRIBUTING.md: util → physics → geometry → cost → optimize → io → campaign → runner → shards
 * → views → cli), and no chain of imports (type-only ones included) leads back to where it started.
 * Reads the TypeScript sources as text (import and export-from statements).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LAYERS = ['util', 'physics', 'geometry', 'cost', 'optimize', 'io', 'campaign', 'runner', 'shards', 'views', 'cli'];
const here = path.dirname(fileURLToPath(import.meta.url));
// dist/test/architecture → the repository root.
const root = path.resolve(here, '..', '..', '..');
const src = path.join(root, 'src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Relative imports of a file, resolved to source paths. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /^\s*(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gm;
  for (const m of text.matchAll(re)) out.push(path.resolve(path.dirname(file), m[1].replace(/\.js$/, '.ts')));
  return out;
}

const layerOf = (file: string): string => path.relative(src, file).split(path.sep)[0].replace(/\.ts$/, '');

test('every import goes to the same layer or an earlier one', () => {
  const files = sourceFiles(src);
  assert.ok(files.length > 100, `${files.length} source files under ${src}`);
  const wrong: string[] = [];
  for (const file of files) {
    const from = LAYERS.indexOf(layerOf(file));
    if (from < 0) continue; // src/version.ts and other top-level files
    for (const target of importsOf(file)) {
      const to = LAYERS.indexOf(layerOf(target));
      if (to > from) wrong.push(`${path.relative(root, file)} imports ${path.relative(root, target)} (${LAYERS[from]} → ${LAYERS[to]})`);
    }
  }
  assert.deepEqual(wrong, []);
});

test('no import cycles', () => {
  const files = sourceFiles(src);
  const graph = new Map(files.map((f) => [f, importsOf(f).filter((t) => fs.existsSync(t))]));
  const state = new Map<string, 1 | 2>();
  const cycles: string[] = [];
  const visit = (f: string, trail: string[]): void => {
    state.set(f, 1);
    for (const t of graph.get(f) ?? []) {
      if (state.get(t) === 1) cycles.push([...trail.slice(trail.indexOf(t)), f, t].map((p) => path.relative(src, p)).join(' → '));
      else if (!state.has(t)) visit(t, [...trail, f]);
    }
    state.set(f, 2);
  };
  for (const f of files) if (!state.has(f)) visit(f, []);
  assert.deepEqual(cycles, []);
});
