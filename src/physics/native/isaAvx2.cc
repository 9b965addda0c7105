// The kernels compiled with AVX2 (this file only; binding.gyp gives it -mavx2, never -mfma):
// chosen at run time where the processor has AVX2, with results identical to the SSE2 build.
#include "kernel.h"
#include "simd.h"

namespace wflo {
namespace avx2 {
#include "scalarPhysics.inc"
#include "wakedKernel.inc"
#include "freeStreamKernel.inc"
void waked(WakedCall& call, WakedScratch& scratch) { wakedRun(call, scratch); }
void freeStream(FreeStreamCall& call, FreeStreamScratch& scratch) { freeStreamRun(call, scratch); }
int formula(int which, const double* cfg, const Curves& curves, const double* in, int nIn, double* out) { return formulaRun(which, cfg, curves, in, nIn, out); }
}  // namespace avx2
}  // namespace wflo
