/**
 * The engine session behind `wflo serve --stdio` (docs/python.md): open farms (a built-in case or a
 * case file, as `wflo aep` reads it) and answer `aep`, `aep_and_gradient`, `close` and `shutdown`
 * requests with the same evaluator `wflo aep` uses (optimize/caseEvaluator.ts), so the figures are
 * the CLI's bit for bit. Every request header is checked field by field (unknown kinds and fields,
 * wrong lengths, non-finite numbers are an error response); a bad request never ends the session.
 */
import { caseEvaluator } from '../optimize/caseEvaluator.js';
import type { Case } from '../case/case.js';
import type { Emit, FarmTable, OpenFarm, Reply, RequestHandler } from './sessionTypes.js';
import { openCase, FARM_REQUESTS } from './farmRequests.js'; // farms from values, details, flow maps, constraints, optimize
import { coordinates } from './requestFields.js';
import { InputError, WfloError } from '../util/errors.js';
import { oneLineMessage } from '../util/printable.js';
import { nearestKey } from '../util/nearestName.js';
import { LAYOUTS_KINDS, LayoutsRequests } from './layoutsRequests.js';

export const PROTOCOL = 'wflo-serve/1';
/** Farms one session may hold open at once. */
const MAX_OPEN_FARMS = 1000;

export type { Reply } from './sessionTypes.js';

/** Each kind's allowed header fields (besides kind, id, arrays) and array names. */
const KINDS: Record<string, { fields: string[]; arrays: string[] }> = {
  open: { fields: ['case'], arrays: [] },
  aep: { fields: ['handle'], arrays: ['x', 'y'] },
  aep_and_gradient: { fields: ['handle'], arrays: ['x', 'y'] },
  close: { fields: ['handle'], arrays: [] },
  shutdown: { fields: [], arrays: [] },
  ...LAYOUTS_KINDS, // layouts_open, layouts_rows, layouts_definitions, layouts_close (layoutsRequests.ts)
  ...FARM_REQUESTS,
};
/** Kinds answered by a handler in another file (sessionTypes.ts RequestHandler). */
const HANDLERS: Record<string, RequestHandler> = { ...FARM_REQUESTS };

export class EngineSession implements FarmTable {
  private farms = new Map<number, OpenFarm>();
  private nextHandle = 1;
  private layouts = new LayoutsRequests();

  /** The response to one decoded request (errors included: they are responses too). */
  handle(header: Record<string, unknown>, arrays: Map<string, Float64Array>, send?: (reply: Reply) => void): Reply | Promise<Reply> {
    const id = validId(header.id);
    try {
      const reply = this.dispatch(header, arrays, id, send);
      return reply instanceof Promise ? reply.catch((err: unknown) => errorReply(err, id)) : reply; // a request that reads a file
    } catch (err) {
      return errorReply(err, id);
    }
  }

  private dispatch(
    header: Record<string, unknown>,
    arrays: Map<string, Float64Array>,
    id: number | null,
    send?: (reply: Reply) => void,
  ): Reply | Promise<Reply> {
    if (header.id !== undefined && id === null) throw new InputError('id: expected a whole number');
    const kind = header.kind;
    if (typeof kind !== 'string') throw new InputError(`kind: expected one of ${Object.keys(KINDS).join(', ')}`);
    const spec = Object.hasOwn(KINDS, kind) ? KINDS[kind] : undefined; // never an Object.prototype member ('constructor')
    if (!spec) {
      const near = nearestKey(kind, Object.keys(KINDS));
      throw new InputError(
        `kind: unknown request '${oneLineMessage(kind.slice(0, 40))}' (expected ${Object.keys(KINDS).join(', ')})${near ? `; did you mean ${near}?` : ''}`,
      );
    }
    for (const key of Object.keys(header)) {
      if (key !== 'kind' && key !== 'id' && key !== 'arrays' && !spec.fields.includes(key))
        throw new InputError(`${kind}.${oneLineMessage(key.slice(0, 40))}: unknown field (expected ${['kind', 'id', ...spec.fields].join(', ')})`);
    }
    for (const name of arrays.keys())
      if (!spec.arrays.includes(name)) throw new InputError(`${kind}: unknown array '${name}' (expected ${spec.arrays.join(', ') || 'none'})`);
    const base = { protocol: PROTOCOL, ok: true, kind, ...(id !== null ? { id } : {}) };
    if (Object.hasOwn(HANDLERS, kind)) {
      // Frames before the reply (progress): kind 'progress', the request's id.
      const emit: Emit | undefined =
        send && ((fields) => send({ header: { protocol: PROTOCOL, ok: true, kind: 'progress', ...(id !== null ? { id } : {}), ...fields } }));
      const r = HANDLERS[kind].answer(this, header, arrays, kind, emit);
      return { header: { ...base, ...r.fields }, arrays: r.arrays };
    }
    switch (kind) {
      case 'open': {
        const name = header.case;
        if (typeof name !== 'string' || name.length === 0 || name.length > 4096)
          throw new InputError('open.case: expected a built-in case name or a case file path');
        // The case as `wflo aep CASE` reads it (a built-in name or a file); a case without a layout opens too.
        const { fields, arrays: layout } = this.open(openCase(name), name);
        return { header: { ...base, ...fields }, arrays: layout };
      }
      case 'aep':
      case 'aep_and_gradient': {
        const farm = this.farm(kind, header.handle);
        const x = coordinates(kind, 'x', arrays, farm.n);
        const y = coordinates(kind, 'y', arrays, farm.n);
        // engine_us: the evaluation's own time (what a client's overhead is measured against, bench/python.ts).
        const t0 = process.hrtime.bigint();
        if (kind === 'aep') {
          const r = farm.evaluator.aep(x, y);
          const engineUs = Number(process.hrtime.bigint() - t0) / 1e3;
          return { header: { ...base, aep_mwh: r.aepMwh, engine_us: engineUs }, arrays: { per_turbine_mwh: r.perTurbineMwh } };
        }
        const r = farm.evaluator.aepWithGradient(x, y);
        const engineUs = Number(process.hrtime.bigint() - t0) / 1e3;
        return { header: { ...base, aep_mwh: r.aepMwh, engine_us: engineUs }, arrays: { per_turbine_mwh: r.perTurbineMwh, grad_x: r.gradX, grad_y: r.gradY } };
      }
      case 'close': {
        const handle = this.handleOf(kind, header.handle);
        this.farms.delete(handle);
        return { header: base };
      }
      case 'layouts_open':
      case 'layouts_rows':
      case 'layouts_definitions':
      case 'layouts_close':
        return this.layouts.reply(kind, header, base);
      default: // shutdown
        return { header: base, stop: true };
    }
  }

  /** Open a farm for a case (FarmTable): its handle and fields, and its layout as arrays x, y. */
  open(c: Case, source: string): { fields: Record<string, unknown>; arrays?: Record<string, Float64Array> } {
    if (this.farms.size >= MAX_OPEN_FARMS) throw new InputError(`open: ${MAX_OPEN_FARMS} farms are open; close some first`);
    const n = c.layout ? c.layout.x.length : c.nTurbines;
    const farm: OpenFarm = { c, n, evaluator: caseEvaluator(c), source };
    const handle = this.nextHandle++;
    this.farms.set(handle, farm);
    return {
      arrays: c.layout ? { x: c.layout.x, y: c.layout.y } : undefined,
      fields: {
        handle,
        n,
        name: c.name,
        turbine: c.turbine.name,
        wake_model: c.model.wake,
        superposition: c.model.superposition,
        boundary: c.boundary,
        min_spacing_m: c.minSpacing,
        has_baseline: c.layout !== null,
      },
    };
  }

  private handleOf(kind: string, handle: unknown): number {
    if (typeof handle !== 'number' || !Number.isSafeInteger(handle) || !this.farms.has(handle)) {
      throw new InputError(
        `${kind}.handle: ${typeof handle === 'number' && Number.isFinite(handle) ? `no open farm ${handle}` : 'expected the handle an open response gave'}`,
      );
    }
    return handle;
  }

  /** The open farm of a request's handle (FarmTable). */
  farm(kind: string, handle: unknown): OpenFarm {
    return this.farms.get(this.handleOf(kind, handle))!;
  }
}

function validId(id: unknown): number | null {
  return typeof id === 'number' && Number.isSafeInteger(id) ? id : null;
}

/** An error as a response: the CLI's one line and exit code (cli/errors.ts), or an unexpected error. */
export function errorReply(err: unknown, id: number | null, fatal = false): Reply {
  const base = { protocol: PROTOCOL, ok: false, ...(id !== null ? { id } : {}), ...(fatal ? { fatal: true } : {}) };
  if (err instanceof WfloError) return { header: { ...base, error: oneLineMessage(err.message), exit_code: err.exitCode } };
  const e = err as Error | undefined;
  return { header: { ...base, error: oneLineMessage(`unexpected error: ${e?.message ?? String(err)}`), exit_code: 1 } };
}
