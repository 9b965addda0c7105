/**
 * The known name nearest to an unknown one ("did you mean …?"), by optimal string alignment
 * distance (Levenshtein plus adjacent transpositions, so `centre` → `center` is one edit),
 * compared case-insensitively and with `_`/`-` ignored, so `weibull_A` → `weibull_a` and
 * `maxIterations` → `max_iterations` are found too.
 */

/** Optimal string alignment distance between a and b. */
export function editDistance(a: string, b: string): number {
  const n = a.length,
    m = b.length;
  if (n === 0) return m;
  if (m === 0) return n;
  // Three rows of the dynamic-programming table: row i-2, i-1 and i, each indexed by j.
  let before = new Array<number>(m + 1).fill(0);
  let prev = Array.from({ length: m + 1 }, (_, j) => j);
  let cur = new Array<number>(m + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    for (let j = 1; j <= m; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2] + 1);
      cur[j] = d;
    }
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[m];
}

const fold = (s: string): string => s.toLowerCase().replace(/[_-]/g, '');

/**
 * The known key closest to `unknown`, or null when none is close: at most 1 edit for keys up to
 * 4 characters, then one more per 4 characters (`radious` → `radius`, `turbulence_intensty` →
 * `turbulence_intensity`), never more than 3.
 */
export function nearestKey(unknown: string, known: readonly string[]): string | null {
  const limit = Math.min(3, Math.max(1, Math.floor(unknown.length / 4)));
  let best: string | null = null;
  let bestDistance = Infinity,
    bestRaw = Infinity;
  for (const k of known) {
    const raw = editDistance(unknown, k);
    const d = fold(k) === fold(unknown) ? 0 : Math.min(raw, editDistance(fold(unknown), fold(k)));
    // Ties (after folding case and underscores) go to the key nearest as written.
    if (d < bestDistance || (d === bestDistance && raw < bestRaw)) {
      best = k;
      bestDistance = d;
      bestRaw = raw;
    }
  }
  return bestDistance <= limit ? best : null;
}
