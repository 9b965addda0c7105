/**
 * The figures README.md and docs/*.md state are measured (CONTRIBUTING.md, "Figures in docs";
 * test/helpers/docFigures.ts):
 *  - every energy or money figure (a number before MWh, GWh, €, M€, €/MWh, …) has a `figure`
 *    directive in its paragraph, table or block, or is one of the figures that predate the
 *    directives, listed in test/data/docFigures/unchecked.txt (a list that may only shrink: an
 *    entry whose figure is gone from its doc fails too);
 *  - every directive's value is written in its paragraph, table or block, and a figure in a shell
 *    block (a line's comment) is measured by one of that block's lines (test/helpers/docCommands.ts
 *    reads them), `--json` added;
 *  - every measured figure agrees with the number its command prints, within its tolerance:
 *    each distinct command runs once, in the repository's folder, in the reader's shell of
 *    test/helpers/readerShell.ts with the checkout's `wflo` on PATH (commands must not write into
 *    the repository). Commands marked `slow` run only with WFLO_DOC_FIGURES=all.
 * Timing figures are `measured-on`, never asserted.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers.js';
import { readerShell } from '../helpers/readerShell.js';
import { extractDocCommands } from '../helpers/docCommands.js';
import {
  chunks,
  chunkText,
  figureNumber,
  measuredNumber,
  parseFigureDirectives,
  scanFigures,
  statedPrecision,
  statesNumber,
  tolerance,
  type FigureDirective,
} from '../helpers/docFigures.js';

const DOCS = [
  'README.md',
  ...fs
    .readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
const UNCHECKED_FILE = path.join(REPO, 'test', 'data', 'docFigures', 'unchecked.txt');
const read = (doc: string) => fs.readFileSync(path.join(REPO, doc), 'utf8');

/** A command as a doc line and as a directive write it: `wflo` or `./wflo`, with or without `--json`. */
function sameCommand(cmd: string): string {
  return cmd
    .trim()
    .replace(/^\.\/wflo\b/, 'wflo')
    .split(/\s+/)
    .filter((w) => w !== '--json')
    .join(' ');
}

/** `FILE  NUMBER UNIT` lines (two or more spaces or a tab after the file), `#` comments. */
function uncheckedList(): { doc: string; text: string; number: number; unit: string; line: number }[] {
  return fs
    .readFileSync(UNCHECKED_FILE, 'utf8')
    .split('\n')
    .flatMap((raw, k) => {
      const text = raw.replace(/#.*$/, '').trim();
      if (text === '') return [];
      const m = /^(\S+)(?:\t|\s{2,})(.+?)\s+(\S+)$/.exec(text);
      if (!m) throw new Error(`${UNCHECKED_FILE}:${k + 1}: expected 'FILE  NUMBER UNIT', got '${raw}'`);
      return [{ doc: m[1], text: m[2], number: figureNumber(m[2]), unit: m[3], line: k + 1 }];
    });
}

test('the directives and the scanner: what a figure is, where its directive goes, the tolerance it is held to', () => {
  const md = [
    '# A doc',
    '',
    'The farm gives 56 793.89 MWh (seed 1) and 55218, 55978 MWh at seeds 2 and 3, at 47.2 €/MWh.',
    '<!-- figure: value="56 793.89" cmd="./wflo optimize x.yaml --seed 1 --json" path="aep_mwh" -->',
    '<!-- figure: value="55218" cmd="./wflo optimize x.yaml --seed 2 --json" path="aep_mwh" tol="400" -->',
    '',
    '```sh',
    'wflo aep storm.yaml   # 269,001.9 MWh',
    '```',
    '<!-- figure: value="269,001.9" cmd="wflo aep storm.yaml" re="AEP\\s+([\\d.]+) MWh" -->',
    '',
    'Cited: 418 924.41 MWh <!-- figure: value="418 924.41" cited="Baker et al. 2019" --> and 1.07 s <!-- figure: value="1.07" measured-on="2026-12-07, load 6" -->.',
  ].join('\n');
  const figures = scanFigures(md, 'X.md');
  assert.deepEqual(
    figures.map((f) => [f.line, f.text, f.unit, f.chunk]),
    [
      [3, '56 793.89', 'MWh', 1],
      [3, '55218', 'MWh', 1],
      [3, '55978', 'MWh', 1],
      [3, '47.2', '€/MWh', 1],
      [8, '269,001.9', 'MWh', 2],
      [12, '418 924.41', 'MWh', 3],
    ],
  );
  const ds = parseFigureDirectives(md, 'X.md');
  assert.deepEqual(
    ds.map((d) => [d.line, d.value, d.chunk, d.path ?? d.re ?? d.cited ?? d.measuredOn]),
    [
      [4, '56 793.89', 1, 'aep_mwh'],
      [5, '55218', 1, 'aep_mwh'],
      [10, '269,001.9', 2, 'AEP\\s+([\\d.]+) MWh'],
      [12, '418 924.41', 3, 'Baker et al. 2019'],
      [12, '1.07', 3, '2026-12-07, load 6'],
    ],
  );
  // Uncovered here: 55978 MWh and 47.2 €/MWh (no directive names them).
  const covered = (f: { chunk: number; text: string }) => ds.some((d) => d.chunk === f.chunk && figureNumber(d.value) === figureNumber(f.text));
  assert.deepEqual(
    figures.filter((f) => !covered(f)).map((f) => f.text),
    ['55978', '47.2'],
  );
  // A table: the cells of a column whose header names the unit; formulas and other columns are not figures.
  const table = [
    '| case | AEP (MWh) | cost (€) | cables (km) |',
    '|---|---|---|---|',
    '| a | **2 978 888.5** | 12 · 0.3 *D*^2.5 | 83.490 |',
    '| b | 366941.57116 (`ex16.yaml`) | 1.5 | 81.2 |',
  ].join('\n');
  assert.deepEqual(
    scanFigures(table, 'T.md').map((f) => [f.line, f.text, f.unit]),
    [
      [3, '2 978 888.5', 'MWh'],
      [4, '366941.57116', 'MWh'],
      [4, '1.5', '€'],
    ],
  );
  assert.equal(figureNumber('2 978 888.5'), 2978888.5);
  assert.equal(figureNumber('269,001.9'), 269001.9);
  assert.equal(statedPrecision('56 793.89'), 0.005);
  assert.equal(statedPrecision('56309'), 0.5);
  assert.equal(statedPrecision('1.41e5'), 500);
  assert.ok(statesNumber(chunkText(md, 1), '56 793.89') && !statesNumber(chunkText(md, 1), '56 793.9'), 'the value as the text writes it');
  // The default tolerance is the digits the figure states: 56 793.89 holds for 56793.8918, not for 56793.90.
  const d0 = ds[0];
  assert.equal(measuredNumber(d0, JSON.stringify({ aep_mwh: 56793.8918 })), 56793.8918);
  assert.ok(Math.abs(56793.8918 - figureNumber(d0.value)) <= tolerance(d0, 56793.8918).abs);
  assert.ok(Math.abs(56793.9 - figureNumber(d0.value)) > tolerance(d0, 56793.9).abs);
  assert.equal(tolerance(ds[1], 55546.3).abs, 400);
  const [millions] = parseFigureDirectives(
    'NPV 499.072 M€\n<!-- figure: value="499.072" cmd="./wflo optimize c.yaml --json" path="economics.npv" scale="1e-6" -->',
    'Z.md',
  );
  assert.equal(measuredNumber(millions, JSON.stringify({ economics: { npv: 499072094.26 } })), 499.07209426);
  assert.equal(measuredNumber(ds[2], 'AEP         269001.93 MWh (initial …)'), 269001.93);
  assert.throws(() => parseFigureDirectives('x\n<!-- figure: value="1" cmd="a" -->', 'Y.md'), /Y\.md:2: a cmd figure names where its number is/);
  assert.throws(() => parseFigureDirectives('x\n<!-- figure: value="1" -->', 'Y.md'), /exactly one of cmd, measured-on, cited, input/);
  assert.throws(() => parseFigureDirectives('x\n<!-- figure: value="1" cited="a" colour="b" -->', 'Y.md'), /unknown figure key 'colour'/);
  assert.throws(() => parseFigureDirectives('x\n<!-- figure: value="1" measured-on="yesterday" -->', 'Y.md'), /names no date/);
  assert.throws(
    () => parseFigureDirectives('x\n<!-- figure: value="1" cmd="./wflo optimize c.yaml --out best.yaml --json" path="aep_mwh" -->', 'Y.md'),
    /writes files/,
  );
});

test('every energy and money figure of README.md and docs/*.md has a directive (or predates them: test/data/docFigures/unchecked.txt)', () => {
  const unchecked = uncheckedList();
  const used = new Set<number>();
  const problems: string[] = [];
  for (const doc of DOCS) {
    const md = read(doc);
    const directives = parseFigureDirectives(md, doc);
    for (const d of directives) {
      if (!statesNumber(chunkText(md, d.chunk), d.value))
        problems.push(`${doc}:${d.line}: the directive's value "${d.value}" is not in its paragraph, table or block`);
    }
    // A figure in a shell block (a line's comment, "# 269,001.9 MWh") is what one of the block's lines prints.
    const blockCommands = new Map<number, string[]>();
    for (const c of extractDocCommands(md, doc)) blockCommands.set(c.block, [...(blockCommands.get(c.block) ?? []), sameCommand(c.command)]);
    const { chunks: cs } = chunks(md.split('\n'));
    for (const f of scanFigures(md, doc)) {
      const n = figureNumber(f.text);
      const covering = directives.filter((d) => d.chunk === f.chunk && figureNumber(d.value) === n);
      const lines = blockCommands.get(cs[f.chunk].first);
      if (covering.length > 0 && lines && !covering.some((d) => d.cmd !== undefined && lines.includes(sameCommand(d.cmd)))) {
        problems.push(
          `${doc}:${f.line}: ${f.text} ${f.unit} is in a shell block, but no directive's cmd is one of the block's lines (with --json added): ${covering.map((d) => d.cmd ?? '(no cmd)').join('; ')}`,
        );
      }
      if (covering.length > 0) continue;
      const listed = unchecked.flatMap((u, k) => (u.doc === doc && u.number === n && u.unit === f.unit ? [k] : []));
      listed.forEach((k) => used.add(k));
      if (listed.length > 0) continue;
      problems.push(`${doc}:${f.line}: ${f.text} ${f.unit} has no figure directive (CONTRIBUTING.md, "Figures in docs")`);
    }
  }
  unchecked.forEach((u, k) => {
    if (!used.has(k))
      problems.push(`test/data/docFigures/unchecked.txt:${u.line}: ${u.doc} no longer states ${u.text} ${u.unit} without a directive: remove the line`);
  });
  assert.deepEqual(problems, []);
});

test('every measured figure of README.md and docs/*.md agrees with what its command prints (one run per command)', async (t) => {
  const shell = readerShell();
  after(() => shell.remove());
  // The checkout's launcher as the reader's `wflo` (docs write both `wflo …` and `./wflo …`).
  fs.symlinkSync(path.join(REPO, 'wflo'), path.join(shell.prefix, 'bin', 'wflo'));
  const all = process.env.WFLO_DOC_FIGURES === 'all';
  const byCommand = new Map<string, FigureDirective[]>();
  for (const doc of DOCS) {
    for (const d of parseFigureDirectives(read(doc), doc)) {
      if (d.cmd === undefined) continue;
      byCommand.set(d.cmd, [...(byCommand.get(d.cmd) ?? []), d]);
    }
  }
  let checked = 0;
  for (const [cmd, ds] of byCommand) {
    await t.test(`${ds.map((d) => `${d.file}:${d.line}`).join(', ')}: ${cmd}`, (st) => {
      const slow = ds.find((d) => d.slow !== undefined);
      if (slow && !all) {
        st.skip(`slow (${slow.slow}): WFLO_DOC_FIGURES=all checks it`);
        return;
      }
      const r = shell.run(cmd, REPO, 600_000);
      assert.equal(r.status, 0, `\`${cmd}\` exited ${r.status ?? r.signal}\n${r.stderr.split('\n').slice(-8).join('\n')}`);
      const wrong: string[] = [];
      for (const d of ds) {
        const measured = measuredNumber(d, r.stdout);
        const tol = tolerance(d, measured);
        if (!(Math.abs(measured - figureNumber(d.value)) <= tol.abs))
          wrong.push(`${d.file}:${d.line}: the doc says ${d.value}, \`${cmd}\` prints ${measured} (${d.path ?? d.re}; ${tol.says})`);
        checked++;
      }
      assert.deepEqual(wrong, []);
    });
  }
  assert.ok(all || checked >= 5, `only ${checked} figures checked`);
});
