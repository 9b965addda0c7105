/**
 * What `wflo plot SOURCE` draws, resolved to layouts with their cases:
 * - a campaign output folder or a `layouts.h5` file (wflo's own, or a `wflo shards merge` output),
 *   with `--task ID` (or `--compare ID ID …`); the physics and site come from the farm and type
 *   definitions stored with the results, or from `--campaign FILE` / `--case NAME` when the file
 *   has none (a merge of other pipelines' worker files);
 * - a result of `wflo optimize --out` or any case file with a layout (self-contained), an IEA37
 *   layout file (its $refs give turbine and wind; `--case` adds the site), an older IEA37-shaped
 *   result (its `wflo.case` names the case);
 * - a built-in case name (its published baseline layout).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Case } from '../case/case.js';
import { builtinCase, isBuiltinCase } from '../io/builtinCases.js';
import { caseArgument } from '../io/caseArgument.js';
import { resolveAepRequest } from '../io/aepInput.js';
import { loadCase } from '../io/caseFile.js';
import { iea37Kind } from '../io/iea37Format.js';
import { readYamlFile, dig } from '../io/yamlFile.js';
import { readFileHead } from '../io/boundedRead.js';
import { loadCampaign } from '../campaign/loadCampaign.js';
import { caseForTask } from '../campaign/caseForTask.js';
import { InputError } from '../util/errors.js';
import type { LayoutPlotInput } from './layoutSvg.js';
import { caseNetworkSource, economicsLine, type NetworkSource } from './economicsDrawing.js';
import { isCampaignFolder, readH5Results, readLedgerResults, soleTaskId, type CaseSupplier, type StoredResult } from './storedResult.js';

export interface PlotSourceRequest {
  source: string;
  task?: string;
  compare?: string[];
  /** Built-in case (or case file) supplying the site, turbine and wind (the file then only gives the layout). */
  caseName?: string;
  /** Campaign file whose farms and farm types give each stored result's case (for files without definitions). */
  campaign?: string;
  /** Wind resource override (file or built-in name), as `wflo aep --wind`. */
  wind?: string;
}

function isHdf5File(file: string): boolean {
  if (/\.(h5|hdf5)$/i.test(file)) return true;
  // Sniffed from a regular file only (a FIFO would block); anything else goes on to the YAML reader, which names it.
  return readFileHead(file, 8)?.equals(Buffer.from([0x89, 0x48, 0x44, 0x46, 0x0d, 0x0a, 0x1a, 0x0a])) ?? false;
}

function storedToInput(r: StoredResult): LayoutPlotInput {
  const line =
    r.case.economics && r.metrics ? economicsLine(r.metrics.lcoe_per_mwh, r.metrics.npv, r.case.economics.model.currency, r.case.objective) : undefined;
  return {
    title: `${r.taskId} · ${r.farmLabel} · ${r.typeLabel}${r.campaign ? ` · ${r.campaign}` : ''}`,
    site: r.case,
    x: r.x,
    y: r.y,
    recordedAepMwh: r.aep,
    ...(r.cableTo ? { cableTo: r.cableTo } : {}),
    ...(r.cableType ? { cableType: r.cableType } : {}),
    ...(line ? { economicsLine: line } : {}),
  };
}

/**
 * What a result file records of its layout's economics (`wflo.economics`, io/layoutResultYaml.ts):
 * the network per turbine (cable_to, cable_type by name) and the figures; the substations and
 * catalogue it joins from the file (written since they are recorded there), else from the case the
 * file names (`wflo.case`, when it still loads and has economics). Malformed entries are ignored
 * (the plot then routes the layout, or draws no cables, and says so).
 */
function recordedEconomics(doc: unknown, c: Case): Partial<LayoutPlotInput> {
  const e = dig(doc, 'wflo', 'economics') as Record<string, unknown> | undefined;
  if (!e || typeof e !== 'object') return {};
  const ints = (v: unknown): Int32Array | undefined => (Array.isArray(v) && v.every((k) => Number.isInteger(k)) ? Int32Array.from(v as number[]) : undefined);
  let network: NetworkSource | undefined = caseNetworkSource(c);
  const subs = e.substations,
    cables = e.cables;
  const currency = typeof e.currency === 'string' ? e.currency : (network?.currency ?? 'EUR');
  if (
    !network &&
    Array.isArray(subs) &&
    subs.every((s) => Array.isArray(s) && s.length === 2 && s.every((v) => Number.isFinite(v))) &&
    Array.isArray(cables) &&
    cables.length > 0 &&
    cables.every((k) => typeof k?.name === 'string' && Number.isInteger(k?.capacity) && k.capacity >= 1 && k?.cost_per_m > 0)
  ) {
    network = {
      substations: (subs as number[][]).map(([sx, sy]) => [sx, sy] as const),
      cables: (cables as { name: string; capacity: number; cost_per_m: number }[]).map((k) => ({
        name: k.name,
        capacity: k.capacity,
        costPerMetre: k.cost_per_m,
      })),
      currency,
    };
  }
  const named = dig(doc, 'wflo', 'case');
  if (!network && typeof named === 'string') {
    try {
      network = caseNetworkSource(loadCase(named, 'wflo.case'));
    } catch {
      /* the case it names is gone or changed: no substations to draw */
    }
  }
  const cableTo = ints(e.cable_to);
  const types = Array.isArray(e.cable_type) && network ? e.cable_type.map((name) => network!.cables.findIndex((k) => k.name === name)) : undefined;
  const objective = dig(doc, 'wflo', 'objective');
  const line = economicsLine(e.lcoe_per_mwh, e.npv, currency, typeof objective === 'string' ? objective : undefined);
  return {
    ...(network ? { network } : {}),
    ...(cableTo ? { cableTo } : {}),
    ...(types && cableTo ? { cableType: Int32Array.from(types) } : {}),
    ...(line ? { economicsLine: network || !cableTo ? line : `${line} · cables not drawn: the file records no substations` } : {}),
  };
}

/** The case of each stored result from `--campaign` (its farm × farm type) or `--case` (one case for all). */
function caseSupplier(req: PlotSourceRequest): CaseSupplier | undefined {
  if (req.campaign !== undefined && req.caseName !== undefined) throw new InputError('give --campaign or --case, not both');
  if (req.campaign !== undefined) {
    const campaign = loadCampaign(req.campaign);
    return (farmId, farmType, taskId) => {
      const farm = campaign.farms.find((f) => f.id === farmId),
        type = campaign.farmTypes.find((t) => t.id === farmType);
      if (!farm) throw new InputError(`--campaign ${req.campaign}: no farm ${farmId} (task ${taskId})`);
      if (!type) throw new InputError(`--campaign ${req.campaign}: no farm type ${farmType} (task ${taskId})`);
      return caseForTask(farm, type);
    };
  }
  if (req.caseName !== undefined) {
    const c = loadCase(req.caseName, '--case');
    return () => c;
  }
  return undefined;
}

export async function resolvePlotSource(req: PlotSourceRequest): Promise<LayoutPlotInput[]> {
  const { source } = req;
  const stored = isCampaignFolder(source) || (fs.existsSync(source) && isHdf5File(source));
  if (stored) {
    if (req.wind !== undefined)
      throw new InputError('--wind: stored results are drawn with the wind of their farm (give --campaign or --case to draw them with another)');
    const supply = caseSupplier(req);
    const ids = req.compare && req.compare.length > 0 ? req.compare : [req.task ?? (await soleTaskId(source))];
    const results = isCampaignFolder(source) ? readLedgerResults(source, ids, supply) : await readH5Results(source, ids, supply);
    return results.map(storedToInput);
  }
  if (req.compare && req.compare.length > 0) throw new InputError(`--compare: needs a campaign output folder or a layouts.h5 file, got ${source}`);
  if (req.task !== undefined) throw new InputError(`--task: needs a campaign output folder or a layouts.h5 file, got ${source}`);
  if (req.campaign !== undefined) throw new InputError(`--campaign: needs a campaign output folder or a layouts.h5 file, got ${source}`);
  let c: Case;
  if (caseArgument(source).kind === 'builtin') {
    // The case's own wind unless --wind replaces it (as wflo aep --case NAME --wind).
    c = req.wind !== undefined ? resolveAepRequest({ caseName: source, wind: req.wind }) : builtinCase(source);
    return [{ title: `${c.name} (published baseline layout)`, site: c, x: c.layout!.x, y: c.layout!.y }];
  }
  if (!fs.existsSync(source)) {
    throw new InputError(`${source}: no such file or folder, and not a built-in case`);
  }
  const doc = readYamlFile(source);
  const caseOfResult = dig(doc, 'wflo', 'case');
  // An IEA37-shaped result (before results were self-contained) names its built-in case.
  const legacyCase = iea37Kind(doc) === 'layout' && typeof caseOfResult === 'string' && isBuiltinCase(caseOfResult) ? caseOfResult : undefined;
  const caseName = req.caseName ?? legacyCase;
  c = resolveAepRequest({ file: source, caseName, wind: req.wind });
  const seed = dig(doc, 'wflo', 'seed');
  const recorded = dig(doc, 'wflo', 'aep_mwh');
  const title = `${path.basename(source)}${(caseName ?? (typeof caseOfResult === 'string' ? caseOfResult : undefined)) ? ` · ${caseName ?? caseOfResult}` : ''}${typeof seed === 'number' ? ` · seed ${seed}` : ''}`;
  return [
    { title, site: c, x: c.layout!.x, y: c.layout!.y, recordedAepMwh: typeof recorded === 'number' ? recorded : undefined, ...recordedEconomics(doc, c) },
  ];
}
