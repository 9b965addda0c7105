/**
 * `wflo optimize`'s progress on a terminal: one live bar (cli-progress) on stderr, fed by the
 * optimizer's hooks (optimize/optimizeLayout.ts `OptimizeHooks`): the share of the method's budget
 * used (global and population: their work budget or hops; gradient: its continuation stages;
 * basin: its hops), the current step, and the best AEP so far. The optimization runs in this
 * process, so the bar is drawn from the hooks themselves (cli-progress `synchronousUpdate`), not
 * from a timer. Only for a TTY: the CLI passes no hooks otherwise, and nothing extra is printed.
 */
import cliProgress from 'cli-progress';
import type { OptimizeHooks } from '../optimize/optimizeLayout.js';
import { formatDuration } from './progress.js';

const STEPS = 1000;

export interface OptimizeProgress {
  hooks: OptimizeHooks;
  /** Remove the bar (the result is printed after it). */
  stop(): void;
}

export function optimizeProgress(stream: NodeJS.WriteStream, label: string): OptimizeProgress {
  const bar = new cliProgress.SingleBar(
    {
      stream,
      format: `${label} {bar} {percentage}% | {step} | best {best} | {elapsed}`,
      barsize: 24,
      hideCursor: true,
      clearOnComplete: true,
      fps: 4,
    },
    cliProgress.Presets.shades_classic,
  );
  const t0 = Date.now();
  let best = -Infinity;
  let starts = 0;
  const payload = (step: string) => ({
    step,
    best: Number.isFinite(best) ? `${best.toFixed(1)} MWh` : '—',
    elapsed: formatDuration((Date.now() - t0) / 1000),
  });
  bar.start(STEPS, 0, payload('starting'));
  const show = (done: number, step: string, bestAep?: number) => {
    if (bestAep !== undefined && Number.isFinite(bestAep)) best = Math.max(best, bestAep);
    bar.update(Math.round(Math.min(1, Math.max(0, done)) * STEPS), payload(step));
  };
  return {
    hooks: {
      onProgress: (e) => show(e.done, e.move === 'seed' ? `start ${++starts}` : `hop ${e.hop + 1} (${e.move})`, e.bestAep),
      onPopulationProgress: (e) =>
        show(e.done, e.move === 'seed' ? `start ${++starts}` : e.move === 'final' ? 'final polish' : `generation ${e.hop + 1}`, e.bestAep),
      onGradientStage: (e) => show((e.stage + 1) / e.stages, `stage ${e.stage + 1}/${e.stages}, ${e.evaluations} evaluations`),
    },
    stop: () => bar.stop(),
  };
}
