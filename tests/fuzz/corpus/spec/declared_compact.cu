fuzz
// kplay: kernel=softmax_rows block=128 grid=R smem=4*128 tolerance=1e-5 require=C%4==0&&R>=1 define=TILE=4
// kplay-task: name=softmax reference=host:softmax_ref view=series rate=bytes extent=R coverage=per-thread summary=rows
// kplay-sizes: R,C default=4096x1024 cpu=256x1024 test=1x1,3x1000,33x1000 bench=8192x8192
// kplay-buffer: x f32[R*C] in init=normal(0, 1) seed=7
// kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7*sqrt(C)
// kplay-cost: bytes=8*R*C flops=5*R*C ceiling=copy
// kplay-launch: kernel=finish_rows args=y,R,C block=256 grid=cdiv(R,256) smem=0
#include "kplay.cuh"
extern "C" __global__ void softmax_rows(const float* x, float* y, int R, int C) {}
extern "C" __global__ void finish_rows(float* y, int R, int C) {}
#ifdef KPLAY_REFERENCE
void softmax_ref(const float* x, float* y, int R, int C) {}
#endif
