// CPU time of one wflo AEP (or AEP + gradient) call on a case file, for comparing builds of the
// native kernel side by side on a loaded machine (CPU time of this process, not wall time).
// usage: WFLO=<built checkout, default: this one> node bench/peers/wflo_cpu.mjs CASE.yaml REPEATS aep|grad
// Prints one JSON line: median and least CPU ms per call, the AEP, and a hash of the AEP-by-turbine
// and gradient bits (equal hashes: the two builds computed the same bits).
import { pathToFileURL, fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
const W = process.env.WFLO ?? fileURLToPath(new URL('../..', import.meta.url));
const [file, reps, mode] = [process.argv[2], Number(process.argv[3] ?? 5), process.argv[4] ?? 'aep'];
const { resolveAepRequest } = await import(pathToFileURL(`${W}/dist/src/io/aepInput.js`));
const { createFarmEvaluator } = await import(pathToFileURL(`${W}/dist/src/physics/aep.js`));
const c = resolveAepRequest({ file });
const ev = createFarmEvaluator(c.turbine, c.wind, c.model);
const grad = mode === 'grad';
const f = () => (grad ? ev.aepWithGradient(c.layout.x, c.layout.y) : ev.aep(c.layout.x, c.layout.y));
let r = f();
const ms = [];
for (let i = 0; i < reps; i++) {
  const u = process.cpuUsage();
  r = f();
  const d = process.cpuUsage(u);
  ms.push((d.user + d.system) / 1000);
}
ms.sort((a, b) => a - b);
const h = createHash('sha256');
for (const a of grad ? [r.perTurbineMwh, r.gradX, r.gradY] : [r.perTurbineMwh]) h.update(Buffer.from(a.buffer, a.byteOffset, a.byteLength));
console.log(JSON.stringify({
  wflo: W, case: file.split('/').pop(), mode, cpu_ms_median: +ms[Math.floor(ms.length / 2)].toFixed(1), cpu_ms_min: +ms[0].toFixed(1),
  aep_mwh: r.aepMwh, bits: h.digest('hex').slice(0, 16), load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3),
}));
