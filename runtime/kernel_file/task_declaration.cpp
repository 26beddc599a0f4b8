// Parsing the kplay-task / kplay-sizes / kplay-buffer / kplay-cost lines into a TaskSpec.
//
// Every expression is evaluated once here at the default sizes, so a typo in a name is reported at
// its line when the file is saved, not later when a run reaches it.
#include "kernel_file/task_declaration.hpp"
#include "kernel_file/task_sizes.hpp"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>

#include "base/error.hpp"
#include "base/expression.hpp"
#include "base/text.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace {

struct DeclarationLine {
    int number = 0;
    std::string kind;  // task, sizes, buffer, cost
    std::vector<std::string> tokens;
};

bool is_identifier(std::string_view text) {
    if (text.empty() || !(std::isalpha(static_cast<unsigned char>(text[0])) || text[0] == '_')) return false;
    for (char c : text)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

// Splits at spaces outside (...) and [...], so "init=normal(0, 1)" and "f32[R * C]" stay one token.
std::vector<std::string> tokenize(const std::string& text) {
    std::vector<std::string> tokens;
    std::string token;
    int depth = 0;
    for (char c : text) {
        if (c == '(' || c == '[') ++depth;
        if (c == ')' || c == ']') --depth;
        if (std::isspace(static_cast<unsigned char>(c)) && depth <= 0) {
            if (!token.empty()) tokens.push_back(token);
            token.clear();
        } else {
            token += c;
        }
    }
    if (!token.empty()) tokens.push_back(token);
    return tokens;
}

std::vector<DeclarationLine> find_declaration_lines(std::string_view source) {
    std::vector<DeclarationLine> lines;
    std::istringstream text{std::string(source)};
    std::string line;
    int number = 0;
    while (std::getline(text, line)) {
        ++number;
        std::string name, rest;
        if (!match_kplay_line(line, name, rest)) continue;
        // A sweep's space (sweep/sweep_space.hpp), TMA descriptors (kernel_file/tensor_map_decl.hpp), textures and
        // surfaces (kernel_file/texture_decl.hpp), struct
        // parameters (kernel_file/struct_decl.hpp) and PyTorch expectations (kernel_file/torch_expectation.hpp)
        // are not part of the task: a built-in task's file may have them.
        if (name == "sweep" || name == "tma" || name == "struct" || name == "torch" || name == "texture" || name == "surface") continue;
        lines.push_back({number, name, tokenize(rest)});
    }
    return lines;
}

// Reads key=value tokens; a token without '=' continues the previous value ("bytes=8 * n").
class KeyValues {
public:
    KeyValues(const std::vector<std::string>& tokens, size_t first, const std::string& at, const char* keys) : at_(at), keys_(keys) {
        for (size_t i = first; i < tokens.size(); ++i) {
            const auto equals = tokens[i].find('=');
            const std::string key = equals == std::string::npos ? "" : tokens[i].substr(0, equals);
            if (!key.empty() && key.find_first_not_of("abcdefghijklmnopqrstuvwxyz_-") == std::string::npos) {
                if (find(key)) throw InputError(at_ + "'" + key + "' is given twice");
                entries_.emplace_back(key, tokens[i].substr(equals + 1));
            } else if (!entries_.empty()) {
                entries_.back().second += tokens[i];
            } else {
                throw InputError(at_ + "expected key=value, got '" + tokens[i] + "' (keys: " + keys_ + ")");
            }
        }
        const std::vector<std::string> known = split_list(keys_);
        for (const auto& [key, value] : entries_) {
            if (std::find(known.begin(), known.end(), key) == known.end())
                throw InputError(at_ + "unknown key '" + key + "' (keys: " + keys_ + ")");
            if (value.empty()) throw InputError(at_ + "'" + key + "=' has no value");
        }
    }
    const std::string* find(const std::string& key) const {
        for (const auto& entry : entries_)
            if (entry.first == key) return &entry.second;
        return nullptr;
    }

private:
    std::string at_;
    const char* keys_;
    std::vector<std::pair<std::string, std::string>> entries_;
};

// "4096x1024" -> {4096, 1024}, one value per size name.
std::vector<int64_t> parse_tuple(const std::string& text, const std::vector<std::string>& names, const std::string& at,
                                 const std::string& key) {
    std::vector<int64_t> values;
    std::string part;
    auto take = [&] {
        if (part.empty() || part.find_first_not_of("0123456789") != std::string::npos || part.size() > 15)
            throw InputError(at + key + "=" + text + ": '" + part + "' is not a positive whole number");
        values.push_back(std::stoll(part));
        if (values.back() <= 0) throw InputError(at + key + "=" + text + ": sizes must be positive");
        part.clear();
    };
    for (char c : text) {
        if (c == 'x' || c == 'X') take();
        else part += c;
    }
    take();
    if (values.size() != names.size())
        throw InputError(at + key + "=" + text + " gives " + std::to_string(values.size()) + (values.size() == 1 ? " value" : " values") +
                         ", but the sizes are " + join(names) + ": give one per size, like " +
                         [&] {
                             std::vector<std::string> example(names.size(), "64");
                             return join(example, "x");
                         }());
    return values;
}

std::vector<std::vector<int64_t>> parse_tuples(const std::string& text, const std::vector<std::string>& names, const std::string& at,
                                               const std::string& key) {
    std::vector<std::vector<int64_t>> tuples;
    for (const auto& part : split_list(text)) tuples.push_back(parse_tuple(part, names, at, key));
    return tuples;
}

// Evaluates an expression once at the default sizes, so a wrong name is reported at its line.
void validate_int(const std::string& expression, const NamedValues& values, const std::string& what) {
    try {
        evaluate_int_expr(expression, values);
    } catch (const InputError& error) {
        throw InputError(what + ": " + error.what());
    }
}

void validate_real(const std::string& expression, const NamedValues& values, const std::string& what) {
    if (non_finite_init(trim(expression))) return;  // an init's inf or nan; the buffer's type is checked by check_non_finite
    try {
        evaluate_real_expr(expression, values);
    } catch (const InputError& error) {
        throw InputError(what + ": " + error.what());
    }
}

SizeSpec parse_sizes(const DeclarationLine& line, const std::string& at) {
    SizeSpec sizes;
    if (line.tokens.empty() || line.tokens[0].find('=') != std::string::npos)
        throw InputError(at + "kplay-sizes starts with the size names, e.g. '// kplay-sizes: R,C default=4096x1024 test=1x1,3x1000'");
    for (const auto& name : split_list(line.tokens[0])) {
        if (!is_identifier(name)) throw InputError(at + "'" + name + "' is not a size name (letters, digits and _)");
        if (name == "sms") throw InputError(at + "'sms' is kplay's name for the device's SM count; pick another size name");
        for (const auto& other : sizes.names)
            if (other == name) throw InputError(at + "size '" + name + "' is named twice");
        sizes.names.push_back(name);
    }
    const KeyValues keys(line.tokens, 1, at, "default, cpu, test, test-cpu, bench, cpu-bench");
    const std::string* value = keys.find("default");
    if (!value) throw InputError(at + "kplay-sizes needs default=... (the sizes a run uses when none are given)");
    sizes.gpu_default = parse_tuple(*value, sizes.names, at, "default");
    sizes.cpu_default = keys.find("cpu") ? parse_tuple(*keys.find("cpu"), sizes.names, at, "cpu") : sizes.gpu_default;
    if (keys.find("test")) sizes.test = parse_tuples(*keys.find("test"), sizes.names, at, "test");
    if (keys.find("test-cpu")) sizes.cpu_test = parse_tuples(*keys.find("test-cpu"), sizes.names, at, "test-cpu");
    sizes.gpu_bench = keys.find("bench") ? parse_tuples(*keys.find("bench"), sizes.names, at, "bench")
                                         : std::vector<std::vector<int64_t>>{sizes.gpu_default};
    sizes.cpu_bench = keys.find("cpu-bench") ? parse_tuples(*keys.find("cpu-bench"), sizes.names, at, "cpu-bench")
                                             : std::vector<std::vector<int64_t>>{sizes.cpu_default};
    return sizes;
}

// "normal(0, 1)" -> kind and parameters.
InitSpec parse_init(const std::string& text, const std::string& at) {
    InitSpec init;
    init.text = text;
    if (non_finite_init(text)) return {InitKind::constant, {text}, ImageLayout::planar, text};  // init=-inf: constant(-inf)
    const auto open = text.find('(');
    const std::string kind = trim(text.substr(0, open));
    const auto found = parse_spec_name<InitKind>(kind);
    if (!found) throw InputError(at + "unknown init '" + kind + "' (known: " + spec_names<InitKind>() + ")");
    init.kind = *found;
    if (open != std::string::npos) {
        if (text.back() != ')') throw InputError(at + "init=" + text + ": missing ')'");
        init.params = split_list(text.substr(open + 1, text.size() - open - 2));
    }
    if (init.kind == InitKind::image) {
        // image(LAYOUT[,RANGE]): the range (a float buffer's white) stays as the one parameter.
        const std::string layout = init.params.empty() ? "planar" : init.params[0];
        const auto parsed = parse_spec_name<ImageLayout>(layout);
        if (!parsed || init.params.size() > 2)
            throw InputError(at + "init=" + text + ": an image is image(planar), image(interleaved), image(rgba) or image(gray)" +
                             ", with a float buffer's range after it: image(interleaved,255) for values 0..255 (0..1 without)");
        if (init.params.size() == 2 && init.params[1] != "1" && init.params[1] != "255")
            throw InputError(at + "init=" + text + ": an image's values range over 0..1 or 0..255: write image(" + layout + ",1) or image(" +
                             layout + ",255), not '" + init.params[1] + "'");
        init.layout = *parsed;
        init.params.erase(init.params.begin(), init.params.begin() + std::min<size_t>(1, init.params.size()));
    }
    const size_t most = init.kind == InitKind::constant || init.kind == InitKind::image ? 1 : 2;
    if (init.params.size() > most || (init.kind == InitKind::constant && init.params.size() != 1))
        throw InputError(at + "init=" + text + ": " + kind + " takes " +
                         (init.kind == InitKind::constant ? "one value, constant(v)" : "up to two values, e.g. " + kind + "(0,1)"));
    return init;
}

// An image fills a u8 buffer with its bytes, or a floating-point one with its values (0..1, or 0..255 when
// the init says so); a task with one names sizes w and h, which take the image's size.
void check_image_input(ElementType type, const InitSpec& init, const NamedValues& values, const std::string& at) {
    const std::string name = spec_name(type);
    if (type == ElementType::u8 && !init.params.empty())
        throw InputError(at + "init=" + init.text + ": a u8 image holds the bytes 0..255 as they are; the range after the layout is " +
                         "for a float buffer (f32, f16, bf16, f64): write init=image(" + spec_name(init.layout) + ")");
    if (type != ElementType::u8 && !is_floating(type))
        throw InputError(at + "an image fills a u8 buffer (its bytes) or a float one (f32, f16, bf16, f64: values 0..1, or 0..255 with init=image(" +
                         spec_name(init.layout) + ",255)), not " + name + ": make it u8, or f32 for float values");
    if (!values.count("w") || !values.count("h"))
        throw InputError(at + "an image input needs sizes named w and h (they take the image's width and height)");
}

// "rel:1e-5,abs:1e-7" -> a tolerance rule.
CheckSpec parse_check(const std::string& text, const std::string& at) {
    CheckSpec check;
    check.text = text;
    if (text == "exact") return check;
    if (text == "none") {
        check.kind = CheckKind::none;
        return check;
    }
    for (const auto& part : split_list(text)) {
        const auto colon = part.find(':');
        const std::string key = part.substr(0, colon);
        const std::string value = colon == std::string::npos ? "" : trim(part.substr(colon + 1));
        if (value.empty() || (key != "abs" && key != "rel" && key != "ulp"))
            throw InputError(at + "check=" + text + ": a check is exact, none, abs:X, rel:X, rel:X,abs:Y or ulp:N" +
                             (key == "bound" ? " (bound: is for kplay's own references, which compute an error bound)" : ""));
        if (key == "ulp") {
            check.kind = CheckKind::ulp;
            check.ulp = value;
        } else {
            check.kind = CheckKind::tolerance;
            (key == "abs" ? check.abs : check.rel) = value;
        }
    }
    if (check.kind == CheckKind::ulp && (!check.abs.empty() || !check.rel.empty()))
        throw InputError(at + "check=" + text + ": ulp: cannot be combined with abs: or rel:");
    return check;
}

CheckSpec default_check(ElementType type) {
    CheckSpec check;
    switch (type) {
        case ElementType::f16: check = {CheckKind::tolerance, "1e-3", "1e-3", "", "", "rel:1e-3,abs:1e-3"}; break;
        // About one unit in the last place of each narrow format: bf16 keeps 8 significant bits, e4m3 4
        // and e5m2 3; abs covers a zero reference against the smallest values near it.
        case ElementType::bf16: check = {CheckKind::tolerance, "1e-2", "1e-2", "", "", "rel:1e-2,abs:1e-2"}; break;
        case ElementType::fp8_e4m3: check = {CheckKind::tolerance, "2e-3", "0.125", "", "", "rel:0.125,abs:2e-3"}; break;
        case ElementType::fp8_e5m2: check = {CheckKind::tolerance, "2e-5", "0.25", "", "", "rel:0.25,abs:2e-5"}; break;
        case ElementType::f32: check = {CheckKind::tolerance, "1e-6", "1e-5", "", "", "rel:1e-5,abs:1e-6"}; break;
        case ElementType::f64: check = {CheckKind::tolerance, "1e-12", "1e-12", "", "", "rel:1e-12,abs:1e-12"}; break;
        default: check.text = "exact"; break;
    }
    return check;
}

// cuBLAS is timed with SGEMM (f32) or cublasGemmEx (f16 or bf16 inputs, f32 accumulation, C of the
// inputs' type or f32). Its fp8 GEMMs are cublasLt's and its integer ones need layouts of their own,
// so other types are refused by name.
void check_cublas_types(const TaskSpec& task, const std::string& at) {
    const BufferSpec* a = task.find_buffer(task.cost.gemm[0]);
    const BufferSpec* b = task.find_buffer(task.cost.gemm[1]);
    const BufferSpec* c = task.find_buffer(task.cost.gemm[2]);
    if (!a || !b || !c) throw InputError(at + "gemm=" + join(task.cost.gemm, ",") + ": A, B and C must be buffers");
    const ElementType in = a->type;
    const std::string types = std::string(spec_name(in)) + " x " + spec_name(b->type) + " -> " + spec_name(c->type);
    if (in != ElementType::f32 && in != ElementType::f16 && in != ElementType::bf16)
        throw InputError(at + "ceiling=cublas: kplay times cuBLAS's GEMM for f32, f16 and bf16 inputs, not " + spec_name(in) + " (" +
                         types + "); give ceiling=copy, read-only or none");
    if (b->type != in || (c->type != in && c->type != ElementType::f32))
        throw InputError(at + "ceiling=cublas: cuBLAS's GEMM takes A and B of one type and C of that type or f32, not " + types);
}

BufferSpec parse_buffer(const DeclarationLine& line, const std::string& file, const SizeSpec& sizes, const NamedValues& values,
                        std::vector<std::string>* notes) {
    const std::string where = file + ":" + std::to_string(line.number) + ": kplay-" + line.kind;
    if (line.tokens.empty()) throw InputError(where + " needs a name, a type and a role, e.g. '// kplay-buffer: x f32[n] in'");
    BufferSpec buffer;
    buffer.name = line.tokens[0];
    buffer.line = line.number;
    const std::string at = where + " '" + buffer.name + "': ";
    if (!is_identifier(buffer.name)) throw InputError(where + ": '" + buffer.name + "' is not a buffer name (letters, digits and _)");
    for (const auto& size : sizes.names)
        if (size == buffer.name) throw InputError(at + "a buffer cannot have the name of a size");
    const std::string type_text = line.tokens.size() > 1 ? line.tokens[1] : "";
    const auto bracket = type_text.find('[');
    if (bracket == std::string::npos || type_text.back() != ']')
        throw InputError(at + "write its element type and length as TYPE[LENGTH], e.g. f32[n]");
    const std::string type = type_text.substr(0, bracket);
    const auto parsed_type = parse_spec_name<ElementType>(type);
    if (!parsed_type) throw InputError(at + "unknown element type '" + type + "' (known: " + spec_names<ElementType>() + ")");
    buffer.type = *parsed_type;
    buffer.length = trim(type_text.substr(bracket + 1, type_text.size() - bracket - 2));
    if (buffer.length.empty()) throw InputError(at + "its length is empty: write it as " + type + "[n]");
    validate_int(buffer.length, values, at + "length '" + buffer.length + "'");
    const std::string role = line.tokens.size() > 2 ? line.tokens[2] : "";
    if (role == "in") buffer.role = BufferRole::in;
    else if (role == "out") buffer.role = BufferRole::out;
    else if (role == "inout") buffer.role = BufferRole::inout;
    else if (role == "scratch") buffer.role = BufferRole::scratch;
    else throw InputError(at + "has no role: write in, out, inout or scratch after its type, e.g. '" + buffer.name + " " + type_text + " in'");

    const KeyValues keys(line.tokens, 3, at, "init, seed, shape, check, zeros");
    if (const auto* zeros = keys.find("zeros")) {
        if (*zeros != "ok") throw InputError(at + "zeros=" + *zeros + ": write zeros=ok for an input that may be all zeros");
        if (!buffer.is_input()) throw InputError(at + "zeros=ok is for inputs: an output starts as poison, or from its init=");
        buffer.zeros_allowed = true;
    }
    if (const auto* shape = keys.find("shape")) {
        buffer.shape = split_list(*shape);
        if (buffer.shape.size() != 2 && buffer.shape.size() != 3)
            throw InputError(at + "shape=" + *shape + ": a shape is ROWS,COLS, or ROWS,COLS,CHANNELS for an interleaved image (h,w,3, or h,w,4 for RGBA)");
        for (const auto& side : buffer.shape) validate_int(side, values, at + "shape '" + side + "'");
        if (buffer.shape.size() == 3) {
            const int64_t channels = evaluate_int_expr(buffer.shape[2], values);
            if (channels < 1 || channels > 4)
                throw InputError(at + "shape=" + *shape + ": an image has 1 to 4 channels, not " + std::to_string(channels));
        }
    }
    if (const auto* seed = keys.find("seed")) {
        if (seed->find_first_not_of("0123456789") != std::string::npos || seed->size() > 18)
            throw InputError(at + "seed=" + *seed + " is not a whole number");
        buffer.seed = std::stoull(*seed);
    }
    const auto* init = keys.find("init");
    if (init && (buffer.role == BufferRole::out || buffer.role == BufferRole::scratch)) {
        // An accumulator (atomicAdd into a sum) or a scratch counter starts from a value; any other
        // output or scratch starts as poison.
        buffer.init = *init == "zero" ? InitSpec{InitKind::constant, {"0"}, ImageLayout::planar, "zero"} : parse_init(*init, at);
        if (buffer.init.kind != InitKind::constant)
            throw InputError(at + "is " + (buffer.role == BufferRole::scratch ? "a scratch buffer" : "an output") + ", so kplay fills it with poison before each launch to catch elements the kernel never "
                                  "writes; init= on an output only gives the value a kernel accumulates into: init=zero or init=constant(v)");
        buffer.prefill = true;
        for (const auto& param : buffer.init.params) validate_real(param, values, at + "init '" + buffer.init.text + "'");
    }
    if (buffer.role == BufferRole::inout && init && *init == "zero") {
        // An inout accumulator the kernel reads and adds to (a histogram it updates, a sum it extends).
        buffer.init = InitSpec{InitKind::constant, {"0"}, ImageLayout::planar, "zero"};
        buffer.prefill = true;
    } else if (buffer.is_input()) {
        buffer.init = init ? parse_init(*init, at) : InitSpec{InitKind::uniform, {}, ImageLayout::planar, "uniform"};
        if (!init && notes) notes->push_back(buffer.name + ": init=uniform (default)");
        for (const auto& param : buffer.init.params) validate_real(param, values, at + "init '" + buffer.init.text + "'");
        if (buffer.init.kind == InitKind::constant && !buffer.zeros_allowed && !non_finite_init(trim(buffer.init.params[0])) &&
            evaluate_real_expr(buffer.init.params[0], values) == 0)
            throw InputError(at + "init=" + buffer.init.text + " would make the input all zeros: kplay never tests on zeros, which "
                                  "hide unwritten outputs and ignored inputs; use another value or a random init, or say zeros=ok");
        if (buffer.init.kind == InitKind::image) check_image_input(buffer.type, buffer.init, values, at);
    }
    if (buffer.init.kind == InitKind::constant && !buffer.init.params.empty() && non_finite_init(trim(buffer.init.params[0])) &&
        !is_floating(buffer.type))
        throw InputError(at + "init=" + buffer.init.text + ": only a floating-point buffer holds inf or nan, and this one is " + type);
    const auto* check = keys.find("check");
    if (check && (buffer.role == BufferRole::in || buffer.role == BufferRole::scratch))
        throw InputError(at + "is " + (buffer.role == BufferRole::in ? "an input" : "scratch") +
                         ", so it has no check (only out and inout buffers are compared with the reference)");
    if (buffer.role == BufferRole::scratch) buffer.check = {CheckKind::none, "", "", "", "", "none"};
    if (buffer.is_output()) {
        buffer.check = check ? parse_check(*check, at) : default_check(buffer.type);
        if (!check && notes) notes->push_back(buffer.name + ": check=" + buffer.check.text + " (default for " + type + ")");
        for (const auto* expression : {&buffer.check.abs, &buffer.check.rel, &buffer.check.ulp})
            if (!expression->empty()) validate_real(*expression, values, at + "check '" + buffer.check.text + "'");
    }
    return buffer;
}

CostSpec parse_cost(const DeclarationLine& line, const std::string& at, const NamedValues& values) {
    const KeyValues keys(line.tokens, 0, at, "bytes, flops, ceiling, gemm");
    CostSpec cost;
    if (const auto* bytes = keys.find("bytes")) cost.bytes = *bytes;
    if (const auto* flops = keys.find("flops")) cost.flops = *flops;
    for (const auto* expression : {&cost.bytes, &cost.flops})
        if (!expression->empty()) validate_real(*expression, values, at + "'" + *expression + "'");
    if (const auto* ceiling = keys.find("ceiling")) {
        const auto parsed = parse_spec_name<CeilingKind>(*ceiling);
        if (!parsed) throw InputError(at + "unknown ceiling '" + *ceiling + "' (known: " + spec_names<CeilingKind>() + ")");
        cost.ceiling = *parsed;
    }
    if (const auto* gemm = keys.find("gemm")) cost.gemm = split_list(*gemm);
    if (cost.ceiling == CeilingKind::cublas && cost.gemm.size() != 6)
        throw InputError(at + "ceiling=cublas needs gemm=A,B,C,M,N,K: the buffers and sizes of row-major C = A*B that cuBLAS is timed on");
    return cost;
}

// The bytes every buffer moves once: inputs read, outputs written (inout both).
std::string default_bytes(const std::vector<BufferSpec>& buffers) {
    std::vector<std::string> terms;
    for (const auto& buffer : buffers) {
        if (buffer.role == BufferRole::scratch) continue;  // the kernel's own working space, not the task's traffic
        const int times = buffer.role == BufferRole::inout ? 2 : 1;
        terms.push_back(std::to_string(times * element_size(buffer.type)) + "*(" + buffer.length + ")");
    }
    return join(terms, "+");
}

ReferenceSpec parse_reference(const std::string& text, const std::string& at, int line) {
    ReferenceSpec reference;
    reference.line = line;
    if (text == "host") return reference;
    if (text.rfind("host:", 0) == 0) {
        reference.function = text.substr(5);
        if (!is_identifier(reference.function)) throw InputError(at + "reference=" + text + ": host:NAME names a C++ function");
        return reference;
    }
    const auto colon = text.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        throw InputError(at + "reference=" + text + ": a reference is host (the function kplay_reference), host:NAME, or FILE.cu:KERNEL "
                              "(a trusted kernel, run on the emulated CPU device)");
    reference.kind = ReferenceKind::kernel;
    reference.file = text.substr(0, colon);
    reference.kernel = text.substr(colon + 1);
    return reference;
}

void apply_task_line(const DeclarationLine& line, const std::string& at, TaskSpec& task, const NamedValues& values) {
    const KeyValues keys(line.tokens, 0, at, "name, reference, view, rate, extent, coverage");
    if (const auto* name = keys.find("name")) {
        if (!is_identifier(*name)) throw InputError(at + "name=" + *name + ": a task name is letters, digits and _");
        task.name = *name;
    }
    if (const auto* reference = keys.find("reference")) task.reference = parse_reference(*reference, at, line.number);
    if (const auto* view = keys.find("view")) {
        const auto parsed = parse_spec_name<OutputKind>(*view);
        if (!parsed) throw InputError(at + "unknown view '" + *view + "' (known: " + spec_names<OutputKind>() + ")");
        task.presentation.output = *parsed;
    }
    if (const auto* rate = keys.find("rate")) {
        const auto parsed = parse_spec_name<RateUnit>(*rate);
        if (!parsed) throw InputError(at + "unknown rate '" + *rate + "' (known: bytes (GB/s), flops (GFLOP/s))");
        task.presentation.rate = *parsed;
    }
    if (const auto* coverage = keys.find("coverage")) {
        const auto parsed = parse_spec_name<CoverageKind>(*coverage);
        if (!parsed) throw InputError(at + "unknown coverage '" + *coverage + "' (known: " + spec_names<CoverageKind>() + ")");
        task.presentation.coverage = *parsed;
    }
    if (const auto* extent = keys.find("extent")) {
        const auto parts = split_list(*extent);
        if (parts.empty() || parts.size() > 2) throw InputError(at + "extent=" + *extent + ": one value (1D launches) or X,Y (2D)");
        for (const auto& part : parts) validate_int(part, values, at + "extent '" + part + "'");
        if (parts.size() == 1) task.extent_1d = parts[0];
        else task.extent_2d = parts;
    }
}

// A shaped output of a task with an image input is an image when it is bytes, or floats beside a float
// image (0..1 or 0..255 as the input is) or with channels (h,w,3 or h,w,4); other floats are a matrix.
bool drawn_as_image(const TaskSpec& task, const BufferSpec& out) {
    const BufferSpec* image = task.image_input();
    if (!image) return false;
    return out.type == ElementType::u8 || (is_floating(out.type) && (is_floating(image->type) || out.shape.size() == 3));
}

// The presentation follows from the primary output unless the declaration says otherwise.
Presentation default_presentation(const TaskSpec& task, const NamedValues& values) {
    Presentation presentation;
    presentation.rate = task.cost.ceiling == CeilingKind::cublas ? RateUnit::flops : RateUnit::bytes;
    const BufferSpec* out = task.primary_output();
    if (!out) return presentation;
    if (evaluate_int_expr(out->length, values) == 1) presentation.output = OutputKind::scalar;
    else if (!out->shape.empty()) presentation.output = drawn_as_image(task, *out) ? OutputKind::image : OutputKind::matrix;
    return presentation;
}

std::string default_name(const std::filesystem::path& path) {
    const std::string stem = path.stem().string();
    // A ladder step (01_naive.cu) takes its folder's name: the task the ladder climbs.
    const bool numbered = !stem.empty() && std::isdigit(static_cast<unsigned char>(stem[0]));
    const std::string folder = kernel_folder_name(path);
    std::string name = numbered && !folder.empty() ? folder : stem;
    for (auto& c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) c = '_';
    return name.empty() ? "task" : name;
}

}  // namespace

void override_input_init(TaskSpec& task, const std::string& name, const std::string& init) {
    const std::string at = "--init " + name + "=" + init + ": ";
    BufferSpec* buffer = nullptr;
    std::vector<std::string> inputs;
    for (auto& candidate : task.buffers) {
        if (candidate.is_input()) inputs.push_back(candidate.name);
        if (candidate.name == name) buffer = &candidate;
    }
    if (!buffer || !buffer->is_input())
        throw InputError(at + "task " + task.name + " has no input named '" + name + "' (its inputs: " + join(inputs) + ")");
    const NamedValues values = size_values(task, task.sizes.gpu_default);
    const InitSpec parsed = parse_init(init, at);
    for (const auto& param : parsed.params) validate_real(param, values, at + "'" + parsed.text + "'");
    if (parsed.kind == InitKind::constant && evaluate_real_expr(parsed.params[0], values) == 0)
        throw InputError(at + "would make the input all zeros, which kplay never tests on");
    if (parsed.kind == InitKind::image) check_image_input(buffer->type, parsed, values, at);
    buffer->init = parsed;
}

namespace {

// The C type a `__constant__` array of this element type is declared with, for the message's example.
std::string constant_c_type(ElementType type) {
    if (type == ElementType::u8) return "unsigned char";
    if (type == ElementType::i32) return "int";
    if (type == ElementType::u32) return "unsigned";
    if (type == ElementType::f16) return "__half";
    if (type == ElementType::f64) return "double";
    if (type == ElementType::f32) return "float";
    return "TYPE";
}

// `// kplay-constant: NAME TYPE[LENGTH] init=... seed=...`: an input buffer bound to no argument but to the
// file's `__constant__ TYPE NAME[...]`, which must exist (its size is checked when the module is loaded).
BufferSpec parse_constant(const DeclarationLine& line, std::string_view source, const std::string& file, const SizeSpec& sizes,
                          const NamedValues& values, std::vector<std::string>* notes) {
    const std::string where = file + ":" + std::to_string(line.number) + ": kplay-constant";
    if (line.tokens.size() < 2 || line.tokens[1].find('[') == std::string::npos)
        throw InputError(where + " needs a name and TYPE[LENGTH], e.g. '// kplay-constant: filter f32[9] init=uniform(-1,1)'");
    DeclarationLine as_input = line;
    as_input.tokens.insert(as_input.tokens.begin() + 2, "in");
    BufferSpec buffer = parse_buffer(as_input, file, sizes, values, notes);
    buffer.constant = true;
    const std::string blank = blank_comments_and_strings(source);
    if (!std::regex_search(blank, std::regex("__constant__[^;{}()]*\\b" + buffer.name + "\\s*\\[")))
        throw InputError(where + " '" + buffer.name + "': the file declares no `__constant__` array named '" + buffer.name +
                         "'; declare it at namespace scope, e.g. `__constant__ " + constant_c_type(buffer.type) + " " + buffer.name + "[" +
                         buffer.length + "];` (a fixed length that holds it)");
    return buffer;
}

}  // namespace

std::optional<TaskSpec> parse_task_declaration(std::string_view source, const std::filesystem::path& path, std::vector<std::string>* notes) {
    const std::vector<DeclarationLine> lines = find_declaration_lines(source);
    if (lines.empty()) return std::nullopt;
    const std::string file = path.filename().string();
    auto at = [&](const DeclarationLine& line) { return file + ":" + std::to_string(line.number) + ": kplay-" + line.kind + ": "; };

    TaskSpec task;
    task.name = default_name(path);
    task.declaration_line = lines.front().number;
    const DeclarationLine* task_line = nullptr;
    const DeclarationLine* cost_line = nullptr;
    bool have_sizes = false;
    for (const auto& line : lines) {
        if (line.kind == "sizes") {
            if (have_sizes) throw InputError(at(line) + "the sizes are declared twice (one kplay-sizes line names them all)");
            task.sizes = parse_sizes(line, at(line));
            have_sizes = true;
        } else if (line.kind == "task" || line.kind == "cost") {
            const DeclarationLine*& slot = line.kind == "task" ? task_line : cost_line;
            if (slot) throw InputError(at(line) + "given twice");
            slot = &line;
        } else if (line.kind != "buffer" && line.kind != "constant" && line.kind != "launch") {  // kplay-launch lines belong to the kernel spec
            throw InputError(file + ":" + std::to_string(line.number) + ": unknown line 'kplay-" + line.kind +
                             ":' (known: kplay-task, kplay-sizes, kplay-buffer, kplay-constant, kplay-cost, kplay-launch, kplay-tma, kplay-texture, kplay-surface, kplay-struct, kplay-sweep, kplay-torch)");
        }
    }
    const NamedValues values = size_values(task, task.sizes.gpu_default);
    std::set<std::string> names;
    for (const auto& line : lines) {
        if (line.kind != "buffer" && line.kind != "constant") continue;
        BufferSpec buffer = line.kind == "buffer" ? parse_buffer(line, file, task.sizes, values, notes)
                                                  : parse_constant(line, source, file, task.sizes, values, notes);
        if (!names.insert(buffer.name).second) throw InputError(at(line) + "buffer '" + buffer.name + "' is declared twice");
        task.buffers.push_back(std::move(buffer));
    }
    const int first = lines.front().number;
    if (task.buffers.empty())
        throw InputError(file + ":" + std::to_string(first) + ": the task declares no buffers: add lines like '// kplay-buffer: x f32[n] in'");
    if (!task.primary_output())
        throw InputError(file + ":" + std::to_string(first) + ": the task has no checked output: give a buffer the role out or inout");
    if (cost_line) {
        task.cost = parse_cost(*cost_line, at(*cost_line), values);
        for (const auto& name : task.cost.gemm)
            if (!task.find_buffer(name) && !values.count(name))
                throw InputError(at(*cost_line) + "gemm=" + join(task.cost.gemm, ",") + ": '" + name + "' is neither a buffer nor a size");
        if (task.cost.ceiling == CeilingKind::cublas) check_cublas_types(task, at(*cost_line));
    }
    if (task.cost.bytes.empty()) {
        task.cost.bytes = default_bytes(task.buffers);
        if (notes) notes->push_back("cost: bytes = every buffer read or written once (" + task.cost.bytes + ")");
    }
    task.presentation = default_presentation(task, values);
    if (task_line) apply_task_line(*task_line, at(*task_line), task, values);
    return task;
}

}  // namespace kplay
