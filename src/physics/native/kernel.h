// The native wake kernels' interface: the configuration layout (one Float64Array filled by
// nativeKernel.ts, indices below), the inputs, the outputs and the scratch memory of one call.
// Shared by addon.cc (N-API glue, allocation, instruction-set dispatch) and the kernels, which are
// compiled once per instruction set (isaSse2.cc, isaAvx2.cc) from wakedKernel.inc and
// freeStreamKernel.inc. No kernel allocates, keeps state between calls or calls the C library.
#pragma once
#include <stdint.h>

namespace wflo {

// Indices into the configuration array (keep in step with nativeKernel.ts).
enum Cfg {
  CFG_MODEL,          // 0 Gaussian with linear width (iea37, bastankhah2014, niayifar2016), 1 TurbOPark, 2 Jensen
  CFG_INDUCTION,      // 0 1-D momentum, 1 Madsen
  CFG_SUPERPOSITION,  // 0 linear, 1 root-sum-square, 2 max
  CFG_REF_EFFECTIVE,  // deficit fraction × the source's effective speed (else the free stream)
  CFG_USE_EFF_TI,     // wakes widen with the source's effective TI
  CFG_FREE_STREAM,    // Ct at the free-stream speed, reference speed U, TI = TI₀
  CFG_TURBULENCE,     // 0 none, 1 Crespo–Hernández
  CFG_TI_SUP,         // 0 sqrmax, 1 linear, 2 sos
  CFG_AREA_OVERLAP,   // Jensen: area-overlap rotor average (else the value at the hub)
  CFG_DIAMETER,
  CFG_INV_WEC,
  CFG_TI0,
  CFG_MWH_PER_W,      // hours per year × 1e-6
  CFG_CUT_IN, CFG_CUT_OUT, CFG_CUT_OUT_INCLUSIVE,
  CFG_CT_CONSTANT,    // NaN for a tabulated Ct
  CFG_CT_ZERO_OUTSIDE,
  CFG_POWER_CUBIC_RATED_SPEED,  // NaN for a tabulated power curve
  CFG_RATED_POWER,
  CFG_K0, CFG_K_TI, CFG_CEPS, CFG_EPS_OR_CTLIM,          // Gaussian width σ = (k0 + k_TI·TI)·dx + ε·D
  CFG_TP_A, CFG_TP_C1, CFG_TP_C2, CFG_TP_CEPS, CFG_TP_CTLIM,  // TurbOPark
  CFG_JENSEN_K,
  CFG_CH_C0, CFG_CH_C1, CFG_CH_C2, CFG_CH_C3, CFG_CH_TI_FACTOR,  // Crespo–Hernández; TI_FACTOR = TI₀^c₂
  CFG_TI_BOUND,       // screening bound on any source's TI (Infinity: none known)
  CFG_MARGIN,         // added to the reach table (the target rotor's radius where it matters)
  CFG_REACH_STEP,
  CFG_FS_K, CFG_FS_EXP_FACTOR, CFG_FS_INV_XI2,  // free-stream Gaussian kernel
  // Ground, rotor average and Crespo–Hernández's Ct→a (issue 41, rotor helper):
  CFG_TURB_INDUCTION, // Crespo–Hernández's Ct→a: 0 1-D momentum, 1 Madsen
  CFG_GROUND,         // 0 none, 1 the ground as a mirror (each source's image 2·h below)
  CFG_MIRROR_DZ,      // the image's vertical offset from the target's hub, 2·h_source
  CFG_ROTOR_POINTS,   // points of the rotor-average quadrature (0: the rotor centre)
  CFG_ROTOR_POINTS_AT,  // where in cfg they are (after CFG_COUNT): y[m], z[m], w[m], units of the radius
  CFG_REF_TARGET,     // with the free-stream reference on a site: the target's own free stream U_p scales the deficit (TurbOPark, PyWake's WS_jlk), not the source's U_q
  CFG_ISA,            // 0 the best the processor has, 1 SSE2, 2 AVX2 (same results; for tests)
  CFG_COUNT
};

struct Curves {
  double cutIn, cutOut;
  bool inclusive;
  bool cubic;
  double ratedSpeed, ratedPower;
  const double* powerSpeeds; const double* powerW; int nPower;
  bool ctConstant; double ctValue;
  const double* ctSpeeds; const double* ctValues; int nCt;
  bool ctZeroOutside;
};

struct WakedCall {
  const double* cfg;
  Curves curves;
  int n, nDir, nSpeed, dirFrom, dirTo, withGradient;
  const double *x, *y, *cosDir, *sinDir, *speeds, *probability;
  const double* reach; int nReach;  // reach[k] bounds |dy| for dx ≤ k·step (empty: no screening)
  // Outputs, by direction (rows dirFrom…dirTo−1 written): MWh of each direction, MWh by
  // turbine [d·n + i], ∂AEP/∂x and ∂AEP/∂y [d·n + i] in MWh/m.
  double* perDirection; double* perTurbineByDir; double* gradXByDir; double* gradYByDir;
  // A site that is not uniform (null where the site has no such field): each turbine's speed
  // factor s_i (its free stream U·s_i) and ambient TI, [d·n + i]; with the gradient, the adjoints
  // ∂AEP/∂s_i (siteSpeedBar, MWh) and ∂AEP/∂TI₀_i (siteTiBar, MWh), [d·n + i] (null: not wanted).
  const double* siteSpeed; const double* siteTi;
  double* siteSpeedBar; double* siteTiBar;
  // The gradient's objective Σ_i w_i·AEP_i (a per-turbine weighted energy, weightedAep.ts): w_i by
  // turbine (null: every w_i = 1, the AEP). Only the adjoint's seed is weighted; the energies written
  // stay each turbine's own (the caller weights them).
  const double* turbineWeight;
  // Conditions other than a rose's grid (null: today's rose). condStart (nDir + 1 entries): the
  // conditions of direction d are [condStart[d], condStart[d + 1]), each its own speed speeds[c] and
  // weight probability[c] (a time series grouped by direction). condTi: each condition's ambient TI,
  // indexed as probability (a time series' TI, a rose's TI per bin; a site's TI field overrides it).
  const double* condStart; const double* condTi;
  // A per-point Weibull site (rose only): by [(d·n + i)·9] the sector frequency f, A, k of turbine i
  // at direction d, each followed by its ∂/∂x, ∂/∂y; weibullBins: the speed bins' lower edges
  // [nSpeed], upper edges [nSpeed] and the factor w_d/w_s. Each turbine's power is weighted by its
  // own P = w_d/w_s·f·(e^−(lo/A)^k − e^−(hi/A)^k) times probability; the gradient through P is added.
  const double* weibull; const double* weibullBins;
  double pairEvaluations, tiSeen;
  // Set when the pair scratch was too small: the direction to resume at and the pairs it needs.
  int resumeAt; int64_t neededPairs;
};

/** Scratch of one waked call, sized by addon.cc: lanesMax = speeds rounded up to 4, pairs = n(n−1)/2. */
struct WakedScratch {
  int lanesMax; int64_t pairsMax;
  int64_t termCapacity;  // pairs the pairTerms / turbTerms blocks hold (gradient only)
  double *xw, *yw, *xs, *ys; int32_t *order, *tmpOrder;
  int32_t *candStart, *candSrc; double *candDx, *candDy, *candDy2, *candDxPow;
  int32_t* lanes;  // active conditions of the direction (index into probability)
  double *laneU, *laneP, *laneCtFree;
  double *laneTi, *laneTiFac;  // WakedCall.condTi: each lane's ambient TI and its TI₀^c₂
  // A per-point Weibull site, by position × lane: P, and with the gradient ∂P/∂f, ∂P/∂A, ∂P/∂k;
  // by position [3p + j] the sums over lanes of P̄·∂P/∂(f, A, k) (P̄ = weight × power).
  double *wProb, *wDf, *wDa, *wDk, *wSum;
  // By position × lane [p·L + l]:
  double *u, *ti, *ct, *total, *tiAcc, *ref; int32_t* tiArg;
  double *c0, *c1, *c2, *c3, *c4, *c5, *c6, *c7, *c8;  // per-source model coefficients
  double *tSrc;                                    // Crespo–Hernández c₀a^c₁
  double *uBar, *ctBar, *tiBar, *gxw, *gyw;
  double* ctSlope;  // ∂Ct/∂u at the effective speed (gradient only; uBar starts as P·∂power/∂u in the forward pass)
  double* energy;  // by position
  // A site (WakedCall.siteSpeed, siteTi): by position, the speed factor and ambient TI; by position ×
  // lane, the free stream U·s_p, the adjoint of the free-stream deficit reference, of the ambient TI.
  double *sitePos, *tiPos, *uFree, *refBar, *tiAmbBar;
  double *srcKMax, *srcEMax;  // by position: the largest k and ε·D over lanes (Gaussian widths)
  uint8_t* candLive;          // by pair: 0 when no lane of the pair can be inside the wake
  int32_t* liveList;          // by pair: the live candidates of a target (forwardDeficitsSingle)
  // By pair × lane: 5 deficit terms [(e·5 + j)·L + l]; 5 added-turbulence terms likewise.
  double* pairTerms; double* turbTerms;  // turbTerms: linear and root-sum-square added turbulence only
  // Jensen: per pair, geometry-only terms (shape·w and its partials); six with rotor points or the ground (the direct wake, the image).
  double* jensenTerms;
};

struct FreeStreamCall {
  const double* cfg;
  Curves curves;
  int n, nDir, nSpeed, nGroups, withGradient, dirFrom, dirTo;
  const double *x, *y, *cosDir, *sinDir, *speeds, *probability;
  const int32_t* groupOfSpeed;  // Ct group of every speed
  const double* groupSigma0;    // ε·D of each group
  const double* groupCtD2over8; // Ct·D²/8 of each group
  double* perDirection; double* perTurbineByDir; double* gradXByDir; double* gradYByDir;
};

struct FreeStreamScratch {
  int nPad;  // n rounded up to 4
  double *xr, *yr;                    // wind frame, by turbine
  int32_t *order, *tmpOrder;          // downstream order
  double *xw, *yw, *total, *weight, *gxw, *gyw;  // by position in that order
  double *deficit, *slopeX, *slopeY;  // [j·nPad + i], positions
  // A block of targets at a time: at most pairCapacity packed pairs (bounded by positions below
  // each target rounded up to four) and, without the gradient, maxRows rows of deficits.
  int pairCapacity, maxRows;
  double* kamp;                // deficits [(j − j0)·nPad + i] without the gradient (maxRows·nPad + 1)
  double *kdx, *kdy;           // the pairs whose wake reaches the target, packed (pairCapacity + 8)
  int32_t* kpos;               // their places in the rows; deficit, slopeX, slopeY hold n·nPad + 1
};

}  // namespace wflo
