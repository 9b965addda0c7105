/**
 * Preloaded into a wflo child process (`node --import <this file> main.js …`) by tests and
 * benchmarks that bound memory: when the process exits, its peak resident memory (VmHWM of
 * /proc/self/status, kB) and the CPU time it used (user + system, s) are written as JSON
 * `{"peakKb": …, "cpuS": …}` to the file named by WFLO_PEAK_RSS_FILE. Read at exit, so no growth
 * is missed (polling from outside can miss the last moments); CPU time, unlike wall time, does
 * not grow when the machine is shared.
 */
import fs from 'node:fs';

const target = process.env.WFLO_PEAK_RSS_FILE;
if (target) {
  process.on('exit', () => {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    const cpu = process.cpuUsage();
    fs.writeFileSync(target, JSON.stringify({ peakKb: m ? Number(m[1]) : null, cpuS: (cpu.user + cpu.system) / 1e6 }));
  });
}
