/**
 * `wflo serve --stdio`: one engine session over the process's stdin and stdout (frames.ts). It
 * answers frames in order and ends when stdin ends (its client closed the pipe or died), when its
 * client process dies, when a `shutdown` request is answered, or after answering a frame the
 * stream cannot be followed past (exit code 2). Nothing else is written to stdout.
 *
 * Bounded (docs/python.md, "The engine process"): a watchdog thread (serveWatchdog.ts) ends the
 * process when the client has gone while a call computes (a dead client within about 0.1 s, a
 * closed stdin ANSWER_MS after its end); and when more than REPLY_QUEUE_BYTES of replies wait
 * for the client to read them, no request is read (they stay in the client's pipe) until the
 * client has read them all. The server says so once, on stderr.
 */
import { FrameDecoder, encodeFrame, type Frame } from './frames.js';
import { EngineSession, errorReply, type Reply } from './session.js';
import { InputError } from '../util/errors.js';
import { startWatchdog, type WatchdogLink } from './watchdogLink.js';

/** Unsent reply bytes beyond which no request is read until the client has read them all. */
export const REPLY_QUEUE_BYTES = 64 * 1024 * 1024;
/** How long a call may go on once stdin has ended, ms. */
export const ANSWER_MS = 500;
/** Request bytes the watchdog may read from stdin during one long call (to see its end). */
const STEAL_BYTES = 1024 * 1024;

export interface ServeOptions {
  /** REPLY_QUEUE_BYTES unless given. */
  replyQueueBytes?: number;
  /** Where the server's own notes go (stderr). */
  note?: (line: string) => void;
  /** The watchdog (default: one for process.stdin when that is the input; null: none). */
  watchdog?: WatchdogLink | null;
}

type Input = NodeJS.ReadableStream & { readableLength?: number; isPaused(): boolean; destroy?: () => void };

/** Serve until stdin ends; resolves with the exit code. */
export function serveStdio(
  input: NodeJS.ReadableStream = process.stdin,
  output: NodeJS.WritableStream = process.stdout,
  options: ServeOptions = {},
): Promise<number> {
  const session = new EngineSession();
  const decoder = new FrameDecoder();
  const bound = options.replyQueueBytes ?? REPLY_QUEUE_BYTES;
  const note =
    options.note ??
    ((line: string) => {
      process.stderr.write(`${line}\n`);
    });
  const stream = input as Input;
  const watchdog = options.watchdog !== undefined ? options.watchdog : input === process.stdin ? startWatchdog(ANSWER_MS, STEAL_BYTES) : null;
  const queued = (): number => (output as Partial<{ writableLength: number }>).writableLength ?? 0;
  return new Promise((resolve) => {
    let done = false;
    let broken = false; // the reader went away (EPIPE)
    const finish = (code: number) => {
      if (done) return;
      done = true;
      watchdog?.stop();
      stream.removeAllListeners('data');
      stream.pause();
      // Stop reading (a client that sent shutdown may keep its end open): the process can then exit.
      stream.destroy?.();
      // Resolve once what was written has been handed to the pipe (at once when nobody reads).
      if (broken) resolve(code);
      else output.write('', () => resolve(code));
    };
    output.on('error', () => {
      broken = true;
      finish(1);
    });
    watchdog?.onClientGone(() => finish(0));

    let waiting = false; // a request that reads a file answers later: the frames after it wait
    let held = false; // more than `bound` bytes of replies unsent
    let ended = false;
    let told = false;

    const send = (reply: Reply) => {
      output.write(encodeFrame(reply.header, reply.arrays));
      if (!held && queued() > bound) {
        held = true;
        if (!told) {
          told = true;
          note(
            `wflo serve: more than ${bound / (1024 * 1024)} MiB of replies are waiting for the client to read them; no request is read until it has read them`,
          );
        }
      }
    };
    output.on('drain', () => {
      if (held && queued() <= bound) {
        held = false;
        pump();
      }
    });
    const answer = (reply: Reply) => {
      send(reply);
      if (reply.stop) finish(0);
    };
    const handle = (frame: Frame) => {
      if (!frame.ok) {
        const id = frame.header && typeof frame.header.id === 'number' && Number.isSafeInteger(frame.header.id) ? frame.header.id : null;
        send(errorReply(new InputError(frame.problem), id, frame.fatal));
        if (frame.fatal) finish(2);
        return;
      }
      // The watchdog may read stdin during a long call only when the stream holds nothing unread
      // (what it reads must come after what the stream has).
      watchdog?.beginCall(!stream.isPaused() && (stream.readableLength ?? 0) === 0);
      let reply: Reply | Promise<Reply>;
      try {
        reply = session.handle(frame.header, frame.arrays, send);
      } finally {
        const read = watchdog?.endCall();
        if (read) decoder.push(read);
      }
      if (reply instanceof Promise) {
        waiting = true;
        void reply.then((r) => {
          waiting = false;
          if (!done) {
            answer(r);
            pump();
          }
        });
        return;
      }
      answer(reply);
    };
    /** Answer the frames at hand; reading pauses while a request waits or replies are held. */
    const pump = () => {
      if (done) return;
      for (let frame = waiting || held ? null : decoder.next(); frame !== null; frame = waiting || held || done ? null : decoder.next()) handle(frame);
      if (done) return;
      if (waiting || held) {
        stream.pause();
        return;
      }
      if (ended) {
        finish(0);
        return;
      }
      if (stream.isPaused()) stream.resume();
    };
    stream.on('data', (chunk: Buffer | string) => {
      if (done) return;
      decoder.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      pump();
    });
    stream.on('end', () => {
      ended = true;
      watchdog?.ended();
      pump();
    });
    stream.on('error', () => finish(1));
  });
}
