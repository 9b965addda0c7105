/**
 * `wflo report DIR -o report.html`: the campaign's views (campaignData.ts) and charts
 * (chartSpecs.ts) in one self-contained HTML file (pageHtml.ts), written atomically.
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../util/errors.js';
import { LEDGER_FILE } from '../runner/ledger.js';
import { readCampaignView, type CampaignViewOptions } from './campaignData.js';
import { campaignCharts } from './chartSpecs.js';
import { reportHtml } from './pageHtml.js';
import { writeOutputFile } from './outputFile.js';

/** A campaign output folder with a ledger, else a one-line InputError (exit 2). */
export function requireCampaignFolder(dir: string): void {
  if (!fs.existsSync(dir)) throw new InputError(`${dir}: no such folder`);
  if (!fs.statSync(dir).isDirectory()) throw new InputError(`${dir}: not a folder (give a campaign output folder, the one holding ${LEDGER_FILE})`);
  if (!fs.existsSync(path.join(dir, LEDGER_FILE)))
    throw new InputError(`${dir}: no campaign ledger here (${LEDGER_FILE} not found); is this a wflo run output folder?`);
}

/** The payload the page renders: the view and its charts. */
export async function campaignPayload(dir: string, options: CampaignViewOptions = {}) {
  const view = await readCampaignView(dir, options);
  return { view, charts: campaignCharts(view) };
}

export async function writeReport(
  dir: string,
  output: string,
  options: CampaignViewOptions = {},
): Promise<{ file: string; bytes: number; done: number; total: number; failed: number; charts: number; layouts: number }> {
  requireCampaignFolder(dir);
  const payload = await campaignPayload(dir, options);
  const html = reportHtml(payload, `wflo report · ${payload.view.campaign}`);
  writeOutputFile(output, html);
  const s = payload.view.status;
  return {
    file: output,
    bytes: Buffer.byteLength(html),
    done: s.done,
    total: s.total,
    failed: s.failed,
    charts: payload.charts.length,
    layouts: payload.view.layouts.length,
  };
}
