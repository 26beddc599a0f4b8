// One output buffer against its reference: the verdict (BufferCheck) and the window's picture of it
// (OutputView). Both read every element through one ElementComparer, so the summary and the heatmap can
// never disagree about which elements are wrong, never written, or different between two launches.
#include "tasks/buffer_check.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "base/error.hpp"
#include "base/text.hpp"
#include "tasks/narrow_float.hpp"
#include "tasks/task_inputs.hpp"

namespace kplay {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr int64_t kMaxMapSide = 1024;

// ---- The rule, with its numbers evaluated

using Rule = CheckRule;

std::string number_text(double value, const char* format = "%.6g") {
    char text[48];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

double rule_number(const BufferSpec& spec, const char* term, const std::string& expression, double fallback,
                   const NamedValues& values) {
    if (trim(expression).empty()) return fallback;
    double value = 0;
    try {
        value = evaluate_real_expr(expression, values);
    } catch (const InputError& error) {
        throw InputError("check of '" + spec.name + "' (" + spec.check.text + "): " + term + " '" + expression +
                         "': " + error.what());
    }
    if (value < 0)
        throw InputError("check of '" + spec.name + "' (" + spec.check.text + "): " + term + " '" + expression + "' is " +
                         number_text(value) + "; an allowed error cannot be negative");
    return value;
}

// Which number of a tolerance leads (is replaced by an override, sets the colour scale): the first term
// as written, or rel when only rel is given.
bool rel_leads(const CheckSpec& check) {
    return trim(check.text).rfind("rel", 0) == 0 || (trim(check.abs).empty() && !trim(check.rel).empty());
}

std::string rule_text(const Rule& rule) {
    switch (rule.kind) {
        case CheckKind::exact: return "exact";
        case CheckKind::ulp: return "within " + number_text(rule.ulp) + " ulp";
        case CheckKind::bound: return "|got - ref| <= " + number_text(rule.bound) + " x the reference's error bound";
        case CheckKind::none: return "not checked";
        case CheckKind::tolerance: break;
    }
    std::vector<std::string> terms;
    if (rule.abs != 0) terms.push_back(number_text(rule.abs));
    if (rule.rel != 0) terms.push_back(number_text(rule.rel) + " |ref|");
    if (terms.empty()) terms.push_back("0");
    return "|got - ref| <= " + join(terms, " + ");
}

}  // namespace

CheckRule check_rule(const BufferCheckInput& input) {
    const BufferSpec& spec = *input.spec;
    const CheckSpec& check = spec.check;
    const auto& override_value = input.tolerance_override;
    if (override_value && *override_value < 0)
        throw InputError("tolerance " + number_text(*override_value) + " for '" + spec.name + "' is negative: give 0 or more");
    Rule rule;
    rule.kind = check.kind;
    switch (check.kind) {
        case CheckKind::exact:
            if (override_value) {
                rule.kind = CheckKind::tolerance;
                rule.abs = rule.leading = *override_value;
            }
            break;
        case CheckKind::tolerance: {
            rule.abs = rule_number(spec, "abs", check.abs, 0, input.values);
            rule.rel = rule_number(spec, "rel", check.rel, 0, input.values);
            double& leading = rel_leads(check) ? rule.rel : rule.abs;
            if (override_value) leading = *override_value;
            rule.leading = leading;
            break;
        }
        case CheckKind::ulp:
            rule.ulp = rule.leading = override_value ? *override_value : rule_number(spec, "ulp", check.ulp, 0, input.values);
            break;
        case CheckKind::bound:
            rule.bound = rule.leading =
                override_value ? *override_value : rule_number(spec, "bound", check.bound, 1, input.values);
            break;
        case CheckKind::none: break;
    }
    rule.text = rule_text(rule);
    return rule;
}

namespace {

// ---- Elements

struct ElementResult {
    double got = 0, ref = 0, first = 0;  // got is NaN when never written; first: the first launch's value
    double allowed = 0;                  // in the buffer's units (ulp: that many units at ref)
    double ratio = 0;                    // error / allowed; NaN: never written or not finite
    bool passed = true;
    bool unwritten = false;
    bool nondeterministic = false;
    // Floats that differ between the two launches but are both within tolerance: the order of atomic
    // additions (a reduction, a split-K GEMM) legitimately varies. Counted, not failed.
    bool tolerated_variation = false;
    bool nan_inf = false;  // NaN or Inf where the reference is finite
    bool finite = false;   // written, got and ref finite: counts in the error statistics
    bool failed() const { return !passed || (nondeterministic && !tolerated_variation); }
};

double error_ratio(double error, double allowed) {
    if (error == 0) return 0;
    return allowed == 0 ? kInf : error / allowed;
}

// Bit patterns of a float type mapped onto one ordered integer line, so neighbours differ by one.
int64_t ordered_bits(uint64_t bits, size_t size) {
    const uint64_t sign = uint64_t{1} << (8 * size - 1);
    const auto magnitude = static_cast<int64_t>(bits & (sign - 1));
    return (bits & sign) ? -magnitude : magnitude;
}

uint64_t ulp_distance(uint64_t a, uint64_t b, size_t size) {
    const int64_t x = ordered_bits(a, size), y = ordered_bits(b, size);
    // Unsigned subtraction: the distance fits 64 bits even when the signed difference would not.
    return x >= y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y) : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
}

// Reads the three versions of a buffer (first launch, final launch, reference) element by element and
// judges each by the rule. One instance per buffer; compare() is all the per-element logic there is.
class ElementComparer {
public:
    explicit ElementComparer(const BufferCheckInput& input)
        : type_(input.spec->type), size_(element_size(type_)), count_(input.final->count), rule_(check_rule(input)) {
        final_ = input.final->data.data();
        expected_ = input.expected->data();
        if (input.first && !input.first->data.empty()) first_ = input.first->data.data();
        if (rule_.kind == CheckKind::bound) bound_ = input.bound->data();
        // Each launch's copy says which poison it was filled with.
        const uint32_t words[2] = {first_ ? input.first->poison[0] : 0u, input.final->poison[1]};
        for (size_t launch = 0; launch < 2; ++launch)
            for (size_t parity = 0; parity < 2; ++parity) poison_[launch][parity] = poison_element_bits(words[launch], size_, parity);
    }

    size_t count() const { return count_; }
    const Rule& rule() const { return rule_; }
    double reference(size_t i) const { return value(load(expected_, i)); }

    ElementResult compare(size_t i) const {
        ElementResult e;
        const uint64_t got_bits = load(final_, i), ref_bits = load(expected_, i);
        e.got = value(got_bits);
        e.ref = value(ref_bits);
        if (first_) {
            const uint64_t first_bits = load(first_, i);
            e.first = value(first_bits);
            e.unwritten = first_bits == poison_[0][i & 1] && got_bits == poison_[1][i & 1];
            e.nondeterministic = !e.unwritten && first_bits != got_bits && !(std::isnan(e.first) && std::isnan(e.got));
        }
        if (e.unwritten) return fail(e, kNaN, /*nan_inf=*/false, /*got=*/kNaN);
        if (!std::isfinite(e.ref)) return judge_special(e);
        if (!std::isfinite(e.got)) return fail(e, kNaN, /*nan_inf=*/true, e.got);
        e.finite = true;
        const double error = std::fabs(e.got - e.ref);
        e.allowed = allowed(i, e.ref, ref_bits);
        if (rule_.kind == CheckKind::ulp && is_floating(type_)) {
            const auto units = static_cast<double>(ulp_distance(got_bits, ref_bits, size_));
            e.passed = units <= rule_.ulp;
            e.ratio = error_ratio(units, rule_.ulp);
        } else if (rule_.kind == CheckKind::exact && !is_floating(type_)) {
            e.passed = got_bits == ref_bits;  // i64 beyond 2^53 differs in bits a double rounds away
            e.ratio = e.passed ? 0 : kInf;
        } else {
            e.passed = error <= e.allowed;
            e.ratio = error_ratio(error, e.allowed);
        }
        if (e.nondeterministic && e.passed && is_floating(type_) && rule_.kind != CheckKind::exact && std::isfinite(e.first))
            e.tolerated_variation = rule_.kind == CheckKind::ulp
                                        ? static_cast<double>(ulp_distance(load(first_, i), ref_bits, size_)) <= rule_.ulp
                                        : std::fabs(e.first - e.ref) <= e.allowed;
        return e;
    }

private:
    static ElementResult fail(ElementResult e, double ratio, bool nan_inf, double got) {
        e.passed = false;
        e.ratio = ratio;
        e.nan_inf = nan_inf;
        e.got = got;
        return e;
    }

    // A NaN reference asks for a NaN, an infinite one for the same infinity.
    static ElementResult judge_special(ElementResult e) {
        e.passed = std::isnan(e.ref) ? std::isnan(e.got) : e.got == e.ref;
        e.ratio = e.passed ? 0 : (std::isfinite(e.got) ? kInf : kNaN);
        return e;
    }

    double allowed(size_t i, double ref, uint64_t ref_bits) const {
        switch (rule_.kind) {
            case CheckKind::tolerance: return rule_.abs + rule_.rel * std::fabs(ref);
            case CheckKind::ulp: return is_floating(type_) ? rule_.ulp * unit_in_last_place(ref_bits) : rule_.ulp;
            // The tiny floor lets an exact zero pass where the bound itself is zero.
            case CheckKind::bound: return rule_.bound * bound_[i] + 1e-30;
            default: return 0;
        }
    }

    // The spacing of the type's values at |ref|: the gap to the next one up (down, at the largest finite).
    double unit_in_last_place(uint64_t ref_bits) const {
        const uint64_t magnitude = ref_bits & ((uint64_t{1} << (8 * size_ - 1)) - 1);
        const double here = value(magnitude), up = value(magnitude + 1);
        return std::isfinite(up) ? up - here : here - value(magnitude - 1);
    }

    // The element's bytes as an integer, little-endian like the device wrote them.
    uint64_t load(const unsigned char* data, size_t i) const {
        switch (size_) {
            case 1: return data[i];
            case 2: return load_as<uint16_t>(data, i);
            case 4: return load_as<uint32_t>(data, i);
            default: return load_as<uint64_t>(data, i);
        }
    }

    template <typename T>
    static uint64_t load_as(const unsigned char* data, size_t i) {
        T bits;
        std::memcpy(&bits, data + i * sizeof(T), sizeof(T));
        return bits;
    }

    double value(uint64_t bits) const {
        switch (type_) {
            case ElementType::u8:
            case ElementType::u32: return static_cast<double>(bits);
            case ElementType::i32: return static_cast<int32_t>(static_cast<uint32_t>(bits));
            case ElementType::f16: return half_to_float(static_cast<uint16_t>(bits));
            case ElementType::f32: return std::bit_cast<float>(static_cast<uint32_t>(bits));
            case ElementType::f64: return std::bit_cast<double>(bits);
            case ElementType::i8: return static_cast<int8_t>(static_cast<uint8_t>(bits));
            case ElementType::i64: return static_cast<double>(static_cast<int64_t>(bits));
            case ElementType::bf16:
            case ElementType::fp8_e4m3:
            case ElementType::fp8_e5m2: return decode_narrow(type_, static_cast<uint32_t>(bits));
        }
        return 0;
    }

    ElementType type_;
    size_t size_;
    size_t count_;
    Rule rule_;
    const unsigned char* first_ = nullptr;
    const unsigned char* final_ = nullptr;
    const unsigned char* expected_ = nullptr;
    const double* bound_ = nullptr;
    uint64_t poison_[2][2] = {};
};

}  // namespace

void validate_check_input(const BufferCheckInput& input) {
    if (!input.spec || !input.final || !input.expected)
        throw std::invalid_argument("check_buffer needs the buffer's spec, its final content and the reference");
    const std::string& name = input.spec->name;
    const size_t bytes = input.final->count * element_size(input.spec->type);
    if (input.final->type != input.spec->type || (!input.bytes_on_device && input.final->data.size() != bytes))
        throw InputError("output '" + name + "' holds " + std::to_string(input.final->data.size()) + " bytes, but " +
                         std::to_string(input.final->count) + " elements of " + element_type_name(input.spec->type) + " take " +
                         std::to_string(bytes));
    if (input.expected->size() != bytes)
        throw InputError("the reference gave " + std::to_string(input.expected->size()) + " bytes for '" + name +
                         "', but the buffer takes " + std::to_string(bytes));
    if (input.first && !input.first->data.empty() && input.first->data.size() != bytes)
        throw InputError("the first launch's copy of '" + name + "' holds " + std::to_string(input.first->data.size()) +
                         " bytes, but the buffer takes " + std::to_string(bytes));
    if (input.spec->check.kind == CheckKind::bound && (!input.bound || input.bound->size() != input.final->count))
        throw InputError("output '" + name + "' is checked against the reference's error bound (" + input.spec->check.text +
                         "), but the reference gave no bound for each element: use a " +
                         "reference that computes one, or check it by tolerance");
}

namespace {

// ---- Texts

// A 2D buffer has rows and cols; an interleaved image also has channels (its third extent).
bool is_2d(const HostBuffer& buffer) { return buffer.shape.size() >= 2; }
int64_t channels_of(const HostBuffer& buffer) { return buffer.shape.size() == 3 ? buffer.shape[2] : 1; }

// Values as the user reads them: integers whole; floats to 6 digits, or for a single value (a scalar
// result, where the last digits are the whole story) to the precision of its type.
std::string value_text(double value, ElementType type, bool full = false) {
    if (!is_floating(type) && std::isfinite(value)) return number_text(value, "%.0f");
    if (full && std::isfinite(value)) {
        // The shortest text that reads back as the same value of the buffer's type: 100.0011, not 100.00109999999999.
        char text[48];
        const auto end = type == ElementType::f64 ? std::to_chars(text, text + sizeof text, value).ptr
                                                  : std::to_chars(text, text + sizeof text, static_cast<float>(value)).ptr;
        return std::string(text, end);
    }
    return number_text(value);
}

std::string element_name(const std::string& name, const HostBuffer& buffer, size_t i) {
    if (buffer.count == 1) return name;
    if (!is_2d(buffer)) return name + "[" + std::to_string(i) + "]";
    const auto cols = static_cast<size_t>(buffer.shape[1]), channels = static_cast<size_t>(channels_of(buffer));
    const size_t pixel = i / channels;
    return name + "[" + std::to_string(pixel / cols) + "][" + std::to_string(pixel % cols) + "]" +
           (channels > 1 ? "[" + std::to_string(i % channels) + "]" : "");
}

std::string allowed_text(const Rule& rule, const ElementResult& e) {
    std::string text = "allowed error " + number_text(e.allowed, "%.3g");
    if (rule.kind == CheckKind::ulp) text += " = " + number_text(rule.ulp) + " ulp";
    return text;
}

std::string plain_bad_text(const std::string& name, const Rule& rule, ElementType type, const ElementResult& e) {
    if (e.unwritten) return name + " was never written";
    if (e.passed)
        return name + " differs between two runs: " + value_text(e.first, type, true) + " then " + value_text(e.got, type, true) +
               " (expected " + value_text(e.ref, type, true) + ")";
    return name + " = " + value_text(e.got, type, true) + ", expected " + value_text(e.ref, type, true) + " (" + allowed_text(rule, e) + ")";
}

std::string pixel_bad_text(const HostBuffer& buffer, ElementType type, const ElementResult& e, size_t i) {
    const auto cols = static_cast<size_t>(buffer.shape[1]), channels = static_cast<size_t>(channels_of(buffer));
    const size_t at = i / channels;
    static const char* const kChannels[] = {"red", "green", "blue", "alpha"};
    const std::string pixel = "pixel (x=" + std::to_string(at % cols) + ", y=" + std::to_string(at / cols) + ")" +
                              (channels > 1 ? std::string(" ") + kChannels[i % channels] : "") + ": ";
    if (e.unwritten) return pixel + "never written";
    if (e.passed)
        return pixel + "differs between two runs (" + value_text(e.first, type) + " then " + value_text(e.got, type) + ")";
    return pixel + "got " + value_text(e.got, type) + ", expected " + value_text(e.ref, type);
}

BadElement bad_element(const BufferCheckInput& input, const Rule& rule, const ElementResult& e, size_t i) {
    const HostBuffer& buffer = *input.final;
    BadElement bad;
    bad.index = static_cast<int64_t>(i);
    if (is_2d(buffer)) {
        const int64_t channels = channels_of(buffer), pixel = static_cast<int64_t>(i) / channels;
        bad.coords = {pixel / buffer.shape[1], pixel % buffer.shape[1]};
        if (buffer.shape.size() == 3) bad.coords.push_back(static_cast<int64_t>(i) % channels);
    } else
        bad.coords = {static_cast<int64_t>(i)};
    bad.got = e.got;
    bad.expected = e.ref;
    bad.allowed = e.allowed;
    bad.unwritten = e.unwritten;
    if (input.kind == OutputKind::image && is_2d(buffer))
        bad.text = pixel_bad_text(buffer, input.spec->type, e, i);
    else
        bad.text = plain_bad_text(element_name(input.spec->name, buffer, i), rule, input.spec->type, e);
    return bad;
}

std::string within(const Rule& rule) { return rule.text.rfind("within ", 0) == 0 ? rule.text : "within " + rule.text; }

std::string failure_details(const BufferCheck& check) {
    std::vector<std::string> parts;
    if (check.unwritten) parts.push_back(std::to_string(check.unwritten) + " never written");
    if (check.nan_inf) parts.push_back(std::to_string(check.nan_inf) + " NaN/Inf");
    if (check.nondeterministic) parts.push_back(std::to_string(check.nondeterministic) + " differ between two runs");
    return parts.empty() ? "" : " (" + join(parts) + ")";
}

std::string scalar_summary(const BufferCheck& check, const BufferCheckInput& input, const Rule& rule, const ElementResult& e) {
    const std::string& name = input.spec->name;
    if (!check.passed) return "FAIL: " + plain_bad_text(name, rule, input.spec->type, e);
    const ElementType type = input.spec->type;
    const std::string how = rule.kind == CheckKind::exact ? "exact" : within(rule);
    return "PASS: " + name + " = " + value_text(e.got, type, true) + ", expected " + value_text(e.ref, type, true) + " (" + how + ")" +
           (check.nondeterministic ? "; it varies between runs, within the tolerance (the order of atomic additions)" : "");
}

std::string summary(const BufferCheck& check, int64_t wrong, const Rule& rule) {
    const std::string of = std::to_string(check.elements) + " elements of '" + check.buffer + "'";
    if (!check.passed) return "FAIL: " + std::to_string(wrong) + " of " + of + " are wrong" + failure_details(check);
    if (rule.kind == CheckKind::exact) return "PASS: all " + of + " match exactly";
    return "PASS: all " + of + " " + within(rule) + " (max abs error " + number_text(check.max_abs_error, "%.3g") + ")" +
           (check.nondeterministic ? "; " + std::to_string(check.nondeterministic) + " vary between runs, within the tolerance" : "");
}

// ---- Statistics

// One element into the tally (kept in a local, so the loop runs in registers).
void add_element(ElementTally& tally, size_t i, const ElementResult& e, double rel_floor) {
    tally.over_tolerance += !e.passed;
    tally.unwritten += e.unwritten;
    tally.nan_inf += e.nan_inf;
    tally.nondeterministic += e.nondeterministic;
    tally.racy += e.nondeterministic && !e.tolerated_variation;
    if (e.failed() && tally.wrong++ == 0) tally.first_bad = static_cast<int64_t>(i);
    if (!e.finite) return;
    const double error = std::fabs(e.got - e.ref), magnitude = std::fabs(e.ref);
    tally.max_abs = std::max(tally.max_abs, error);
    if (magnitude > rel_floor) tally.max_rel = std::max(tally.max_rel, error / magnitude);
    tally.max_ratio = std::max(tally.max_ratio, e.ratio);
    tally.diff_squares += error * error;
    tally.ref_squares += e.ref * e.ref;
}

void write_tally(const ElementTally& tally, BufferCheck& check) {
    check.over_tolerance = tally.over_tolerance;
    check.unwritten = tally.unwritten;
    check.nan_inf = tally.nan_inf;
    check.nondeterministic = tally.nondeterministic;
    check.max_abs_error = tally.max_abs;
    check.max_rel_error = tally.max_rel;
    check.max_error_ratio = tally.max_ratio;
    check.rel_frobenius_error =
        tally.ref_squares == 0 ? std::sqrt(tally.diff_squares) : std::sqrt(tally.diff_squares / tally.ref_squares);
    check.passed = tally.passes();
}

// The relative error is only taken where |ref| is not tiny next to the buffer's largest reference, so one
// near-zero reference cannot dominate it; that largest value is found first, reading the reference only.
double largest_reference(const ElementComparer& comparer) {
    double largest = 0;
    for (size_t i = 0; i < comparer.count(); ++i) {
        const double ref = std::fabs(comparer.reference(i));
        if (std::isfinite(ref)) largest = std::max(largest, ref);
    }
    return largest;
}

BufferCheck unchecked(const BufferCheckInput& input) {
    BufferCheck check;
    check.buffer = input.spec->name;
    check.rule = "not checked";
    check.checked = false;
    check.passed = true;
    check.elements = static_cast<int64_t>(input.final->count);
    check.summary = "not checked (check=none)";
    return check;
}

// ---- Views

// NaN wins, so one never-written or non-finite element is not hidden by its neighbours.
float max_or_nan(float a, float b) { return (std::isnan(a) || std::isnan(b)) ? NAN : std::max(a, b); }
float min_or_nan(float a, float b) { return (std::isnan(a) || std::isnan(b)) ? NAN : std::min(a, b); }

int64_t rows_of(const HostBuffer& buffer) { return is_2d(buffer) ? buffer.shape[0] : 1; }
int64_t cols_of(const HostBuffer& buffer) { return is_2d(buffer) ? buffer.shape[1] : static_cast<int64_t>(buffer.count); }

// Every pass below fills the frame output_view_frame made, so the host's view and a device's agree on
// its shape by construction.
void fill_image_view(OutputView& view, const ElementComparer& comparer, const BufferCheckInput& input) {
    const auto channels = static_cast<int64_t>(view.channels);
    // Bytes at full resolution are the picture as they are (the frame left `output` empty for them);
    // other types, and a downsampled view's pixels, are the bytes the output rounds to (a block's mean),
    // a float image's values scaled from its white (1 or 255) to 255 first.
    const bool write_bytes = input.spec->type != ElementType::u8 || view.step > 1;
    const double to_byte = 255.0 / input.image_white;
    if (!write_bytes) view.output = input.final->data;
    const int64_t step = view.step, image_w = view.cols, image_h = view.rows;
    for (int64_t vy = 0; vy < view.height; ++vy)
        for (int64_t vx = 0; vx < view.width; ++vx) {
            // One difference per view pixel: of its block's pixels and channels, the one furthest from
            // the reference (NaN wins), so a downsampled view hides no wrong pixel.
            float cell = 0.0f;
            const int64_t y_end = std::min(image_h, (vy + 1) * step), x_end = std::min(image_w, (vx + 1) * step);
            const int64_t count = (y_end - vy * step) * (x_end - vx * step);
            for (int64_t c = 0; c < channels; ++c) {
                int64_t sum = 0;
                for (int64_t y = vy * step; y < y_end; ++y)
                    for (int64_t x = vx * step; x < x_end; ++x) {
                        const ElementResult e = comparer.compare(static_cast<size_t>((y * image_w + x) * channels + c));
                        const float d = static_cast<float>(e.got - e.ref);
                        if (std::isnan(d) || (!std::isnan(cell) && std::abs(d) > std::abs(cell))) cell = d;
                        sum += std::isnan(e.got) ? 0 : static_cast<int64_t>(std::clamp(std::round(e.got * to_byte), 0.0, 255.0));
                    }
                if (write_bytes) view.output[static_cast<size_t>((vy * view.width + vx) * channels + c)] = static_cast<unsigned char>((sum + count / 2) / count);
            }
            view.map[static_cast<size_t>(vy * view.width + vx)] = cell;
        }
}

void fill_matrix_view(const ViewFrame& frame, OutputView& view, const ElementComparer& comparer) {
    for (int64_t r = 0; r < view.rows; ++r) {
        float* cells = view.map.data() + (r / frame.row_step) * view.width;
        for (int64_t c = 0; c < view.cols; ++c) {
            const ElementResult e = comparer.compare(static_cast<size_t>(r * view.cols + c));
            float& cell = cells[c / frame.col_step];
            cell = max_or_nan(cell, static_cast<float>(e.ratio));
        }
    }
}

// One series entry: the range of got and of the reference over its elements, and the worst ratio.
struct Envelope {
    float got_min = 0, got_max = 0, want_min = 0, want_max = 0, ratio = 0;

    explicit Envelope(const ElementResult& e)
        : got_min(static_cast<float>(e.got)),
          got_max(got_min),
          want_min(static_cast<float>(e.ref)),
          want_max(want_min),
          ratio(static_cast<float>(e.ratio)) {}

    void add(const ElementResult& e) {
        const auto got = static_cast<float>(e.got), want = static_cast<float>(e.ref);
        got_min = min_or_nan(got_min, got);
        got_max = max_or_nan(got_max, got);
        want_min = min_or_nan(want_min, want);
        want_max = max_or_nan(want_max, want);
        ratio = max_or_nan(ratio, static_cast<float>(e.ratio));
    }
};

void fill_series_view(Series& series, const ElementComparer& comparer) {
    const bool envelopes = series.bucket > 1;
    for (size_t entry = 0; entry < series.entries(); ++entry) {
        const auto begin = static_cast<size_t>(entry * series.bucket);
        const auto end = static_cast<size_t>(std::min<int64_t>(series.count, (entry + 1) * series.bucket));
        Envelope envelope(comparer.compare(begin));
        for (size_t i = begin + 1; i < end; ++i) envelope.add(comparer.compare(i));
        series.got_min[entry] = envelope.got_min;
        series.want_min[entry] = envelope.want_min;
        series.ratio_max[entry] = envelope.ratio;
        if (!envelopes) continue;
        series.got_max[entry] = envelope.got_max;
        series.want_max[entry] = envelope.want_max;
    }
}

}  // namespace

ElementTally tally_elements(const BufferCheckInput& input) {
    validate_check_input(input);
    ElementTally tally;
    if (input.spec->check.kind == CheckKind::none) return tally;
    if (input.bytes_on_device) throw std::logic_error("tally_elements: the bytes of '" + input.spec->name + "' are on the device");
    const ElementComparer comparer(input);
    // Relative errors only where the reference is not tiny next to the buffer's largest value, so a
    // near-zero result of cancellation does not read as a huge relative error.
    const double rel_floor = 1e-3 * largest_reference(comparer);
    for (size_t i = 0; i < comparer.count(); ++i) add_element(tally, i, comparer.compare(i), rel_floor);
    return tally;
}

BufferCheck check_buffer(const BufferCheckInput& input) { return check_buffer(input, tally_elements(input)); }

BufferCheck check_buffer(const BufferCheckInput& input, const ElementTally& tally) {
    validate_check_input(input);
    if (input.spec->check.kind == CheckKind::none) return unchecked(input);
    const ElementComparer comparer(input);
    const Rule& rule = comparer.rule();
    BufferCheck check;
    check.buffer = input.spec->name;
    check.rule = rule.text;
    check.tolerance = rule.leading;
    check.elements = static_cast<int64_t>(comparer.count());
    write_tally(tally, check);
    if (input.bytes_on_device && (tally.first_bad >= 0 || check.elements == 1))
        throw std::logic_error("check_buffer: naming an element of '" + input.spec->name + "' needs its bytes from the device");
    if (tally.first_bad >= 0) {
        const auto at = static_cast<size_t>(tally.first_bad);
        check.first_bad = bad_element(input, rule, comparer.compare(at), at);
    }
    if (check.elements == 1)
        check.summary = scalar_summary(check, input, rule, comparer.compare(0));
    else
        check.summary = summary(check, tally.wrong, rule);
    return check;
}

ViewFrame output_view_frame(const BufferCheckInput& input, OutputKind kind, int view_side) {
    ViewFrame frame;
    OutputView& view = frame.view;
    view.kind = kind;
    view.buffer = input.spec ? input.spec->name : "";
    validate_check_input(input);
    const HostBuffer& buffer = *input.final;
    switch (kind) {
        case OutputKind::image: {
            view.cols = cols_of(buffer);
            view.rows = rows_of(buffer);
            view.channels = static_cast<int>(channels_of(buffer));
            const int64_t longest = std::max(view.cols, view.rows);
            const int64_t step = view_side > 0 && longest > view_side ? (longest + view_side - 1) / view_side : 1;
            view.step = static_cast<int>(step);
            view.width = static_cast<int>((view.cols + step - 1) / step);
            view.height = static_cast<int>((view.rows + step - 1) / step);
            const size_t pixels = static_cast<size_t>(view.width) * static_cast<size_t>(view.height);
            // Bytes at full resolution are the output's own (left empty here, taken as they are).
            const bool own_bytes = input.spec->type == ElementType::u8 && step == 1;
            view.output.assign(own_bytes ? 0 : pixels * static_cast<size_t>(view.channels), 0);
            view.map.assign(pixels, 0.0f);
            break;
        }
        case OutputKind::matrix: {
            const int64_t rows = rows_of(buffer), cols = cols_of(buffer) * channels_of(buffer);
            frame.row_step = (rows + kMaxMapSide - 1) / kMaxMapSide;
            frame.col_step = (cols + kMaxMapSide - 1) / kMaxMapSide;
            view.height = static_cast<int>((rows + frame.row_step - 1) / frame.row_step);
            view.width = static_cast<int>((cols + frame.col_step - 1) / frame.col_step);
            view.rows = rows;
            view.cols = cols;
            view.map.assign(static_cast<size_t>(view.width) * static_cast<size_t>(view.height), 0.0f);
            break;
        }
        case OutputKind::series:
        case OutputKind::bars: {
            Series& series = view.series;
            series.count = static_cast<int64_t>(buffer.count);
            series.bucket = std::max<int64_t>(1, (series.count + Series::kMaxSeriesEntries - 1) / Series::kMaxSeriesEntries);
            const auto entries = static_cast<size_t>((series.count + series.bucket - 1) / series.bucket);
            series.got_min.resize(entries);
            series.want_min.resize(entries);
            series.ratio_max.resize(entries);
            series.got_max.resize(series.bucket > 1 ? entries : 0);
            series.want_max.resize(series.bucket > 1 ? entries : 0);
            break;
        }
        case OutputKind::scalar: break;
    }
    return frame;
}

OutputView make_output_view(const BufferCheckInput& input, OutputKind kind, int view_side) {
    ViewFrame frame = output_view_frame(input, kind, view_side);
    OutputView& view = frame.view;
    if (input.bytes_on_device) throw std::logic_error("make_output_view: the bytes of '" + input.spec->name + "' are on the device");
    const ElementComparer comparer(input);
    switch (kind) {
        case OutputKind::image: fill_image_view(view, comparer, input); break;
        case OutputKind::matrix: fill_matrix_view(frame, view, comparer); break;
        case OutputKind::series:
        case OutputKind::bars: fill_series_view(view.series, comparer); break;
        case OutputKind::scalar: {
            const ElementResult e = comparer.compare(0);
            view.value = value_text(e.got, input.spec->type, true);
            view.expected = value_text(e.ref, input.spec->type, true);
            break;
        }
    }
    return std::move(view);
}

// Defined here until the check report has a file of its own.
}  // namespace kplay
