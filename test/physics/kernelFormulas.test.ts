/**
 * The formulas both kernels have, each written twice (TypeScript for the JavaScript engine, C++ in
 * src/physics/native/scalarPhysics.inc and addedTurbulenceKernel.inc): power and Ct curves with
 * their slopes (turbine.ts), 2a(Ct) (inductionFactor.ts), ε(Ct) (wake/gaussianLocal.ts), the area
 * overlap (rotor/areaOverlap.ts) and Crespo–Hernández (turbulence/crespoHernandez.ts). The addon's
 * formula() entry evaluates the C++ one; every pair must agree on random inputs to 1e-14 relative
 * (the C++ side has its own exp/log/acos, so the last bits may differ; anything more is a formula
 * that drifted in one of the two).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { CFG_NAMES, nativeFormula, wakedConfig } from '../../src/physics/nativeKernel.js';
import { REPO } from '../helpers.js';
import { powerAt, powerSlopeAt, thrustCoefficientAt, thrustSlopeAt, type Turbine } from '../../src/physics/turbine.js';
import { twoAMadsen, twoAMom1d } from '../../src/physics/inductionFactor.js';
import { epsilonOfCt } from '../../src/physics/wake/gaussianLocal.js';
import { overlapFraction } from '../../src/physics/rotor/areaOverlap.js';
import { CrespoHernandez } from '../../src/physics/turbulence/crespoHernandez.js';
import { deficitModel } from '../../src/physics/wake/registry.js';
import { roseFromSectors } from '../../src/physics/windResource.js';
import type { FarmModelSpec } from '../../src/physics/farmModel.js';
import { builtinTurbine } from '../../src/io/builtinCases.js';
import { createRng } from '../../src/util/rng.js';

const table: Turbine = {
  name: 'table-2mw',
  diameter: 80,
  hubHeight: 70,
  ratedPowerW: 2e6,
  cutIn: 3,
  cutOut: 25,
  cutOutInclusive: true,
  power: { kind: 'table', speeds: Float64Array.from([3, 5, 7, 9, 11, 13, 25]), powerW: Float64Array.from([0, 0.15e6, 0.46e6, 1.0e6, 1.66e6, 1.96e6, 2e6]) },
  thrust: { kind: 'table', speeds: Float64Array.from([3, 4, 6, 9, 12, 15, 25]), ct: Float64Array.from([0, 0.82, 0.8, 0.8, 0.7, 0.25, 0.05]), outside: 'zero' },
};
const cubic = builtinTurbine('iea37-3.35mw');
const wind = { ...roseFromSectors([270], [1], [8], null), turbulenceIntensity: 0.075 };
const rng = createRng(41);
const N = 2000;

/** |a − b| within 1e-14 of the larger magnitude, or of `terms` (exact zeros must agree exactly). */
function same(a: number, b: number, what: string, terms = 0): void {
  const scale = Math.max(Math.abs(a), Math.abs(b), terms);
  assert.ok(Math.abs(a - b) <= 1e-14 * scale, `${what}: native ${a} vs TypeScript ${b} (relative ${(Math.abs(a - b) / scale).toExponential(2)})`);
}

test('power and Ct curves with their slopes: native = turbine.ts (tables, the cubic curve, a constant Ct; at table points and between)', () => {
  for (const t of [table, cubic, { ...cubic, cutOutInclusive: true }]) {
    const speeds = [...(t.power.kind === 'table' ? t.power.speeds : []), ...(t.thrust.kind === 'table' ? t.thrust.speeds : []), t.cutIn, t.cutOut];
    for (let k = 0; k < N; k++) speeds.push(rng.uniform(-1, 30));
    for (const v of speeds) {
      const p = nativeFormula('power', [v], t, wind),
        c = nativeFormula('thrust', [v], t, wind);
      same(p[0], powerAt(t, v), `${t.name} power at ${v}`);
      same(p[2], powerAt(t, v), `${t.name} power (no slope) at ${v}`);
      same(p[1], powerSlopeAt(t, v), `${t.name} ∂power/∂u at ${v}`);
      same(c[0], thrustCoefficientAt(t, v), `${t.name} Ct at ${v}`);
      same(c[2], thrustCoefficientAt(t, v), `${t.name} Ct (no slope) at ${v}`);
      same(c[1], thrustSlopeAt(t, v), `${t.name} ∂Ct/∂u at ${v}`);
    }
  }
});

test('2a(Ct) and its slope, mom1d and madsen: native = inductionFactor.ts', () => {
  const g = new Float64Array(1);
  for (let k = 0; k < N; k++) {
    const ct = k === 0 ? 1 : rng.uniform(0, 1.3);
    for (const [code, f] of [
      [0, twoAMom1d],
      [1, twoAMadsen],
    ] as const) {
      const n = nativeFormula('twoA', [code, ct], table, wind);
      same(n[0], f(ct, g), `2a(${ct}) (${code})`);
      same(n[1], g[0], `∂2a/∂Ct at ${ct} (${code})`);
    }
  }
});

test('ε(Ct) and its slope: native = gaussianLocal.ts epsilonOfCt', () => {
  const g = new Float64Array(1);
  for (let k = 0; k < N; k++) {
    const ct = rng.uniform(0, 1.2),
      ceps = rng.uniform(0.05, 0.3),
      ctlim = rng.uniform(0.8, 0.999);
    const n = nativeFormula('epsilon', [ct, ceps, ctlim], table, wind);
    same(n[0], epsilonOfCt(ct, ceps, ctlim, g), `ε(${ct}, ${ceps}, ${ctlim})`);
    same(n[1], g[0], `∂ε/∂Ct at (${ct}, ${ceps}, ${ctlim})`);
  }
});

test('the area-overlap fraction and its partials: native = rotor/areaOverlap.ts (wake wider or narrower than the rotor, full, partial and no overlap)', () => {
  const g = new Float64Array(2);
  let partial = 0;
  for (let k = 0; k < N; k++) {
    const r1 = rng.uniform(5, 200),
      r2 = rng.uniform(5, 100),
      d = rng.uniform(0, 1.1 * (r1 + r2));
    const n = nativeFormula('overlap', [r1, r2, d], table, wind);
    const v = overlapFraction(r1, r2, d, g);
    if (v > 0 && v < 1) partial++;
    same(n[0], v, `overlap(${r1}, ${r2}, ${d})`);
    same(n[1], g[0], `∂overlap/∂r1 at (${r1}, ${r2}, ${d})`);
    same(n[2], g[1], `∂overlap/∂d at (${r1}, ${r2}, ${d})`);
  }
  assert.ok(partial > N / 4, `${partial} partial overlaps`);
});

test('Crespo–Hernández added turbulence and its partials (mom1d and madsen Ct→a, Gaussian, TurbOPark and Jensen wake radii): native = crespoHernandez.ts', () => {
  const g = new Float64Array(4);
  for (const wake of ['niayifar2016', 'turbopark2022', 'jensen']) {
    for (const ct2a of ['mom1d', 'madsen'] as const) {
      const c = { c0: rng.uniform(0.5, 1), c1: rng.uniform(0.6, 1), c2: rng.uniform(0.01, 0.1), c3: rng.uniform(-0.5, -0.2) };
      const spec: FarmModelSpec = { wake, superposition: 'linear', turbulence: 'crespo-hernandez', turbulenceCt2a: ct2a, turbulenceParams: c, inflow: 'waked' };
      const cfg = wakedConfig(table, wind, spec, 'best');
      assert.ok(cfg, `${wake}: native`);
      const model = deficitModel(wake)!;
      const local = model.waked.create({
        params: {},
        diameter: table.diameter,
        targetRadius: table.diameter / 2,
        induction: model.wakedDefaults.ct2a,
        areaOverlap: wake === 'jensen',
      });
      const ch = new CrespoHernandez(c, ct2a, table.diameter, table.diameter / 2, true);
      const coef = new Float64Array(16),
        slope = new Float64Array(1);
      let nonzero = 0;
      for (let k = 0; k < N / 4; k++) {
        const ct = rng.uniform(0.05, 0.95),
          ti = rng.uniform(0.04, 0.2),
          dx = rng.uniform(-50, 2000),
          absDy = rng.uniform(0, 300);
        local.prepareSource(ct, ti, coef, 0);
        const v = ch.added(dx, absDy, ct, wind.turbulenceIntensity, local, coef, 0, g);
        const n = nativeFormula('crespo', [ct, ti, dx, absDy], table, wind, cfg!);
        if (v > 0) nonzero++;
        const what = `${wake} ${ct2a} I₊(Ct ${ct}, TI ${ti}, dx ${dx}, |dy| ${absDy})`;
        same(n[0], v, what);
        // ∂/∂dx and ∂/∂Ct are differences of two terms (the power law's and the overlap's): relative
        // to the first term's size, since the two kernels' powers (Math.pow, native spow) differ in the last bit.
        const twoA = ct2a === 'madsen' ? twoAMadsen : twoAMom1d;
        const a = Math.max(twoA(ct, slope) / 2, 1e-10);
        const terms = [(v * Math.abs(c.c3)) / Math.max(dx, 1e-300), 0, ((v * c.c1) / a) * Math.abs(slope[0] / 2), 0];
        for (let j = 0; j < 4; j++) same(n[1 + j], g[j], `${what} partial ${j}`, terms[j]);
      }
      assert.ok(nonzero > N / 40, `${wake}: ${nonzero} inside the wake`);
    }
  }
});

test('the configuration layout: kernel.h enum Cfg and nativeKernel.ts CFG_NAMES name the same entries in the same order', () => {
  const header = fs.readFileSync(path.join(REPO, 'src', 'physics', 'native', 'kernel.h'), 'utf8');
  const body = /enum Cfg \{([\s\S]*?)\};/.exec(header);
  assert.ok(body, 'kernel.h has enum Cfg');
  const names = body![1]
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, ''))
    .join(' ')
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n.length > 0);
  assert.equal(names.at(-1), 'CFG_COUNT');
  assert.deepEqual(
    names.slice(0, -1),
    CFG_NAMES.map((n) => `CFG_${n}`),
  );
});
