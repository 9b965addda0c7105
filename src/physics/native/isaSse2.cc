// The kernels compiled for baseline x86-64 (SSE2): every processor runs this build.
#include "kernel.h"
#include "simd.h"

namespace wflo {
namespace sse2 {
#include "scalarPhysics.inc"
#include "wakedKernel.inc"
#include "freeStreamKernel.inc"
void waked(WakedCall& call, WakedScratch& scratch) { wakedRun(call, scratch); }
void freeStream(FreeStreamCall& call, FreeStreamScratch& scratch) { freeStreamRun(call, scratch); }
int formula(int which, const double* cfg, const Curves& curves, const double* in, int nIn, double* out) { return formulaRun(which, cfg, curves, in, nIn, out); }
}  // namespace sse2
}  // namespace wflo
