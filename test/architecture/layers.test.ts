/**
 * The architecture, checked: every file under src/ imports only from its own layer or the layers
 * before it (CONTRIBUTING.md: util → physics → geometry → cost → case → optimize → io → campaign → runner → shards
 * → views → serve → cli), and no chain of imports (type-only ones included) leads back to where it started,
 * in src/, bench/ and test/ (TypeScript: import and export-from statements, read as text) and in the
 * Python package python/wflo (its relative imports, those under TYPE_CHECKING included).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const LAYERS = ['util', 'physics', 'geometry', 'cost', 'case', 'optimize', 'io', 'campaign', 'runner', 'shards', 'views', 'serve', 'cli'];
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

/** The cycles of an import graph, each as a chain of files relative to `base`. */
function cyclesOf(graph: Map<string, string[]>, base: string): string[] {
  const state = new Map<string, 1 | 2>();
  const cycles: string[] = [];
  const visit = (f: string, trail: string[]): void => {
    state.set(f, 1);
    for (const t of graph.get(f) ?? []) {
      if (state.get(t) === 1) cycles.push([...trail.slice(trail.indexOf(t)), f, t].map((p) => path.relative(base, p)).join(' → '));
      else if (!state.has(t)) visit(t, [...trail, f]);
    }
    state.set(f, 2);
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f, []);
  return cycles;
}

const tsGraph = (files: string[]): Map<string, string[]> => new Map(files.map((f) => [f, importsOf(f).filter((t) => fs.existsSync(t))]));

test('no import cycles', () => {
  assert.deepEqual(cyclesOf(tsGraph(sourceFiles(src)), src), []);
});

test('no import cycles in bench/ and test/ either', () => {
  const files = [...sourceFiles(path.join(root, 'bench')), ...sourceFiles(path.join(root, 'test'))];
  assert.ok(files.length > 100, `${files.length} bench and test files`);
  assert.deepEqual(cyclesOf(tsGraph(files), root), []);
});

/** Relative imports of a module of the Python package (`from . import a, b`, `from .m import x`), as file paths. */
function pythonImportsOf(file: string): string[] {
  const dir = path.dirname(file);
  const out: string[] = [];
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/^\s*from\s+\.(\w*)\s+import\s+\(?([^)#\n]*)/gm)) {
    const targets = m[1] ? [m[1]] : m[2].split(',').map((n) => n.trim().split(/\s+/)[0]).filter(Boolean);
    for (const t of targets) {
      const p = path.join(dir, `${t}.py`);
      if (fs.existsSync(p)) out.push(p);
    }
  }
  return out;
}

test('no import cycles in the Python package', () => {
  const pkg = path.join(root, 'python', 'wflo');
  const files = fs.readdirSync(pkg).filter((n) => n.endsWith('.py')).map((n) => path.join(pkg, n));
  assert.ok(files.length >= 5, `${files.length} modules in ${pkg}`);
  // The parser itself: the engine module's own imports are seen.
  assert.ok(pythonImportsOf(path.join(pkg, '_engine.py')).some((p) => p.endsWith('_frames.py')), 'python/wflo/_engine.py imports _frames');
  assert.deepEqual(cyclesOf(new Map(files.map((f) => [f, pythonImportsOf(f)])), root), []);
});
