/**
 * Text from another process (a queue worker's name, an error message, a job's failure reason) made
 * safe to print on a terminal and store in one line: control characters (C0 including newline,
 * carriage return and ESC, DEL, C1), line and paragraph separators and bidirectional overrides
 * each become `?`. Without this, a message holding `ESC[2J` or `\rwflo: 24/24 done` would clear
 * the operator's screen or forge a line of wflo's own output.
 */
// eslint-disable-next-line no-control-regex
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function printable(text: string): string {
  return text.replace(UNPRINTABLE, '?');
}

/**
 * A value read from a user's file, quoted back in an error line: printable (above) and cut to
 * `max` characters, so a message never carries a file's contents, only a recognisable start.
 */
export function excerpt(text: string, max = 40): string {
  const shown = text.length > max ? `${text.slice(0, max)}…` : text;
  return printable(shown);
}

/**
 * A text value read from a user's file, for "expected X, got Y": quoted by its start when it is
 * one line, else only its size (a whole file read as one YAML string is never quoted back).
 */
export function describeText(text: string): string {
  const lines = text.split(/\r\n|\r|\n/).length;
  return lines === 1 ? `'${excerpt(text)}'` : `a text of ${lines} lines (${text.length} characters)`;
}

/**
 * The last guard of "one line" for an error message shown to a user (the CLI's `wflo: …` line, a
 * `wflo serve` error response): printable (above) and at most 2000 characters.
 */
const MAX_MESSAGE = 2000;
export function oneLineMessage(message: string): string {
  return printable(message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message);
}
