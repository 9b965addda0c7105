// N-API glue of the native wake kernels (loaded by nativeKernel.ts): checks and unpacks the typed
// arrays of a call, sizes the scratch memory (kept per thread and grown on demand: a worker thread
// has its own), picks the instruction set (AVX2 where the processor has it, else SSE2; both give
// the same bits) and runs the kernel. Bad arguments throw a TypeError naming the argument.
#include <node_api.h>
#include <stdint.h>
#include <string.h>
#include <vector>
#include "kernel.h"

namespace wflo {
namespace sse2 {
void waked(WakedCall&, WakedScratch&); void freeStream(FreeStreamCall&, FreeStreamScratch&);
int formula(int which, const double* cfg, const Curves& curves, const double* in, int nIn, double* out);
}
namespace avx2 { void waked(WakedCall&, WakedScratch&); void freeStream(FreeStreamCall&, FreeStreamScratch&); }
}  // namespace wflo

using namespace wflo;

static bool processorHasAvx2() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2");
}

struct Args {
  napi_env env;
  napi_value argv[32];
  size_t argc;
  bool failed = false;
};

static void fail(Args& a, const char* message) {
  if (!a.failed) napi_throw_type_error(a.env, nullptr, message);
  a.failed = true;
}

template <typename T>
static T* typedArray(Args& a, size_t i, napi_typedarray_type want, size_t* length, const char* message) {
  if (a.failed) return nullptr;
  bool is = false;
  if (i >= a.argc || napi_is_typedarray(a.env, a.argv[i], &is) != napi_ok || !is) { fail(a, message); return nullptr; }
  napi_typedarray_type type;
  void* data = nullptr;
  size_t len = 0;
  napi_get_typedarray_info(a.env, a.argv[i], &type, &len, &data, nullptr, nullptr);
  if (type != want) { fail(a, message); return nullptr; }
  *length = len;
  return static_cast<T*>(data);
}

static double* f64(Args& a, size_t i, size_t* length, const char* message) {
  return typedArray<double>(a, i, napi_float64_array, length, message);
}

static double number(Args& a, size_t i, const char* message) {
  double v = 0;
  if (a.failed) return 0;
  if (i >= a.argc || napi_get_value_double(a.env, a.argv[i], &v) != napi_ok) fail(a, message);
  return v;
}

/** Grow-only per-thread memory carved into the kernels' arrays (64-byte aligned pieces). */
struct Arena {
  std::vector<double> memory;
  size_t used = 0;
  bool sizing = true;
  double* base = nullptr;
  template <typename T>
  T* take(size_t count) {
    size_t doubles = (count * sizeof(T) + sizeof(double) - 1) / sizeof(double);
    doubles = (doubles + 7) & ~(size_t)7;
    T* p = sizing ? nullptr : reinterpret_cast<T*>(base + used);
    used += doubles;
    return p;
  }
  /** Runs carve twice: once to size the memory, once to hand out the pieces. */
  template <typename F>
  void carve(F f) {
    sizing = true; used = 0;
    f(*this);
    size_t need = used + 8;
    if (memory.size() < need) memory.assign(need, 0.0);
    uintptr_t raw = reinterpret_cast<uintptr_t>(memory.data());
    base = reinterpret_cast<double*>((raw + 63) & ~(uintptr_t)63);
    sizing = false; used = 0;
    f(*this);
  }
};

static thread_local Arena wakedArena, termArena, freeStreamArena;

static Curves curvesFrom(const double* cfg, const double* ps, size_t nps, const double* pw, const double* cs, size_t ncs, const double* cvals) {
  Curves c;
  c.cutIn = cfg[CFG_CUT_IN]; c.cutOut = cfg[CFG_CUT_OUT]; c.inclusive = cfg[CFG_CUT_OUT_INCLUSIVE] != 0;
  double rated = cfg[CFG_POWER_CUBIC_RATED_SPEED];
  c.cubic = rated == rated;
  c.ratedSpeed = rated; c.ratedPower = cfg[CFG_RATED_POWER];
  c.powerSpeeds = ps; c.powerW = pw; c.nPower = (int)nps;
  double ctc = cfg[CFG_CT_CONSTANT];
  c.ctConstant = ctc == ctc; c.ctValue = ctc;
  c.ctSpeeds = cs; c.ctValues = cvals; c.nCt = (int)ncs;
  c.ctZeroOutside = cfg[CFG_CT_ZERO_OUTSIDE] != 0;
  return c;
}

static int chooseIsa(Args& a, double requested) {
  bool avx2 = processorHasAvx2();
  if (requested == 2 && !avx2) { fail(a, "cfg[CFG_ISA]: AVX2 requested but the processor lacks it"); return 1; }
  if (requested == 1) return 1;
  return avx2 ? 2 : 1;
}

// waked(cfg, powerSpeeds, powerW, ctSpeeds, ctValues, cosDir, sinDir, speeds, probability, reach,
//       x, y, dirFrom, dirTo, withGradient, perDirection, perTurbineByDir, gradXByDir, gradYByDir, stats
//       [, siteSpeed, siteTi, siteSpeedBar, siteTiBar, condStart, condTi, weibull, weibullBins])
// The four site arrays are optional, each directions × turbines or empty (no such field / not wanted);
// so are the conditions (condStart, condTi) and the per-point Weibull (weibull, weibullBins), kernel.h.
// Slot 28 (optional): turbineWeight, one weight per turbine (empty: all 1).
static napi_value Waked(napi_env env, napi_callback_info info) {
  Args a;
  a.env = env;
  a.argc = 32;
  napi_get_cb_info(env, info, &a.argc, a.argv, nullptr, nullptr);
  size_t ncfg, nps, npw, ncs, ncv, ncos, nsin, nsp, npr, nreach, nx, ny, npd, npt, ngx, ngy, nst;
  const double* cfg = f64(a, 0, &ncfg, "waked: cfg must be a Float64Array");
  const double* ps = f64(a, 1, &nps, "waked: powerSpeeds must be a Float64Array");
  const double* pw = f64(a, 2, &npw, "waked: powerW must be a Float64Array");
  const double* cs = f64(a, 3, &ncs, "waked: ctSpeeds must be a Float64Array");
  const double* cvals = f64(a, 4, &ncv, "waked: ctValues must be a Float64Array");
  const double* cosDir = f64(a, 5, &ncos, "waked: cosDir must be a Float64Array");
  const double* sinDir = f64(a, 6, &nsin, "waked: sinDir must be a Float64Array");
  const double* speeds = f64(a, 7, &nsp, "waked: speeds must be a Float64Array");
  const double* prob = f64(a, 8, &npr, "waked: probability must be a Float64Array");
  const double* reach = f64(a, 9, &nreach, "waked: reach must be a Float64Array");
  const double* x = f64(a, 10, &nx, "waked: x must be a Float64Array");
  const double* y = f64(a, 11, &ny, "waked: y must be a Float64Array");
  double dirFrom = number(a, 12, "waked: dirFrom must be a number");
  double dirTo = number(a, 13, "waked: dirTo must be a number");
  double withGradient = number(a, 14, "waked: withGradient must be a number");
  double* perDirection = f64(a, 15, &npd, "waked: perDirection must be a Float64Array");
  double* perTurbine = f64(a, 16, &npt, "waked: perTurbineByDir must be a Float64Array");
  double* gx = f64(a, 17, &ngx, "waked: gradXByDir must be a Float64Array");
  double* gy = f64(a, 18, &ngy, "waked: gradYByDir must be a Float64Array");
  double* stats = f64(a, 19, &nst, "waked: stats must be a Float64Array");
  // Optional site arrays (absent or empty: null).
  double* site[4] = {nullptr, nullptr, nullptr, nullptr};
  size_t nsite[4] = {0, 0, 0, 0};
  static const char* siteMessages[4] = {"waked: siteSpeed must be a Float64Array", "waked: siteTi must be a Float64Array",
    "waked: siteSpeedBar must be a Float64Array", "waked: siteTiBar must be a Float64Array"};
  for (int j = 0; j < 4; j++) {
    if ((size_t)(20 + j) >= a.argc) break;
    site[j] = f64(a, 20 + j, &nsite[j], siteMessages[j]);
    if (nsite[j] == 0) site[j] = nullptr;
  }
  // Optional per-turbine weights of the gradient's objective (absent or empty: null).
  size_t nweight = 0;
  const double* turbineWeight = a.argc > 28 ? f64(a, 28, &nweight, "waked: turbineWeight must be a Float64Array") : nullptr;
  if (nweight == 0) turbineWeight = nullptr;
  // Optional conditions and per-point Weibull (slots 24–27; absent or empty: null).
  const double* extra[4] = {nullptr, nullptr, nullptr, nullptr};
  size_t nextra[4] = {0, 0, 0, 0};
  static const char* extraMessages[4] = {"waked: condStart must be a Float64Array", "waked: condTi must be a Float64Array",
    "waked: weibull must be a Float64Array", "waked: weibullBins must be a Float64Array"};
  for (int j = 0; j < 4; j++) {
    if ((size_t)(24 + j) >= a.argc) break;
    napi_valuetype t;
    if (napi_typeof(env, a.argv[24 + j], &t) == napi_ok && t == napi_undefined) continue;
    extra[j] = f64(a, 24 + j, &nextra[j], extraMessages[j]);
    if (nextra[j] == 0) extra[j] = nullptr;
  }
  if (a.failed) return nullptr;
  const double *condStart = extra[0], *condTi = extra[1], *weibull = extra[2], *weibullBins = extra[3];
  const size_t n = nx, nDir = ncos, nSpeed = nsp;
  if (ncfg < CFG_COUNT) { fail(a, "waked: cfg is too short"); return nullptr; }
  const double nPts = cfg[CFG_ROTOR_POINTS], ptsAt = cfg[CFG_ROTOR_POINTS_AT];
  if (!(nPts >= 0) || (nPts > 0 && !(ptsAt >= CFG_COUNT && ptsAt + 3 * nPts <= (double)ncfg))) {
    fail(a, "waked: cfg[CFG_ROTOR_POINTS_AT] must place the rotor points (y, z, w) inside cfg, after CFG_COUNT"); return nullptr;
  }
  if (turbineWeight && nweight != n) { fail(a, "waked: turbineWeight must hold one weight per turbine"); return nullptr; }
  // The most conditions of any direction (the lanes a direction needs).
  size_t maxRun = nSpeed;
  if (condStart) {
    if (nextra[0] != nDir + 1 || condStart[0] != 0 || condStart[nDir] != (double)nsp || npr != nsp) { fail(a, "waked: condStart must hold directions + 1 entries from 0 to the conditions' count"); return nullptr; }
    maxRun = 1;
    for (size_t d = 0; d < nDir; d++) {
      const double run = condStart[d + 1] - condStart[d];
      if (!(run >= 0) || run != (double)(int64_t)run) { fail(a, "waked: condStart must be whole and ascending"); return nullptr; }
      if ((size_t)run > maxRun) maxRun = (size_t)run;
    }
  }
  if (condTi && nextra[1] != npr) { fail(a, "waked: condTi must hold one TI per condition"); return nullptr; }
  if ((weibull != nullptr) != (weibullBins != nullptr)) { fail(a, "waked: weibull and weibullBins go together"); return nullptr; }
  if (weibull && (condStart || nextra[2] != nDir * n * 9 || nextra[3] != 2 * nSpeed + 1)) { fail(a, "waked: weibull must hold directions × turbines × 9 and weibullBins 2 × speeds + 1 (a rose only)"); return nullptr; }
  for (int j = 0; j < 4; j++) if (site[j] && nsite[j] != nDir * n) { fail(a, "waked: site arrays must hold directions × turbines"); return nullptr; }
  if ((site[2] && !site[0]) || (site[3] && !site[1])) { fail(a, "waked: a site adjoint needs its field"); return nullptr; }
  if (site[0] && cfg[CFG_FREE_STREAM] != 0) { fail(a, "waked: a site needs the waked inflow"); return nullptr; }
  if (ny != n || nsin != nDir || (!condStart && npr != nDir * nSpeed) || npd != nDir || npt != nDir * n || nst < 2
      || nps != npw || ncs != ncv || n < 1 || nSpeed < 1) { fail(a, "waked: array lengths do not match"); return nullptr; }
  if (withGradient != 0 && (ngx != nDir * n || ngy != nDir * n)) { fail(a, "waked: gradient arrays must hold directions × turbines"); return nullptr; }
  if (!(dirFrom >= 0 && dirTo <= (double)nDir && dirFrom <= dirTo)) { fail(a, "waked: direction range out of bounds"); return nullptr; }
  int isa = chooseIsa(a, cfg[CFG_ISA]);
  if (a.failed) return nullptr;

  WakedCall call;
  call.cfg = cfg;
  call.curves = curvesFrom(cfg, ps, nps, pw, cs, ncs, cvals);
  call.n = (int)n; call.nDir = (int)nDir; call.nSpeed = (int)nSpeed;
  call.dirFrom = (int)dirFrom; call.dirTo = (int)dirTo; call.withGradient = withGradient != 0;
  call.x = x; call.y = y; call.cosDir = cosDir; call.sinDir = sinDir; call.speeds = speeds; call.probability = prob;
  call.reach = reach; call.nReach = (int)nreach;
  call.perDirection = perDirection; call.perTurbineByDir = perTurbine; call.gradXByDir = gx; call.gradYByDir = gy;
  call.pairEvaluations = 0; call.tiSeen = 0;
  call.siteSpeed = site[0]; call.siteTi = site[1];
  call.siteSpeedBar = withGradient != 0 ? site[2] : nullptr; call.siteTiBar = withGradient != 0 ? site[3] : nullptr;
  call.turbineWeight = turbineWeight;
  call.condStart = condStart; call.condTi = condTi; call.weibull = weibull; call.weibullBins = weibullBins;

  const int lanes = (int)((maxRun + 7) & ~(size_t)7);  // wakedKernel.inc W
  const int64_t pairs = n > 1 ? (int64_t)n * (int64_t)(n - 1) / 2 : 1;
  const bool turbulence = cfg[CFG_TURBULENCE] != 0;
  // sqrmax keeps only each target's largest source (tiArg); the other sums keep every pair's terms.
  const bool turbPairTerms = turbulence && cfg[CFG_TI_SUP] != 0;
  const bool jensen = cfg[CFG_MODEL] == 2;
  // Jensen with rotor points or the ground: the direct wake's terms and the image's (wakedKernel.inc jensenGeometry).
  const size_t jensenPerPair = nPts > 0 || cfg[CFG_GROUND] != 0 ? 6 : 3;
  WakedScratch s;
  s.lanesMax = lanes; s.pairsMax = pairs;
  const size_t nl = n * (size_t)lanes;
  wakedArena.carve([&](Arena& ar) {
    s.xw = ar.take<double>(n); s.yw = ar.take<double>(n); s.xs = ar.take<double>(n); s.ys = ar.take<double>(n);
    s.order = ar.take<int32_t>(n); s.tmpOrder = ar.take<int32_t>(n);
    s.candStart = ar.take<int32_t>(n + 1); s.candSrc = ar.take<int32_t>(pairs);
    // + 4: the packed stores of buildCandidates write four lanes past the last candidate.
    s.candDx = ar.take<double>(pairs + 4); s.candDy = ar.take<double>(pairs + 4); s.candDy2 = ar.take<double>(pairs + 4);
    s.candDxPow = ar.take<double>(turbulence ? pairs : 1);
    s.jensenTerms = ar.take<double>(jensen ? jensenPerPair * pairs : 1);
    s.lanes = ar.take<int32_t>(lanes); s.laneU = ar.take<double>(lanes); s.laneP = ar.take<double>(lanes); s.laneCtFree = ar.take<double>(lanes);
    s.laneTi = ar.take<double>(lanes); s.laneTiFac = ar.take<double>(lanes);
    s.wProb = ar.take<double>(weibull ? nl : 1);
    s.wDf = ar.take<double>(weibull && withGradient ? nl : 1); s.wDa = ar.take<double>(weibull && withGradient ? nl : 1);
    s.wDk = ar.take<double>(weibull && withGradient ? nl : 1); s.wSum = ar.take<double>(weibull && withGradient ? 3 * n : 1);
    s.u = ar.take<double>(nl); s.ti = ar.take<double>(nl); s.ct = ar.take<double>(nl); s.total = ar.take<double>(nl);
    s.tiAcc = ar.take<double>(nl); s.ref = ar.take<double>(1); s.tiArg = ar.take<int32_t>(nl);
    s.c0 = ar.take<double>(nl); s.c1 = ar.take<double>(nl); s.c2 = ar.take<double>(nl); s.c3 = ar.take<double>(nl);
    s.c4 = ar.take<double>(nl); s.c5 = ar.take<double>(nl); s.c6 = ar.take<double>(nl); s.c7 = ar.take<double>(nl);
    s.c8 = ar.take<double>(nl); s.tSrc = ar.take<double>(nl);
    s.uBar = ar.take<double>(nl); s.ctBar = ar.take<double>(nl); s.tiBar = ar.take<double>(nl);
    s.gxw = ar.take<double>(nl); s.gyw = ar.take<double>(nl); s.energy = ar.take<double>(n);
    s.srcKMax = ar.take<double>(n); s.srcEMax = ar.take<double>(n); s.candLive = ar.take<uint8_t>(pairs); s.liveList = ar.take<int32_t>(pairs);
    s.ctSlope = ar.take<double>(withGradient ? nl : 1);
    s.sitePos = ar.take<double>(n); s.tiPos = ar.take<double>(n);
    s.uFree = ar.take<double>(site[0] ? nl : 1);
    s.refBar = ar.take<double>(site[0] && withGradient ? nl : 1);
    s.tiAmbBar = ar.take<double>(site[1] && withGradient ? nl : 1);
  });
  // Pair terms of the gradient: sized for the candidates actually found, grown when a direction needs more
  // (starting from what this thread's memory already holds).
  const size_t perPair = (size_t)(5 * lanes) * (turbPairTerms ? 2 : 1);
  const size_t held = termArena.memory.size();
  int64_t capacity = held > 64 ? (int64_t)((held - 64) / perPair) : 0;
  if (capacity > pairs) capacity = pairs;
  for (;;) {
    const int64_t cap = capacity;
    termArena.carve([&](Arena& ar) {
      s.pairTerms = ar.take<double>((size_t)(5 * lanes) * (size_t)(cap > 0 ? cap : 1));
      s.turbTerms = ar.take<double>(turbPairTerms ? (size_t)(5 * lanes) * (size_t)(cap > 0 ? cap : 1) : 1);
    });
    s.termCapacity = capacity;
    if (isa == 2) avx2::waked(call, s); else sse2::waked(call, s);
    if (call.resumeAt < 0) break;
    call.dirFrom = call.resumeAt;
    capacity = call.neededPairs + call.neededPairs / 4 < pairs ? call.neededPairs + call.neededPairs / 4 : pairs;
  }
  stats[0] = call.pairEvaluations;
  stats[1] = call.tiSeen;
  return nullptr;
}

// freeStream(cfg, powerSpeeds, powerW, ctSpeeds, ctValues, cosDir, sinDir, speeds, probability,
//            groupOfSpeed, groupSigma0, groupCtD2over8, x, y, withGradient,
//            perDirection, perTurbineByDir, gradXByDir, gradYByDir, dirFrom, dirTo)
static napi_value FreeStream(napi_env env, napi_callback_info info) {
  Args a;
  a.env = env;
  a.argc = 24;
  napi_get_cb_info(env, info, &a.argc, a.argv, nullptr, nullptr);
  size_t ncfg, nps, npw, ncs, ncv, ncos, nsin, nsp, npr, ngs, ngsig, ngct, nx, ny, npd, npt, ngx, ngy;
  const double* cfg = f64(a, 0, &ncfg, "freeStream: cfg must be a Float64Array");
  const double* ps = f64(a, 1, &nps, "freeStream: powerSpeeds must be a Float64Array");
  const double* pw = f64(a, 2, &npw, "freeStream: powerW must be a Float64Array");
  const double* cs = f64(a, 3, &ncs, "freeStream: ctSpeeds must be a Float64Array");
  const double* cvals = f64(a, 4, &ncv, "freeStream: ctValues must be a Float64Array");
  const double* cosDir = f64(a, 5, &ncos, "freeStream: cosDir must be a Float64Array");
  const double* sinDir = f64(a, 6, &nsin, "freeStream: sinDir must be a Float64Array");
  const double* speeds = f64(a, 7, &nsp, "freeStream: speeds must be a Float64Array");
  const double* prob = f64(a, 8, &npr, "freeStream: probability must be a Float64Array");
  const int32_t* groupOfSpeed = typedArray<int32_t>(a, 9, napi_int32_array, &ngs, "freeStream: groupOfSpeed must be an Int32Array");
  const double* groupSigma0 = f64(a, 10, &ngsig, "freeStream: groupSigma0 must be a Float64Array");
  const double* groupCt = f64(a, 11, &ngct, "freeStream: groupCtD2over8 must be a Float64Array");
  const double* x = f64(a, 12, &nx, "freeStream: x must be a Float64Array");
  const double* y = f64(a, 13, &ny, "freeStream: y must be a Float64Array");
  double withGradient = number(a, 14, "freeStream: withGradient must be a number");
  double* perDirection = f64(a, 15, &npd, "freeStream: perDirection must be a Float64Array");
  double* perTurbine = f64(a, 16, &npt, "freeStream: perTurbineByDir must be a Float64Array");
  double* gx = f64(a, 17, &ngx, "freeStream: gradXByDir must be a Float64Array");
  double* gy = f64(a, 18, &ngy, "freeStream: gradYByDir must be a Float64Array");
  double dirFrom = number(a, 19, "freeStream: dirFrom must be a number");
  double dirTo = number(a, 20, "freeStream: dirTo must be a number");
  if (a.failed) return nullptr;
  const size_t n = nx, nDir = ncos, nSpeed = nsp;
  if (ncfg < CFG_COUNT) { fail(a, "freeStream: cfg is too short"); return nullptr; }
  if (ny != n || nsin != nDir || npr != nDir * nSpeed || npd != nDir || npt != nDir * n || ngs != nSpeed
      || ngsig != ngct || nps != npw || ncs != ncv || n < 1) { fail(a, "freeStream: array lengths do not match"); return nullptr; }
  for (size_t k = 0; k < nSpeed; k++) if (groupOfSpeed[k] < 0 || (size_t)groupOfSpeed[k] >= ngsig) { fail(a, "freeStream: groupOfSpeed out of range"); return nullptr; }
  if (withGradient != 0 && (ngx != nDir * n || ngy != nDir * n)) { fail(a, "freeStream: gradient arrays must hold directions × turbines"); return nullptr; }
  if (!(dirFrom >= 0 && dirTo <= (double)nDir && dirFrom <= dirTo)) { fail(a, "freeStream: direction range out of bounds"); return nullptr; }
  int isa = chooseIsa(a, cfg[CFG_ISA]);
  if (a.failed) return nullptr;

  FreeStreamCall call;
  call.cfg = cfg;
  call.curves = curvesFrom(cfg, ps, nps, pw, cs, ncs, cvals);
  call.n = (int)n; call.nDir = (int)nDir; call.nSpeed = (int)nSpeed; call.nGroups = (int)ngsig; call.withGradient = withGradient != 0;
  call.dirFrom = (int)dirFrom; call.dirTo = (int)dirTo;
  call.x = x; call.y = y; call.cosDir = cosDir; call.sinDir = sinDir; call.speeds = speeds; call.probability = prob;
  call.groupOfSpeed = groupOfSpeed; call.groupSigma0 = groupSigma0; call.groupCtD2over8 = groupCt;
  call.perDirection = perDirection; call.perTurbineByDir = perTurbine; call.gradXByDir = gx; call.gradYByDir = gy;
  FreeStreamScratch s;
  s.nPad = (int)((n + 7) & ~(size_t)7);
  const size_t nPad = (size_t)s.nPad, nn = call.withGradient ? n * nPad + 1 : 1;
  // Packed pairs and deficit rows for blocks of targets (all of them up to a few hundred turbines).
  s.pairCapacity = (int)(nPad + 8 > 65536 ? nPad + 8 : 65536);
  s.maxRows = (int)(65536 / nPad > 1 ? 65536 / nPad : 1);
  freeStreamArena.carve([&](Arena& ar) {
    s.xr = ar.take<double>(nPad); s.yr = ar.take<double>(nPad); s.order = ar.take<int32_t>(nPad); s.tmpOrder = ar.take<int32_t>(nPad);
    s.xw = ar.take<double>(nPad); s.yw = ar.take<double>(nPad); s.total = ar.take<double>(nPad); s.weight = ar.take<double>(nPad);
    s.gxw = ar.take<double>(nPad); s.gyw = ar.take<double>(nPad);
    s.deficit = ar.take<double>(nn); s.slopeX = ar.take<double>(nn); s.slopeY = ar.take<double>(nn);
    s.kamp = ar.take<double>(call.withGradient ? 1 : (size_t)s.maxRows * nPad + 1);
    s.kdx = ar.take<double>((size_t)s.pairCapacity + 8); s.kdy = ar.take<double>((size_t)s.pairCapacity + 8);
    s.kpos = ar.take<int32_t>((size_t)s.pairCapacity + 8);
  });
  if (isa == 2) avx2::freeStream(call, s); else sse2::freeStream(call, s);
  return nullptr;
}

// formula(name, inputs, out, cfg, powerSpeeds, powerW, ctSpeeds, ctValues): one scalar formula of
// the kernels (wakedKernel.inc formulaRun: power, thrust, twoA, epsilon, overlap, crespo) into out;
// returns the outputs written. For the tests that keep each equal to its TypeScript twin.
static napi_value Formula(napi_env env, napi_callback_info info) {
  Args a;
  a.env = env;
  a.argc = 8;
  napi_get_cb_info(env, info, &a.argc, a.argv, nullptr, nullptr);
  char name[32] = {0};
  size_t len = 0;
  if (a.argc < 8 || napi_get_value_string_utf8(env, a.argv[0], name, sizeof name, &len) != napi_ok) { fail(a, "formula: name must be a string"); return nullptr; }
  static const char* names[6] = {"power", "thrust", "twoA", "epsilon", "overlap", "crespo"};
  int which = -1;
  for (int k = 0; k < 6; k++) if (strcmp(name, names[k]) == 0) which = k;
  if (which < 0) { fail(a, "formula: unknown formula"); return nullptr; }
  size_t nin, nout, ncfg, nps, npw, ncs, ncv;
  const double* in = f64(a, 1, &nin, "formula: inputs must be a Float64Array");
  double* out = f64(a, 2, &nout, "formula: out must be a Float64Array");
  const double* cfg = f64(a, 3, &ncfg, "formula: cfg must be a Float64Array");
  const double* ps = f64(a, 4, &nps, "formula: powerSpeeds must be a Float64Array");
  const double* pw = f64(a, 5, &npw, "formula: powerW must be a Float64Array");
  const double* cs = f64(a, 6, &ncs, "formula: ctSpeeds must be a Float64Array");
  const double* cvals = f64(a, 7, &ncv, "formula: ctValues must be a Float64Array");
  if (a.failed) return nullptr;
  if (ncfg < CFG_COUNT || nout < 8 || nps != npw || ncs != ncv) { fail(a, "formula: cfg too short, out under 8 values or curve lengths differ"); return nullptr; }
  const Curves curves = curvesFrom(cfg, ps, nps, pw, cs, ncs, cvals);
  const int written = sse2::formula(which, cfg, curves, in, (int)nin, out);
  if (written < 0) { fail(a, "formula: too few inputs"); return nullptr; }
  napi_value result;
  napi_create_int32(env, written, &result);
  return result;
}

static napi_value Isa(napi_env env, napi_callback_info) {
  napi_value out;
  const char* name = processorHasAvx2() ? "avx2" : "sse2";
  napi_create_string_utf8(env, name, NAPI_AUTO_LENGTH, &out);
  return out;
}

static napi_value Init(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    {"waked", nullptr, Waked, nullptr, nullptr, nullptr, napi_default, nullptr},
    {"freeStream", nullptr, FreeStream, nullptr, nullptr, nullptr, napi_default, nullptr},
    {"formula", nullptr, Formula, nullptr, nullptr, nullptr, napi_default, nullptr},
    {"bestIsa", nullptr, Isa, nullptr, nullptr, nullptr, napi_default, nullptr},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE_INIT() { return Init(env, exports); }
