/** `wflo cost`: LCOE, NPV and IRR of a given layout (the case's, or --layout FILE's), its network routed for it (views/layoutEconomics.ts). */
import type { Command } from 'commander';
import { loadCase } from '../io/caseFile.js';
import { costLines, layoutCost, pricedLayout } from '../views/layoutEconomics.js';

export function registerCost(program: Command): void {
  program
    .command('cost')
    .description("LCOE, NPV and IRR of a given layout under the case's economics (no optimization; docs/cost.md)")
    .argument('<case>', 'a case file with `economics` (or a built-in case name)')
    .option('--layout <file>', "the layout to price (a case file, an IEA37 layout, a windIO farm, a file with x and y); default: the case's own")
    .option('--json', 'print JSON')
    .action((spec: string, opts: { layout?: string; json?: boolean }) => {
      const { c, x, y } = pricedLayout(loadCase(spec), spec, opts.layout);
      const r = layoutCost(c, x, y, spec);
      if (opts.json) process.stdout.write(`${JSON.stringify({ case: c.name, layout: opts.layout ?? null, ...r })}\n`);
      else process.stdout.write(`${costLines(r, `${c.name} (${x.length} turbines, layout of ${opts.layout ?? 'the case'})`).join('\n')}\n`);
    });
}
