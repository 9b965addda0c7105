/**
 * The native wake kernel gives the same bits everywhere: the AEP and the gradient of fixed cases
 * (determinismCases.ts) equal values stored from an earlier run (test/data/determinism/), on every
 * instruction set this processor has, in a forked process (as the local pool's workers), and in
 * worker threads (parallelAep.ts, one and two threads). Also: the native kernel and the JavaScript
 * reference agree closely on the same cases (they are not expected to agree in the last bits).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import { createParallelEvaluator } from '../../src/physics/parallelAep.js';
import { nativeIsa } from '../../src/physics/nativeKernel.js';
import { determinismCases, fingerprint, fingerprints, storedFingerprints, type Fingerprint } from './determinismCases.js';

const stored = storedFingerprints();

function assertSame(got: Record<string, Fingerprint>, where: string): void {
  for (const [name, want] of Object.entries(stored)) {
    assert.ok(got[name], `${where}: ${name} missing`);
    assert.equal(got[name].aep, want.aep, `${where}: ${name} AEP ${got[name].aepMwh} MWh, stored ${want.aepMwh} MWh (bits differ)`);
    assert.equal(got[name].digest, want.digest, `${where}: ${name} energy by turbine or gradient bits differ`);
  }
}

test('stored values cover every case', () => {
  assert.deepEqual(
    Object.keys(stored).sort(),
    determinismCases()
      .map((c) => c.name)
      .sort(),
  );
});

test('this run reproduces the stored bits on every instruction set', () => {
  assertSame(fingerprints('best'), `best (${nativeIsa()})`);
  assertSame(fingerprints('sse2'), 'sse2');
  if (nativeIsa() === 'avx2') assertSame(fingerprints('avx2'), 'avx2');
});

test('a forked process reproduces the stored bits', () => {
  const child = fileURLToPath(new URL('./determinismChild.js', import.meta.url));
  for (const isa of ['best', 'sse2']) {
    const r = spawnSync(process.execPath, [child, isa], { encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    assertSame(JSON.parse(r.stdout), `forked process (${isa})`);
  }
});

test('worker threads reproduce the stored bits (one and two threads)', async () => {
  for (const threads of [1, 2]) {
    const got: Record<string, Fingerprint> = {};
    for (const c of determinismCases()) {
      const par = createParallelEvaluator(c.turbine, c.wind, c.model, threads);
      try {
        got[c.name] = fingerprint(await par.aepWithGradient(c.x, c.y));
        const again = await par.aep(c.x, c.y);
        assert.equal(again.aepMwh, got[c.name].aepMwh, `${c.name}: AEP without the gradient in ${threads} thread(s)`);
      } finally {
        await par.close();
      }
    }
    assertSame(got, `${threads} worker thread(s)`);
  }
});

test('a second call gives the same bits (scratch memory and learned hints change nothing)', () => {
  for (const c of determinismCases()) {
    const ev = createFarmEvaluator(c.turbine, c.wind, c.model, 'native');
    const first = fingerprint(ev.aepWithGradient(c.x, c.y));
    ev.aep(
      c.x.map((v) => v + 400),
      c.y,
    );
    assert.deepEqual(fingerprint(ev.aepWithGradient(c.x, c.y)), first, c.name);
  }
});

test('native kernel and JavaScript reference agree on these cases', () => {
  for (const c of determinismCases()) {
    const a = createFarmEvaluator(c.turbine, c.wind, c.model, 'native').aepWithGradient(c.x, c.y);
    const b = createFarmEvaluator(c.turbine, c.wind, c.model, 'js').aepWithGradient(c.x, c.y);
    assert.ok(Math.abs(a.aepMwh - b.aepMwh) <= 1e-13 * b.aepMwh, `${c.name}: ${a.aepMwh} vs ${b.aepMwh}`);
    const scale = Math.max(...b.gradX.map(Math.abs), ...b.gradY.map(Math.abs));
    for (let i = 0; i < c.x.length; i++) {
      assert.ok(
        Math.abs(a.gradX[i] - b.gradX[i]) <= 1e-11 * scale && Math.abs(a.gradY[i] - b.gradY[i]) <= 1e-11 * scale,
        `${c.name}: gradient of turbine ${i}`,
      );
      assert.ok(Math.abs(a.perTurbineMwh[i] - b.perTurbineMwh[i]) <= 1e-12 * b.perTurbineMwh[i], `${c.name}: energy of turbine ${i}`);
    }
  }
});
