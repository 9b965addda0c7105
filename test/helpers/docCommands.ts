/**
 * The command lines a Markdown file tells its reader to type: every line of every fenced `sh`
 * (or `bash`, `shell`) block, continuation lines (`\`) joined, comment lines dropped, each with
 * its line number, its trailing comment and the exit codes it may end with (0, and N when its
 * comment says "exit N"). A block can carry directives in an HTML comment on the line before
 * its fence, invisible on the rendered page:
 *
 *   <!-- doc-test: setup rescue-incident -->     files the block's commands work on (the test names them)
 *   <!-- doc-test: skip needs a GPU -->           the block is not run, for that reason
 *
 * A shell block that directly follows a `python` block (nothing but blank lines between) works on
 * what that Python writes ("write exactly this with h5py, then run this"): the Python runs first.
 *
 * `classifyCommand` says, for one line, which parts run and which are skipped and why: lines that
 * start a server or need Redis or SLURM, the test suite itself, benchmarks, installs from the
 * npm registry, and the worked optimizations of docs/cost.md that another test runs as written
 * are skipped; `npm ci` and the compile it runs are what the copy the lines run in
 * was prepared with (and what .ci/run runs in a fresh copy).
 */

export interface DocCommand {
  file: string;
  /** 1-based line number of the command's first line. */
  line: number;
  /** 1-based line number of the opening fence of its block. */
  block: number;
  command: string;
  comment: string;
  exitCodes: number[];
  /** Directives of the block the command is in. */
  setup: string[];
  skip: string | null;
  /** The `python` block directly above the command's block, run first (null: none). */
  python: string | null;
}

export const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const DIRECTIVE = /<!--\s*doc-test:\s*(.*?)\s*-->/;
const SHELL_LANGUAGES = new Set(['sh', 'bash', 'shell']);

/** Split `cmd   # comment` at the first `#` that starts a word outside quotes. */
export function splitComment(line: string): { command: string; comment: string } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"') i++;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (ch === '\\') {
      i++;
    } else if (ch === '#' && (i === 0 || /\s/.test(line[i - 1]))) {
      return { command: line.slice(0, i).trim(), comment: line.slice(i + 1).trim() };
    }
  }
  return { command: line.trim(), comment: '' };
}

export function extractDocCommands(markdown: string, file: string): DocCommand[] {
  const lines = markdown.split('\n');
  const out: DocCommand[] = [];
  let previous: { language: string; body: string; endLine: number } | null = null;
  let i = 0;
  while (i < lines.length) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      i++;
      continue;
    }
    const fence = open[2];
    const language = open[3].toLowerCase();
    // Directives: the nearest non-blank line above the fence.
    let above = i - 1;
    while (above >= 0 && lines[above].trim() === '') above--;
    const setup: string[] = [];
    let skip: string | null = null;
    const directive = above >= 0 ? DIRECTIVE.exec(lines[above]) : null;
    if (directive) {
      for (const part of directive[1]
        .split(';')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const [word, ...rest] = part.split(/\s+/);
        if (word === 'setup') setup.push(...rest);
        else if (word === 'skip') skip = rest.join(' ') || 'marked skip';
        else throw new Error(`${file}:${above + 1}: unknown doc-test directive '${word}'`);
      }
    }
    const blockLine = i + 1;
    i++;
    const body: { text: string; line: number }[] = [];
    while (i < lines.length && !lines[i].trimStart().startsWith(fence)) {
      body.push({ text: lines[i], line: i + 1 });
      i++;
    }
    i++;
    const before = previous;
    previous = { language, body: body.map((b) => b.text).join('\n'), endLine: i };
    if (!SHELL_LANGUAGES.has(language)) continue;
    const python = before && before.language === 'python' && lines.slice(before.endLine, blockLine - 1).every((l) => l.trim() === '') ? before.body : null;
    for (let k = 0; k < body.length; k++) {
      const start = body[k];
      let text = start.text;
      while (/\\\s*$/.test(text) && k + 1 < body.length) text = `${text.replace(/\s*\\\s*$/, '')} ${body[++k].text.trim()}`;
      const { command, comment } = splitComment(text);
      if (command === '') continue;
      const codes = new Set([0]);
      for (const m of comment.matchAll(/\bexits? (?:code )?(\d+)\b/g)) codes.add(Number(m[1]));
      out.push({ file, line: start.line, block: blockLine, command, comment, exitCodes: [...codes].sort(), setup, skip, python });
    }
  }
  return out;
}

/** One `&&`-separated part of a command line and what the test does with it. */
export interface CommandPart {
  text: string;
  action: 'run' | 'prepared' | 'skip';
  reason?: string;
}

interface Rule {
  pattern: RegExp;
  action: 'prepared' | 'skip';
  reason: string;
}

const RULES: Rule[] = [
  {
    pattern: /^npm ci$/,
    action: 'prepared',
    reason:
      "the copy is prepared as `npm ci` leaves it (node_modules, dist/ and the stamped kernel from the checkout); .ci/run runs the real `npm ci`, and the README's first line after it, in a fresh copy",
  },
  {
    pattern: /^npx tsc -p tsconfig\.json$/,
    action: 'prepared',
    reason: "the copy is compiled (dist/src from the checkout); `npm ci` in .ci/run's fresh copy runs this very command (`prepare`)",
  },
  { pattern: /\bwflo dashboard\b/, action: 'skip', reason: 'starts a server (the dashboard; test/views/dashboard.test.ts drives it in a browser)' },
  { pattern: /\bredis-server\b|\bWFLO_QUEUE\b|--queue\b|\bwflo worker\b/, action: 'skip', reason: 'needs a Redis server (test/runner/bullmq*.test.ts)' },
  { pattern: /\bwflo (slurm|collect)\b|--shard\b|\$SLURM_/, action: 'skip', reason: 'needs a SLURM cluster (test/slurm/)' },
  { pattern: /^npm test\b|\bnode --test\b/, action: 'skip', reason: 'runs the test suite, which runs this test' },
  { pattern: /\bnpm run bench\b|\bdist\/bench\/run\.js\b/, action: 'skip', reason: 'a benchmark (minutes; named or all sections: up to hours)' },
  // The worked examples of docs/cost.md: four long optimizations that test/optimize/costChangesAnswer.test.ts
  // reads from the page and runs as written (with --json, to compare their results); run once, there.
  {
    pattern: /^\.\/wflo optimize examples\/(offshore-cs4\/cs4-offshore|mixed-choice-cost)\.yaml --method gradient( --initial given)? --objective (aep|lcoe)$/,
    action: 'skip',
    reason: "run as written (with --json) by test/optimize/costChangesAnswer.test.ts, which compares the two objectives' results",
  },
  { pattern: /\bnpm install -g \S+\.tgz\b/, action: 'skip', reason: "installs the tarball's dependencies from the npm registry" },
];

/** The parts of a command line, in order; once a part is skipped, the parts after it (which depend on it) are too. */
export function classifyCommand(command: string): CommandPart[] {
  const parts = command.split(/\s+&&\s+/);
  const out: CommandPart[] = [];
  let skipped: string | null = null;
  for (const text of parts) {
    if (skipped) {
      out.push({ text, action: 'skip', reason: skipped });
      continue;
    }
    const rule = RULES.find((r) => r.pattern.test(text));
    if (rule?.action === 'skip') skipped = rule.reason;
    out.push(rule ? { text, action: rule.action, reason: rule.reason } : { text, action: 'run' });
  }
  return out;
}

/**
 * The README's first commands: the lines of its first shell block, each as the parts of it that
 * run (test/cli/firstCommand.test.ts, test/ciFirstCommand.ts). `withPrepared` keeps the parts the
 * doc tests take as already done (`npm ci`: .ci/run's fresh copy runs it for real); lines whose
 * every part is skipped (`npm test`) are left out.
 */
export function readmeFirstCommands(readme: string, options: { withPrepared?: boolean } = {}): string[] {
  const commands = extractDocCommands(readme, 'README.md');
  if (commands.length === 0) throw new Error('README.md has no shell block');
  const out: string[] = [];
  for (const cmd of commands.filter((c) => c.block === commands[0].block)) {
    const parts = classifyCommand(cmd.command).filter((p) => p.action === 'run' || (options.withPrepared && p.action === 'prepared'));
    if (parts.length > 0) out.push(parts.map((p) => p.text).join(' && '));
  }
  return out;
}
