/**
 * "Did you mean …?" for misspelt keys: the known key nearest to an unknown one by optimal string
 * alignment distance (Levenshtein plus adjacent transpositions, so `centre` → `center` is one
 * edit), compared case-insensitively and with `_`/`-` ignored, so `weibull_A` → `weibull_a`
 * and `maxIterations` → `max_iterations` are found too.
 */

/** Optimal string alignment distance between a and b. */
export function editDistance(a: string, b: string): number {
  const n = a.length, m = b.length;
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
  let bestDistance = Infinity, bestRaw = Infinity;
  for (const k of known) {
    const raw = editDistance(unknown, k);
    const d = fold(k) === fold(unknown) ? 0 : Math.min(raw, editDistance(fold(unknown), fold(k)));
    // Ties (after folding case and underscores) go to the key nearest as written.
    if (d < bestDistance || (d === bestDistance && raw < bestRaw)) { best = k; bestDistance = d; bestRaw = raw; }
  }
  return bestDistance <= limit ? best : null;
}

/** The message for an unknown key: with the nearest known key, else the list of known keys. */
export function unknownKeyMessage(key: string, known: readonly string[]): string {
  const near = nearestKey(key, known);
  if (near !== null) return `unknown field '${key}'; did you mean '${near}'?`;
  return `unknown field '${key}' (known: ${known.join(', ')})`;
}

/**
 * Other tools' names for wflo's table columns (PyWake's `ws`, `wd`, `TI`, `p`, `CT`; spreadsheet
 * headers with a unit, `Wind Speed [m/s]`, `Power [kW]`): suggested, never accepted, so that one
 * column has one name in every file wflo reads.
 */
const COLUMN_ALIASES: Readonly<Record<string, string>> = {
  ws: 'wind_speed', u: 'wind_speed', speed: 'wind_speed', windspeed: 'wind_speed', v: 'wind_speed',
  wd: 'wind_direction', direction: 'wind_direction', winddirection: 'wind_direction', dir: 'wind_direction',
  ti: 'turbulence_intensity', turbulence: 'turbulence_intensity', turbulenceintensity: 'turbulence_intensity',
  p: 'power', power: 'power', powerw: 'power', powerkw: 'power', powermw: 'power',
  ct: 'ct', thrustcoefficient: 'ct', cts: 'ct',
  w: 'weight', weights: 'weight', freq: 'frequency', probability: 'frequency', pwd: 'frequency', t: 'time', timestamp: 'time',
};

/** An unknown column's message: the wflo name another tool's name stands for, or the nearest known one. */
export function unknownColumnMessage(name: string, known: readonly string[]): string {
  const unit = /[[(]\s*(k?W|MW)\s*[\])]\s*$/i.exec(name)?.[1] ?? /_(kw|mw)$/i.exec(name)?.[1];
  const bare = name.replace(/[[(][^\])]*[\])]\s*$/, '').trim();
  const folded = bare.toLowerCase().replace(/[\s_-]/g, '');
  const alias = COLUMN_ALIASES[folded] ?? COLUMN_ALIASES[bare.toLowerCase()];
  const near = alias !== undefined && known.includes(alias) ? alias : nearestKey(bare.replace(/\s+/g, '_'), known);
  if (near === null || (near === name)) return `unknown column '${name}' (known: ${known.join(', ')})`;
  const unitName = unit ? ({ w: 'W', kw: 'kW', mw: 'MW' } as Record<string, string>)[unit.toLowerCase()] : undefined;
  const unitHint = unitName && unitName !== 'W' && near === 'power' ? ` (with power_unit: ${unitName} in the turbine file)` : '';
  const pywake = ['ws', 'wd', 'ti'].includes(folded) ? ` (${name} is PyWake's name; wflo's files say ${near})` : '';
  return `unknown column '${name}'; did you mean '${near}'?${unitHint}${pywake}`;
}
