/**
 * A program's stdout or stderr for one attempt, kept within a fixed size: the first half of the
 * limit is written to the log file as it arrives, the last half is kept in memory and appended
 * when the log is closed, with one line saying how many bytes were left out between them. A
 * program printing a gigabyte costs reading it, never the disk or the memory. The file (and, through
 * `prepare`, its folder) is made on the first byte, new (freshFile.ts: never written through a link
 * the program left at its name): a silent program leaves none. `lastLines()` is what a failure message quotes.
 */
import fs from 'node:fs';
import { LOG_LIMIT_BYTES } from './protocol.js';
import { openFresh } from './freshFile.js';
import { printable } from '../../util/printable.js';

/** How much of the end of the output lastLines looks at. */
const QUOTED_BYTES = 8192;

export class BoundedLog {
  private fd: number | null = null;
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  /** Bytes the program wrote in all. */
  total = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;
  private failed = false;
  /** The last bytes of the head, for lastLines (the file is never read back: the program may have replaced it). */
  private headEnd: Buffer = Buffer.alloc(0);

  /** `prepare`: called before the file is first made (creates its folder). */
  constructor(
    readonly file: string,
    limit = LOG_LIMIT_BYTES,
    private readonly prepare: (() => void) | null = null,
  ) {
    this.headLimit = Math.floor(limit / 2);
    this.tailLimit = limit - this.headLimit;
  }

  write(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headBytes < this.headLimit) {
      const head = rest.subarray(0, this.headLimit - this.headBytes);
      this.append(head);
      this.headBytes += head.length;
      this.headEnd = Buffer.concat([this.headEnd, head]).subarray(-QUOTED_BYTES);
      rest = rest.subarray(head.length);
    }
    if (rest.length === 0) return;
    this.tail.push(Buffer.from(rest));
    this.tailBytes += rest.length;
    while (this.tailBytes - this.tail[0].length >= this.tailLimit) this.tailBytes -= this.tail.shift()!.length;
  }

  private append(b: Buffer): void {
    if (this.failed || b.length === 0) return;
    try {
      if (this.fd === null) {
        this.prepare?.();
        this.fd = openFresh(this.file);
      }
      fs.writeSync(this.fd, b);
    } catch {
      this.failed = true; // a full disk must not fail the task: the tail is still in memory
    }
  }

  /** Write the kept tail and close the file. */
  close(): void {
    if (this.tailBytes > 0) {
      const tail = this.keptTail();
      const omitted = this.total - this.headBytes - tail.length;
      if (omitted > 0) this.append(Buffer.from(`\n[wflo: ${omitted} bytes left out here; the log keeps the first and the last ${this.tailLimit} bytes]\n`));
      this.append(tail);
    }
    if (this.fd !== null) {
      try {
        fs.closeSync(this.fd);
      } catch {
        /* closing */
      }
      this.fd = null;
    }
  }

  private keptTail(): Buffer {
    const all = Buffer.concat(this.tail);
    return all.length > this.tailLimit ? all.subarray(all.length - this.tailLimit) : all;
  }

  /** The last `n` non-empty lines, joined by ' | ', at most `maxChars` (what a failure message quotes). */
  lastLines(n = 3, maxChars = 400): string {
    const text = (this.tailBytes > 0 ? this.keptTail().subarray(-QUOTED_BYTES) : this.headEnd).toString('utf8');
    const lines = text
      .split(/\r?\n/)
      .map((l) => l.trimEnd())
      .filter((l) => l.trim() !== '');
    const joined = printable(lines.slice(-n).join(' | '));
    return joined.length > maxChars ? `…${joined.slice(joined.length - maxChars + 1)}` : joined;
  }
}
