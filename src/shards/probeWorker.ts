/**
 * Entry point of a probe child process: opens untrusted worker files with h5wasm on behalf of
 * the parent (probePool.ts), one request at a time, and answers with what readShard found.
 * Records go to this child's own spill file when the parent asked for them (merge).
 * Runs only when started by the pool (WFLO_PROBE_CHILD=1), so importing it does nothing.
 */
import { loadH5 } from '../io/hdf5/h5wasmRuntime.js';
import { readShard } from './shardReader.js';
import { SpillWriter } from './spillStore.js';
import { exitWhenParentLeaves } from '../runner/parentLeaves.js';
import type { ProbeResult, ShardReadOptions } from './shardTypes.js';

export interface ProbeRequest {
  id: number;
  path: string;
  options: ShardReadOptions;
  /** Write the records' payloads to this child's spill file. */
  spill: boolean;
}

export interface ProbeResponse {
  id: number;
  result: ProbeResult;
}

/**
 * Fault injection for the pool's own tests (SQLite-style): WFLO_PROBE_FAULT=crash:<name> or
 * hang:<name> makes this process die or hang on the file whose base name is <name>.
 */
function injectFault(filePath: string): void {
  const fault = process.env.WFLO_PROBE_FAULT;
  if (!fault) return;
  const [kind, name] = fault.split(':');
  if (filePath.split('/').pop() !== name) return;
  if (kind === 'crash') process.kill(process.pid, 'SIGKILL');
  if (kind === 'hang')
    for (;;) {
      /* spin until the parent's timeout kills us */
    }
}

async function serve(): Promise<void> {
  const h5 = await loadH5();
  const spillPath = process.env.WFLO_SPILL_PATH;
  let spill: SpillWriter | null = null;
  // After an HDF5 error this wasm instance may be damaged (h5wasm #46): read nothing more,
  // hand the queued files back, and let the parent replace this process.
  let tainted = false;
  // Gone with the parent, even in the middle of a long synchronous read (runner/parentLeaves.ts).
  exitWhenParentLeaves();
  // Requests are handled strictly in arrival order (the parent pipelines several).
  let queue: Promise<void> = Promise.resolve();
  const handle = async (request: ProbeRequest): Promise<void> => {
    // The campaign and physics code load only for --expect.
    const verify = request.options.verify ? (await import('./campaignGate.js')).campaignCheckFor(request.options.verify) : null;
    if (tainted) {
      process.send!({ id: request.id, retry: true });
      return;
    }
    injectFault(request.path);
    if (request.spill && !spill && spillPath) spill = new SpillWriter(spillPath);
    const result = readShard(h5, request.path, request.options, request.spill ? spill : null, verify);
    if (result.hdf5Errors) tainted = true;
    process.send!({ id: request.id, result } satisfies ProbeResponse);
  };
  process.on('message', (request: ProbeRequest) => {
    queue = queue
      .then(() => handle(request))
      .catch((err: unknown) => {
        // A bug, not a bad file (readShard never throws for one): let the parent see the crash.
        process.stderr.write(`probe child: ${(err as Error).stack ?? String(err)}\n`);
        process.exit(70);
      });
  });
  process.send!({ ready: true });
}

if (process.env.WFLO_PROBE_CHILD === '1' && process.send) {
  await serve();
}
