/**
 * Preloaded into a wflo child process (`node --import <this file> main.js …`) by tests that bound
 * memory: when the process exits, its peak resident memory (VmHWM of /proc/self/status, kB) is
 * written to the file named by WFLO_PEAK_RSS_FILE. Read at exit, so no growth is missed (polling
 * from outside can miss the last moments).
 */
import fs from 'node:fs';

const target = process.env.WFLO_PEAK_RSS_FILE;
if (target) {
  process.on('exit', () => {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    fs.writeFileSync(target, m ? m[1] : '');
  });
}
