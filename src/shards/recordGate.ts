/**
 * The checks every record passes before it counts, whatever shape it came from: at most
 * --max-turbines turbines, finite coordinates within MAX_COORDINATE_M of the origin (random
 * bytes read as float64 give values like 2.7e155), then, with --expect CAMPAIGN.yaml, the
 * campaign's verification (campaignGate.ts, loaded only when asked for, so a plain check never
 * loads the campaign and physics code).
 */
import type { LayoutRecord } from '../io/layoutRecord.js';
import { DEFAULT_MAX_TURBINES, MAX_COORDINATE_M } from './shardTypes.js';

/** Why a record must be refused, or null when it may be used. */
export type RecordCheck = (record: LayoutRecord) => string | null;

export class RecordGate {
  readonly maxTurbines: number;

  constructor(
    maxTurbines: number | undefined,
    private readonly verify: RecordCheck | null,
  ) {
    this.maxTurbines = maxTurbines ?? DEFAULT_MAX_TURBINES;
  }

  refusal(record: LayoutRecord): string | null {
    if (record.nTurbines > this.maxTurbines) return `${record.nTurbines} turbines, more than --max-turbines ${this.maxTurbines}`;
    for (let i = 0; i < record.nTurbines; i++) {
      const x = record.x[i]!,
        y = record.y[i]!;
      if (!Number.isFinite(x) || !Number.isFinite(y)) return `turbine ${i} has a non-finite position (${x}, ${y})`;
      if (Math.abs(x) > MAX_COORDINATE_M || Math.abs(y) > MAX_COORDINATE_M) {
        return `turbine ${i} at (${x.toPrecision(3)}, ${y.toPrecision(3)}) m: coordinates beyond ${MAX_COORDINATE_M.toExponential(0).replace('e+', 'e')} m cannot be a site`;
      }
    }
    return this.verify ? this.verify(record) : null;
  }
}
