/**
 * `wflo plot SOURCE`: a layout over its site, coloured by wake loss (SVG or PNG); with
 * `--by-direction`, farm efficiency against a finely resolved wind direction for one or several layouts.
 */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';
import { millionsText } from '../cost/currency.js';
import { outFlag, withOutFlag } from './outFlag.js';

const number = (flag: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new InputError(`${flag}: expected a number, got '${v}'`);
  return n;
};

export function registerPlot(program: Command): void {
  const command = program
    .command('plot')
    .description('draw a layout: turbines over the site coloured by wake loss, spacing circles, wind rose; --flow adds the wake field')
    .argument('<source>', 'result/layout YAML, case file or built-in case name, layouts.h5, or a campaign output folder')
    .option('--task <id>', 'task id of a row of layouts.h5 or of the campaign folder')
    .option('--compare <ids...>', 'several task ids side by side (layouts.h5 or campaign folder)')
    .option('--case <name>', 'built-in case (or case file) giving site, turbine and wind (the file only gives the layout)')
    .option('--campaign <file>', 'campaign whose farms and farm types give the physics of a layouts.h5 without definitions (a shards merge output)')
    .option('--wind <file|name>', 'override the wind resource of a layout file or case (as wflo aep --wind)')
    .option('--flow <direction>', 'draw the hub-height speed field for this wind direction (degrees, from north)')
    .option('--style <name>', 'screen (default: title, tinted site, --flow allowed) or paper (white, no title or flow field, SVG sized in mm, PNG at 300 dpi)')
    .option('--site-field <name>', 'a site that is not uniform: the field drawn under the layout, speedup (default, else ti), ti or none (docs/site.md)')
    .option('--site-wd <direction>', "the wind direction a field by direction is drawn at (default: the rose's most probable)")
    .option('--numbers', "write each turbine's index (0-based, the order of the layout) beside it")
    .option('--width <px>', 'figure width in pixels (paper: quarter millimetres; default 900 screen, 640 paper)')
    .option('--height <px>', 'figure height in pixels (paper: quarter millimetres; default 720 screen, 480 paper)')
    .option('--by-direction [step]', 'instead of the layout: farm efficiency against the wind direction every STEP degrees (default 0.5), one line per layout')
    .option('--with <sources...>', 'with --by-direction: more layouts on the same chart (result or case files, built-in case names)')
    .option('--json', 'print what was drawn as one JSON object on stdout');
  withOutFlag(command, 'file', 'output .svg or .png (default: layout.svg)', ['--output']).action(
    async (
      source: string,
      opts: {
        task?: string;
        compare?: string[];
        case?: string;
        campaign?: string;
        wind?: string;
        flow?: string;
        width?: string;
        height?: string;
        style?: string;
        numbers?: boolean;
        siteField?: string;
        siteWd?: string;
        json?: boolean;
        byDirection?: string | boolean;
        with?: string[];
      },
    ) => {
      if (opts.with !== undefined && opts.byDirection === undefined)
        throw new InputError('--with: draws several layouts on the --by-direction chart; give --by-direction (or --compare for layouts side by side)');
      if (opts.byDirection !== undefined) {
        const layoutOnly =
          opts.flow !== undefined
            ? '--flow'
            : opts.style !== undefined
              ? '--style'
              : opts.numbers
                ? '--numbers'
                : opts.siteField !== undefined
                  ? '--site-field'
                  : opts.siteWd !== undefined
                    ? '--site-wd'
                    : null;
        if (layoutOnly) throw new InputError(`${layoutOnly}: belongs to the layout plot, not to --by-direction`);
        const output = outFlag(opts, ['--output']) ?? 'by-direction.svg';
        const { plotByDirection } = await import('../views/directionCurve.js');
        const r = await plotByDirection({
          sources: [source, ...(opts.with ?? [])],
          task: opts.task,
          compare: opts.compare,
          caseName: opts.case,
          campaign: opts.campaign,
          wind: opts.wind,
          output,
          stepDeg: opts.byDirection === true ? undefined : number('--by-direction', opts.byDirection as string),
          width: number('--width', opts.width),
          height: number('--height', opts.height),
        });
        if (opts.json) {
          process.stdout.write(`${JSON.stringify(r)}\n`);
          return;
        }
        for (const l of r.layouts) {
          process.stdout.write(
            `${l.title}: farm efficiency ${(100 * l.mean_efficiency).toFixed(2)} % on average over directions every ${r.step_deg}°, lowest ${(100 * l.min_efficiency).toFixed(2)} % at ${l.min_at_deg}°, highest ${(100 * l.max_efficiency).toFixed(2)} % at ${l.max_at_deg}°\n`,
          );
        }
        process.stdout.write(`wrote ${r.file} (${r.format.toUpperCase()})\n`);
        return;
      }
      const output = outFlag(opts, ['--output']) ?? 'layout.svg';
      const { plotLayouts } = await import('../views/plotLayouts.js');
      const r = await plotLayouts({
        source,
        task: opts.task,
        compare: opts.compare,
        caseName: opts.case,
        campaign: opts.campaign,
        wind: opts.wind,
        output,
        flowDirectionDeg: number('--flow', opts.flow),
        width: number('--width', opts.width),
        height: number('--height', opts.height),
        style: opts.style,
        numbers: opts.numbers,
        siteField: opts.siteField,
        siteWdDeg: number('--site-wd', opts.siteWd),
      });
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(r)}\n`);
        return;
      }
      for (const l of r.layouts) {
        process.stdout.write(
          `${l.title}: ${l.nTurbines} turbines, AEP ${l.aepMwh.toFixed(1)} MWh, gross ${l.grossAepMwh.toFixed(1)} MWh, wake loss ${(l.wakeLoss * 100).toFixed(2)} %${l.economics ? `, ${l.economics.replace(/ · /g, ', ')}` : ''}\n`,
        );
        if (l.cables) {
          const c = l.cables;
          process.stdout.write(
            `cables: ${c.edges} edges ${c.origin === 'stored' ? 'as stored with the layout' : `routed for the plot (${c.note ?? 'none stored'})`}, ${(c.lengthM / 1000).toFixed(2)} km, ${millionsText(c.cost, c.currency, 3)}\n`,
          );
        }
        if (l.recordedAepMwh !== undefined && Math.abs(l.aepMwh - l.recordedAepMwh) > 1e-6 * Math.abs(l.recordedAepMwh)) {
          process.stdout.write(`note: the source records AEP ${l.recordedAepMwh.toFixed(1)} MWh; this plot's wind or model differs (give --wind or --case)\n`);
        }
      }
      process.stdout.write(`wrote ${r.file} (${r.format.toUpperCase()}, ${r.width} × ${r.height})\n`);
    },
  );
}
