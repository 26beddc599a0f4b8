// y = A x for a sparse A in CSR form, the matrix passed by value as a struct of its arrays and its row
// count: the kplay-struct line fills each field from a buffer or a size. K nonzeros per row, so the
// row pointers are iota(0,K); the column indices are random (all 0 at C=1, hence zeros=ok).
// kplay-sizes: R,C,K default=100000x100000x16 cpu=10000x10000x8 test=1x1x1,1000x77x5,1025x3x2 bench=1000000x1000000x16
// kplay-buffer: row_ptr i32[R+1] in init=iota(0,K)
// kplay-buffer: col_idx i32[R*K] in init=randint(0,C-1) zeros=ok
// kplay-buffer: vals f32[R*K] in init=uniform(-1,1)
// kplay-buffer: x f32[C] in init=uniform(-1,1)
// kplay-buffer: y f32[R] out check=rel:1e-5,abs:1e-5
// kplay-struct: A rowPtrs=row_ptr colIdx=col_idx values=vals numRows=R
// kplay-cost: bytes=4*(R+1)+12*R*K+4*R ceiling=none

struct CSRMatrix {
    int* rowPtrs;
    int* colIdx;
    float* values;
    int numRows;
};

__global__ void spmv_csr(CSRMatrix A, const float* x, float* y) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= A.numRows) return;
    float sum = 0.0f;
    for (int e = A.rowPtrs[row]; e < A.rowPtrs[row + 1]; ++e) sum += A.values[e] * x[A.colIdx[e]];
    y[row] = sum;
}

#ifdef KPLAY_REFERENCE
void kplay_reference(CSRMatrix A, const float* x, float* y) {
    for (int row = 0; row < A.numRows; ++row) {
        double sum = 0;
        for (int e = A.rowPtrs[row]; e < A.rowPtrs[row + 1]; ++e) sum += double(A.values[e]) * x[A.colIdx[e]];
        y[row] = float(sum);
    }
}
#endif
