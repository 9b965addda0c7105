/**
 * The free-stream engine of aep.ts (Gaussian kernels at the free-stream Ct: IEA37, Bastankhah 2014)
 * on the native kernel: one runner per farm model, evaluating any block of directions of a layout
 * into results by direction (nativeKernel.ts).
 */
import type { Turbine } from './turbine.js';
import type { WindResource } from './windResource.js';
import type { FarmModelSpec } from './farmModel.js';
import { curveArrays, freeStreamConfig, requireAddon, type IsaChoice, type NativeRunner } from './nativeKernel.js';

/** One Ct group of aep.ts: the Gaussian kernel's constants and the speeds sharing that Ct. */
export interface GaussianGroup {
  k: number;
  invXi2: number;
  sigma0: number;
  ctD2over8: number;
  speedIndices: number[];
}

/**
 * A runner for the groups of a model the solve plan gives the native kernel (solvePlan.ts, from
 * engine/freeStreamCovers.ts): IEA37 or Bastankhah 2014, whose k and 1/ξ² do not depend on Ct.
 */
export function createNativeFreeStreamRunner(
  turbine: Turbine,
  wind: WindResource,
  spec: FarmModelSpec,
  groups: GaussianGroup[],
  isa: IsaChoice = 'best',
): NativeRunner {
  const first = groups[0];
  /* c8 ignore next */
  if (!first || groups.some((g) => g.k !== first.k || g.invXi2 !== first.invXi2))
    throw new Error('the native free-stream kernel takes one k and 1/ξ² for every Ct');
  const cfg = freeStreamConfig(turbine, wind, spec, first.k, first.invXi2, isa);
  const addon = requireAddon();
  const curves = curveArrays(turbine);
  const nDir = wind.directionsDeg.length,
    nSpeed = wind.speeds.length;
  const groupOfSpeed = new Int32Array(nSpeed);
  groups.forEach((g, index) => {
    for (const k of g.speedIndices) groupOfSpeed[k] = index;
  });
  const groupSigma0 = Float64Array.from(groups, (g) => g.sigma0);
  const groupCtD2over8 = Float64Array.from(groups, (g) => g.ctD2over8);
  const cosByDir = new Float64Array(nDir),
    sinByDir = new Float64Array(nDir);
  for (let d = 0; d < nDir; d++) {
    const theta = ((270 - wind.directionsDeg[d]) * Math.PI) / 180;
    cosByDir[d] = Math.cos(theta);
    sinByDir[d] = Math.sin(theta);
  }
  return {
    run(x, y, withGradient, out, dirFrom = 0, dirTo = nDir) {
      addon.freeStream(
        cfg,
        curves.powerSpeeds,
        curves.powerW,
        curves.ctSpeeds,
        curves.ctValues,
        cosByDir,
        sinByDir,
        wind.speeds,
        wind.probability,
        groupOfSpeed,
        groupSigma0,
        groupCtD2over8,
        x,
        y,
        withGradient ? 1 : 0,
        out.perDirectionMwh,
        out.perTurbineByDir,
        out.gradXByDir,
        out.gradYByDir,
        dirFrom,
        dirTo,
      );
      return 0;
    },
  };
}
