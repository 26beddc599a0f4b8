// Annotation parsing and spec inference.
#include "spec/kernel_spec.hpp"

#include <sstream>

#include "base/error.hpp"
#include "tasks/task_registry.hpp"

namespace kplay {

namespace {

const char* const kKnownKeys = "task, kernel, args, launch, block, grid, smem, defines, tol";

std::string trim(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r");
    if (first == std::string::npos) return {};
    return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

std::string base_name(const std::string& name_expression) {
    return trim(name_expression.substr(0, name_expression.find('<')));
}

std::string list_kernels(const std::vector<KernelDecl>& kernels) {
    std::string text;
    for (const auto& kernel : kernels)
        text += (text.empty() ? "" : ", ") + kernel.name + (kernel.is_template ? "<...>" : "") + " (line " +
                std::to_string(kernel.line) + ")";
    return text;
}

}  // namespace

std::vector<std::string> split_list(const std::string& text, char separator) {
    std::vector<std::string> parts;
    std::string part;
    int depth = 0;  // keep commas inside (...) or <...> together: "cdiv(n,256)", "k<16,2>"
    for (char c : text) {
        if (c == '(' || c == '<') ++depth;
        if (c == ')' || c == '>') --depth;
        if (c == separator && depth <= 0) {
            if (!trim(part).empty()) parts.push_back(trim(part));
            part.clear();
        } else {
            part += c;
        }
    }
    if (!trim(part).empty()) parts.push_back(trim(part));
    return parts;
}

const KernelDecl* KernelSpec::declaration() const {
    const std::string base = base_name(kernel);
    for (const auto& decl : kernels)
        if (decl.name == base) return &decl;
    return nullptr;
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
        // so "smem=2 * tw * tw * 4" reads as one expression.
        std::istringstream tokens(line.substr(marker + 6));
        std::string token;
        while (tokens >> token) {
            const auto equals = token.find('=');
            const std::string key = equals == std::string::npos ? "" : token.substr(0, equals);
            const bool is_key = !key.empty() && key.find_first_not_of("abcdefghijklmnopqrstuvwxyz_") == std::string::npos;
            if (is_key) {
                annotation.entries.emplace_back(key, token.substr(equals + 1));
            } else if (!annotation.entries.empty()) {
                annotation.entries.back().second += token;
            } else {
                throw InputError("kplay annotation at line " + std::to_string(number) + ": expected key=value, got '" +
                                 token + "' (keys: " + kKnownKeys + ")");
            }
        }
        return annotation;
    }
    return std::nullopt;
}

KernelSpec resolve_kernel_spec(std::string_view source, const std::filesystem::path& path) {
    KernelSpec spec;
    spec.kernels = find_kernels(source);
    const std::string where = path.filename().string();
    bool has_task = false, has_kernel = false, has_args = false, has_launch = false, has_block = false;

    if (const auto annotation = find_annotation(source)) {
        spec.annotation_line = annotation->line;
        const std::string at = where + ":" + std::to_string(annotation->line) + ": kplay annotation: ";
        for (const auto& [key, value] : annotation->entries) {
            if (value.empty()) throw InputError(at + "'" + key + "=' has no value");
            if (key == "task") { spec.task = value; has_task = true; }
            else if (key == "kernel") { spec.kernel = value; has_kernel = true; }
            else if (key == "args") { spec.args = split_list(value); has_args = true; }
            else if (key == "launch") {
                if (value != "1d" && value != "2d") throw InputError(at + "launch must be 1d or 2d, not '" + value + "'");
                spec.launch_dims = value == "1d" ? 1 : 2;
                has_launch = true;
            } else if (key == "block") { spec.block = split_list(value); has_block = true; }
            else if (key == "grid") {
                if (value != "auto") spec.grid = split_list(value);
            } else if (key == "smem") { spec.smem = value; }
            else if (key == "defines") {
                for (const auto& define : split_list(value)) {
                    const auto equals = define.find('=');
                    spec.defines.emplace_back(define.substr(0, equals),
                                              equals == std::string::npos ? "" : define.substr(equals + 1));
                }
            } else if (key == "tol") {
                try { spec.tolerance = std::stod(value); }
                catch (...) { throw InputError(at + "tol must be a number, not '" + value + "'"); }
            } else {
                throw InputError(at + "unknown key '" + key + "' (keys: " + kKnownKeys + ")");
            }
        }
        if (spec.block.size() > 3 || spec.grid.size() > 3)
            throw InputError(at + "block and grid take at most 3 values (x,y,z)");
    }

    if (!has_task) {
        const std::string folder = path.parent_path().filename().string();
        if (!find_task(folder)) {
            throw InputError(where + ": cannot tell the task. Put the file in a task folder (" + task_names() +
                             ") or add '// kplay: task=NAME'.");
        }
        spec.task = folder;
        spec.inferred.push_back("task from folder: " + folder);
    }
    const Task* task = find_task(spec.task);
    if (!task) throw InputError(where + ": unknown task '" + spec.task + "' (known: " + task_names() + ")");

    if (!has_kernel) {
        if (spec.kernels.empty()) throw InputError(where + ": no __global__ kernel found in the file.");
        if (spec.kernels.size() > 1)
            throw InputError(where + ": the file has " + std::to_string(spec.kernels.size()) +
                             " kernels: " + list_kernels(spec.kernels) + ". Say which with '// kplay: kernel=NAME'.");
        if (spec.kernels.front().is_template)
            throw InputError(where + ": kernel " + spec.kernels.front().name +
                             " is a template; name an instance, e.g. '// kplay: kernel=" + spec.kernels.front().name + "<16>'.");
        spec.kernel = spec.kernels.front().name;
        spec.inferred.push_back("kernel: the only __global__ in the file");
    } else if (!spec.declaration()) {
        throw InputError(where + ": no kernel named '" + base_name(spec.kernel) + "'. The file has: " +
                         (spec.kernels.empty() ? std::string("no __global__ kernels") : list_kernels(spec.kernels)) + ".");
    }

    const KernelDecl* decl = spec.declaration();
    const size_t param_count = decl ? decl->params.size() : 0;
    if (!has_launch) {
        spec.launch_dims = task->default_launch_dims(param_count);
        spec.inferred.push_back("launch: " + std::to_string(spec.launch_dims) + "d");
    }
    if (!has_args) {
        spec.args = task->canonical_args(param_count);
        if (spec.args.empty()) {
            std::string names;
            for (const auto& name : task->value_names()) names += (names.empty() ? "" : ",") + name;
            throw InputError(where + ": cannot infer the arguments of " + spec.kernel + " (" + std::to_string(param_count) +
                             " parameters) for task " + spec.task + ". Add '// kplay: args=...' using " + names +
                             " and literals like tw=16.");
        }
        std::string joined;
        for (const auto& arg : spec.args) joined += (joined.empty() ? "" : ",") + arg;
        spec.inferred.push_back("args: " + joined);
    }
    if (!has_block) {
        spec.block = task->default_block(spec.launch_dims);
        std::string joined;
        for (const auto& b : spec.block) joined += (joined.empty() ? "" : ",") + b;
        spec.inferred.push_back("block: " + joined);
    }
    return spec;
}

}  // namespace kplay
