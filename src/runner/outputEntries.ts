/**
 * The entries wflo writes in a campaign's output folder, by name: the ledger and its SQLite
 * companions, the run lock, the audit log, layouts.h5 and its lock, the command tasks' folder. `refuseOutputSymlinks` refuses a folder where any of them is a symbolic link
 * (dangling or not: io/noSymlink.ts), before anything is opened or created, so that the ledger,
 * outputs and locks never land outside the folder.
 */
import path from 'node:path';
import { refuseSymlinks } from '../io/noSymlink.js';
import { LEDGER_FILE, ledgerFiles } from './ledgerSchema.js';
import { AUDIT_FILE } from './auditLog.js';
import { LAYOUTS_FILE } from './layoutsFile.js';
import { RUN_LOCK_NAME } from './runLock.js';

/** Every entry of output folder `dir` that wflo writes. */
export function outputEntries(dir: string): string[] {
  return [
    ...ledgerFiles(path.join(dir, LEDGER_FILE)),
    path.join(dir, `${RUN_LOCK_NAME}.lock`),
    path.join(dir, AUDIT_FILE),
    path.join(dir, LAYOUTS_FILE),
    path.join(dir, `${LAYOUTS_FILE}.lock`),
    path.join(dir, 'tasks'),
  ];
}

/** Throw one InputError line when an entry of output folder `dir` is a symbolic link. */
export function refuseOutputSymlinks(dir: string): void {
  refuseSymlinks(outputEntries(dir));
}
