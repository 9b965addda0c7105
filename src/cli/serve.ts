/** `wflo serve --stdio`: the engine for another program (the Python package), framed over stdin/stdout (docs/python.md). */
import type { Command } from 'commander';
import { InputError } from '../util/errors.js';
import { serveStdio } from '../serve/stdioServer.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description(
      'serve the AEP engine to another program over stdin/stdout (framed JSON headers + float64 arrays; docs/python.md); ends when stdin closes or its client process dies, also in the middle of a call',
    )
    .option('--stdio', 'serve over stdin and stdout (the only transport)')
    .action(async (opts: { stdio?: boolean }) => {
      if (!opts.stdio) throw new InputError('serve: give --stdio (the only transport)');
      process.exitCode = await serveStdio();
    });
}
