// Annotation parsing, the task a file runs, and what can be inferred about its kernel.
#include "kernel_file/kernel_spec.hpp"
#include "kernel_file/kernel_types.hpp"
#include "kernel_file/task_sizes.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/source_scan.hpp"
#include "kernel_file/builtin_tasks.hpp"
#include "kernel_file/host_code.hpp"
#include "kernel_file/host_launch.hpp"
#include "kernel_file/kplay_lines.hpp"
#include "kernel_file/nvrtc_options.hpp"
#include "kernel_file/reference_includes.hpp"
#include "kernel_file/target_arch.hpp"
#include "kernel_file/task_declaration.hpp"

namespace kplay {

namespace {

const char* const kKnownKeys = "task, kernel, args, launch, block, grid, smem, cluster, arch, defines, tol, requires, nvrtc, include, cooperative";

std::string base_name(const std::string& name_expression) { return trim(name_expression.substr(0, name_expression.find('<'))); }

std::string list_kernels(const std::vector<KernelDecl>& kernels) {
    std::vector<std::string> names;
    for (const auto& kernel : kernels)
        names.push_back(kernel.qualified_name() + (kernel.is_template ? "<...>" : "") + " (line " + std::to_string(kernel.line) + ")");
    return join(names);
}

// A name expression as NVRTC and the host compiler must see it from outside the kernel's namespaces:
// `kernel=rms_norm_kernel<float>` for a kernel in namespace vllm is vllm::rms_norm_kernel<float>.
std::string qualified_expression(const std::string& expression, const KernelDecl* decl) {
    if (!decl || decl->scope.empty() || base_name(expression).find("::") != std::string::npos) return expression;
    return decl->scope + "::" + trim(expression);
}

std::string param_list(const KernelDecl& decl) {
    std::vector<std::string> names;
    for (const auto& param : decl.params) names.push_back(param.name.empty() ? param.type : param.name);
    return join(names);
}

struct Settings {
    bool has_kernel = false, has_args = false, has_launch = false, has_block = false, has_grid = false;
    std::optional<bool> cooperative;
    std::string task_name;
};

Settings apply_annotation(const Annotation& annotation, const std::string& where, KernelSpec& spec) {
    Settings settings;
    const std::string at = where + ":" + std::to_string(annotation.line) + ": kplay annotation: ";
    for (const auto& [key, value] : annotation.entries) {
        if (value.empty()) throw InputError(at + "'" + key + "=' has no value");
        if (key == "task") settings.task_name = value;
        else if (key == "kernel") { spec.kernel = value; settings.has_kernel = true; }
        else if (key == "args") { spec.args = split_list(value); settings.has_args = true; }
        else if (key == "launch") {
            if (value != "1d" && value != "2d") throw InputError(at + "launch must be 1d or 2d, not '" + value + "'");
            spec.launch_dims = value == "1d" ? 1 : 2;
            settings.has_launch = true;
        } else if (key == "block") { spec.block = split_list(value); settings.has_block = true; }
        else if (key == "grid") {
            settings.has_grid = true;
            if (value != "auto") spec.grid = split_list(value);
        } else if (key == "smem") { spec.smem = value; }
        else if (key == "cluster") { spec.cluster = split_list(value); }
        else if (key == "arch") {
            if (!is_arch_name(value))
                throw InputError(at + "arch must name a GPU target like sm_90, sm_90a or sm_100a, not '" + value + "'");
            spec.arch = value;
        }
        else if (key == "requires") { spec.requirement = value; }
        else if (key == "nvrtc") {
            try {
                const std::vector<std::string> options = parse_nvrtc_options(value);
                spec.nvrtc_options.insert(spec.nvrtc_options.end(), options.begin(), options.end());
            } catch (const InputError& error) {
                throw InputError(at + error.what());
            }
        } else if (key == "include") {
            for (const auto& dir : split_list(value)) spec.include_dirs.push_back(dir);
        } else if (key == "cooperative") {
            if (value != "yes" && value != "no") throw InputError(at + "cooperative must be yes or no, not '" + value + "'");
            settings.cooperative = value == "yes";
        }
        else if (key == "defines") {
            for (const auto& define : split_list(value)) {
                const auto equals = define.find('=');
                spec.defines.emplace_back(define.substr(0, equals), equals == std::string::npos ? "" : define.substr(equals + 1));
            }
        } else if (key == "tol") {
            try { spec.tolerance = std::stod(value); }
            catch (...) { throw InputError(at + "tol must be a number, not '" + value + "'"); }
        } else {
            throw InputError(at + "unknown key '" + key + "' (keys: " + kKnownKeys + ")");
        }
    }
    if (spec.block.size() > 3 || spec.grid.size() > 3 || spec.cluster.size() > 3)
        throw InputError(at + "block, grid and cluster take at most 3 values (x,y,z)");
    return settings;
}

// The task: the file's own declaration, else a built-in one named by task= or by the folder.
TaskSpec choose_task(std::string_view source, const std::filesystem::path& path, const std::string& named, KernelSpec& spec) {
    const std::string where = path.filename().string();
    std::vector<std::string> notes;
    std::optional<TaskSpec> declared = parse_task_declaration(source, path, &notes);
    if (declared) {
        if (const TaskSpec* builtin = find_builtin_task(named); builtin && !named.empty())
            throw InputError(where + ": the file declares its own task (line " + std::to_string(declared->declaration_line) +
                             ") but its annotation names the built-in task '" + builtin->name + "'; drop task=" + named +
                             " or the kplay-buffer lines");
        if (!named.empty()) declared->name = named;
        for (auto& note : notes) spec.inferred.push_back(std::move(note));
        return std::move(*declared);
    }
    if (!named.empty()) {
        if (const TaskSpec* builtin = find_builtin_task(named)) return *builtin;
        throw InputError(where + ": unknown task '" + named + "' (built in: " + builtin_task_names() +
                         "). To declare your own, add kplay-sizes and kplay-buffer lines (README, \"Your own task\").");
    }
    const std::string folder = kernel_folder_name(path);  // where the file lies, whatever the path typed
    if (const TaskSpec* builtin = find_builtin_task(folder)) {
        spec.inferred.push_back("task from folder: " + folder);
        return *builtin;
    }
    throw InputError(where + ": cannot tell the task. Put the file in a task folder (" + builtin_task_names() +
                     "), add '// kplay: task=NAME', or declare the task in the file with kplay-sizes and kplay-buffer lines "
                     "(README, \"Your own task\").");
}

void choose_kernel(const std::string& where, bool named, KernelSpec& spec) {
    if (named) {
        if (!spec.declaration())
            throw InputError(where + ": no kernel named '" + base_name(spec.kernel) + "'. The file has: " +
                             (spec.kernels.empty() ? std::string("no __global__ kernels") : list_kernels(spec.kernels)) + ".");
        spec.kernel = qualified_expression(spec.kernel, spec.declaration());
        return;
    }
    if (spec.kernels.empty()) throw InputError(where + ": no __global__ kernel found in the file.");
    if (spec.kernels.size() > 1)
        throw InputError(where + ": the file has " + std::to_string(spec.kernels.size()) + " kernels: " + list_kernels(spec.kernels) +
                         ". Say which with '// kplay: kernel=NAME'.");
    if (spec.kernels.front().is_template)
        throw InputError(where + ": kernel " + spec.kernels.front().qualified_name() + " is a template; name an instance, e.g. '// kplay: kernel=" +
                         spec.kernels.front().qualified_name() + "<16>'.");
    spec.kernel = spec.kernels.front().qualified_name();
    spec.inferred.push_back("kernel: the only __global__ in the file");
}

// Arguments without `args`: a built-in task's canonical order for this many parameters, or, for a
// declared task, each parameter bound to the buffer or size of its own name.
void infer_arguments(const std::string& where, const Settings& settings, KernelSpec& spec) {
    const KernelDecl* decl = spec.declaration();
    const size_t count = decl ? decl->params.size() : 0;
    const TaskSpec& task = spec.task;
    const CanonicalBinding* canonical = nullptr;
    for (const auto& binding : task.canonical)
        if (binding.params == count) canonical = &binding;
    if (!settings.has_launch) {
        spec.launch_dims = canonical ? canonical->launch_dims : 1;
        spec.inferred.push_back("launch: " + std::to_string(spec.launch_dims) + "d");
    }
    if (settings.has_args) return;
    if (canonical) {
        spec.args = canonical->args;
    } else if (!task.builtin && decl) {
        const NamedValues sizes = size_values(task, task.sizes.gpu_default);
        for (const auto& param : decl->params) {
            if (!task.find_buffer(param.name) && !sizes.count(param.name) && !spec.tensor_map(param.name) && !spec.texture(param.name) && !spec.struct_arg(param.name)) {
                std::vector<std::string> buffers;
                for (const auto& buffer : task.buffers) buffers.push_back(buffer.name);
                std::vector<std::string> names;
                for (const auto& [name, value] : sizes) names.push_back(name);
                throw InputError(where + ": cannot infer the arguments of " + spec.kernel + ": its parameter '" + param.name +
                                 "' is neither a buffer (" + join(buffers) + ") nor a size (" + join(names) +
                                 "). Name the parameters after them, add '// kplay: args=...', or, for a struct of buffers and sizes, "
                                 "'// kplay-struct: " + param.name + " FIELD=VALUE...'.");
            }
            spec.args.push_back(param.name);
        }
    } else {
        std::vector<std::string> names;
        for (const auto& buffer : task.buffers) names.push_back(buffer.name);
        for (const auto& [name, value] : size_values(task, task.sizes.gpu_default)) names.push_back(name);
        throw InputError(where + ": cannot infer the arguments of " + spec.kernel + " (" + std::to_string(count) +
                         " parameters) for task " + task.name + ". Add '// kplay: args=...' using " + join(names, ",") +
                         " and literals like tw=16.");
    }
    spec.inferred.push_back("args: " + join(spec.args, ","));
}

// A host reference must exist under #ifdef KPLAY_REFERENCE and take what the kernel takes (one launch): it is
// called with the kernel's arguments.
void check_host_reference(std::string_view source, const std::string& where, KernelSpec& spec) {
    const ReferenceSpec& reference = spec.task.reference;
    if (reference.kind != ReferenceKind::host) return;
    const std::string& name = reference.function;
    const std::optional<KernelDecl> function = find_function(source, name);
    if (!function)
        throw InputError(where + ": no reference for task " + spec.task.name + ": kplay checks the kernel against it. Add a host function " +
                         "`void " + name + "(...)` taking the kernel's arguments, under `#ifdef KPLAY_REFERENCE` (NVRTC skips it), or " +
                         "name a trusted kernel with '// kplay-task: reference=FILE.cu:KERNEL'.");
    const std::vector<bool> guarded = lines_defining(source, "KPLAY_REFERENCE");
    if (function->line >= static_cast<int>(guarded.size()) || !guarded[function->line])
        throw InputError(expanded_location(source, function->line, where) + ": " + name +
                         " is not under `#ifdef KPLAY_REFERENCE`, so NVRTC would compile it too; wrap it in #ifdef KPLAY_REFERENCE ... #endif.");
    spec.reference_function = function;
    // A task of several launches hands its reference every declared buffer and size instead, which the
    // reference's runner checks against the built reference (reference/host_reference_runner.cpp).
    if (!spec.following.empty()) return;
    const KernelDecl* kernel = spec.declaration();
    if (!kernel) return;
    const std::string at = expanded_location(source, function->line, where) + ": the reference " + name;
    const TypeAliases aliases = type_aliases(source);
    // The kernel's arguments, or those then the task's sizes in order (a kernel without a size parameter).
    const size_t sizes = spec.task.sizes.names.size();
    const bool with_sizes = sizes > 0 && function->params.size() == kernel->params.size() + sizes;
    if (function->params.size() != kernel->params.size() && !with_sizes)
        throw InputError(at + " takes " + std::to_string(function->params.size()) + " parameters, but kernel " + kernel->name + " takes " +
                         std::to_string(kernel->params.size()) + " (" + param_list(*kernel) +
                         "): the reference is called with the kernel's arguments" +
                         (sizes ? ", and may take the task's sizes after them (" + join(spec.task.sizes.names, ", ") + ")" : std::string()) + ".");
    for (size_t i = 0; i < kernel->params.size(); ++i) {
        const KernelParam& want = kernel->params[i];
        const KernelParam& got = function->params[i];
        const std::string which = "parameter " + std::to_string(i + 1) + " ('" + trim(got.type + " " + got.name) + "')";
        const std::string theirs = "the kernel's ('" + trim(want.type + " " + want.name) + "')";
        if (const TextureDecl* image = spec.texture(i < spec.args.size() ? spec.args[i] : want.name)) {
            if (!got.is_pointer())  // the reference takes the texture's or surface's buffer
                throw InputError(at + ": " + which + " is a value, but " + theirs + " is " + image->key() + " " + image->name + " over buffer " +
                                 image->buffer + ", and the reference gets that buffer: take a pointer to its elements.");
            continue;
        }
        if (got.is_pointer() != want.is_pointer())
            throw InputError(at + ": " + which + (got.is_pointer() ? " is a pointer" : " is a value") + ", but " + theirs +
                             (want.is_pointer() ? " is a pointer." : " is a value."));
        // Compared as the compiler sees them (aliases resolved); a type only the compiler can tell (a template
        // parameter, a struct) is left to the size check when the reference is built.
        const std::string got_type = canonical_type(got.type, aliases), want_type = canonical_type(want.type, aliases);
        if (!kernel->is_template && is_builtin_type(got_type) && is_builtin_type(want_type) && got_type != want_type)
            throw InputError(at + ": " + which + " has type '" + got_type + "', but " + theirs + " has '" + want_type + "'.");
    }
}

// `// kplay-launch: KERNEL block=... grid=... smem=... args=...`: the launches after the annotated one.
// Tokens continue the previous value like the annotation's ("grid=cdiv(n, 1024)").
void read_following_launches(std::string_view source, const std::string& where, KernelSpec& spec) {
    for (const KplayLine& found : kplay_lines(source, "launch")) {
        const int number = found.number;
        const std::string& rest = found.rest;
        const std::string at = where + ":" + std::to_string(number) + ": kplay-launch: ";
        const std::vector<std::string> tokens = annotation_tokens(rest);
        FollowingLaunch launch;
        launch.line = number;
        if (tokens.empty() || tokens.front().find('=') != std::string::npos)
            throw InputError(at + "name the kernel first, e.g. '// kplay-launch: add_block_sums grid=cdiv(n,1024)'");
        launch.kernel = unquoted(tokens.front());
        std::vector<std::pair<std::string, std::string>> entries;
        for (size_t t = 1; t < tokens.size(); ++t) {
            const std::string token = unquoted(tokens[t]);
            const auto equals = token.find('=');
            const std::string key = equals == std::string::npos ? "" : token.substr(0, equals);
            if (key == "block" || key == "grid" || key == "smem" || key == "args") {
                for (const auto& entry : entries)
                    if (entry.first == key) throw InputError(at + "'" + key + "' is given twice");
                entries.emplace_back(key, token.substr(equals + 1));
            } else if (!entries.empty()) {
                continue_value(entries.back().second, token);
            } else {
                throw InputError(at + "expected key=value, got '" + token + "' (keys: block, grid, smem, args)");
            }
        }
        bool has_args = false;
        for (const auto& [key, value] : entries) {
            if (value.empty()) throw InputError(at + "'" + key + "=' has no value");
            if (key == "smem") launch.smem = value;
            else if (key == "block") launch.block = split_list(value);
            else if (key == "grid") launch.grid = value == "auto" ? std::vector<std::string>{} : split_list(value);
            else {
                launch.args = split_list(value);
                has_args = true;
            }
        }
        if (launch.block.size() > 3 || launch.grid.size() > 3) throw InputError(at + "block and grid take at most 3 values (x,y,z)");
        const KernelDecl* decl = spec.declaration_of(launch.kernel);
        if (!decl)
            throw InputError(at + "no kernel named '" + base_name(launch.kernel) + "'. The file has: " +
                             (spec.kernels.empty() ? std::string("no __global__ kernels") : list_kernels(spec.kernels)) + ".");
        if (decl->is_template && launch.kernel.find('<') == std::string::npos)
            throw InputError(at + "kernel " + decl->name + " is a template; name an instance, e.g. " + decl->name + "<16>");
        if (!has_args) {
            // Bound by parameter name, as a declared task's annotated kernel is.
            const NamedValues sizes = size_values(spec.task, spec.task.sizes.gpu_default);
            for (const auto& param : decl->params) {
                if (!spec.task.find_buffer(param.name) && !sizes.count(param.name) && !spec.tensor_map(param.name) && !spec.texture(param.name) && !spec.struct_arg(param.name))
                    throw InputError(at + "cannot infer the arguments of " + launch.kernel + ": its parameter '" + param.name +
                                     "' is neither a buffer nor a size. Name it after one, or add args=...");
                launch.args.push_back(param.name);
            }
        }
        if (launch.block.empty()) launch.block = spec.block;
        spec.following.push_back(std::move(launch));
    }
}

// Each descriptor names a task buffer and is bound by `args` (or by parameter name), so a typo is found
// here rather than as an unbound argument.
void check_tensor_map_arguments(const std::string& where, const KernelSpec& spec) {
    for (const auto& map : spec.tensor_maps) {
        const std::string at = where + ":" + std::to_string(map.line) + ": kplay-tma: " + map.name + ": ";
        if (!spec.task.find_buffer(map.buffer)) {
            std::vector<std::string> names;
            for (const auto& buffer : spec.task.buffers) names.push_back(buffer.name);
            throw InputError(at + "buffer=" + map.buffer + " is not one of the task's buffers (" + join(names) + ")");
        }
        if (spec.task.find_buffer(map.name)) throw InputError(at + "a descriptor cannot have the name of a buffer; call it e.g. " + map.name + "_map");
        bool bound = std::find(spec.args.begin(), spec.args.end(), map.name) != spec.args.end();
        for (const auto& launch : spec.following) bound = bound || std::find(launch.args.begin(), launch.args.end(), map.name) != launch.args.end();
        if (!bound)
            throw InputError(at + "no launch passes it: name it in args= where the kernel takes it (args=" + join(spec.args, ",") + ")");
    }
}

}  // namespace

const KernelDecl* KernelSpec::declaration() const { return declaration_of(kernel); }

const TensorMapDecl* KernelSpec::tensor_map(const std::string& name) const {
    for (const auto& map : tensor_maps)
        if (map.name == name) return &map;
    return nullptr;
}

const TextureDecl* KernelSpec::texture(const std::string& name) const {
    for (const auto& image : textures)
        if (image.name == name) return &image;
    return nullptr;
}

const KernelDecl* KernelSpec::declaration_of(const std::string& name_expression) const {
    std::string base = base_name(name_expression);
    if (base.rfind("::", 0) == 0) base.erase(0, 2);
    for (const auto& decl : kernels)
        if (decl.name == base || decl.qualified_name() == base) return &decl;
    return nullptr;
}

const StructDecl* KernelSpec::struct_arg(const std::string& name) const {
    for (const auto& decl : structs)
        if (decl.param == name) return &decl;
    return nullptr;
}

std::vector<std::string> KernelSpec::gpu_only_features() const {
    std::vector<std::string> features;
    const std::string line = " (line " + std::to_string(annotation_line) + ")";
    if (!arch.empty()) features.push_back("arch=" + arch + line);
    if (!cluster.empty()) features.push_back("cluster=" + join(cluster, ",") + line);
    for (const auto& map : tensor_maps) features.push_back("the TMA descriptor " + map.name + " (kplay-tma, line " + std::to_string(map.line) + ")");
    return features;
}

std::vector<std::string> KernelSpec::kernel_expressions() const {
    std::vector<std::string> names{kernel};
    for (const auto& launch : following)
        if (std::find(names.begin(), names.end(), launch.kernel) == names.end()) names.push_back(launch.kernel);
    return names;
}

std::vector<std::string> annotation_tokens(const std::string& text) {
    std::vector<std::string> tokens;
    std::string token;
    bool quoted = false, in_token = false;
    for (char c : text) {
        if (c == '"') {
            quoted = !quoted;
            in_token = true;
            token += c;
        } else if (!quoted && std::isspace(static_cast<unsigned char>(c))) {
            if (in_token) tokens.push_back(token);
            token.clear();
            in_token = false;
        } else {
            token += c;
            in_token = true;
        }
    }
    if (in_token) tokens.push_back(token);
    return tokens;
}

std::string unquoted(const std::string& value) {
    std::string out;
    for (char c : value)
        if (c != '"') out += c;
    return out;
}

void continue_value(std::string& value, const std::string& token) {
    const auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    // Two words stay two words ("unsigned int", "(const float*)"); "cdiv(n," and "1024)" join as written.
    if (!value.empty() && !token.empty() && word(value.back()) && word(token.front())) value += ' ';
    value += token;
}

std::optional<Annotation> find_annotation(std::string_view source) {
    std::istringstream lines{std::string(source)};
    std::string line;
    int number = 0;
    while (std::getline(lines, line)) {
        ++number;
        const auto marker = line.find("kplay:");
        const auto comment = line.find("//");
        if (marker == std::string::npos || comment == std::string::npos || comment > marker) continue;
        if (trim(line.substr(comment + 2, marker - comment - 2)) != "") continue;  // "// kplay:" only
        Annotation annotation;
        annotation.line = number;
        // Tokens are key=value separated by spaces; a token without '=' continues the previous value,
        // so "smem=2 * tw * tw * 4" reads as one expression and "kernel=k<unsigned int, 256>" keeps its space.
        for (const std::string& token : annotation_tokens(line.substr(marker + 6))) {
            const auto equals = token.find('=');
            const std::string key = equals == std::string::npos ? "" : token.substr(0, equals);
            const bool is_key = !key.empty() && key.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos;
            if (is_key) {
                annotation.entries.emplace_back(key, unquoted(token.substr(equals + 1)));
            } else if (!annotation.entries.empty()) {
                continue_value(annotation.entries.back().second, unquoted(token));
            } else {
                throw InputError("kplay annotation at line " + std::to_string(number) + ": expected key=value, got '" + token +
                                 "' (keys: " + kKnownKeys + ")");
            }
        }
        return annotation;
    }
    return std::nullopt;
}

namespace {

KernelSpec resolve(std::string_view source, const std::filesystem::path& path, const TaskSpec* fixed_task,
                   std::string* reference_source) {
    KernelSpec spec;
    spec.kernels = find_kernels(source);
    const std::string where = path.filename().string();
    Settings settings;
    if (const auto annotation = find_annotation(source)) {
        spec.annotation_line = annotation->line;
        settings = apply_annotation(*annotation, where, spec);
    }
    spec.cooperative = settings.cooperative.value_or(false);
    if (!settings.cooperative && uses_grid_sync(source)) {
        spec.cooperative = true;
        spec.inferred.push_back("cooperative: the file calls this_grid() (cooperative=no to launch it plainly)");
    }
    spec.task = fixed_task ? *fixed_task : choose_task(source, path, settings.task_name, spec);
    choose_kernel(where, settings.has_kernel, spec);
    spec.tensor_maps = read_tensor_map_lines(source, where);  // before the arguments: a parameter may be named after one
    spec.textures = read_texture_lines(source, where);
    spec.structs = read_struct_lines(source, where, spec.kernels);
    infer_arguments(where, settings, spec);
    // A load_inline wrapper or a main() that launches the kernel plainly gives its block and grid.
    if (!settings.has_block && !settings.has_grid) take_launch_from_host_code(source, settings.has_launch, spec);
    if (const std::string set_aside = describe_set_aside(set_aside_host_code(source).set_aside); !set_aside.empty())
        spec.inferred.push_back(set_aside);
    if (!settings.has_block && spec.block.empty()) {
        spec.block = spec.launch_dims == 2 ? std::vector<std::string>{"16", "16"} : std::vector<std::string>{"256"};
        spec.inferred.push_back("block: " + join(spec.block, ","));
    }
    read_following_launches(source, where, spec);
    for (FollowingLaunch& launch : spec.following) launch.kernel = qualified_expression(launch.kernel, spec.declaration_of(launch.kernel));
    check_tensor_map_arguments(where, spec);
    std::vector<std::vector<std::string>> arg_lists{spec.args};
    for (const auto& launch : spec.following) arg_lists.push_back(launch.args);
    check_texture_arguments(where, spec.textures, spec.task, arg_lists);
    // A host reference may live in a header the file includes under KPLAY_REFERENCE (a ladder's one
    // reference.h): it is looked for, and checked, in the text the reference is built from.
    if (!fixed_task && spec.task.reference.kind == ReferenceKind::host) {
        std::string expanded = expand_reference_includes(source, path);
        check_host_reference(expanded, where, spec);
        if (reference_source) *reference_source = std::move(expanded);
    } else if (reference_source) {
        *reference_source = std::string(source);
    }
    return spec;
}

}  // namespace

KernelSpec resolve_kernel_spec(std::string_view source, const std::filesystem::path& path, std::string* reference_source) {
    return resolve(source, path, nullptr, reference_source);
}

KernelSpec resolve_kernel_spec_for_task(std::string_view source, const std::filesystem::path& path, const TaskSpec& task) {
    return resolve(source, path, &task, nullptr);
}

}  // namespace kplay
