// The check kernels' source, their build and their launches. The element logic follows
// tasks/buffer_check.cpp's ElementComparer line for line; tests/gpu_output_check_test.cpp holds the two
// to the same answers on every element type and rule, with planted errors.
#include "cuda/check_kernel.hpp"

#include <algorithm>
#include <bit>
#include <cstring>

#include "base/error.hpp"
#include "kernel_file/task_spec.hpp"
#include "cuda/builtin_kernel.hpp"
#include "cuda/driver.hpp"

namespace kplay {

namespace {

// The enums' numbers the source spells out.
static_assert(static_cast<int>(ElementType::u8) == 0 && static_cast<int>(ElementType::i32) == 1 &&
              static_cast<int>(ElementType::u32) == 2 && static_cast<int>(ElementType::f16) == 3 &&
              static_cast<int>(ElementType::f32) == 4 && static_cast<int>(ElementType::f64) == 5 &&
              static_cast<int>(ElementType::i8) == 6 && static_cast<int>(ElementType::i64) == 7 &&
              static_cast<int>(ElementType::bf16) == 8 && static_cast<int>(ElementType::fp8_e4m3) == 9 &&
              static_cast<int>(ElementType::fp8_e5m2) == 10);
static_assert(static_cast<int>(CheckKind::exact) == 0 && static_cast<int>(CheckKind::tolerance) == 1 &&
              static_cast<int>(CheckKind::ulp) == 2 && static_cast<int>(CheckKind::bound) == 3);

constexpr const char* kCheckSource = R"(
enum { U8, I32, U32, F16, F32, F64, I8, I64, BF16, E4M3, E5M2 };
enum { EXACT, TOLERANCE, ULP, BOUND };

struct Params {
    const unsigned char* first;
    const unsigned char* final;
    const unsigned char* expected;
    const double* bound;
    unsigned long long count;
    int type, kind;
    double abs, rel, ulp, bound_scale, rel_floor;
    unsigned long long poison[2][2];
};

struct Tally {
    unsigned long long over_tolerance, unwritten, nan_inf, nondeterministic, racy, wrong, first_bad;
    unsigned long long max_abs, max_rel, max_ratio;
    double diff_squares, ref_squares;
};

__device__ int size_of(int type) {
    switch (type) {
        case U8: case I8: case E4M3: case E5M2: return 1;
        case F16: case BF16: return 2;
        case F64: case I64: return 8;
        default: return 4;
    }
}

__device__ bool floating(int type) { return type == F16 || type == F32 || type == F64 || type == BF16 || type == E4M3 || type == E5M2; }

__device__ unsigned long long load(const unsigned char* data, unsigned long long i, int size) {
    switch (size) {
        case 1: return data[i];
        case 2: return ((const unsigned short*)data)[i];
        case 4: return ((const unsigned int*)data)[i];
        default: return ((const unsigned long long*)data)[i];
    }
}

// The narrow floats by their parameters (narrow_float.cpp's decode): all of their values are exact doubles.
__device__ double decode(unsigned int bits, int mantissa_bits, int exponent_bits, int min_exponent, bool ieee_special) {
    const unsigned int sign = 1u << (mantissa_bits + exponent_bits);
    const unsigned int magnitude = bits & (sign - 1);
    const unsigned int exponent = magnitude >> mantissa_bits;
    const unsigned int mantissa = magnitude & ((1u << mantissa_bits) - 1);
    const unsigned int top = (1u << exponent_bits) - 1;
    double value;
    if (ieee_special && exponent == top) value = mantissa ? __longlong_as_double(0x7FF8000000000000ll) : __longlong_as_double(0x7FF0000000000000ll);
    else if (!ieee_special && magnitude == ((top << mantissa_bits) | ((1u << mantissa_bits) - 1))) value = __longlong_as_double(0x7FF8000000000000ll);
    else if (exponent == 0) value = ldexp((double)mantissa, min_exponent - mantissa_bits);
    else value = ldexp((double)(mantissa | (1u << mantissa_bits)), (int)exponent - 1 + min_exponent - mantissa_bits);
    return (bits & sign) ? -value : value;
}

__device__ double value_of(unsigned long long bits, int type) {
    switch (type) {
        case U8: case U32: return (double)bits;
        case I32: return (double)(int)(unsigned int)bits;
        case F16: return decode((unsigned int)bits, 10, 5, -14, true);
        case F32: return (double)__int_as_float((int)(unsigned int)bits);
        case F64: return __longlong_as_double((long long)bits);
        case I8: return (double)(signed char)(unsigned char)bits;
        case I64: return (double)(long long)bits;
        case BF16: return decode((unsigned int)bits, 7, 8, -126, true);
        case E4M3: return decode((unsigned int)bits, 3, 4, -6, false);
        default: return decode((unsigned int)bits, 2, 5, -14, true);
    }
}

__device__ long long ordered_bits(unsigned long long bits, int size) {
    const unsigned long long sign = 1ull << (8 * size - 1);
    const long long magnitude = (long long)(bits & (sign - 1));
    return (bits & sign) ? -magnitude : magnitude;
}

__device__ unsigned long long ulp_distance(unsigned long long a, unsigned long long b, int size) {
    const long long x = ordered_bits(a, size), y = ordered_bits(b, size);
    return x >= y ? (unsigned long long)x - (unsigned long long)y : (unsigned long long)y - (unsigned long long)x;
}

__device__ double unit_in_last_place(unsigned long long ref_bits, int type, int size) {
    const unsigned long long magnitude = ref_bits & ((1ull << (8 * size - 1)) - 1);
    const double here = value_of(magnitude, type), up = value_of(magnitude + 1, type);
    return isfinite(up) ? up - here : here - value_of(magnitude - 1, type);
}

__device__ double error_ratio(double error, double allowed) {
    if (error == 0) return 0;
    return allowed == 0 ? __longlong_as_double(0x7FF0000000000000ll) : error / allowed;
}

struct Element {
    double got, ref, first, allowed, ratio;
    bool passed, unwritten, nondeterministic, tolerated, nan_inf, finite;
};

__device__ Element compare(const Params& p, unsigned long long i) {
    const double nan = __longlong_as_double(0x7FF8000000000000ll), inf = __longlong_as_double(0x7FF0000000000000ll);
    const int size = size_of(p.type);
    Element e = {0, 0, 0, 0, 0, true, false, false, false, false, false};
    const unsigned long long got_bits = load(p.final, i, size), ref_bits = load(p.expected, i, size);
    e.got = value_of(got_bits, p.type);
    e.ref = value_of(ref_bits, p.type);
    unsigned long long first_bits = 0;
    if (p.first) {
        first_bits = load(p.first, i, size);
        e.first = value_of(first_bits, p.type);
        e.unwritten = first_bits == p.poison[0][i & 1] && got_bits == p.poison[1][i & 1];
        e.nondeterministic = !e.unwritten && first_bits != got_bits && !(isnan(e.first) && isnan(e.got));
    }
    if (e.unwritten) { e.passed = false; e.ratio = nan; e.got = nan; return e; }
    if (!isfinite(e.ref)) {  // a NaN reference asks for a NaN, an infinite one for the same infinity
        e.passed = isnan(e.ref) ? isnan(e.got) : e.got == e.ref;
        e.ratio = e.passed ? 0 : (isfinite(e.got) ? inf : nan);
        return e;
    }
    if (!isfinite(e.got)) { e.passed = false; e.ratio = nan; e.nan_inf = true; return e; }
    e.finite = true;
    const double error = fabs(e.got - e.ref);
    // Rounded as the host rounds them: no fused multiply-add, or a ratio differs in its last bit.
    switch (p.kind) {
        case TOLERANCE: e.allowed = __dadd_rn(p.abs, __dmul_rn(p.rel, fabs(e.ref))); break;
        case ULP: e.allowed = floating(p.type) ? p.ulp * unit_in_last_place(ref_bits, p.type, size) : p.ulp; break;
        case BOUND: e.allowed = __dadd_rn(__dmul_rn(p.bound_scale, p.bound[i]), 1e-30); break;
        default: e.allowed = 0;
    }
    if (p.kind == ULP && floating(p.type)) {
        const double units = (double)ulp_distance(got_bits, ref_bits, size);
        e.passed = units <= p.ulp;
        e.ratio = error_ratio(units, p.ulp);
    } else if (p.kind == EXACT && !floating(p.type)) {
        e.passed = got_bits == ref_bits;
        e.ratio = e.passed ? 0 : inf;
    } else {
        e.passed = error <= e.allowed;
        e.ratio = error_ratio(error, e.allowed);
    }
    if (e.nondeterministic && e.passed && floating(p.type) && p.kind != EXACT && isfinite(e.first))
        e.tolerated = p.kind == ULP ? (double)ulp_distance(first_bits, ref_bits, size) <= p.ulp : fabs(e.first - e.ref) <= e.allowed;
    return e;
}

__device__ unsigned long long warp_sum(unsigned long long v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__device__ double warp_sum(double v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}
__device__ unsigned long long warp_max(unsigned long long v) {
    for (int o = 16; o > 0; o >>= 1) v = max(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}
__device__ unsigned long long warp_min(unsigned long long v) {
    for (int o = 16; o > 0; o >>= 1) v = min(v, __shfl_down_sync(0xffffffffu, v, o));
    return v;
}
// Non-negative doubles order as their bits do.
__device__ unsigned long long bits_of(double v) { return (unsigned long long)__double_as_longlong(v); }

extern "C" __global__ void kplay_check_largest(Params p, unsigned long long* largest) {
    const int size = size_of(p.type);
    unsigned long long best = 0;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < p.count; i += stride) {
        const double r = fabs(value_of(load(p.expected, i, size), p.type));
        if (isfinite(r)) best = max(best, bits_of(r));
    }
    best = warp_max(best);
    if ((threadIdx.x & 31) == 0) atomicMax(largest, best);
}

extern "C" __global__ void kplay_check_tally(Params p, Tally* out) {
    unsigned long long over = 0, unwritten = 0, nan_inf = 0, nondet = 0, racy = 0, wrong = 0, first_bad = ~0ull;
    unsigned long long max_abs = 0, max_rel = 0, max_ratio = 0;
    double diff_squares = 0, ref_squares = 0;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < p.count; i += stride) {
        const Element e = compare(p, i);
        over += !e.passed;
        unwritten += e.unwritten;
        nan_inf += e.nan_inf;
        nondet += e.nondeterministic;
        racy += e.nondeterministic && !e.tolerated;
        if (!e.passed || (e.nondeterministic && !e.tolerated)) {
            ++wrong;
            first_bad = min(first_bad, i);
        }
        if (!e.finite) continue;
        const double error = fabs(e.got - e.ref), magnitude = fabs(e.ref);
        max_abs = max(max_abs, bits_of(error));
        if (magnitude > p.rel_floor) max_rel = max(max_rel, bits_of(error / magnitude));
        max_ratio = max(max_ratio, bits_of(e.ratio));
        diff_squares += error * error;
        ref_squares += e.ref * e.ref;
    }
    over = warp_sum(over); unwritten = warp_sum(unwritten); nan_inf = warp_sum(nan_inf); nondet = warp_sum(nondet);
    racy = warp_sum(racy); wrong = warp_sum(wrong); first_bad = warp_min(first_bad);
    max_abs = warp_max(max_abs); max_rel = warp_max(max_rel); max_ratio = warp_max(max_ratio);
    diff_squares = warp_sum(diff_squares); ref_squares = warp_sum(ref_squares);
    if ((threadIdx.x & 31) != 0) return;
    if (over) atomicAdd(&out->over_tolerance, over);
    if (unwritten) atomicAdd(&out->unwritten, unwritten);
    if (nan_inf) atomicAdd(&out->nan_inf, nan_inf);
    if (nondet) atomicAdd(&out->nondeterministic, nondet);
    if (racy) atomicAdd(&out->racy, racy);
    if (wrong) { atomicAdd(&out->wrong, wrong); atomicMin(&out->first_bad, first_bad); }
    atomicMax(&out->max_abs, max_abs);
    atomicMax(&out->max_rel, max_rel);
    atomicMax(&out->max_ratio, max_ratio);
    atomicAdd(&out->diff_squares, diff_squares);
    atomicAdd(&out->ref_squares, ref_squares);
}

// NaN wins, so one never-written or non-finite element is not hidden by its neighbours.
__device__ float max_or_nan(float a, float b) { return (isnan(a) || isnan(b)) ? __int_as_float(0x7FC00000) : fmaxf(a, b); }
__device__ float min_or_nan(float a, float b) { return (isnan(a) || isnan(b)) ? __int_as_float(0x7FC00000) : fminf(a, b); }

// One thread per view pixel: its block of step x step image pixels (one at full resolution), as the
// host's fill_image_view: the difference furthest from zero, and each channel's mean rounded byte.
extern "C" __global__ void kplay_check_image(Params p, int channels, long long image_w, long long image_h, int step, int view_w,
                                             int view_h, double to_byte, float* map, unsigned char* bytes) {
    const long long pixel = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (pixel >= (long long)view_w * view_h) return;
    const long long vy = pixel / view_w, vx = pixel % view_w;
    const long long y_end = min(image_h, (vy + 1) * step), x_end = min(image_w, (vx + 1) * step);
    const long long count = (y_end - vy * step) * (x_end - vx * step);
    float cell = 0.0f;
    for (int c = 0; c < channels; ++c) {
        long long sum = 0;
        for (long long y = vy * step; y < y_end; ++y)
            for (long long x = vx * step; x < x_end; ++x) {
                const Element e = compare(p, (unsigned long long)((y * image_w + x) * channels + c));
                const float d = (float)(e.got - e.ref);
                if (isnan(d) || (!isnan(cell) && fabsf(d) > fabsf(cell))) cell = d;
                sum += isnan(e.got) ? 0 : (long long)fmin(fmax(round(e.got * to_byte), 0.0), 255.0);
            }
        if (bytes) bytes[pixel * channels + c] = (unsigned char)((sum + count / 2) / count);
    }
    map[pixel] = cell;
}

extern "C" __global__ void kplay_check_matrix(Params p, long long rows, long long cols, long long row_step, long long col_step,
                                              int width, int height, float* map) {
    const long long cell = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (cell >= (long long)width * height) return;
    const long long cy = cell / width, cx = cell % width;
    float worst = 0.0f;
    for (long long r = cy * row_step; r < min(rows, (cy + 1) * row_step); ++r)
        for (long long c = cx * col_step; c < min(cols, (cx + 1) * col_step); ++c)
            worst = max_or_nan(worst, (float)compare(p, (unsigned long long)(r * cols + c)).ratio);
    map[cell] = worst;
}

extern "C" __global__ void kplay_check_series(Params p, long long bucket, long long entries, float* got_min, float* got_max,
                                              float* want_min, float* want_max, float* ratio_max) {
    const long long entry = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (entry >= entries) return;
    const unsigned long long begin = entry * bucket, end = min((unsigned long long)((entry + 1) * bucket), p.count);
    const Element e = compare(p, begin);
    float gmin = (float)e.got, gmax = gmin, wmin = (float)e.ref, wmax = wmin, ratio = (float)e.ratio;
    for (unsigned long long i = begin + 1; i < end; ++i) {
        const Element x = compare(p, i);
        const float got = (float)x.got, want = (float)x.ref;
        gmin = min_or_nan(gmin, got); gmax = max_or_nan(gmax, got);
        wmin = min_or_nan(wmin, want); wmax = max_or_nan(wmax, want);
        ratio = max_or_nan(ratio, (float)x.ratio);
    }
    got_min[entry] = gmin; want_min[entry] = wmin; ratio_max[entry] = ratio;
    if (bucket > 1) { got_max[entry] = gmax; want_max[entry] = wmax; }
}
)";

constexpr unsigned kThreads = 256;

// A device array for one view's values, read back into `host` (sized by the caller).
template <typename T>
class ViewArray {
public:
    explicit ViewArray(std::vector<T>& host) : host_(host), buffer_(std::max<size_t>(1, host.size() * sizeof(T))) {}
    CUdeviceptr get() const { return host_.empty() ? 0 : buffer_.get(); }
    void read_back() const {
        if (!host_.empty()) buffer_.download(host_.data(), host_.size() * sizeof(T));
    }

private:
    std::vector<T>& host_;
    DeviceBuffer buffer_;
};

void launch(const KernelFunction& kernel, unsigned blocks, const Stream& stream, void** args) {
    KPLAY_CU(driver_api().cuLaunchKernel(kernel.get(), std::max(1u, blocks), 1, 1, kThreads, 1, 1, 0, stream.get(), args, nullptr));
}

unsigned blocks_of(unsigned long long items) { return static_cast<unsigned>((items + kThreads - 1) / kThreads); }

}  // namespace

CheckKernel::CheckKernel(const DeviceInfo& device)
    : module_(build_builtin_module(device, kCheckSource, "kplay_check.cu")),
      largest_(module_.function("kplay_check_largest")),
      tally_(module_.function("kplay_check_tally")),
      image_(module_.function("kplay_check_image")),
      matrix_(module_.function("kplay_check_matrix")),
      series_(module_.function("kplay_check_series")),
      result_(sizeof(CheckKernelTally)),
      sms_(std::max(1, device.sm_count)) {}

unsigned CheckKernel::blocks_for(unsigned long long items) const {
    // Enough blocks to keep every SM streaming; the grid-stride loops take the rest.
    return std::clamp<unsigned>(blocks_of(items), 1, static_cast<unsigned>(sms_) * 8);
}

double CheckKernel::largest_reference(const Stream& stream, const CheckKernelParams& params) const {
    result_.fill_words(0, stream);
    CheckKernelParams p = params;
    CUdeviceptr out = result_.get();
    void* args[] = {&p, &out};
    launch(largest_, blocks_for(params.count), stream, args);
    stream.synchronize();
    uint64_t bits = 0;
    result_.download(&bits, sizeof bits);
    return std::bit_cast<double>(bits);
}

CheckKernelTally CheckKernel::tally(const Stream& stream, const CheckKernelParams& params) const {
    const CheckKernelTally zero;
    result_.upload(&zero, sizeof zero);
    CheckKernelParams p = params;
    CUdeviceptr out = result_.get();
    void* args[] = {&p, &out};
    launch(tally_, blocks_for(params.count), stream, args);
    stream.synchronize();
    CheckKernelTally tally;
    result_.download(&tally, sizeof tally);
    return tally;
}

void CheckKernel::image_view(const Stream& stream, const CheckKernelParams& params, const ImageViewShape& shape, std::vector<float>& map,
                             std::vector<unsigned char>& bytes) const {
    ViewArray<float> map_array(map);
    ViewArray<unsigned char> byte_array(bytes);
    CheckKernelParams p = params;
    int c = shape.channels, step = shape.step, w = shape.view_w, h = shape.view_h;
    long long iw = shape.image_w, ih = shape.image_h;
    double to_byte = shape.to_byte;
    CUdeviceptr m = map_array.get(), b = byte_array.get();
    void* args[] = {&p, &c, &iw, &ih, &step, &w, &h, &to_byte, &m, &b};
    launch(image_, blocks_of(map.size()), stream, args);
    stream.synchronize();
    map_array.read_back();
    byte_array.read_back();
}

void CheckKernel::matrix_view(const Stream& stream, const CheckKernelParams& params, int64_t rows, int64_t cols, int64_t row_step,
                              int64_t col_step, int width, int height, std::vector<float>& map) const {
    ViewArray<float> map_array(map);
    CheckKernelParams p = params;
    long long r = rows, c = cols, rs = row_step, cs = col_step;
    int w = width, h = height;
    CUdeviceptr m = map_array.get();
    void* args[] = {&p, &r, &c, &rs, &cs, &w, &h, &m};
    launch(matrix_, blocks_of(map.size()), stream, args);
    stream.synchronize();
    map_array.read_back();
}

void CheckKernel::series_view(const Stream& stream, const CheckKernelParams& params, int64_t bucket, std::vector<float>& got_min,
                              std::vector<float>& got_max, std::vector<float>& want_min, std::vector<float>& want_max,
                              std::vector<float>& ratio_max) const {
    ViewArray<float> gmin(got_min), gmax(got_max), wmin(want_min), wmax(want_max), ratio(ratio_max);
    CheckKernelParams p = params;
    long long b = bucket, entries = static_cast<long long>(got_min.size());
    CUdeviceptr a0 = gmin.get(), a1 = gmax.get(), a2 = wmin.get(), a3 = wmax.get(), a4 = ratio.get();
    void* args[] = {&p, &b, &entries, &a0, &a1, &a2, &a3, &a4};
    launch(series_, blocks_of(got_min.size()), stream, args);
    stream.synchronize();
    for (const ViewArray<float>* array : {&gmin, &gmax, &wmin, &wmax, &ratio}) array->read_back();
}

}  // namespace kplay
