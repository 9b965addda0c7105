/**
 * Ctrl-C for a long command: the first SIGINT (or SIGTERM) aborts the returned signal so the
 * run can stop cleanly; a second one exits at once with code 130.
 */
export function abortOnInterrupt(): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onSignal = (): void => {
    if (controller.signal.aborted) {
      process.stderr.write('\nwflo: second interrupt, exiting now (finished tasks are in the ledger)\n');
      process.exit(130);
    }
    controller.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    signal: controller.signal,
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
