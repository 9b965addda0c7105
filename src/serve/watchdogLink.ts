/**
 * The main thread's side of the `wflo serve --stdio` watchdog (serveWatchdog.ts, a thread of its
 * own): it starts the thread, marks each call (the thread ends the process when the client is
 * gone while a call computes), and after each call takes, in order, the request bytes the thread
 * read from stdin during it (it reads only during a long call, to see the end of stdin).
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';

/** The shared Int32 slots. */
export const SLOT = {
  /** The main thread's current call (0: not in one). */
  call: 0,
  /** 1 when the thread may read stdin during this call (the main thread's stream holds no unread bytes). */
  stealable: 1,
  /** Held (1) by whoever reads stdin or takes what was read. */
  lock: 2,
  /** Bytes the thread read into the shared buffer. */
  stolen: 3,
  /** 1 once stdin has ended (seen by either thread). */
  ended: 4,
} as const;
const SLOTS = 5;

export interface WatchdogData {
  /** The pid of the process that started the server. */
  parentPid: number;
  /** Whether stdin is a pipe or a socket (its end is the client's going away; a file's is not). */
  pipe: boolean;
  /** How long a call may go on once the client has gone, ms. */
  answerMs: number;
  slots: SharedArrayBuffer;
  /** The buffer the thread reads stdin into during a long call. */
  stolen: SharedArrayBuffer;
}

export interface WatchdogLink {
  /** Before a call: `stealable` when the stdin stream holds nothing unread. */
  beginCall(stealable: boolean): void;
  /** After it: the stdin bytes read during it (null: none). */
  endCall(): Buffer | null;
  /** The main thread saw the end of stdin. */
  ended(): void;
  /** Called with the thread's 'client-gone'. */
  onClientGone(f: () => void): void;
  stop(): void;
}

/** The watchdog for this process's stdin (null when its thread cannot start). */
export function startWatchdog(answerMs: number, stealBytes: number): WatchdogLink | null {
  let pipe = false;
  try {
    const s = fs.fstatSync(0);
    pipe = s.isFIFO() || s.isSocket();
  } catch {
    /* no stdin */
  }
  const slots = new Int32Array(new SharedArrayBuffer(SLOTS * 4));
  const stolen = new SharedArrayBuffer(stealBytes);
  const data: WatchdogData = { parentPid: process.ppid, pipe, answerMs, slots: slots.buffer as SharedArrayBuffer, stolen };
  let worker: Worker;
  try {
    worker = new Worker(new URL('./serveWatchdog.js', import.meta.url), {
      workerData: data,
      // A few MB are all it needs; it holds no data beyond the shared buffer.
      resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 },
      stdin: false,
      stdout: false,
      stderr: false,
    });
  } catch {
    return null;
  }
  worker.on('error', () => {
    /* the server goes on unwatched, as before the watchdog existed */
  });
  worker.unref();
  let call = 0;
  const bytes = new Uint8Array(stolen);
  return {
    beginCall(stealable) {
      call = call >= 0x7ffffffe ? 1 : call + 1;
      Atomics.store(slots, SLOT.stealable, stealable ? 1 : 0);
      Atomics.store(slots, SLOT.call, call);
    },
    endCall() {
      Atomics.store(slots, SLOT.call, 0);
      // The thread may be reading: wait for its (non-blocking) read to finish, then take what it read.
      while (Atomics.compareExchange(slots, SLOT.lock, 0, 1) !== 0) Atomics.wait(slots, SLOT.lock, 1, 5);
      const n = Atomics.load(slots, SLOT.stolen);
      const out = n > 0 ? Buffer.from(bytes.subarray(0, n)) : null;
      if (n > 0) Atomics.store(slots, SLOT.stolen, 0);
      Atomics.store(slots, SLOT.lock, 0);
      return out;
    },
    ended() {
      Atomics.store(slots, SLOT.ended, 1);
    },
    onClientGone(f) {
      worker.on('message', (m: unknown) => {
        if (m === 'client-gone') f();
      });
    },
    stop() {
      void worker.terminate();
    },
  };
}
