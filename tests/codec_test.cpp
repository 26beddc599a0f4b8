// The worker protocol's codec must carry every field of every value unchanged: a field it forgets is
// silently reset to its default on the other side of the pipe (a check that passed reads as failed, a
// ceiling as unmeasured). Each top-level value is filled with distinctive values in every field, sent
// through JSON text and compared field by field with the original; a report's arrays go through the
// shared-memory blobs instead.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "values/codec.hpp"
#include "protocol/frames.hpp"
#include "protocol/protocol.hpp"

using namespace kplay;
using nlohmann::json;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr uint64_t kBigSeed = 0xFEDCBA9876543210ull;  // above 2^63: lost if it ever passes through a double or an int64

// ---- Field-by-field comparison ----
//
// One list of fields per struct (fields() below) serves two checks. `same`: the decoded value equals the
// original in every field, and every listed field is a key of the original's JSON with no key left over
// (so the list here and the codec's cannot drift apart unnoticed). `set`: every field of a filled value
// differs from a default-made one, so a filler cannot leave a field at its default, where a dropped
// field would decode to the same value and go unseen.
enum class Mode { same, set };

struct Walk {
    Mode mode;
    std::string path;
    const json* encoded = nullptr;  // same mode: the JSON the value was decoded from
    size_t fields = 0;
};

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};
template <typename T>
struct is_vector : std::false_type {};
template <typename T>
struct is_vector<std::vector<T>> : std::true_type {};

template <typename T>
concept Struct = requires(Walk& walk, const T& value) { fields(walk, value, value); };

template <typename T>
concept StructVector = is_vector<T>::value && Struct<typename T::value_type>;

template <typename T>
bool equal_leaf(const T& a, const T& b) {
    if constexpr (std::is_floating_point_v<T>) return (std::isnan(a) && std::isnan(b)) || a == b;
    else return a == b;
}

template <typename T>
std::string leaf_text(const T& value) {
    if constexpr (std::is_enum_v<T>) return std::to_string(static_cast<long long>(value));
    else if constexpr (std::is_arithmetic_v<T>) return ::testing::PrintToString(value);
    else if constexpr (std::is_same_v<T, std::string>) return "'" + value + "'";
    else return "(not printed)";
}

template <typename T>
void compare(Walk& walk, const T& a, const T& b);

template <typename T>
void field(Walk& walk, const char* key, const T& a, const T& b) {
    ++walk.fields;
    const json* node = nullptr;
    if (walk.encoded) {
        if (walk.encoded->is_object() && walk.encoded->contains(key)) {
            node = &walk.encoded->at(key);
        } else {
            ADD_FAILURE() << walk.path << " is encoded without the key '" << key << "'";
        }
    }
    Walk child{walk.mode, walk.path + "." + key, node};
    compare(child, a, b);
}

template <typename T>
void compare(Walk& walk, const T& a, const T& b) {
    if constexpr (Struct<T>) {
        Walk inner{walk.mode, walk.path, walk.encoded};
        fields(inner, a, b);
        if (walk.encoded && walk.encoded->is_object()) {
            EXPECT_EQ(walk.encoded->size(), inner.fields) << walk.path << ": the JSON and the field list differ in size";
        }
    } else if constexpr (is_optional<T>::value) {
        if (walk.mode == Mode::set) {
            if (!a) {
                ADD_FAILURE() << walk.path << " is left unset";
            } else {
                compare(walk, *a, typename T::value_type{});
            }
        } else if (a.has_value() != b.has_value()) {
            ADD_FAILURE() << walk.path << ": set on one side only";
        } else if (a) {
            compare(walk, *a, *b);
        }
    } else if constexpr (StructVector<T>) {
        using Element = typename T::value_type;
        if (walk.mode == Mode::set) {
            if (a.empty()) {
                ADD_FAILURE() << walk.path << " is left empty";
            } else {
                Walk element{walk.mode, walk.path + "[0]"};
                compare(element, a[0], Element{});
            }
            return;
        }
        ASSERT_EQ(a.size(), b.size()) << walk.path;
        if (walk.encoded) {
            ASSERT_TRUE(walk.encoded->is_array() && walk.encoded->size() == a.size()) << walk.path;
        }
        for (size_t i = 0; i < a.size(); ++i) {
            Walk element{walk.mode, walk.path + "[" + std::to_string(i) + "]", walk.encoded ? &(*walk.encoded)[i] : nullptr};
            compare(element, a[i], b[i]);
        }
    } else {
        const bool equal = equal_leaf(a, b);
        if (walk.mode == Mode::same && !equal)
            ADD_FAILURE() << walk.path << " changed: " << leaf_text(a) << " instead of " << leaf_text(b);
        if (walk.mode == Mode::set && equal) ADD_FAILURE() << walk.path << " is left at its default " << leaf_text(a);
    }
}

#define FIELD(name) field(walk, #name, a.name, b.name)

// Every field of every struct the codec carries, in declaration order.
void fields(Walk& walk, const Diagnostic& a, const Diagnostic& b) {
    FIELD(file); FIELD(line); FIELD(column); FIELD(severity); FIELD(code); FIELD(message); FIELD(source_line);
    FIELD(context); FIELD(ptx_line);
}
void fields(Walk& walk, const CompileResult& a, const CompileResult& b) {
    FIELD(ok); FIELD(diagnostics); FIELD(log); FIELD(binary); FIELD(ptx); FIELD(is_cubin); FIELD(arch); FIELD(lowered_names);
    FIELD(options_used); FIELD(compile_ms); FIELD(lookup_ms); FIELD(cache_hit); FIELD(failure);
    FIELD(pch);
}
void fields(Walk& walk, const KernelParam& a, const KernelParam& b) { FIELD(type); FIELD(name); }
void fields(Walk& walk, const KernelDecl& a, const KernelDecl& b) {
    FIELD(name); FIELD(is_template); FIELD(is_extern_c); FIELD(params); FIELD(line); FIELD(scope);
}
void fields(Walk& walk, const InitSpec& a, const InitSpec& b) { FIELD(kind); FIELD(params); FIELD(layout); FIELD(text); }
void fields(Walk& walk, const CheckSpec& a, const CheckSpec& b) {
    FIELD(kind); FIELD(abs); FIELD(rel); FIELD(ulp); FIELD(bound); FIELD(text);
}
void fields(Walk& walk, const BufferSpec& a, const BufferSpec& b) {
    FIELD(name); FIELD(type); FIELD(length); FIELD(shape); FIELD(role); FIELD(init); FIELD(prefill); FIELD(zeros_allowed); FIELD(seed);
    FIELD(check); FIELD(line); FIELD(constant);
}
void fields(Walk& walk, const StructField& a, const StructField& b) { FIELD(name); FIELD(type); FIELD(pointer); FIELD(value); }
void fields(Walk& walk, const StructDecl& a, const StructDecl& b) { FIELD(param); FIELD(type); FIELD(fields); FIELD(line); }
void fields(Walk& walk, const SizeSpec& a, const SizeSpec& b) {
    FIELD(names); FIELD(gpu_default); FIELD(cpu_default); FIELD(test); FIELD(cpu_test); FIELD(gpu_bench); FIELD(cpu_bench); FIELD(derived);
}
void fields(Walk& walk, const CostSpec& a, const CostSpec& b) { FIELD(bytes); FIELD(flops); FIELD(ceiling); FIELD(gemm); }
void fields(Walk& walk, const ReferenceSpec& a, const ReferenceSpec& b) {
    FIELD(kind); FIELD(builtin); FIELD(function); FIELD(file); FIELD(kernel); FIELD(line);
}
void fields(Walk& walk, const Presentation& a, const Presentation& b) { FIELD(output); FIELD(rate); FIELD(coverage); }
void fields(Walk& walk, const CanonicalBinding& a, const CanonicalBinding& b) {
    FIELD(params); FIELD(args); FIELD(launch_dims);
}
void fields(Walk& walk, const TaskSpec& a, const TaskSpec& b) {
    FIELD(name); FIELD(summary); FIELD(builtin); FIELD(sizes); FIELD(buffers); FIELD(cost); FIELD(reference);
    FIELD(presentation); FIELD(extent_1d); FIELD(extent_2d); FIELD(canonical); FIELD(declaration_line);
}
void fields(Walk& walk, const KernelSpec& a, const KernelSpec& b) {
    FIELD(task); FIELD(kernel); FIELD(args); FIELD(launch_dims); FIELD(block); FIELD(grid); FIELD(smem); FIELD(defines);
    FIELD(tolerance); field(walk, "requires", a.requirement, b.requirement); FIELD(annotation_line); FIELD(inferred);
    FIELD(kernels); FIELD(reference_function); FIELD(following); FIELD(arch); FIELD(cluster); FIELD(tensor_maps);
    FIELD(nvrtc_options); FIELD(include_dirs); FIELD(structs); FIELD(cooperative); FIELD(textures);
}
// The swizzle and the element type travel as the swizzle's span in bytes and a tf32 flag.
void fields(Walk& walk, const TensorMapDecl& a, const TensorMapDecl& b) {
    FIELD(name); FIELD(buffer); FIELD(shape); FIELD(box);
    field(walk, "swizzle_bytes", swizzle_span_bytes(a.swizzle), swizzle_span_bytes(b.swizzle));
    field(walk, "tf32", a.element == TmaElement::tf32, b.element == TmaElement::tf32);
    FIELD(line);
}
void fields(Walk& walk, const TextureDecl& a, const TextureDecl& b) {
    FIELD(kind); FIELD(name); FIELD(buffer); FIELD(shape); FIELD(layers); FIELD(channels); FIELD(filter); FIELD(address);
    FIELD(normalized); FIELD(read); FIELD(layout); FIELD(line);
}
void fields(Walk& walk, const FollowingLaunch& a, const FollowingLaunch& b) {
    FIELD(kernel); FIELD(args); FIELD(block); FIELD(grid); FIELD(smem); FIELD(line);
}
void fields(Walk& walk, const FollowingLaunchReport& a, const FollowingLaunchReport& b) { FIELD(kernel); FIELD(launch); }
void fields(Walk& walk, const DeviceLimits& a, const DeviceLimits& b) {
    FIELD(max_threads_per_block); FIELD(max_block_dim); FIELD(max_grid_dim); FIELD(max_smem_per_block);
    FIELD(max_smem_per_block_optin); FIELD(max_regs_per_block); FIELD(warp_size); FIELD(max_cluster_size);
}
void fields(Walk& walk, const DeviceInfo& a, const DeviceInfo& b) {
    FIELD(ordinal); FIELD(name); FIELD(uuid); FIELD(cc_major); FIELD(cc_minor); FIELD(sm_count); FIELD(total_memory);
    FIELD(max_threads_per_sm); FIELD(max_smem_per_sm); FIELD(max_regs_per_sm); FIELD(l2_bytes); FIELD(memory_bus_bits);
    FIELD(memory_clock_khz); FIELD(limits);
}
void fields(Walk& walk, const DriverStatus& a, const DriverStatus& b) {
    FIELD(state); FIELD(message); FIELD(driver_version);
}
void fields(Walk& walk, const EmulatedDeviceStatus& a, const EmulatedDeviceStatus& b) {
    FIELD(available); FIELD(host_compiler); FIELD(problem); FIELD(device);
}
void fields(Walk& walk, const DeviceQuery& a, const DeviceQuery& b) {
    FIELD(driver); FIELD(devices); FIELD(emulated); FIELD(nvrtc_version);
}
void fields(Walk& walk, const ParamLayout& a, const ParamLayout& b) { FIELD(offset); FIELD(size); }
void fields(Walk& walk, const FunctionAttributes& a, const FunctionAttributes& b) {
    FIELD(registers_per_thread); FIELD(static_smem_bytes); FIELD(local_bytes_per_thread); FIELD(const_bytes);
    FIELD(max_threads_per_block); FIELD(ptx_version); FIELD(binary_version); FIELD(params); FIELD(param_types);
}
void fields(Walk& walk, const Occupancy& a, const Occupancy& b) { FIELD(blocks_per_sm); FIELD(fraction); }
void fields(Walk& walk, const Dim3& a, const Dim3& b) { FIELD(x); FIELD(y); FIELD(z); }
void fields(Walk& walk, const LaunchConfig& a, const LaunchConfig& b) {
    FIELD(grid); FIELD(block); FIELD(dynamic_smem); FIELD(auto_grid); FIELD(cluster); FIELD(cooperative);
}
void fields(Walk& walk, const Coverage& a, const Coverage& b) {
    FIELD(threads); FIELD(elements); FIELD(idle_threads); FIELD(uncovered); FIELD(kind);
}
// BoundArgument.storage (the argument's bytes) is deliberately not in the JSON: only the worker, which
// launches with it, needs it; the other fields are what a user is shown.
void fields(Walk& walk, const BoundArgument& a, const BoundArgument& b) {
    FIELD(param); FIELD(binding); FIELD(kind); FIELD(value); FIELD(buffer); FIELD(size); FIELD(tensor_map); FIELD(texture);
}
void fields(Walk& walk, const TimingStats& a, const TimingStats& b) {
    FIELD(count); FIELD(median); FIELD(min); FIELD(max); FIELD(mean); FIELD(stddev);
}
void fields(Walk& walk, const ClockSample& a, const ClockSample& b) {
    FIELD(sm_mhz); FIELD(memory_mhz); FIELD(temperature_c); FIELD(power_w); FIELD(throttle_reasons);
}
void fields(Walk& walk, const TimingConditions& a, const TimingConditions& b) {
    FIELD(recorded); FIELD(why_not); FIELD(before); FIELD(after); FIELD(throttled); FIELD(moved);
}
void fields(Walk& walk, const Ceiling& a, const Ceiling& b) {
    FIELD(kind); FIELD(name); FIELD(gbps); FIELD(gflops); FIELD(ms); FIELD(bytes); FIELD(cached); FIELD(deferred);
}
void fields(Walk& walk, const Metric& a, const Metric& b) { FIELD(name); FIELD(value); }
void fields(Walk& walk, const BadElement& a, const BadElement& b) {
    FIELD(index); FIELD(coords); FIELD(got); FIELD(expected); FIELD(allowed); FIELD(unwritten); FIELD(text);
}
void fields(Walk& walk, const BufferCheck& a, const BufferCheck& b) {
    FIELD(buffer); FIELD(rule); FIELD(checked); FIELD(passed); FIELD(elements); FIELD(over_tolerance); FIELD(unwritten);
    FIELD(nan_inf); FIELD(nondeterministic); FIELD(max_abs_error); FIELD(max_rel_error); FIELD(max_error_ratio);
    FIELD(rel_frobenius_error); FIELD(tolerance); FIELD(first_bad); FIELD(summary);
}
void fields(Walk& walk, const SizeCheck& a, const SizeCheck& b) {
    FIELD(sizes); FIELD(seed); FIELD(passed); FIELD(skipped); FIELD(summary); FIELD(error_code);
}
void fields(Walk& walk, const CheckReport& a, const CheckReport& b) {
    FIELD(passed); FIELD(summary); FIELD(buffers); FIELD(overwritten_inputs); FIELD(input_independent); FIELD(input_independent_at); FIELD(replayed); FIELD(sizes);
    FIELD(metrics); FIELD(first_bad); FIELD(tolerance); FIELD(reference); FIELD(reference_ms); FIELD(reference_cached);
}
// The view's scalars; its arrays travel as blobs (the blob tests below), the series' two numbers flattened.
void fields(Walk& walk, const OutputView& a, const OutputView& b) {
    FIELD(kind); FIELD(buffer); FIELD(width); FIELD(height); FIELD(rows); FIELD(cols); FIELD(step); FIELD(full_view_key); FIELD(channels); FIELD(input_w);
    FIELD(input_h); FIELD(input_identity);
    field(walk, "series_count", a.series.count, b.series.count);
    field(walk, "series_bucket", a.series.bucket, b.series.bucket);
    FIELD(value); FIELD(expected);
}
void fields(Walk& walk, const FaultInfo& a, const FaultInfo& b) {
    FIELD(sticky); FIELD(explanation); FIELD(hint); FIELD(sanitizer_command); FIELD(overrun);
}
void fields(Walk& walk, const InputRequest& a, const InputRequest& b) { FIELD(image_path); FIELD(size); FIELD(seed); }
void fields(Walk& walk, const RunRequest& a, const RunRequest& b) {
    FIELD(kernel_path); FIELD(source); FIELD(inputs); FIELD(block); FIELD(grid); FIELD(smem); FIELD(arg_overrides); FIELD(include_dirs);
    FIELD(init_overrides); FIELD(defines); FIELD(tolerance); FIELD(arch); FIELD(device); FIELD(warmup); FIELD(repeat); FIELD(flush_l2);
    FIELD(measure_ceiling); FIELD(defer_library_ceiling); FIELD(check_test_sizes); FIELD(test_sizes_at_any_size); FIELD(bench_sizes); FIELD(keep_outputs);
    FIELD(view_side); FIELD(progressive); FIELD(known_input); FIELD(rotate_inputs); FIELD(remeasure_ceiling); FIELD(baseline); FIELD(emulate);
    FIELD(emulate_without_gpu); FIELD(thread_order); FIELD(order_seed); FIELD(emulation_workers); FIELD(emulation_timeout_s);
    FIELD(reference_timeout_s); FIELD(emulation_thorough); FIELD(emulation_track); FIELD(who_wrote); FIELD(writer_map); FIELD(emulation_symbol_check);
    FIELD(emulation_sandbox); FIELD(emulation_debug);
}
void fields(Walk& walk, const RaceAccess& a, const RaceAccess& b) {
    FIELD(block); FIELD(thread); FIELD(write); FIELD(atomic); FIELD(is_volatile); FIELD(file); FIELD(line);
}
void fields(Walk& walk, const Race& a, const Race& b) {
    FIELD(space); FIELD(kernel); FIELD(array); FIELD(element); FIELD(first); FIELD(second); FIELD(same_warp); FIELD(same_block); FIELD(conflicts);
}
void fields(Walk& walk, const ElementRef& a, const ElementRef& b) { FIELD(buffer); FIELD(index); }
void fields(Walk& walk, const ElementWriter& a, const ElementWriter& b) {
    FIELD(element); FIELD(written); FIELD(block); FIELD(thread); FIELD(many); FIELD(atomic); FIELD(file); FIELD(line); FIELD(index_story);
}
void fields(Walk& walk, const IndexPart& a, const IndexPart& b) { FIELD(name); FIELD(expression); FIELD(resolved); }
void fields(Walk& walk, const IndexRecipe& a, const IndexRecipe& b) { FIELD(name); FIELD(expression); FIELD(parts); }
void fields(Walk& walk, const WriterSite& a, const WriterSite& b) { FIELD(file); FIELD(line); FIELD(recipe); }
// The map's scalars; its cells travel as a blob (the blob tests below).
void fields(Walk& walk, const WriterMap& a, const WriterMap& b) { FIELD(buffer); FIELD(kernel); FIELD(grid); FIELD(block); FIELD(sites); }
void fields(Walk& walk, const BufferWrites& a, const BufferWrites& b) { FIELD(buffer); FIELD(elements); FIELD(written); FIELD(many); }
void fields(Walk& walk, const GlobalAccess& a, const GlobalAccess& b) { FIELD(requests); FIELD(sectors); FIELD(ideal_sectors); }
void fields(Walk& walk, const SharedAccess& a, const SharedAccess& b) { FIELD(requests); FIELD(wavefronts); FIELD(ideal_wavefronts); }
void fields(Walk& walk, const LineAccess& a, const LineAccess& b) {
    FIELD(file); FIELD(line); FIELD(global_loads); FIELD(global_stores); FIELD(shared_loads); FIELD(shared_stores); FIELD(stall_samples);
}
void fields(Walk& walk, const LineAccessProfile& a, const LineAccessProfile& b) { FIELD(origin); FIELD(kernel); FIELD(lines); }
void fields(Walk& walk, const RunTimes& a, const RunTimes& b) {
    FIELD(compiled_at_ms); FIELD(loaded_at_ms); FIELD(launched_at_ms); FIELD(checked_at_ms); FIELD(partial_at_ms); FIELD(timed_ms); FIELD(further_sizes_ms); FIELD(run_ms);
}
void fields(Walk& walk, const RunReport& a, const RunReport& b) {
    FIELD(stage); FIELD(error); FIELD(error_code); FIELD(fault); FIELD(error_line); FIELD(launch_problems); FIELD(file); FIELD(task); FIELD(kernel);
    FIELD(lowered_name); FIELD(spec); FIELD(sizes); FIELD(values); FIELD(compile); FIELD(device); FIELD(function);
    FIELD(occupancy); FIELD(module_load_ms); FIELD(launch); FIELD(following); FIELD(coverage); FIELD(arguments); FIELD(input_description);
    FIELD(input_identity); FIELD(kernel_ms); FIELD(warmup); FIELD(l2_flushed); FIELD(conditions); FIELD(input_copies); FIELD(h2d_ms); FIELD(inputs_resident);
    FIELD(d2h_ms); FIELD(inputs_ms); FIELD(bytes); FIELD(flops); FIELD(gbps); FIELD(gflops); FIELD(ceiling);
    FIELD(percent_of_ceiling); FIELD(verdict); FIELD(check); FIELD(view); FIELD(emulated); FIELD(thread_order);
    FIELD(thorough); FIELD(tracked); FIELD(races); FIELD(writers); FIELD(writer_map); FIELD(writes); FIELD(line_access); FIELD(host_compile_ms); FIELD(host_compile_cached); FIELD(printf_lines); FIELD(printf_dropped);
    FIELD(warnings); FIELD(partial); FIELD(view_sent_before); FIELD(times);
}
void fields(Walk& walk, const CompileFileRequest& a, const CompileFileRequest& b) {
    FIELD(path); FIELD(source); FIELD(arch); FIELD(want_ptx); FIELD(inspect); FIELD(defines); FIELD(include_dirs);
}
void fields(Walk& walk, const CompileFileResult& a, const CompileFileResult& b) {
    FIELD(compile); FIELD(spec); FIELD(spec_problem); FIELD(input_error);
}

#undef FIELD

// Encodes `original`, decodes it from the JSON text (as the pipe carries it) and compares: the filled
// value must set every field, and the decoded one must equal `expected` (the original, unless the
// codec is meant to drop something).
template <typename T>
T round_trip(const char* name, const T& original, const T& expected) {
    Walk set{Mode::set, name};
    compare(set, original, T{});
    const json encoded = json(original);
    const T decoded = json::parse(encoded.dump()).get<T>();
    Walk same{Mode::same, name, &encoded};
    compare(same, decoded, expected);
    EXPECT_EQ(json(decoded), json(expected)) << name << ": encoding the decoded value gives other JSON";
    return decoded;
}
template <typename T>
T round_trip(const char* name, const T& original) {
    return round_trip(name, original, original);
}

// ---- Distinctive values: every field away from its default, every enum at a later value ----

DeviceInfo device_info(int ordinal) {
    DeviceLimits limits{512, {512, 256, 32}, {int64_t{1} << 40, 4096, 2048}, 40000, 232448, 32768, 16, 8};
    return {ordinal, "NVIDIA H200 (codec test)", "GPU-1234abcd", 9, 1, 132, int64_t{150} << 30, 2048,
            233472,  65536, 52428800, 5120, 2619000, limits};
}

KernelDecl kernel_decl(const std::string& name, int line) {
    return {name, true, true, {{"const float* __restrict__", "x"}, {"int", "n"}}, line, "ns"};
}

TaskSpec task_spec() {
    TaskSpec task;
    task.name = "softmax_rows";
    task.summary = "row-wise softmax, for the codec test";
    task.builtin = true;
    task.sizes = {{"R", "C"}, {4096, 1024}, {33, 65}, {{1, 1}, {3, 1000}}, {{1, 1}, {7, 9}}, {{8192, 8192}}, {{256, 255}}, {{"RC", "R*C"}}};
    BufferSpec buffer;
    buffer.name = "y";
    buffer.type = ElementType::f16;
    buffer.length = "R*C";
    buffer.shape = {"R", "C"};
    buffer.role = BufferRole::inout;
    buffer.init = {InitKind::image, {"0", "2"}, ImageLayout::gray, "image(gray)"};
    buffer.prefill = true;
    buffer.zeros_allowed = true;
    buffer.seed = kBigSeed;
    buffer.check = {CheckKind::bound, "1e-7", "1e-5", "4", "2", "bound:2"};
    buffer.line = 7;
    buffer.constant = true;
    task.buffers = {buffer};
    task.cost = {"8*R*C", "5*R*C", CeilingKind::cublas, {"x", "y", "R", "C"}};
    task.reference = {ReferenceKind::kernel, BuiltinReference::matmul_fp64, "my_reference", "ref.cu", "ref_k<8>", 12};
    task.presentation = {OutputKind::scalar, RateUnit::flops, CoverageKind::per_thread_work};
    task.extent_1d = "R*C";
    task.extent_2d = {"C", "R"};
    task.canonical = {{4, {"x", "y", "R", "C"}, 2}};
    task.declaration_line = 3;
    return task;
}

KernelSpec kernel_spec() {
    KernelSpec spec;
    spec.task = task_spec();
    spec.kernel = "softmax_k<16>";
    spec.args = {"x", "y", "R", "C", "tw=16"};
    spec.launch_dims = 2;
    spec.block = {"16", "16"};
    spec.grid = {"cdiv(C,16)", "cdiv(R,16)"};
    spec.smem = "2*tw*tw*4";
    spec.defines = {{"TW", "16"}, {"FAST", ""}};
    spec.tolerance = 1e-4;
    spec.requirement = "C%4==0 && R>=1";
    spec.annotation_line = 1;
    spec.inferred = {"args from the kernel's parameter names"};
    spec.kernels = {kernel_decl("softmax_k", 9), kernel_decl("helper_k", 20)};
    spec.reference_function = kernel_decl("kplay_reference", 30);
    spec.following = {{"helper_k", {"y", "R"}, {"32"}, {"cdiv(R,32)"}, "128", 3}};
    spec.arch = "sm_90a";
    spec.cluster = {"2", "1", "1"};
    spec.tensor_maps = {{"x_map", "x", {"R", "C"}, {"64", "32"}, TmaSwizzle::bytes64, TmaElement::tf32, 4}};
    spec.nvrtc_options = {"--device-as-default-execution-space", "--maxrregcount=64"};
    spec.include_dirs = {"third_party/cute/include"};
    spec.structs = {{"A", "CSR", {{"rows", "int*", true, "row_ptr+1"}, {"n", "int", false, "R"}}, 5}};
    spec.cooperative = true;
    spec.textures = {{ImageKind::surface, "s", "x", {"R", "C"}, "L", 4, TextureFilter::linear, TextureAddress::mirror, true,
                      TextureRead::normalized_float, TextureLayout::array, 6}};
    return spec;
}

CompileResult compile_result() {
    Diagnostic diagnostic{"k.cu", 12, 5, Severity::remark, "177-D", "variable declared but never used", "  int q;",
                          "detected during instantiation of softmax_k<16>", 577};
    CompileResult result;
    result.ok = true;
    result.diagnostics = {diagnostic};
    result.log = "nvrtc log text";
    result.binary = ".version 9.0 (PTX text)";
    result.ptx = ".version 9.0\n.target sm_90a\n";  // a CUBIN's PTX
    result.is_cubin = true;
    result.arch = "sm_90a";
    result.lowered_names = {{"softmax_k<16>", "_Z9softmax_kILi16EEvPKfPfii"}};
    result.options_used = {"--std=c++17", "-arch=sm_90a"};
    result.compile_ms = 41.5;
    result.lookup_ms = 0.75;
    result.cache_hit = true;
    result.failure = "NVRTC failed without a diagnostic";
    result.pch = PchUse::used;
    return result;
}

BufferCheck buffer_check() {
    BufferCheck check;
    check.buffer = "y";
    check.rule = "|got - ref| <= 2 * bound";
    check.checked = false;
    check.passed = true;
    check.elements = int64_t{5} << 32;
    check.over_tolerance = 3;
    check.unwritten = 2;
    check.nan_inf = 1;
    check.nondeterministic = 4;
    check.max_abs_error = kNaN;  // a NaN among the outputs
    check.max_rel_error = 3.5e-3;
    check.max_error_ratio = kInf;  // an error where none was allowed
    check.rel_frobenius_error = 1.25e-7;
    check.tolerance = 2e-6;
    check.first_bad = {4242, {3, 17}, -kInf, 0.25, 1e-6, true, "y[3][17] = -inf, expected 0.25 (allowed error 1e-06)"};
    check.summary = "FAIL: 3 of 21474836480 elements of 'y'";
    return check;
}

CheckReport check_report() {
    CheckReport check;
    check.passed = true;
    check.summary = "FAIL: y";
    check.buffers = {buffer_check(), buffer_check()};
    check.buffers[1].buffer = "z";
    check.overwritten_inputs = {"x"};
    check.input_independent = {"y"};
    check.input_independent_at = "1000";
    check.replayed = {"z"};
    check.sizes = {{"3x1000", 77, true, true, "skipped: C%4==0 does not hold", ErrorCode::cuda_illegal_address}};
    check.metrics = {{"max_abs_error", kNaN}, {"max_rel_error", -kInf}, {"unwritten", 2}};
    check.first_bad = "y[3][17]";
    check.tolerance = 4e-6;
    check.reference = "host function kplay_reference (sandboxed)";
    check.reference_ms = 12.5;
    check.reference_cached = true;
    return check;
}

OutputView output_view() {
    OutputView view;
    view.kind = OutputKind::matrix;
    view.buffer = "y";
    view.width = 640;
    view.height = 480;
    view.rows = 4800;
    view.cols = 6401;
    view.step = 5;
    view.full_view_key = "4242.7";
    view.output = {0, 1, 2, 250, 255, 128};
    view.map = {0.5f, std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::infinity(), 1e-30f};
    view.series.count = Series::kMaxSeriesEntries + 3;
    view.series.bucket = 2;
    view.series.got_min = {1, 2, 3};
    view.series.got_max = {1.5f, 2.5f, 3.5f};
    view.series.want_min = {-1, -2, -3};
    view.series.want_max = {-0.5f, -1.5f, -2.5f};
    view.series.ratio_max = {0.25f, std::numeric_limits<float>::quiet_NaN(), 1000};
    view.input = {9, 8, 7, 6, 5, 4, 3, 2, 1};
    view.channels = 3;
    view.input_w = 3;
    view.input_h = 1;
    view.input_identity = "image:built-in:3x1";
    view.value = "8387890.5";
    view.expected = "8387879.5";
    return view;
}

RunReport run_report() {
    RunReport report;
    report.stage = Stage::check;
    report.error = "the check failed";
    report.error_code = ErrorCode::out_of_bounds_write;
    report.fault = {true, "an illegal address", "look at the index", "compute-sanitizer kplay-cli run k.cu", true};
    report.error_line = 17;
    report.launch_problems = {"block.x is 2048; the device allows at most 1024 (over by 1024)"};
    report.file = "kernels_src/softmax/k.cu";
    report.task = "softmax_rows";
    report.kernel = "softmax_k<16>";
    report.lowered_name = "_Z9softmax_kILi16EEvPKfPfii";
    report.spec = kernel_spec();
    report.sizes = "4096x1024";
    report.values = {{"R", 4096}, {"C", 1024}, {"RC", int64_t{1} << 42}};
    report.compile = compile_result();
    report.device = device_info(2);
    // Set mode looks at a list's first element, so even the first parameter sits away from offset 0.
    report.function = {40, 2048, 16, 8, 768, 90, 91, {{8, 8}, {16, 8}, {24, 4}}, {"float const*", "float*", "int"}};
    report.occupancy = {3, 0.75};
    report.module_load_ms = 0.5;
    report.launch = {{64, 32, 2}, {16, 16, 4}, 8192, false, {2, 3, 4}, true};
    report.following = {{"helper_k", {{5, 6, 7}, {32, 2, 3}, 256, false, {5, 3, 7}, true}}};
    report.coverage = {int64_t{1} << 33, 99, 5, 7, CoverageKind::per_thread_work};
    BoundArgument argument{"x", "x", "pointer", "x", 2, {1, 2, 3, 4, 5, 6, 7, 8}, 8, 3, 5};
    report.arguments = {argument};
    report.input_description = "normal(0,1), seed 7";
    report.input_identity = "inputs:abc123";
    report.kernel_ms = {20, 1.5, 1.25, 2.75, 1.625, 0.125};
    report.warmup = 4;
    report.l2_flushed = true;
    report.conditions = {true, "a reading", {1980, 3201, 34, 142.5, 0x4}, {1755, 3201, 61, 690.25, 0x20}, {"software thermal slowdown"}, true};
    report.input_copies = 3;
    report.h2d_ms = 0.25;
    report.inputs_resident = true;
    report.d2h_ms = 0.375;
    report.inputs_ms = 7.5;
    report.bytes = 3.2e10;
    report.flops = 2.1e10;
    report.gbps = 2133.3;
    report.gflops = 1400.7;
    report.ceiling = {CeilingKind::cublas, "cuBLAS fp32", 4800.5, 51000.25, 2.5, 1e9, true, true};
    report.percent_of_ceiling = 2.75;
    report.verdict = "compute-bound: 3% of cuBLAS fp32";
    report.check = check_report();
    report.view = output_view();
    report.emulated = true;
    report.thread_order = ThreadOrder::random;
    report.thorough = true;
    report.tracked = true;
    Race race;
    race.space = RaceSpace::global;
    race.kernel = "histogram";
    race.array = "bins";
    race.element = 7;
    race.first = {{5, 2, 3}, {4, 5, 6}, true, true, true, "races/04.cu", 18};
    race.second = {{2, 3, 4}, {5, 6, 7}, true, true, true, "races/05.cu", 19};
    race.same_warp = true;
    race.same_block = false;
    race.conflicts = 41;
    report.races = {race};
    ElementWriter writer;
    writer.element = {"out", 1000};
    writer.written = true;
    writer.block = {3, 2, 2};
    writer.thread = {232, 2, 2};
    writer.many = true;
    writer.atomic = true;
    writer.file = "grayscale/01_seed_1d.cu";
    writer.line = 13;
    writer.index_story = "i = blockIdx.x*blockDim.x + threadIdx.x = 3*256 + 232";
    report.writers = {writer};
    report.writer_map.buffer = "out";
    report.writer_map.kernel = "rgb_to_gray";
    report.writer_map.grid = {5, 2, 3};
    report.writer_map.block = {16, 8, 2};
    report.writer_map.cells = {{7, 1, WriterCell::kMany, 0}, {0, 0, 0, 0}, {4000000000u, 65535, WriterCell::kAtomic, 0}};
    report.writer_map.sites = {{"grayscale/02_seed_2d.cu", 17, {"i", "r*w + c", {{"c", "blockIdx.x*blockDim.x+tc", "blockIdx.x*blockDim.x+(threadIdx.x)"}}}}, {"a.cu", 3, {"", ""}}};
    report.writes = {{"out", 1024, 1000, 3}};
    LineAccess line;
    line.file = "transpose/01_naive.cu";
    line.line = 27;
    line.global_loads = {8, 32, 32};
    line.global_stores = {8, 256, 32};
    line.shared_loads = {4, 128, 4};
    line.shared_stores = {4, 4, 4};
    line.stall_samples = 17;
    report.line_access = {{LineAccessOrigin::emulated_device, "transpose_naive", {line}}};
    report.host_compile_ms = 812.5;
    report.host_compile_cached = true;
    report.printf_lines = {"[block (0,0,0) thread (1,0,0)] hello"};
    report.printf_dropped = size_t{12345678901};
    report.warnings = {"threads met at different barriers"};
    report.partial = true;
    report.view_sent_before = true;
    report.times = {1.5, 1.75, 2.25, 2.75, 3.25, 4.5, 12.75, 40.125};
    return report;
}

RunRequest run_request() {
    RunRequest request;
    request.kernel_path = "kernels_src/matmul/05_vectorized_loads.cu";
    request.source = "// kplay: task=matmul\n__global__ void k() {}\n";
    request.inputs = {"photo.png", "M=1000,N=999,K=1001", kBigSeed};
    request.block = std::vector<int64_t>{32, 8, 1};
    request.grid = std::vector<int64_t>{7, 8, 9};
    request.smem = 4096;
    request.arg_overrides = {{"tw", "32"}};
    request.init_overrides = {{"x", "randint(0,255)"}};
    request.defines = {{"TW", "32"}, {"USE_X", ""}};
    request.include_dirs = {"/home/me/cutlass/include"};
    request.tolerance = 1e-3;
    request.arch = "sm_90a";
    request.device = 2;
    request.warmup = 7;
    request.repeat = 33;
    request.flush_l2 = false;
    request.measure_ceiling = false;
    request.defer_library_ceiling = true;
    request.check_test_sizes = false;
    request.test_sizes_at_any_size = true;
    request.bench_sizes = true;
    request.keep_outputs = true;
    request.view_side = 512;
    request.progressive = true;
    request.known_input = "image:built-in";
    request.rotate_inputs = true;
    request.remeasure_ceiling = true;
    request.baseline = Baseline::cublas_tf32;
    request.emulate = true;
    request.emulate_without_gpu = false;
    request.thread_order = ThreadOrder::reverse;
    request.order_seed = kBigSeed - 1;
    request.emulation_workers = 3;
    request.emulation_timeout_s = 2.5;
    request.reference_timeout_s = 45.5;
    request.emulation_thorough = true;
    request.emulation_track = false;
    request.who_wrote = {{"out", 13}};
    request.writer_map = "gray";
    request.emulation_symbol_check = false;
    request.emulation_sandbox = false;
    request.emulation_debug = true;
    return request;
}

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
    return a.size() == b.size() && (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

void expect_same_arrays(const OutputView& got, const OutputView& want) {
    EXPECT_EQ(got.output, want.output);
    EXPECT_EQ(got.input, want.input);
    EXPECT_TRUE(same_floats(got.map, want.map)) << "view.map";  // bit for bit: the NaN of an unwritten element included
    EXPECT_TRUE(same_floats(got.series.got_min, want.series.got_min)) << "series.got_min";
    EXPECT_TRUE(same_floats(got.series.got_max, want.series.got_max)) << "series.got_max";
    EXPECT_TRUE(same_floats(got.series.want_min, want.series.want_min)) << "series.want_min";
    EXPECT_TRUE(same_floats(got.series.want_max, want.series.want_max)) << "series.want_max";
    EXPECT_TRUE(same_floats(got.series.ratio_max, want.series.ratio_max)) << "series.ratio_max";
}

void expect_same_cells(const WriterMap& got, const WriterMap& want) {
    ASSERT_EQ(got.cells.size(), want.cells.size());
    EXPECT_EQ(std::memcmp(got.cells.data(), want.cells.data(), got.cells.size() * sizeof(WriterCell)), 0);
}

}  // namespace

TEST(Codec, RunRequestRoundTripsEveryField) {
    const RunRequest decoded = round_trip("RunRequest", run_request());
    EXPECT_EQ(decoded.order_seed, kBigSeed - 1);
    EXPECT_EQ(decoded.inputs.size, "M=1000,N=999,K=1001");
}

TEST(Codec, RunRequestKeepsAnAutoGridApartFromTheSpecsGrid) {
    RunRequest request;
    request.grid = std::vector<int64_t>{};  // the user chose auto, over the file's grid
    const RunRequest decoded = json::parse(json(request).dump()).get<RunRequest>();
    ASSERT_TRUE(decoded.grid.has_value());
    EXPECT_TRUE(decoded.grid->empty());
    EXPECT_FALSE(decoded.block.has_value());
    EXPECT_FALSE(decoded.source.has_value());
}

TEST(Codec, RunReportRoundTripsEveryField) {
    const RunReport decoded = round_trip("RunReport", run_report());
    EXPECT_TRUE(std::isinf(decoded.check.buffers[0].max_error_ratio) && decoded.check.buffers[0].max_error_ratio > 0);
    EXPECT_TRUE(std::isnan(decoded.check.buffers[0].max_abs_error));
    EXPECT_TRUE(std::isnan(decoded.check.metrics[0].value));
    EXPECT_EQ(decoded.check.metrics[1].value, -kInf);
    EXPECT_EQ(decoded.check.buffers[0].first_bad.got, -kInf);
    EXPECT_EQ(decoded.spec->task.buffers[0].seed, kBigSeed);
    EXPECT_EQ(decoded.ceiling.kind, CeilingKind::cublas);
    EXPECT_TRUE(decoded.ceiling.deferred);
    EXPECT_EQ(decoded.printf_dropped, size_t{12345678901});
    // The arrays are blobs: the JSON leaves them out, and the bound argument's bytes stay in the worker.
    EXPECT_TRUE(decoded.view.empty());
    EXPECT_EQ(decoded.arguments[0].storage[0], 0);
}

TEST(Codec, CompileFileRequestRoundTripsEveryField) {
    CompileFileRequest request;
    request.path = "kernels_src/grayscale/01_seed_1d.cu";
    request.source = "__global__ void k() {}";
    request.arch = "compute_90";
    request.want_ptx = true;
    request.inspect = true;
    request.defines = {{"BLOCK", "256"}};
    request.include_dirs = {"include"};
    round_trip("CompileFileRequest", request);
}

TEST(Codec, CompileFileResultRoundTripsEveryFieldButACubinsBytes) {
    CompileFileResult result;
    result.compile = compile_result();
    result.compile.binary = std::string("\x7f" "ELF\x02\x01\x01", 7);
    result.spec = kernel_spec();
    result.spec_problem = "name expressions were left out";
    result.input_error = "cannot read the file";
    // A CUBIN is bytes, not JSON text: it is dropped on the way, and everything else arrives.
    CompileFileResult expected = result;
    expected.compile.binary.clear();
    round_trip("CompileFileResult", result, expected);

    CompileFileResult ptx = result;
    ptx.compile.is_cubin = false;
    ptx.compile.binary = ".version 9.0\n.target sm_90\n";
    EXPECT_EQ(json::parse(json(ptx).dump()).get<CompileFileResult>().compile.binary, ptx.compile.binary);
}

TEST(Codec, DeviceQueryRoundTripsEveryField) {
    DeviceQuery query;
    query.driver = {DriverStatus::State::init_failed, "cuInit failed: CUDA_ERROR_NO_DEVICE", 13000};
    query.devices = {device_info(1), device_info(2)};  // not 0: set mode must tell the first from a default
    query.emulated = {true, "g++ (Debian 12.2.0-14) 12.2.0", "none, really", device_info(-1)};
    query.nvrtc_version = "13.0";
    const DeviceQuery decoded = round_trip("DeviceQuery", query);
    EXPECT_EQ(decoded.devices[1].ordinal, 2);
    EXPECT_EQ(decoded.devices[1].limits.max_grid_dim[0], int64_t{1} << 40);
}

TEST(Codec, KernelSpecRoundTripsEveryField) {
    const KernelSpec decoded = round_trip("KernelSpec", kernel_spec());
    EXPECT_EQ(decoded.requirement, "C%4==0 && R>=1");
    EXPECT_EQ(decoded.task.presentation.output, OutputKind::scalar);
}

TEST(Codec, AnUnknownEnumNameIsAnErrorNotADefault) {
    json encoded = json(run_request());
    encoded["baseline"] = "cublas-fp64";
    EXPECT_THROW(encoded.get<RunRequest>(), json::exception);
}

TEST(ReportBlobs, CarryEveryArrayOfTheView) {
    const RunReport original = run_report();
    ReportBlobs blobs = make_report_blobs(original);
    EXPECT_EQ(blobs.fds.size(), 9u);  // output, input, map, the five series arrays and the writer cells
    EXPECT_EQ(blobs.list.size(), blobs.fds.size());
    RunReport received;
    read_report_blobs(blobs.list, blobs.fds, received);
    expect_same_arrays(received.view, original.view);
    expect_same_cells(received.writer_map, original.writer_map);
}

TEST(ReportBlobs, EmptyArraysSendNothing) {
    RunReport report;
    report.view.series.got_min = {1, 2};
    report.view.series.want_min = {1, 2};
    ReportBlobs blobs = make_report_blobs(report);
    ASSERT_EQ(blobs.fds.size(), 2u);
    RunReport received;
    read_report_blobs(blobs.list, blobs.fds, received);
    expect_same_arrays(received.view, report.view);
    EXPECT_FALSE(received.view.empty());
}

TEST(ReportBlobs, RejectAnUnknownNameACountMismatchAndPartFloats) {
    const RunReport original = run_report();
    {
        ReportBlobs blobs = make_report_blobs(original);
        blobs.list[0][protocol_field::name] = "view.nonsense";
        RunReport received;
        EXPECT_THROW(read_report_blobs(blobs.list, blobs.fds, received), ProtocolError);
    }
    {
        ReportBlobs blobs = make_report_blobs(original);
        blobs.fds.pop_back();  // a descriptor lost on the way
        RunReport received;
        EXPECT_THROW(read_report_blobs(blobs.list, blobs.fds, received), ProtocolError);
    }
    {
        ReportBlobs blobs = make_report_blobs(original);
        blobs.list.push_back(blobs.list[0]);  // announced, never attached
        RunReport received;
        EXPECT_THROW(read_report_blobs(blobs.list, blobs.fds, received), ProtocolError);
    }
    {
        ReportBlobs blobs = make_report_blobs(original);
        for (auto& entry : blobs.list)
            if (entry[protocol_field::name] == "view.map") entry[protocol_field::size] = 3;  // not a whole float
        RunReport received;
        EXPECT_THROW(read_report_blobs(blobs.list, blobs.fds, received), ProtocolError);
    }
    {
        ReportBlobs blobs = make_report_blobs(original);
        for (auto& entry : blobs.list)
            if (entry[protocol_field::name] == "writers.cells") entry[protocol_field::size] = 12;  // a cell and a half
        RunReport received;
        EXPECT_THROW(read_report_blobs(blobs.list, blobs.fds, received), ProtocolError);
    }
}

// Found by tests/fuzz (fuzz_protocol): a float where an integer field belongs (1e300 as the device) was
// cast with undefined behaviour; it is a decoding error now, and the values kplay sends still decode.
TEST(Codec, AFloatInAnIntegerFieldIsAnError) {
    nlohmann::json request = RunRequest{};
    request["device"] = 1e300;
    EXPECT_THROW(request.get<RunRequest>(), nlohmann::json::type_error);
    nlohmann::json report = RunReport{};
    report["values"] = {{"n", -1e300}};
    EXPECT_THROW(report.get<RunReport>(), nlohmann::json::type_error);
    report["values"] = {{"n", 7}};
    report["launch"]["grid"]["x"] = 2.5;
    EXPECT_THROW(report.get<RunReport>(), nlohmann::json::type_error);
    nlohmann::json deep = RunRequest{};
    for (int i = 0; i < 100; ++i) deep["arch_extra"] = nlohmann::json::array({deep["arch_extra"]});
    EXPECT_THROW(deep.get<RunRequest>(), nlohmann::json::type_error);
    RunReport reals;
    reals.flops = 1e15;
    reals.bytes = -3.5;
    reals.kernel_ms.median = 1e300;
    EXPECT_EQ(nlohmann::json(reals).get<RunReport>().flops, 1e15);
}
