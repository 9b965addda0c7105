/**
 * The architecture, checked: every file under src/ imports only from its own layer or the layers
 * before it (CONTRIBUTING.md: util → physics → geometry → cost → case → optimize → io → campaign → runner → shards
 * → views → serve → cli), and no chain of imports (type-only ones included) leads back to where it started,
 * in src/, bench/ and test/ (TypeScript: import and export-from statements, read as text) and in the
 * Python files of python/, bench/ and test/ (relative and absolute imports, those under TYPE_CHECKING
 * included). A planted cycle of each language is found (the last test), so the check can fail.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
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
  // `import … from`, `export … from`, and a bare `import './x.js'` (run for its effects: an edge too).
  const re = /^\s*(?:(?:import|export)\s[^;]*?from\s+|import\s+)['"](\.[^'"]+)['"]/gm;
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

/**
 * The modules a Python file imports, as file paths: `from .m import a` / `from . import a` / `from ..p.m
 * import a` (relative to the file's package), `from p.m import a` and `import p.m, q` (absolute: a module
 * beside the file, as a script's own folder is on sys.path, or under one of `roots`, where python/wflo
 * lives), indented ones included (TYPE_CHECKING blocks, functions). An imported name that is a submodule
 * (`from . import _results`) is an edge to that module. Docstrings and comments are not read. Importing
 * p.m from outside package p also runs p/__init__.py, so that is an edge too.
 */
function pythonImportsOf(file: string, roots: readonly string[]): string[] {
  const dir = path.dirname(file);
  const text = fs
    .readFileSync(file, 'utf8')
    .replace(/"""[\s\S]*?"""|'''[\s\S]*?'''/g, '')
    .replace(/#.*$/gm, '');
  const out = new Set<string>();
  const moduleAt = (base: string, dotted: string): string | null => {
    const p = path.join(base, ...dotted.split('.'));
    for (const f of [`${p}.py`, path.join(p, '__init__.py')]) if (fs.existsSync(f)) return f;
    return null;
  };
  const add = (base: string, dotted: string, withParents: boolean): boolean => {
    const f = moduleAt(base, dotted);
    if (f === null) return false;
    if (f !== file) out.add(f);
    if (withParents) {
      const parts = dotted.split('.');
      for (let k = 1; k < parts.length; k++) {
        const pkg = moduleAt(base, parts.slice(0, k).join('.'));
        // Inside that package its __init__ is already running: not an edge.
        if (pkg !== null && !file.startsWith(path.dirname(pkg) + path.sep)) out.add(pkg);
      }
    }
    return true;
  };
  const names = (list: string): string[] =>
    list
      .split(',')
      .map((n) => n.trim().split(/\s+/)[0])
      .filter((n) => /^\w+$/.test(n));
  for (const m of text.matchAll(/^[ \t]*from[ \t]+(\.*)([\w.]*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)/gm)) {
    const [, dots, mod, list] = m;
    const bases = dots ? [path.resolve(dir, ...Array<string>(dots.length - 1).fill('..'))] : [dir, ...roots];
    for (const base of bases) {
      const found = mod ? add(base, mod, !dots) : true;
      for (const n of names(list.replace(/[()]/g, ''))) add(base, mod ? `${mod}.${n}` : n, false);
      if (found && mod) break;
    }
  }
  for (const m of text.matchAll(/^[ \t]*import[ \t]+([\w.]+(?:[ \t]+as[ \t]+\w+)?(?:[ \t]*,[ \t]*[\w.]+(?:[ \t]+as[ \t]+\w+)?)*)/gm)) {
    for (const n of m[1].split(',').map((s) => s.trim().split(/\s+/)[0])) for (const base of [dir, ...roots]) if (add(base, n, true)) break;
  }
  return [...out];
}

function pythonFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '__pycache__' ? [] : pythonFiles(p);
    return e.name.endsWith('.py') ? [p] : [];
  });
}

const pyGraph = (files: string[], roots: readonly string[]): Map<string, string[]> => new Map(files.map((f) => [f, pythonImportsOf(f, roots)]));

test('no import cycles in the Python package, its examples, or the Python scripts in bench/ and test/', () => {
  const pkg = path.join(root, 'python', 'wflo');
  const files = [...pythonFiles(path.join(root, 'python')), ...pythonFiles(path.join(root, 'bench')), ...pythonFiles(path.join(root, 'test'))];
  assert.ok(files.filter((f) => f.startsWith(pkg + path.sep)).length >= 5, `${files.length} Python files`);
  const roots = [path.join(root, 'python')];
  // The parser itself: the engine module's own imports are seen, in both of their forms.
  const engine = pythonImportsOf(path.join(pkg, '_engine.py'), roots).map((p) => path.basename(p));
  assert.ok(engine.includes('_frames.py') && engine.includes('_results.py'), `python/wflo/_engine.py imports ${engine.join(', ')}`);
  const peer = pythonImportsOf(path.join(root, 'bench', 'peers', 'pywake_site.py'), roots).map((p) => path.basename(p));
  assert.ok(peer.includes('reference_common.py'), `bench/peers/pywake_site.py imports ${peer.join(', ')}`);
  assert.deepEqual(cyclesOf(pyGraph(files, roots), root), []);
});

test('the cycle check finds a planted cycle, in TypeScript and in Python', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-cycles-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (rel: string, text: string): string => {
    const p = path.join(dir, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
    return p;
  };
  // TypeScript: a type-only import one way, an export-from the other, and a file outside the cycle.
  const ts = [
    write('ts/a.ts', "import type { B } from './sub/b.js';\nexport type A = B;\n"),
    write('ts/sub/b.ts', "export { c } from '../c.js';\nexport type B = number;\n"),
    write('ts/c.ts', "import { type A } from './a.js';\nexport const c = 1 as A;\n"),
    write('ts/d.ts', "import { c } from './c.js';\nexport const d = c;\n"),
  ];
  assert.deepEqual(cyclesOf(tsGraph(ts), dir), [['ts/a.ts', 'ts/sub/b.ts', 'ts/c.ts', 'ts/a.ts'].join(' → ')]);
  // A bare import, run for its effects, closes a cycle too (and without it there is none).
  write('ts/c.ts', 'export const c = 1;\n');
  assert.deepEqual(cyclesOf(tsGraph(ts), dir), []);
  write('ts/c.ts', "import './d.js';\nexport const c = 1;\n");
  assert.deepEqual(cyclesOf(tsGraph(ts), dir), [['ts/c.ts', 'ts/d.ts', 'ts/c.ts'].join(' → ')]);
  // Python, each form once: `from . import`, `from .m import` under TYPE_CHECKING, an absolute
  // `import pkg.m` from a script beside the package, a script importing its sibling by name.
  const roots = [path.join(dir, 'py')];
  const py = [
    write('py/pkg/__init__.py', 'from ._one import One\n'),
    write('py/pkg/_one.py', '"""A docstring naming import pkg._nothing."""\nfrom . import _two\n'),
    write('py/pkg/_two.py', 'from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ._three import Three  # the planted edge\n'),
    write('py/pkg/_three.py', 'from ._one import One\n'),
    write('py/script.py', 'import os, pkg._three as t\nimport helper\n'),
    write('py/helper.py', '# import script\nimport numpy as np\n'),
  ];
  assert.deepEqual(cyclesOf(pyGraph(py, roots), dir), [['py/pkg/_one.py', 'py/pkg/_two.py', 'py/pkg/_three.py', 'py/pkg/_one.py'].join(' → ')]);
  assert.deepEqual(
    pythonImportsOf(path.join(dir, 'py/script.py'), roots)
      .map((p) => path.relative(dir, p))
      .sort(),
    ['py/helper.py', 'py/pkg/__init__.py', 'py/pkg/_three.py'],
  );
  // Without the planted edge, no cycle: the check is not reporting everything.
  write('py/pkg/_two.py', 'from typing import TYPE_CHECKING\n');
  assert.deepEqual(cyclesOf(pyGraph(py, roots), dir), []);
});
