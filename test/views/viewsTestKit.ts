/**
 * Helpers for the views tests: small noop campaigns run through the real CLI, a headless
 * Debian chromium driven by playwright-core (fresh profile, no network features), and PNG
 * header reading.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { stringify } from 'yaml';
import { chromium, type BrowserContext } from 'playwright-core';
import { CLI, runWflo, tempDir } from '../helpers.js';

export const CHROMIUM = process.env.WFLO_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = (): boolean => fs.existsSync(CHROMIUM);

/** A noop campaign: 2 farms (IEA37 cs1-16 circle; a rectangle with an exclusion-free site) × 2 types × `seeds`. */
export function writeNoopCampaign(
  dir: string,
  name: string,
  seeds: number,
  optimizer: Record<string, unknown> = {},
  extra: Record<string, unknown> = {},
): { file: string; out: string } {
  const out = path.join(dir, `${name}-out`);
  const file = path.join(dir, `${name}.yaml`);
  fs.writeFileSync(
    file,
    stringify({
      name,
      output: out,
      farms: [
        { id: 0, case: 'iea37-cs1-16' },
        {
          id: 1,
          boundary: {
            polygon: [
              [0, 0],
              [3000, 0],
              [3000, 2000],
              [0, 2000],
            ],
          },
          wind: 'iea37-cs1',
          label: 'rectangle',
        },
      ],
      farm_types: [
        { id: 0, turbine: 'iea37-3.35mw', n_turbines: 6 },
        { id: 1, turbine: 'iea37-3.35mw', n_turbines: 9 },
      ],
      seeds: { start: 0, count: seeds },
      optimizer: { method: 'noop', ...optimizer },
      workers: 2,
      timeout_s: 60,
      attempts: 2,
      backoff: { initial_s: 0.05, factor: 2, max_s: 0.2 },
      export: { every_results: 1000, every_s: 1000 },
      ...extra,
    }),
  );
  return { file, out };
}

/** Run a campaign to its end; returns the output folder. */
export function runCampaign(file: string, out: string): string {
  const r = runWflo(['run', file, '--quiet']);
  if (r.status !== 0 && r.status !== 1) throw new Error(`wflo run failed (${r.status}): ${r.stderr}`);
  return out;
}

/** Start `wflo ARGS` as its own process group (so the test can kill it and its workers). */
export function startWflo(args: string[]): ChildProcess {
  return spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
}

export function killGroup(child: ChildProcess | null | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      resolve();
    }
    setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, 3000).unref();
  });
}

/** Wait for a line of the child's stdout matching `re`. */
export function waitForLine(child: ChildProcess, re: RegExp, timeoutMs = 20_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    let text = '',
      err = '';
    const timer = setTimeout(() => reject(new Error(`no line matching ${re} within ${timeoutMs} ms; stdout: ${text} stderr: ${err}`)), timeoutMs);
    child.stderr?.setEncoding('utf8').on('data', (s: string) => {
      err += s;
    });
    child.stdout?.setEncoding('utf8').on('data', (s: string) => {
      text += s;
      const m = re.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve(m);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before printing ${re}; stderr: ${err}`));
    });
  });
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless chromium with a fresh profile; close() removes the profile. */
export async function launchBrowser(viewport = { width: 1400, height: 1000 }): Promise<Browser> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wflo-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close().catch(() => {});
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

export function pngHeader(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return null;
  if (bytes.toString('ascii', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

export { tempDir, runWflo };
