/**
 * When a run refreshes layouts.h5, and how: the first result of a run at once (a valid partial
 * file within seconds), then every `every_results` results or `every_s` seconds, one export at a
 * time in the exporter process (exporterClient.ts); the final export at the end, retried while a
 * writer left by a killed coordinator still holds the file and once on a fresh exporter process.
 * Failures are audited and said once; they never stop the run (every result is in the ledger).
 */
import fs from 'node:fs';
import path from 'node:path';
import { RuntimeFailure } from '../util/errors.js';
import type { Campaign } from '../campaign/campaign.js';
import type { Ledger } from './ledger.js';
import type { AuditLog } from './auditLog.js';
import type { ProgressReporter } from './progress.js';
import { LAYOUTS_FILE } from './layoutsFile.js';
import type { ExportReport } from './exporter.js';
import { ExporterClient } from './exporterClient.js';

export class ExportCadence {
  private readonly exporter = new ExporterClient();
  private running: Promise<void> | null = null;
  private resultsSince = 0;
  private lastAt = performance.now();
  private started = 0;
  private warned = false;
  /** Whether the latest export attempt succeeded. */
  private lastOk = false;
  lastExport: ExportReport | null = null;
  lastError: string | null = null;
  /** How the ledger is damaged, when that is why the last export failed. */
  private ledgerDamaged: string | null = null;

  constructor(
    private readonly c: Pick<Campaign, 'exportEveryResults' | 'exportEveryS'>,
    private readonly outputDir: string,
    private readonly ledger: Ledger,
    private readonly audit: AuditLog,
    private readonly progress: ProgressReporter | undefined,
  ) {}

  /** `n` results were committed. */
  committed(n: number): void {
    this.resultsSince += n;
  }

  /** Start an export if one is due and none is running. */
  maybe(): void {
    if (this.running) return;
    const due =
      this.resultsSince >= this.c.exportEveryResults ||
      (this.resultsSince > 0 && (this.started === 0 || performance.now() - this.lastAt >= this.c.exportEveryS * 1000));
    if (due)
      this.running = this.exportOnce().then(() => {
        this.running = null;
      });
  }

  /** The export running now, if any, to its end. */
  async settle(): Promise<void> {
    if (this.running) await this.running;
  }

  /**
   * The last export of a run: needed when this run committed anything, the file is missing, the
   * caller says so, or the last attempt failed; not when the last good export is already current.
   */
  async final(neededAnyway: boolean): Promise<void> {
    const needed = neededAnyway || !fs.existsSync(path.join(this.outputDir, LAYOUTS_FILE)) || (this.lastExport === null && this.lastError !== null);
    if (!needed || (this.lastOk && this.resultsSince === 0)) return;
    // A writer left over from a killed coordinator may still hold the file lock for a moment.
    let freshRetries = 1;
    for (let tries = 0; tries < 20; tries++) {
      if (await this.exportOnce()) return;
      if (this.ledgerDamaged !== null) break;
      if (/being written by another process/.test(this.lastError ?? '')) {
        await new Promise((r) => setTimeout(r, 500));
        continue;
      }
      // Once more on a fresh exporter process (the client replaces it after any failure).
      if (freshRetries-- > 0) {
        this.progress?.log(`wflo: final export failed (${this.lastError}); retrying on a fresh exporter process`);
        continue;
      }
      break;
    }
    if (this.ledgerDamaged !== null) {
      // The ledger is not safe: the run's results are in the audit log, and the rebuild takes them back.
      throw new RuntimeFailure(
        `${this.ledger.path} was damaged during the run (${this.ledgerDamaged}); layouts.h5 not refreshed. Every result is also in ` +
          `${path.join(this.outputDir, 'audit.jsonl')}: \`wflo ledger rebuild ${this.outputDir}\` rebuilds the ledger from it and layouts.h5 (the damaged file is kept aside), then \`wflo export ${this.outputDir}\``,
      );
    }
    const refused = /\b(EPERM|EACCES|EROFS)\b/.exec(this.lastError ?? '')?.[1];
    const fix = refused ? `once ${this.outputDir} can be written again (${refused}: made read-only or immutable?), ` : '';
    throw new RuntimeFailure(
      `could not write ${path.join(this.outputDir, LAYOUTS_FILE)}: ${this.lastError}; every finished task is safe in the ledger, ${fix}rerun \`wflo export ${this.outputDir}\``,
    );
  }

  close(): void {
    this.exporter.close();
  }

  /** One export in the exporter process; never throws (failures are logged and audited). */
  private async exportOnce(): Promise<boolean> {
    this.started++;
    this.resultsSince = 0;
    this.lastAt = performance.now();
    const result = await this.exporter.export(this.outputDir);
    this.lastOk = result.ok;
    this.ledgerDamaged = result.ok ? null : (result.damagedLedger ?? null);
    if (result.ok) {
      this.lastExport = result.report;
      this.lastError = null;
      const r = result.report;
      this.audit.write({
        event: 'export',
        file: r.file,
        rows: r.rows,
        expected: r.expected,
        complete: r.complete,
        bytes: r.bytes,
        seconds: Math.round(r.seconds * 1e4) / 1e4,
      });
      try {
        this.ledger.setMeta(
          'last_export',
          JSON.stringify({ rows: r.rows, campaign_hash: r.campaignHash, created: r.created, file_stamp: r.fileStamp, at: new Date().toISOString() }),
        );
      } catch {
        /* only an optimization for the next run */
      }
      return true;
    }
    this.lastError = result.message;
    this.audit.write({ event: 'export_failed', error: this.lastError });
    if (!this.warned) {
      this.progress?.log(`wflo: warning: could not refresh layouts.h5 (will retry): ${this.lastError}`);
      this.warned = true;
    }
    return false;
  }
}
