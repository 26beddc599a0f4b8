// A task as data: what a kernel computes and how kplay feeds, checks and measures it.
//
// A task names its sizes (with defaults on a GPU and on a CPU, test sizes checked in full and bench
// sizes that are timed), its buffers (type, length, role, how inputs are made, how each output is
// checked), its cost (bytes and flops as expressions, and the ceiling they are measured against), its
// reference and its presentation (which view the window shows, the rate's unit). The built-in tasks
// (grayscale, matmul) are values of this type like any task a user declares in a kernel file
// (task_declaration.hpp), so nothing downstream of the spec asks which task it is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace kplay {

// bf16 is bfloat16; fp8_e4m3 and fp8_e5m2 are CUDA's __nv_fp8_e4m3 and __nv_fp8_e5m2 (NVIDIA's OCP formats).
enum class ElementType { u8, i32, u32, f16, f32, f64, i8, i64, bf16, fp8_e4m3, fp8_e5m2 };
size_t element_size(ElementType type);
bool is_floating(ElementType type);

// scratch: space the kernels use between launches or for coordination (block sums, look-back flags,
// a block counter): neither input nor output, never checked; poisoned before each run of the
// launches unless it declares a value to start from (init=zero).
enum class BufferRole { in, out, inout, scratch };

enum class InitKind { uniform, normal, randint, iota, constant, image };

// The value a constant init may name that no expression gives: "inf", "-inf" (a running maximum's
// start), "nan"; nullopt for anything else. Only floating-point buffers take them.
std::optional<double> non_finite_init(std::string_view text);
// planar: 3 planes of h*w; interleaved: RGBRGB...; gray: one value a pixel; rgba: RGBARGBA..., alpha opaque
enum class ImageLayout { planar, interleaved, gray, rgba };

// How an input buffer is filled. Parameters are real expressions over the sizes:
// uniform(lo,hi) [0,1), normal(mean,std) (0,1), randint(lo,hi) inclusive (0,255 for u8, else 0,100),
// iota(start,step) (0,1), constant(value) (never 0), image(planar|interleaved|gray|rgba[,range]): a u8
// buffer holds the image's bytes; a floating-point one its values in 0..1, or 0..255 with range 255
// (params holds the range as written, when given).
struct InitSpec {
    InitKind kind = InitKind::uniform;
    std::vector<std::string> params;
    ImageLayout layout = ImageLayout::planar;
    std::string text;  // as written, e.g. "normal(0,1)"
};

// How an output is compared with the reference, element by element.
//   exact:     bit-equal (floats: equal, or both NaN)
//   tolerance: |got - ref| <= abs + rel * |ref|    (abs and rel are real expressions; "" means 0)
//   ulp:       at most `ulp` units in the last place apart
//   bound:     |got - ref| <= bound * the reference's own per-element bound (a GEMM's u*sqrt(K)*(|A||B|)ij)
//   none:      not checked (scratch space)
enum class CheckKind { exact, tolerance, ulp, bound, none };
struct CheckSpec {
    CheckKind kind = CheckKind::exact;
    std::string abs, rel, ulp, bound;
    std::string text;  // as written, e.g. "rel:1e-5,abs:1e-7"
};

struct BufferSpec {
    std::string name;
    ElementType type = ElementType::f32;
    std::string length;              // integer expression over the sizes
    // rows, cols (integer expressions) for a 2D buffer, rows, cols, channels for an interleaved image
    // (h,w,3); empty = 1D
    std::vector<std::string> shape;
    BufferRole role = BufferRole::in;
    InitSpec init;                   // inputs and inout buffers (and prefilled outputs)
    // An output the kernel accumulates into (atomicAdd into a sum): filled with its init (a constant,
    // zero allowed) before each launch instead of poison.
    bool prefill = false;
    // zeros=ok: an input whose init may give all zeros at some size (randint(0,V-1) at V=1: every target
    // is class 0). Without it such an input is refused, since zeros hide ignored inputs.
    bool zeros_allowed = false;
    std::optional<uint64_t> seed;    // fixed; otherwise derived from the run's seed and the buffer's index
    CheckSpec check;                 // outputs and inout buffers
    int line = 0;                    // where it was declared (0: built in)
    // A `__constant__` array of this name (kplay-constant): an input filled into the module's symbol
    // before the launches, and into the host reference's array of the same name; never an argument.
    bool constant = false;
    bool is_output() const { return role == BufferRole::out || role == BufferRole::inout; }
    bool is_input() const { return role == BufferRole::in || role == BufferRole::inout; }
};

// Named sizes. Each list entry holds one value per name, in the order of `names`.
struct SizeSpec {
    std::vector<std::string> names;
    std::vector<int64_t> gpu_default, cpu_default;
    std::vector<std::vector<int64_t>> test;              // checked in full on every run, edge cases included
    std::vector<std::vector<int64_t>> cpu_test;          // test-cpu=: the emulated device's instead (empty: `test`)
    std::vector<std::vector<int64_t>> gpu_bench, cpu_bench;  // timed by kplay-cli bench
    // Values computed from the sizes, in order: grayscale's n = w*h.
    std::vector<std::pair<std::string, std::string>> derived;
};

// What the measured rate is compared with.
//   copy:      the device's device-to-device copy bandwidth (bytes read + written)
//   read_only: the device's bandwidth for reading only
//   cublas:    cuBLAS SGEMM at the same sizes (GEMM-like work)
//   none:      no ceiling: the rate alone
enum class CeilingKind { copy, read_only, cublas, none };

struct CostSpec {
    std::string bytes, flops;  // real expressions over the sizes; "" = 0
    CeilingKind ceiling = CeilingKind::copy;
    // cublas: what cuBLAS is called with, as value names: a, b, c, M, N, K (row-major C = A*B).
    std::vector<std::string> gemm;
};

// The element types of a task's GEMM (gemm=A,B,C,...): A's (and B's), and C's; f32 and f32 when the
// task names none. The declaration allows f32, f16 and bf16 inputs, and C of their type or f32.
struct GemmTypes {
    ElementType input = ElementType::f32;
    ElementType output = ElementType::f32;
};

// Where the expected outputs come from.
//   builtin: kplay's own code (the built-in tasks: seed grayscale formula, OpenBLAS fp64 GEMM)
//   host:    a plain C++ function in the kernel file under #ifdef KPLAY_REFERENCE, taking the kernel's
//            arguments as host pointers and values; built by the host compiler, run in a sandbox
//   kernel:  a trusted kernel in another file, run on the emulated CPU device
enum class ReferenceKind { builtin, host, kernel };
enum class BuiltinReference { none, grayscale_seed, matmul_fp64 };
struct ReferenceSpec {
    ReferenceKind kind = ReferenceKind::host;
    BuiltinReference builtin = BuiltinReference::none;
    std::string function = "kplay_reference";  // host
    std::string file, kernel;                   // kernel: a path relative to the kernel file, and a name expression
    int line = 0;                               // the declaration's line, 0 when implied
};

// What the window shows and how a run is summed up.
// series: a 1D output against its reference as lines; bars: the same as bars (a histogram's bins).
enum class OutputKind { image, matrix, series, scalar, bars };
enum class RateUnit { bytes, flops };  // GB/s or GFLOP/s
// per_element: one thread per element is the plan, so elements without a thread are worth a warning;
// per_thread_work: threads own several elements (register blocking, grid-stride loops, reductions).
enum class CoverageKind { per_element, per_thread_work };
struct Presentation {
    OutputKind output = OutputKind::series;
    RateUnit rate = RateUnit::bytes;
    CoverageKind coverage = CoverageKind::per_element;
};

// The names of the task model's enums, as written in declarations and JSON ("f32", "inout",
// "read-only", "per-thread", ...): one table per enum in task_spec.cpp. spec_name() of an unlisted value
// is "?"; parse_spec_name() of an unknown name is nullopt; spec_names() lists them for messages.
template <typename Enum>
const char* spec_name(Enum value);
template <typename Enum>
std::optional<Enum> parse_spec_name(std::string_view text);
template <typename Enum>
std::string spec_names();
inline const char* element_type_name(ElementType type) { return spec_name(type); }

// A way to bind a kernel that has no `args`: by its parameter count (built-in tasks only; declared
// tasks bind parameters by name).
struct CanonicalBinding {
    size_t params = 0;
    std::vector<std::string> args;
    int launch_dims = 1;
};

struct TaskSpec {
    std::string name;     // "grayscale", "matmul", or the declared name (default: the file's stem)
    std::string summary;  // one line for the user
    bool builtin = false;
    SizeSpec sizes;
    std::vector<BufferSpec> buffers;
    CostSpec cost;
    ReferenceSpec reference;
    Presentation presentation;
    // The elements the auto grid covers (integer expressions). 1D launches: extent_1d, else the length
    // of the largest buffer. 2D launches: extent_2d (x, y), else the primary output's shape, columns
    // then rows.
    std::string extent_1d;
    std::vector<std::string> extent_2d;
    std::vector<CanonicalBinding> canonical;
    int declaration_line = 0;  // first kplay-task/-sizes/-buffer line; 0 for built-in tasks

    const BufferSpec* find_buffer(std::string_view name) const;
    GemmTypes gemm_types() const;
    // The first output that is checked: what the window shows and what the summary leads with.
    const BufferSpec* primary_output() const;
    bool has_image_input() const;
    // The first input an image fills; null when none.
    const BufferSpec* image_input() const;
    // The value an image view draws as white for output `out`: a u8 output's bytes are 0..255; a
    // floating-point output is in its task's image input's range (image_white of it).
    double image_white(const BufferSpec& out) const;
};

// The value of a white pixel in a buffer an image init fills: 255 in a u8 buffer; in a floating-point one
// the init's range (image(interleaved,255)), else 1.
double image_white(const InitSpec& init, ElementType type);

}  // namespace kplay
