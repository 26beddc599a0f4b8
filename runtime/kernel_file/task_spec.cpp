// Names and small queries of the task model.
#include "kernel_file/task_spec.hpp"

#include <limits>

#include "base/enum_names.hpp"

namespace kplay {

namespace {

constexpr EnumNames<ElementType, 11> kTypes{{{ElementType::u8, "u8"},
                                             {ElementType::i8, "i8"},
                                             {ElementType::i32, "i32"},
                                             {ElementType::u32, "u32"},
                                             {ElementType::i64, "i64"},
                                             {ElementType::f16, "f16"},
                                             {ElementType::bf16, "bf16"},
                                             {ElementType::fp8_e4m3, "fp8_e4m3"},
                                             {ElementType::fp8_e5m2, "fp8_e5m2"},
                                             {ElementType::f32, "f32"},
                                             {ElementType::f64, "f64"}}};
constexpr EnumNames<BufferRole, 4> kRoles{
    {{BufferRole::in, "in"}, {BufferRole::out, "out"}, {BufferRole::inout, "inout"}, {BufferRole::scratch, "scratch"}}};
constexpr EnumNames<InitKind, 6> kInits{{{InitKind::uniform, "uniform"},
                                         {InitKind::normal, "normal"},
                                         {InitKind::randint, "randint"},
                                         {InitKind::iota, "iota"},
                                         {InitKind::constant, "constant"},
                                         {InitKind::image, "image"}}};
constexpr EnumNames<ImageLayout, 4> kLayouts{
    {{ImageLayout::planar, "planar"}, {ImageLayout::interleaved, "interleaved"}, {ImageLayout::gray, "gray"}, {ImageLayout::rgba, "rgba"}}};
constexpr EnumNames<CheckKind, 5> kChecks{{{CheckKind::exact, "exact"},
                                           {CheckKind::tolerance, "tolerance"},
                                           {CheckKind::ulp, "ulp"},
                                           {CheckKind::bound, "bound"},
                                           {CheckKind::none, "none"}}};
constexpr EnumNames<CeilingKind, 4> kCeilings{
    {{CeilingKind::copy, "copy"}, {CeilingKind::read_only, "read-only"}, {CeilingKind::cublas, "cublas"}, {CeilingKind::none, "none"}}};
constexpr EnumNames<ReferenceKind, 3> kReferences{{{ReferenceKind::builtin, "builtin"}, {ReferenceKind::host, "host"}, {ReferenceKind::kernel, "kernel"}}};
constexpr EnumNames<BuiltinReference, 3> kBuiltins{{{BuiltinReference::none, "none"},
                                                    {BuiltinReference::grayscale_seed, "grayscale_seed"},
                                                    {BuiltinReference::matmul_fp64, "matmul_fp64"}}};
constexpr EnumNames<OutputKind, 5> kOutputs{{{OutputKind::image, "image"},
                                             {OutputKind::matrix, "matrix"},
                                             {OutputKind::series, "series"},
                                             {OutputKind::scalar, "scalar"},
                                             {OutputKind::bars, "bars"}}};
constexpr EnumNames<RateUnit, 2> kRates{{{RateUnit::bytes, "bytes"}, {RateUnit::flops, "flops"}}};
constexpr EnumNames<CoverageKind, 2> kCoverages{{{CoverageKind::per_element, "per-element"}, {CoverageKind::per_thread_work, "per-thread"}}};

template <typename Enum>
constexpr const auto& table();
template <> constexpr const auto& table<ElementType>() { return kTypes; }
template <> constexpr const auto& table<BufferRole>() { return kRoles; }
template <> constexpr const auto& table<InitKind>() { return kInits; }
template <> constexpr const auto& table<ImageLayout>() { return kLayouts; }
template <> constexpr const auto& table<CheckKind>() { return kChecks; }
template <> constexpr const auto& table<CeilingKind>() { return kCeilings; }
template <> constexpr const auto& table<ReferenceKind>() { return kReferences; }
template <> constexpr const auto& table<BuiltinReference>() { return kBuiltins; }
template <> constexpr const auto& table<OutputKind>() { return kOutputs; }
template <> constexpr const auto& table<RateUnit>() { return kRates; }
template <> constexpr const auto& table<CoverageKind>() { return kCoverages; }

}  // namespace

template <typename Enum>
const char* spec_name(Enum value) {
    return enum_name(table<Enum>(), value);
}
template <typename Enum>
std::optional<Enum> parse_spec_name(std::string_view text) {
    return enum_value(table<Enum>(), text);
}
template <typename Enum>
std::string spec_names() {
    return enum_name_list(table<Enum>());
}

#define KPLAY_SPEC_ENUM(Enum)                                          \
    template const char* spec_name<Enum>(Enum);                        \
    template std::optional<Enum> parse_spec_name<Enum>(std::string_view); \
    template std::string spec_names<Enum>();
KPLAY_SPEC_ENUM(ElementType)
KPLAY_SPEC_ENUM(BufferRole)
KPLAY_SPEC_ENUM(InitKind)
KPLAY_SPEC_ENUM(ImageLayout)
KPLAY_SPEC_ENUM(CheckKind)
KPLAY_SPEC_ENUM(CeilingKind)
KPLAY_SPEC_ENUM(ReferenceKind)
KPLAY_SPEC_ENUM(BuiltinReference)
KPLAY_SPEC_ENUM(OutputKind)
KPLAY_SPEC_ENUM(RateUnit)
KPLAY_SPEC_ENUM(CoverageKind)
#undef KPLAY_SPEC_ENUM

size_t element_size(ElementType type) {
    switch (type) {
        case ElementType::u8:
        case ElementType::i8:
        case ElementType::fp8_e4m3:
        case ElementType::fp8_e5m2: return 1;
        case ElementType::f16:
        case ElementType::bf16: return 2;
        case ElementType::i32:
        case ElementType::u32:
        case ElementType::f32: return 4;
        case ElementType::i64:
        case ElementType::f64: return 8;
    }
    return 1;
}

std::optional<double> non_finite_init(std::string_view text) {
    if (text == "inf" || text == "+inf" || text == "infinity") return std::numeric_limits<double>::infinity();
    if (text == "-inf" || text == "-infinity") return -std::numeric_limits<double>::infinity();
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    return std::nullopt;
}

bool is_floating(ElementType type) {
    switch (type) {
        case ElementType::u8:
        case ElementType::i8:
        case ElementType::i32:
        case ElementType::u32:
        case ElementType::i64: return false;
        default: return true;
    }
}

const BufferSpec* TaskSpec::find_buffer(std::string_view name) const {
    for (const auto& buffer : buffers)
        if (buffer.name == name) return &buffer;
    return nullptr;
}

GemmTypes TaskSpec::gemm_types() const {
    GemmTypes types;
    if (cost.gemm.size() < 3) return types;
    if (const BufferSpec* a = find_buffer(cost.gemm[0])) types.input = a->type;
    if (const BufferSpec* c = find_buffer(cost.gemm[2])) types.output = c->type;
    return types;
}

const BufferSpec* TaskSpec::primary_output() const {
    for (const auto& buffer : buffers)
        if (buffer.is_output() && buffer.check.kind != CheckKind::none) return &buffer;
    return nullptr;
}

bool TaskSpec::has_image_input() const { return image_input() != nullptr; }

const BufferSpec* TaskSpec::image_input() const {
    for (const auto& buffer : buffers)
        if (buffer.is_input() && buffer.init.kind == InitKind::image) return &buffer;
    return nullptr;
}

double TaskSpec::image_white(const BufferSpec& out) const {
    const BufferSpec* image = image_input();
    if (!is_floating(out.type) || !image) return 255;
    return kplay::image_white(image->init, image->type);
}

double image_white(const InitSpec& init, ElementType type) {
    if (!is_floating(type)) return 255;
    return !init.params.empty() && init.params[0] == "255" ? 255 : 1;
}

}  // namespace kplay
