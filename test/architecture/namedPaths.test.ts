/**
 * Every repository file a comment in src/ or a page of the docs names (`physics/solvePlan.ts`,
 * `executors/local/workerPool.ts`, `dist/bench/run.js`, `examples/demo.yaml`, or a bare
 * `spacing.ts`) exists, so that a moved or renamed file cannot leave its old name behind (issue 41
 * found five such names). A path is looked up as the end of a repository path (`site/site.ts` is
 * src/physics/site/site.ts); `dist/…/x.js` is the compiled src/…/x.ts, test/…/x.ts or bench/…/x.ts.
 * Paths of other projects (PyWake, FLORIS, TOPFARM) and names of files the program writes or a user
 * owns are not the repository's: data files (YAML, CSV, …) are checked only under a top-level
 * folder of the repository, and the few other names are listed below with what they are.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// dist/test/architecture → the repository root.
const root = path.resolve(here, '..', '..', '..');

/** Folders that are built, installed or written, never named as sources. */
const NOT_SOURCES = new Set(['node_modules', 'dist', 'build', 'out', '.git', '__pycache__']);

/** First path segments of other projects' files, cited for their equations or data. */
const OTHER_PROJECTS = new Set(['py_wake', 'floris', 'topfarm']);

/** Paths that name where a file would go, and why. */
const WOULD_BE: Record<string, string> = {
  'src/physics/wake/toy2026.ts': "CONTRIBUTING.md's recipe: where examples/toy-model/toy2026.ts goes to become a model",
};

/** Bare file names that are not the repository's, and what they are. */
const NOT_OURS: Record<string, string> = {
  'command.sh': 'the shell script the runner writes into each attempt folder',
  'sysexits.h': "the C library's exit-code header (EX_DATAERR)",
  'iea37-aepcalc.py': "IEA Wind Task 37's AEP calculator",
  'weibull_wind_climate.py': "PyWake's .wrg writer",
  'test_dtu_cm.py': "TOPFARM's cost-model test",
  'pywake_case.py': 'a peer-benchmark script kept beside the checkout, not in it (docs/physics.md)',
  'pywake_cs1.py': 'a peer-benchmark script kept beside the checkout, not in it (docs/physics.md)',
  'wflo_case.mjs': 'a peer-benchmark script kept beside the checkout, not in it (docs/physics.md)',
  'wflo_cs1.mjs': 'a peer-benchmark script kept beside the checkout, not in it (docs/physics.md)',
  'Types.ts': 'the `…Types.ts` naming rule of CONTRIBUTING.md, not a file',
};

const SOURCE_EXT = 'ts|mjs|js|py|md|cc|h|cpp|gyp|sh';
const DATA_EXT = 'yaml|yml|json|csv|h5|nc|wrg';
// A path with at least one folder, not inside a URL or a longer path.
const PATH_RE = new RegExp(`(?<![\\w./@:-])((?:\\.{1,2}/)*(?:[\\w.-]+/)+[\\w.-]*\\w\\.(?:${SOURCE_EXT}|${DATA_EXT}))(?![\\w/])`, 'g');
// A bare source file name (.js left out: "Node.js", "vega.js" are not files).
const BARE_RE = /(?<![\w./@$:-])([A-Za-z_][\w-]*\.(?:ts|mjs|py|md|cc|h|cpp|gyp|sh))(?![\w/])/g;

function repositoryFiles(dir: string, rel = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (NOT_SOURCES.has(e.name)) return [];
    const r = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? repositoryFiles(path.join(dir, e.name), r) : [r];
  });
}

/** The comments of a TypeScript file (block and line comments; a `//` inside a string is read too, harmlessly). */
const commentsOf = (text: string): string => [...text.matchAll(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g)].map((m) => m[0]).join('\n');

interface Repository {
  files: string[];
  paths: Set<string>;
  names: Set<string>;
  topFolders: Set<string>;
}

function repository(files: string[]): Repository {
  return {
    files,
    paths: new Set(files),
    names: new Set(files.map((f) => f.slice(f.lastIndexOf('/') + 1))),
    topFolders: new Set(files.filter((f) => f.includes('/')).map((f) => f.slice(0, f.indexOf('/')))),
  };
}

/** Whether a named path is one of the repository's files, or not the repository's to name (null). */
function pathExists(repo: Repository, named: string): boolean | null {
  const relative = /^\.{1,2}\//.test(named);
  let p = named.replace(/^(?:\.{1,2}\/)+/, '');
  const first = p.slice(0, p.indexOf('/'));
  if (OTHER_PROJECTS.has(first) || named in WOULD_BE) return null;
  if (new RegExp(`\\.(?:${DATA_EXT})$`).test(p) && (relative || !repo.topFolders.has(first))) return null; // a user's file
  if (first === 'dist') p = p.slice('dist/'.length).replace(/\.js$/, '.ts');
  const candidates = [p, p.replace(/\.js$/, '.ts')];
  return candidates.some((c) => repo.paths.has(c) || repo.files.some((f) => f.endsWith(`/${c}`)));
}

/** The names in a text that are not files of the repository, as `file: name`. */
function missingNames(repo: Repository, file: string, text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PATH_RE)) if (pathExists(repo, m[1]) === false) out.push(`${file}: ${m[1]}`);
  for (const m of text.matchAll(BARE_RE)) if (!repo.names.has(m[1]) && !(m[1] in NOT_OURS)) out.push(`${file}: ${m[1]}`);
  return out;
}

test('every file a src/ comment or a docs page names exists', () => {
  const repo = repository(repositoryFiles(root));
  const read: [string, string][] = [];
  for (const f of repo.files) {
    if (f.startsWith('src/') && f.endsWith('.ts')) read.push([f, commentsOf(fs.readFileSync(path.join(root, f), 'utf8'))]);
    else if (/^docs\/[^/]+\.md$/.test(f) || f === 'README.md' || f === 'CONTRIBUTING.md') read.push([f, fs.readFileSync(path.join(root, f), 'utf8')]);
  }
  assert.ok(read.length > 300, `${read.length} files read`);
  const named = read.reduce((n, [, text]) => n + [...text.matchAll(PATH_RE)].length, 0);
  assert.ok(named > 300, `${named} paths named`);
  assert.deepEqual(
    read.flatMap(([f, text]) => missingNames(repo, f, text)),
    [],
  );
});

test('a moved file is reported under each form of its name', () => {
  const repo = repository(['src/physics/solvePlan.ts', 'src/physics/site/site.ts', 'bench/run.ts', 'examples/demo.yaml', 'test/a.test.ts']);
  const text = [
    '// physics/solvePlan.ts, site/site.ts, solvePlan.ts, dist/bench/run.js, dist/test/a.test.js, examples/demo.yaml: present',
    '// physics/engineChoice.ts, engineChoice.ts, dist/bench/gone.js, examples/gone.yaml, ../physics/gone.js: moved away',
    "// py_wake/site/xrsite.py, sites/a.yaml, ./wind.yaml, https://example.org/x/y.ts, command.sh: not the repository's",
  ].join('\n');
  assert.deepEqual(missingNames(repo, 'src/x.ts', text), [
    'src/x.ts: physics/engineChoice.ts',
    'src/x.ts: dist/bench/gone.js',
    'src/x.ts: examples/gone.yaml',
    'src/x.ts: ../physics/gone.js',
    'src/x.ts: engineChoice.ts',
  ]);
});
