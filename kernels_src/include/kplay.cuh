// kplay.cuh: small helpers kernel files may include (kplay adds this folder to the include path).
#pragma once

// Ceiling division: how many blocks of size b cover a elements.
__host__ __device__ inline unsigned int cdiv(unsigned int a, unsigned int b) { return (a + b - 1) / b; }
