/**
 * One wflo measurement of the `site` bench section (bench/site.ts), in a process of its own so that
 * it can be pinned to a core: `node siteProbe.js CASE.json REPEATS [js]` evaluates the case
 * (siteCase.ts) REPEATS times with AEP and with AEP + gradient after a warm-up each, and prints one
 * JSON line: CPU and wall seconds of every call, the AEP, the kernel and the load average.
 */
import fs from 'node:fs';
import { readYamlFile } from '../src/io/yamlFile.js';
import { caseFromReferenceDocument } from '../src/io/referenceCase.js';
import { createFarmEvaluator } from '../src/physics/aep.js';

const [file, reps, kernelArg] = [process.argv[2], Number(process.argv[3] ?? 5), process.argv[4]];
const c = caseFromReferenceDocument(readYamlFile(file), file);
const kernel = kernelArg === 'js' ? 'js' : 'native';
const model = { ...c.model, inflow: 'waked' as const };
const ev = createFarmEvaluator(c.turbine, c.wind, model, kernel);
const x = c.layout!.x,
  y = c.layout!.y;

function time(f: () => { aepMwh: number }): { cpu: number[]; wall: number[]; aep: number } {
  let aep = f().aepMwh;
  const cpu: number[] = [],
    wall: number[] = [];
  for (let i = 0; i < reps; i++) {
    const u = process.cpuUsage(),
      t = process.hrtime.bigint();
    aep = f().aepMwh;
    wall.push(Number(process.hrtime.bigint() - t) / 1e9);
    const d = process.cpuUsage(u);
    cpu.push((d.user + d.system) / 1e6);
  }
  return { cpu, wall, aep };
}

const a = time(() => ev.aep(x, y));
const g = time(() => ev.aepWithGradient(x, y));
const native = ev.plan.kernel === 'native';
console.log(
  JSON.stringify({
    peer: 'wflo',
    kernel: native ? 'native' : 'js',
    aep_mwh: a.aep,
    aep_cpu_s: a.cpu,
    aep_wall_s: a.wall,
    grad_cpu_s: g.cpu,
    grad_wall_s: g.wall,
    load: fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3),
  }),
);
