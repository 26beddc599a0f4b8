// mma.h for a host reference: the names a kernel file may mention outside a kernel's body
// (`using namespace nvcuda;`), declared only; WMMA itself is device code, whose bodies are blanked.
#pragma once
namespace nvcuda {
namespace wmma {
struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;
template <class Use, int M, int N, int K, class T, class Layout = void> class fragment;
}  // namespace wmma
}  // namespace nvcuda
