/**
 * The exact gradient of the AEP with respect to the farm's hub height (engine/siteWork.ts's gradH,
 * summed over the turbines, as optimize/hubHeight.ts uses it) against central differences of the
 * AEP at h ± 1e-4 m: through power and log shear, through speed-up and TI fields with an h
 * dimension (the hub height between h nodes, turbines between x–y nodes), with wakes
 * (PyWake's site reference turbines, rose and layout) and for a lone turbine; on either kernel.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSiteReference, overHeight, SITE_STEP, thinRose } from './siteReference.js';
import { createFarmEvaluator } from '../../src/physics/aep.js';
import type { Case } from '../../src/case/case.js';
import type { SiteShear } from '../../src/physics/site/site.js';
import { withHubHeight } from '../../src/optimize/hubHeight.js';
import type { KernelChoice } from '../../src/physics/nativeKernel.js';

/**
 * Σ_i ∂AEP/∂h_i (exact) and the central difference of the AEP with every hub at h ± SITE_STEP, on
 * the kernel given: the JavaScript one (engine/siteWork.ts) and the native one (the kernel's site
 * adjoints chained through ∂/∂h in wakedNative.ts), both of which the hub-height optimizer may run on.
 */
const KERNELS: KernelChoice[] = ['js', 'native'];
function hubCheck(c: Case, h: number, x: Float64Array, y: Float64Array, kernel: KernelChoice): { exact: number; fd: number } {
  const at = (hub: number) => {
    const ch = withHubHeight(c, hub);
    return createFarmEvaluator(ch.turbine, ch.wind, ch.model, kernel, 'best', { hubHeightGradient: true });
  };
  const r = at(h).aepWithGradient(x, y) as { gradH?: Float64Array };
  assert.ok(r.gradH, `${kernel}: a gradient with respect to the hub height`);
  const exact = r.gradH.reduce((a, b) => a + b, 0);
  const up = at(h + SITE_STEP).aep(x, y).aepMwh;
  const down = at(h - SITE_STEP).aep(x, y).aepMwh;
  return { exact, fd: (up - down) / (2 * SITE_STEP) };
}

const SHEARS: [string, SiteShear][] = [
  ['power', { kind: 'power', hRef: 100, alpha: 0.2 }],
  ['log', { kind: 'log', hRef: 100, z0: 0.03 }],
];

for (const [name, shear] of SHEARS) {
  test(`∂AEP/∂h through ${name} shear, speed-up and TI fields over h, with wakes: exact against central differences`, () => {
    const c = loadSiteReference('site-ti-niayifar2016.yaml');
    c.wind = thinRose(c.wind, 6);
    const site = c.model.site!;
    // The speed-up falls with height (a hill's, strongest near the ground), the TI too; nodes at 40, 65, 90, 130 m.
    const speedup = overHeight(site.speedup!, [40, 65, 90, 130], [1.12, 1.05, 1.0, 0.97]);
    const ti = overHeight(site.ti!, [40, 65, 90, 130], [1.3, 1.1, 1.0, 0.9]);
    c.model = { ...c.model, site: { ...site, speedup, ti, shear } };
    const x = Float64Array.from(c.layout!.x),
      y = Float64Array.from(c.layout!.y);
    for (const kernel of KERNELS) {
      for (const h of [52.3, 70, 77.7, 111.1]) {
        const { exact, fd } = hubCheck(c, h, x, y, kernel);
        assert.ok(Math.abs(exact) > 1, `${kernel}: a gradient at h ${h}: ${exact}`);
        assert.ok(Math.abs(exact - fd) <= 1e-6 * Math.abs(exact), `${kernel}, h ${h}: exact ${exact} vs central difference ${fd}`);
      }
    }
    // Shear alone (no fields): the same check.
    c.model = { ...c.model, site: { ...site, speedup: null, ti: null, shear } };
    for (const kernel of KERNELS) {
      const { exact, fd } = hubCheck(c, 83.4, x, y, kernel);
      assert.ok(exact > 0, `${kernel}: more height, more wind: ${exact}`);
      assert.ok(Math.abs(exact - fd) <= 1e-6 * Math.abs(exact), `${kernel}, shear alone: exact ${exact} vs ${fd}`);
    }
  });
}

test('∂AEP/∂h of a lone turbine between x–y nodes: through the speed-up field over h alone (no shear)', () => {
  const c = loadSiteReference('site-speedup-bastankhah2014.yaml');
  c.wind = thinRose(c.wind, 6);
  const site = c.model.site!;
  c.model = { ...c.model, site: { ...site, speedup: overHeight(site.speedup!, [30, 60, 120], [1.2, 1.0, 0.9]), shear: null } };
  for (const kernel of KERNELS) {
    const { exact, fd } = hubCheck(c, 71.3, Float64Array.of(812.5), Float64Array.of(450), kernel);
    // Above 60 m the speed-up falls with height: less energy.
    assert.ok(exact < 0, `${kernel}: ∂AEP/∂h ${exact}`);
    assert.ok(Math.abs(exact - fd) <= 1e-7 * Math.abs(exact), `${kernel}: exact ${exact} vs ${fd}`);
  }
});
