/** `wflo cables`: the collection network routed for a given layout (the case's, or --layout FILE's) and its cost (views/layoutEconomics.ts). */
import type { Command } from 'commander';
import { loadCase } from '../io/caseFile.js';
import { cablesLines, layoutCables, pricedLayout } from '../views/layoutEconomics.js';

export function registerCables(program: Command): void {
  program
    .command('cables')
    .description("route the collection cables of a given layout to the case's substations, and price them (docs/cables.md)")
    .argument('<case>', 'a case file with `economics` (substations and a cable catalogue)')
    .option('--layout <file>', "the layout to cable (a case file, an IEA37 layout, a windIO farm, a file with x and y); default: the case's own")
    .option('--json', 'print JSON')
    .action((spec: string, opts: { layout?: string; json?: boolean }) => {
      const { c, x, y } = pricedLayout(loadCase(spec), spec, opts.layout);
      const r = layoutCables(c, x, y, spec);
      if (opts.json) process.stdout.write(`${JSON.stringify({ case: c.name, layout: opts.layout ?? null, ...r })}\n`);
      else process.stdout.write(`${cablesLines(r, `${c.name} (${x.length} turbines, layout of ${opts.layout ?? 'the case'})`).join('\n')}\n`);
    });
}
