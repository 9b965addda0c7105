/**
 * What `wflo plot SOURCE` draws, resolved to layouts with their cases:
 * - a campaign output folder or a `layouts.h5` file, with `--task ID` (or `--compare ID ID …`);
 * - a layout/result YAML (`wflo optimize --out`: its `wflo.case` names the case), an IEA37 layout
 *   file (its $refs give turbine and wind; `--case` adds the site), or a case file with a layout;
 * - a built-in case name (its published baseline layout).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Case } from '../optimize/case.js';
import { builtinCase, isBuiltinCase } from '../io/builtinCases.js';
import { resolveAepRequest } from '../io/aepInput.js';
import { readYamlFile, dig } from '../io/yamlFile.js';
import { InputError } from '../util/errors.js';
import type { LayoutPlotInput } from './layoutSvg.js';
import { isCampaignFolder, readH5Results, readLedgerResults, soleTaskId, type StoredResult } from './storedResult.js';

export interface PlotSourceRequest {
  source: string;
  task?: string;
  compare?: string[];
  /** Built-in case supplying the site, turbine and wind (the file then only gives the layout). */
  caseName?: string;
  /** Wind resource override (file or built-in name), as `wflo aep --wind`. */
  wind?: string;
}

function isHdf5File(file: string): boolean {
  if (/\.(h5|hdf5)$/i.test(file)) return true;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(8);
      fs.readSync(fd, head, 0, 8, 0);
      return head.equals(Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a]));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}

function storedToInput(r: StoredResult): LayoutPlotInput {
  return { title: `${r.taskId} · ${r.farmLabel} · ${r.typeLabel}${r.campaign ? ` · ${r.campaign}` : ''}`, site: r.case, x: r.x, y: r.y, recordedAepMwh: r.aep };
}

export async function resolvePlotSource(req: PlotSourceRequest): Promise<LayoutPlotInput[]> {
  const { source } = req;
  const stored = isCampaignFolder(source) || (fs.existsSync(source) && isHdf5File(source));
  if (stored) {
    const ids = req.compare && req.compare.length > 0 ? req.compare : [req.task ?? await soleTaskId(source)];
    const results = isCampaignFolder(source) ? readLedgerResults(source, ids) : await readH5Results(source, ids);
    return results.map(storedToInput);
  }
  if (req.compare && req.compare.length > 0) throw new InputError(`--compare: needs a campaign output folder or a layouts.h5 file, got ${source}`);
  if (req.wind !== undefined && stored) throw new InputError('--wind: stored results are drawn with the wind they were computed with');
  if (req.task !== undefined) throw new InputError(`--task: needs a campaign output folder or a layouts.h5 file, got ${source}`);
  let c: Case;
  if (!fs.existsSync(source) && isBuiltinCase(source)) {
    c = builtinCase(source);
    return [{ title: `${c.name} (published baseline layout)`, site: c, x: c.layout!.x, y: c.layout!.y }];
  }
  if (!fs.existsSync(source)) {
    throw new InputError(`${source}: no such file or folder, and not a built-in case`);
  }
  const doc = readYamlFile(source);
  const caseOfResult = dig(doc, 'wflo', 'case');
  const caseName = req.caseName ?? (typeof caseOfResult === 'string' && isBuiltinCase(caseOfResult) ? caseOfResult : undefined);
  c = resolveAepRequest({ file: source, caseName, wind: req.wind });
  const seed = dig(doc, 'wflo', 'seed');
  const recorded = dig(doc, 'wflo', 'aep_mwh');
  const title = `${path.basename(source)}${caseName ? ` · ${caseName}` : ''}${typeof seed === 'number' ? ` · seed ${seed}` : ''}`;
  return [{ title, site: c, x: c.layout!.x, y: c.layout!.y, recordedAepMwh: typeof recorded === 'number' ? recorded : undefined }];
}
