fuzz
// kplay: kernel=k
// kplay-task: reference=host
// kplay-sizes: n default=4
// kplay-buffer: y f32[n] out
__global__ void k(float* y, int n){}
#ifdef KPLAY_REFERENCE
#line 99999999999 "x.h"
void kplay_reference(float* y){}
#endif
