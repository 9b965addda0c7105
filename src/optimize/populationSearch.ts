/**
 * Population search ('population' method): a search that scales with the farm.
 *
 * 1. Starts: one layout per entry of `startFamilies`. `lattice` and `boundary-grid` entries come
 *    from a derivative-free search over the few numbers of a lattice (latticeStart.ts: random
 *    samples, then Nelder–Mead; the best distinct results), each polished by the gradient method
 *    over `polishWec` (default: the real wake only; wider wakes pull a lattice apart). Any other
 *    entry is an `initial` kind (structured, rings, greedy, …) optimized over `wec`. The polished,
 *    feasible layouts form the population.
 * 2. Generations (`hops`, or until the work budget is spent): a parent (the best member or a random
 *    one, even odds) gets a move drawn by `moveWeights` — the moves of moves.ts (relocations,
 *    boundary↔interior swaps, transfers between the parts of a site, staggering a row, local and
 *    global shakes) or a crossover with a second member (one side of a random line through the
 *    site from each parent, the count mended at the best spots) — then the gradient polish over
 *    `hopWec`: first a short one (`screenIterations` L-BFGS iterations, three rounds), and only
 *    when that comes within `screenSlack` (relative) of its parent, the full one from there
 *    (most children are rejected, and the short polish costs a sixth). The child replaces the worst member when it is better and not a copy of a member.
 * 3. Search rose: on a rose with more than `searchDirections` bins, steps 1–2 use the rose merged
 *    into that many sectors (searchRose.ts); at the end the best `finalPolish` members are polished
 *    on the real rose and the best of them is returned.
 * No further start or generation begins once AEP evaluations × n² × search-rose conditions reach
 * `workBudget`. Deterministic per seed; every budget counts evaluations, never time.
 */
import type { Case } from '../case/case.js';
import { caseEvaluator } from './caseEvaluator.js';
import type { FarmEvaluator } from '../physics/aep.js';
import type { PreparedBoundary } from '../geometry/preparedBoundary.js';
import type { Rng } from '../util/rng.js';
import { gradientStages } from './gradientStages.js';
import { initialLayout } from './initialLayout.js';
import { latticeSearch, type LatticeFamily } from './latticeStart.js';
import { applyMove, bestSpot, drawMove, type Layout, type MoveContext } from './moves.js';
import { coarsenRose } from './searchRose.js';
import { POPULATION_MOVES, type InitialLayoutKind, type PopulationMove, type ResolvedSettings } from './settings.js';
import type { SearchProgress } from './globalSearch.js';

export interface PopulationContext {
  c: Case;
  s: ResolvedSettings;
  site: PreparedBoundary;
  rng: Rng;
  aepRef: number;
  ensureFeasible: (x: Float64Array, y: Float64Array) => Layout | null;
  onProgress?: (event: PopulationProgress) => void;
}

/** A start, a generation or the final polish, with the best AEP so far (on the search rose until the final polish). */
export interface PopulationProgress extends Omit<SearchProgress, 'move'> {
  move: PopulationMove | 'seed' | 'final';
  /** Start family of a seed event. */
  family?: string;
}

export interface PopulationResult extends Layout {
  aep: number;
  iterations: number;
  evaluations: number;
  acceptedByMove: Record<string, number>;
  triedByMove: Record<string, number>;
}

interface Member extends Layout {
  aep: number;
}

export function populationSearch(ctx: PopulationContext): PopulationResult {
  const { c, s, site, rng } = ctx;
  const n = c.nTurbines;
  const searchWind = coarsenRose(c.wind, s.searchDirections);
  const searchCase: Case = searchWind === c.wind ? c : { ...c, wind: searchWind };
  // The case's evaluator: several models and neighbours included (caseEvaluator.ts).
  const evaluator: FarmEvaluator = caseEvaluator(searchCase);
  const workPerEvaluation = n * n * searchWind.directionsDeg.length * searchWind.speeds.length;
  let iterations = 0,
    evaluations = 0;
  const overBudget = () => evaluations * workPerEvaluation >= s.workBudget;
  const acceptedByMove: Record<string, number> = {};
  const triedByMove: Record<string, number> = {};
  const members: Member[] = [];
  let bestAep = -Infinity;
  const report = (hop: number, move: PopulationProgress['move'], trialAep: number, accepted: boolean, family?: string) => {
    const used = Math.max(
      Number.isFinite(s.workBudget) ? (evaluations * workPerEvaluation) / s.workBudget : 0,
      s.hops < 1e9 ? Math.max(0, hop + 1) / s.hops : 0,
    );
    ctx.onProgress?.({ hop, move, trialAep, bestAep, accepted, evaluations, done: move === 'final' ? 1 : Math.min(1, used), ...(family ? { family } : {}) });
  };
  /** Gradient polish on the search rose, then feasibility; null when repair fails. */
  const polish = (x: Float64Array, y: Float64Array, stages: number[], free: Uint8Array | null = null): Member | null => {
    const r = gradientStages(searchCase, stages, s, site, x, y, ctx.aepRef, free);
    iterations += r.iterations;
    evaluations += r.evaluations;
    const feasible = ctx.ensureFeasible(r.x, r.y);
    if (!feasible) return null;
    evaluations++;
    return { x: feasible.x, y: feasible.y, aep: evaluator.aep(feasible.x, feasible.y).aepMwh };
  };
  const isCopy = (m: Member) => members.some((o) => Math.abs(o.aep - m.aep) <= 1e-9 * Math.abs(m.aep));
  const admit = (m: Member | null, family: string) => {
    const accepted = !!m && !isCopy(m);
    if (accepted) {
      members.push(m!);
      bestAep = Math.max(bestAep, m!.aep);
    }
    report(-1, 'seed', m ? m.aep : NaN, accepted, family);
  };

  // 1. Starts.
  const latticeCounts = new Map<LatticeFamily, number>();
  for (const f of s.startFamilies) if (f === 'lattice' || f === 'boundary-grid') latticeCounts.set(f, (latticeCounts.get(f) ?? 0) + 1);
  for (const family of s.startFamilies) {
    if (members.length > 0 && overBudget()) break;
    if (family === 'lattice' || family === 'boundary-grid') {
      const keep = latticeCounts.get(family);
      if (keep === undefined) continue; // this family's lattices are already in
      latticeCounts.delete(family);
      const r = latticeSearch(evaluator, site, n, c.minSpacing, rng, {
        family,
        samples: s.latticeSamples,
        refineCount: Math.max(keep, s.latticeRefineCount),
        refineEvaluations: s.latticeRefineEvaluations,
        keep,
      });
      evaluations += r.evaluations;
      for (const candidate of r.candidates) {
        if (members.length > 0 && overBudget()) break;
        admit(polish(candidate.x, candidate.y, s.polishWec), family);
      }
      continue;
    }
    const start = initialLayout(family as InitialLayoutKind, site, n, c.minSpacing, rng, c.layout, evaluator);
    admit(polish(start.x, start.y, s.wec), family);
  }
  if (members.length === 0) {
    const start = initialLayout('random', site, n, c.minSpacing, rng, null);
    admit(polish(start.x, start.y, s.wec), 'random');
  }
  if (members.length === 0) throw new Error('population search: no feasible starting layout');

  // 2. Generations.
  const moveContext: MoveContext = { c, site, evaluator, rng, candidates: s.hopCandidates, shakeStep: s.shakeStep };
  for (let hop = 0; hop < s.hops && !overBudget(); hop++) {
    members.sort((a, b) => b.aep - a.aep);
    const parent = rng.next() < 0.5 ? members[0]! : members[rng.int(members.length)]!;
    let move = drawMove(rng, s.moveWeights, POPULATION_MOVES);
    if (move === 'crossover' && members.length < 2) move = 'relocate';
    let trial: Layout | null;
    if (move === 'crossover') {
      let other = members[rng.int(members.length - 1)]!;
      if (other === parent) other = members[members.length - 1]!;
      const r = crossover(moveContext, parent, other);
      evaluations += r.evaluations;
      trial = r.layout;
    } else {
      const r = applyMove(move, moveContext, parent);
      evaluations += r.evaluations;
      trial = r.layout;
    }
    let aep = NaN,
      accepted = false;
    if (trial) {
      triedByMove[move] = (triedByMove[move] ?? 0) + 1;
      const free = s.localRadius > 0 && move !== 'shake' && move !== 'crossover' ? neighbourhood(parent, trial, s.localRadius * c.minSpacing) : null;
      const worstAep = members[members.length - 1]!.aep;
      let child: Member | null = null;
      // Screening: a short polish first; only a child that comes near its parent gets the full one.
      let start: Layout | null = trial;
      if (s.screenIterations > 0) {
        const r = gradientStages(
          searchCase,
          s.hopWec,
          { ...s, maxIterations: s.screenIterations, outerIterations: 3 },
          site,
          trial.x,
          trial.y,
          ctx.aepRef,
          free,
        );
        iterations += r.iterations;
        evaluations += r.evaluations + 1;
        const estimate = evaluator.aep(r.x, r.y).aepMwh;
        start = estimate >= parent.aep * (1 - s.screenSlack) ? r : null;
        if (!start) aep = estimate;
      }
      if (start) child = polish(start.x, start.y, s.hopWec, free);
      // A new best is polished once more (the whole farm after a local polish): the augmented
      // Lagrangian stops at its round limit, and a second run from its end often gains a little.
      if (child && child.aep > bestAep) {
        const again = polish(child.x, child.y, s.hopWec);
        if (again && again.aep > child.aep) child = again;
      }
      if (child) {
        aep = child.aep;
        if (child.aep > worstAep && !isCopy(child)) {
          if (members.length >= s.startFamilies.length) members.pop();
          members.push(child);
          accepted = child.aep > bestAep;
          if (accepted) acceptedByMove[move] = (acceptedByMove[move] ?? 0) + 1;
          bestAep = Math.max(bestAep, child.aep);
        }
      }
    }
    report(hop, move, aep, accepted);
  }

  // 3. The result: on the real rose (polished there when the search used a merged rose).
  members.sort((a, b) => b.aep - a.aep);
  const real = caseEvaluator(c);
  let best: Member | null = null;
  const finalists = searchCase === c ? members.slice(0, 1) : members.slice(0, s.finalPolish);
  for (const m of finalists) {
    let candidate: Member = { x: m.x, y: m.y, aep: real.aep(m.x, m.y).aepMwh };
    evaluations++;
    if (searchCase !== c) {
      const r = gradientStages(c, [1], s, site, m.x, m.y, ctx.aepRef);
      iterations += r.iterations;
      evaluations += r.evaluations;
      const feasible = ctx.ensureFeasible(r.x, r.y);
      if (feasible) {
        const aep = real.aep(feasible.x, feasible.y).aepMwh;
        evaluations++;
        if (aep > candidate.aep) candidate = { x: feasible.x, y: feasible.y, aep };
      }
    }
    if (!best || candidate.aep > best.aep) best = candidate;
    bestAep = best.aep;
    report(-1, 'final', candidate.aep, candidate === best);
  }
  return { x: best!.x, y: best!.y, aep: best!.aep, iterations, evaluations, acceptedByMove, triedByMove };
}

/** Turbines that moved from `before` to `after`, and every turbine within `radius` of where they were or are now. */
function neighbourhood(before: Layout, after: Layout, radius: number): Uint8Array {
  const n = after.x.length;
  const free = new Uint8Array(n);
  const centres: number[] = [];
  for (let i = 0; i < n; i++) {
    if (before.x[i] !== after.x[i] || before.y[i] !== after.y[i]) centres.push(before.x[i]!, before.y[i]!, after.x[i]!, after.y[i]!);
  }
  const r2 = radius * radius;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < centres.length && !free[i]; k += 2) {
      if ((after.x[i]! - centres[k]!) ** 2 + (after.y[i]! - centres[k + 1]!) ** 2 <= r2) free[i] = 1;
    }
  }
  return free;
}

/**
 * One side of a random line through the site's centre from parent a, the other from parent b;
 * surplus turbines nearest the line are dropped, missing ones placed at the best spots.
 */
function crossover(ctx: MoveContext, a: Layout, b: Layout): { layout: Layout | null; evaluations: number } {
  const { site, rng } = ctx;
  const n = a.x.length;
  const box = site.box;
  const cx = rng.uniform(box.minX, box.maxX) * 0.5 + 0.25 * (box.minX + box.maxX);
  const cy = rng.uniform(box.minY, box.maxY) * 0.5 + 0.25 * (box.minY + box.maxY);
  const angle = rng.uniform(0, Math.PI);
  const nx = Math.cos(angle),
    ny = Math.sin(angle);
  const side = (px: number, py: number) => (px - cx) * nx + (py - cy) * ny;
  const picked: { x: number; y: number; d: number }[] = [];
  for (let i = 0; i < n; i++) {
    const d = side(a.x[i]!, a.y[i]!);
    if (d >= 0) picked.push({ x: a.x[i]!, y: a.y[i]!, d });
  }
  for (let i = 0; i < n; i++) {
    const d = side(b.x[i]!, b.y[i]!);
    if (d < 0) picked.push({ x: b.x[i]!, y: b.y[i]!, d: -d });
  }
  picked.sort((p, q) => q.d - p.d);
  const kept = picked.slice(0, n);
  const x = new Float64Array(n),
    y = new Float64Array(n);
  kept.forEach((p, i) => {
    x[i] = p.x;
    y[i] = p.y;
  });
  let evaluations = 0;
  // Missing turbines: each at the best spot for the farm placed so far.
  for (let i = kept.length; i < n; i++) {
    const r = bestSpot(ctx, x.subarray(0, i + 1), y.subarray(0, i + 1), i, ctx.candidates, 'any');
    evaluations += r.evaluations;
    if (!r.found) return { layout: null, evaluations };
    x[i] = r.x;
    y[i] = r.y;
  }
  return { layout: { x, y }, evaluations };
}
