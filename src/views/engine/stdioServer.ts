/**
 * `wflo serve --stdio`: one engine session over the process's stdin and stdout (frames.ts). It
 * answers frames in order and ends when stdin ends (its parent closed the pipe or died), when a
 * `shutdown` request is answered, or after answering a frame the stream cannot be followed past
 * (exit code 2). Nothing else is written to stdout.
 */
import { FrameDecoder, encodeFrame } from './frames.js';
import { EngineSession, errorReply, type Reply } from './session.js';
import { InputError } from '../../util/errors.js';

/** Serve until stdin ends; resolves with the exit code. */
export function serveStdio(input: NodeJS.ReadableStream = process.stdin, output: NodeJS.WritableStream = process.stdout): Promise<number> {
  const session = new EngineSession();
  const decoder = new FrameDecoder();
  return new Promise((resolve) => {
    let done = false;
    const finish = (code: number) => {
      if (done) return;
      done = true;
      input.removeAllListeners('data');
      input.pause();
      // Stop reading (a client that sent shutdown may keep its end open): the process can then exit.
      (input as Partial<{ destroy: () => void }>).destroy?.();
      // Resolve once what was written has been handed to the pipe.
      output.write('', () => resolve(code));
    };
    const send = (reply: Reply) => { output.write(encodeFrame(reply.header, reply.arrays)); };
    output.on('error', () => finish(1)); // the reader went away (EPIPE): nobody to answer
    const answer = (reply: Reply) => {
      send(reply);
      if (reply.stop) finish(0);
    };
    // A request that reads a file answers later: the frames after it wait, so answers stay in order.
    let waiting: Promise<void> | null = null;
    let ended = false;
    const drain = () => {
      for (let frame = decoder.next(); frame !== null && !done; frame = done ? null : decoder.next()) {
        if (frame.ok) {
          const reply = session.handle(frame.header, frame.arrays, send);
          if (reply instanceof Promise) {
            waiting = reply.then((r) => { waiting = null; if (!done) { answer(r); drain(); } });
            return;
          }
          answer(reply);
        } else {
          const id = frame.header && typeof frame.header.id === 'number' && Number.isSafeInteger(frame.header.id) ? frame.header.id : null;
          send(errorReply(new InputError(frame.problem), id, frame.fatal));
          if (frame.fatal) finish(2);
        }
      }
      if (ended) finish(0);
    };
    input.on('data', (chunk: Buffer) => {
      if (done) return;
      decoder.push(chunk);
      if (!waiting) drain();
    });
    input.on('end', () => { ended = true; if (!waiting) finish(0); });
    input.on('error', () => finish(1));
  });
}
