import { type Command, CommanderError } from 'commander';
import { WfloError } from '../util/errors.js';
import { damagedLedgerBehind } from '../runner/ledgerDamage.js';
import { oneLineMessage } from '../util/printable.js';

/**
 * Run the program and map failures to exit codes: WfloError carries its own code, commander's
 * usage errors exit 2, anything else is an unexpected failure (exit 1; stack with WFLO_DEBUG=1).
 */
export async function runCli(program: Command, argv: string[]): Promise<void> {
  // Subcommands copy their parent's settings when they are created, so apply these to every
  // command: usage errors must come back here (exit 2), not end the process with exit 1.
  const configure = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ writeErr: (s) => process.stderr.write(s) });
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = exitCodeFor(err);
  }
}

const oneLine = oneLineMessage;

function exitCodeFor(err: unknown): number {
  if (err instanceof CommanderError) {
    // --help and --version exit through here with code 0; usage errors were already printed.
    return err.exitCode === 0 ? 0 : 2;
  }
  if (err instanceof WfloError) {
    process.stderr.write(`wflo: ${oneLine(err.message)}\n`);
    return err.exitCode;
  }
  // SQLite's "malformed" from a ledger this command read: the ledger's one line, with the way out.
  const damaged = damagedLedgerBehind(err);
  if (damaged) {
    process.stderr.write(`wflo: ${oneLine(damaged.message)}\n`);
    return damaged.exitCode;
  }
  const e = err as NodeJS.ErrnoException;
  if (e && (e.code === 'ENOSPC' || e.code === 'EACCES' || e.code === 'EROFS' || e.code === 'EPERM')) {
    process.stderr.write(`wflo: ${e.message}\n`);
    return 1;
  }
  process.stderr.write(`wflo: unexpected error: ${e?.message ?? String(err)}\n`);
  if (process.env.WFLO_DEBUG) process.stderr.write(`${e?.stack ?? ''}\n`);
  return 1;
}
