// Every device function CUDA declares runs on the emulated device or is refused by name. The list comes
// from the toolkit's own headers, parsed here at test time (the __device__ declarations of the math,
// intrinsic, atomic, warp, half, bfloat16, fp8, texture and surface headers), kept to the names NVRTC
// itself accepts for sm_90. Each must be declared by the emulated device's prelude; the ones it refuses
// (kplay_emu_refused.h) must, when called, fail to build with a message that names them.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "base/install_paths.hpp"
#include "base/subprocess.hpp"
#include "compile/nvrtc_compiler.hpp"
#include "emu/host_compiler.hpp"
#include "test_support.hpp"

namespace kplay {
namespace {

namespace fs = std::filesystem;

const char* const kHeaders[] = {"crt/math_functions.h",   "crt/device_functions.h", "crt/device_double_functions.h", "device_atomic_functions.h",
                                "sm_20_atomic_functions.h", "sm_32_atomic_functions.h", "sm_35_atomic_functions.h", "sm_60_atomic_functions.h",
                                "sm_20_intrinsics.h",       "sm_30_intrinsics.h",       "sm_32_intrinsics.h",       "sm_35_intrinsics.h",
                                "sm_61_intrinsics.h",       "crt/sm_70_rt.h",           "crt/sm_80_rt.h",           "crt/sm_90_rt.h",
                                "cuda_fp16.h",              "cuda_bf16.h",              "cuda_fp8.h",               "texture_indirect_functions.h",
                                "surface_indirect_functions.h"};

// Comments out, continued lines joined.
std::string without_comments(const std::string& text) {
    std::string out;
    for (size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 2, "/*") == 0) {
            const size_t end = text.find("*/", i + 2);
            i = end == std::string::npos ? text.size() : end + 1;
            out += ' ';
        } else if (text.compare(i, 2, "//") == 0) {
            while (i < text.size() && text[i] != '\n') ++i;
            out += '\n';
        } else if (text.compare(i, 2, "\\\n") == 0) {
            ++i;
        } else {
            out += text[i];
        }
    }
    return out;
}

struct Walk {
    std::set<std::string> device_macros{"__device__"};  // macros whose value says __device__, as their headers spell them
    std::set<std::string> function_macros;               // NAME(...) macros: not functions
    std::set<std::string> names;
};

// The declarations of one header: statements at namespace scope that mention a device macro, named by
// the identifier before their first top-level parenthesis.
void collect_declarations(const std::string& text, Walk& walk) {
    static const std::regex token(R"(""|[A-Za-z_]\w*|::|\S)");
    static const std::set<std::string> not_names = {"__attribute__", "__declspec", "alignas", "decltype", "__align__",
                                                    "__launch_bounds__", "sizeof", "operator"};
    std::vector<std::string> statement;
    std::vector<bool> transparent;  // per open brace: namespace or extern "C" (its body is still namespace scope)
    auto declare = [&]() {
        const bool device = std::any_of(statement.begin(), statement.end(), [&](const std::string& t) { return walk.device_macros.count(t) > 0; });
        size_t first = 0;
        if (!statement.empty() && statement[0] == "template") {  // past the template's parameter list
            int depth = 0;
            for (first = 1; first < statement.size(); ++first) {
                depth += statement[first] == "<" ? 1 : statement[first] == ">" ? -1 : 0;
                if (depth == 0) break;
            }
            ++first;
        }
        for (size_t i = first; i < statement.size() && i < first + 3; ++i)
            if (statement[i] == "struct" || statement[i] == "class" || statement[i] == "union" || statement[i] == "typedef" ||
                statement[i] == "enum" || statement[i] == "using" || statement[i] == "friend")
                return;
        if (!device) return;
        for (size_t i = first + 1; i < statement.size(); ++i) {
            if (statement[i] != "(") continue;
            const std::string& name = statement[i - 1];
            if (not_names.count(name) || walk.function_macros.count(name) || walk.device_macros.count(name)) {
                int depth = 0;  // skip this macro's or attribute's parentheses
                for (; i < statement.size(); ++i) {
                    depth += statement[i] == "(" ? 1 : statement[i] == ")" ? -1 : 0;
                    if (depth == 0) break;
                }
                continue;
            }
            const bool qualified = i >= 2 && statement[i - 2] == "::";
            const bool operator_function = i >= 2 && statement[i - 2] == "operator";
            if (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_')
                if (!qualified && !operator_function) walk.names.insert(name);
            return;
        }
    };
    for (auto it = std::sregex_iterator(text.begin(), text.end(), token); it != std::sregex_iterator(); ++it) {
        std::string t = it->str();
        if (t == "__DEF_IF_HOST") t = ";";  // a declaration's end (or its empty host body)
        const bool at_namespace_scope = std::all_of(transparent.begin(), transparent.end(), [](bool b) { return b; });
        if (t == "{") {
            const bool opens_namespace = !statement.empty() && (statement[0] == "namespace" || (statement[0] == "extern" && statement.size() > 1 && statement[1] == "\"\""));
            if (at_namespace_scope && !opens_namespace) declare();
            transparent.push_back(opens_namespace);
            statement.clear();
        } else if (t == "}") {
            if (!transparent.empty()) transparent.pop_back();
            statement.clear();
        } else if (t == ";") {
            if (at_namespace_scope) declare();
            statement.clear();
        } else {
            statement.push_back(t);
        }
    }
}

std::set<std::string> toolkit_device_functions() {
    Walk walk;
    std::vector<std::string> bodies;
    static const std::regex define(R"(^[ \t]*#[ \t]*define[ \t]+(\w+)(\(?)(.*)$)");
    for (const char* header : kHeaders) {
        const std::string text = without_comments(test::read_file(cuda_include_dir() / header));
        EXPECT_FALSE(text.empty()) << header;
        std::string code;
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            std::smatch m;
            if (std::regex_match(line, m, define)) {
                if (!m[2].str().empty()) walk.function_macros.insert(m[1].str());
                else if (std::regex_search(m[3].str(), std::regex(R"(\b__device__\b)"))) walk.device_macros.insert(m[1].str());
            }
            if (line.find_first_not_of(" \t") != std::string::npos && line[line.find_first_not_of(" \t")] == '#') line.clear();
            code += std::regex_replace(line, std::regex(R"("(\\.|[^"\\])*")"), "\"\"") + "\n";
        }
        bodies.push_back(code);
    }
    for (const std::string& code : bodies) collect_declarations(code, walk);
    return walk.names;
}

// The source that asks a compiler whether each name is declared, one name per line from line `first`.
std::string declared_probe(const std::vector<std::string>& names, int& first) {
    std::string text = "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n#include <cuda_fp8.h>\n";
    first = 4;
    for (size_t i = 0; i < names.size(); ++i)
        text += "#ifndef " + names[i] + "\nnamespace kplay_probe_" + std::to_string(i) + " { using ::" + names[i] + "; }\n#endif\n";
    return text;
}
size_t name_at_line(int line, int first) { return static_cast<size_t>((line - first) / 3); }

// What NVRTC declares for sm_90 of the headers' names (some serve other architectures or host compilers).
std::vector<std::string> accepted_by_nvrtc(std::set<std::string> names) {
    for (int round = 0; round < 20; ++round) {
        const std::vector<std::string> list(names.begin(), names.end());
        int first = 0;
        CompileRequest request;
        request.source = declared_probe(list, first);
        request.source_path = "probe.cu";
        request.options.arch = "compute_90";
        request.options.include_dirs = {cuda_include_dir().string()};
        const CompileResult result = compile_with_nvrtc(request);
        if (result.ok) return list;
        size_t dropped = 0;
        for (const Diagnostic& d : result.diagnostics)
            if (d.severity == Severity::error && d.line > first && d.file.find("probe.cu") != std::string::npos)
                dropped += names.erase(list.at(name_at_line(d.line, first)));
        if (dropped == 0) {
            ADD_FAILURE() << "NVRTC failed on the probe without naming a line:\n" << result.log.substr(0, 2000);
            return {};
        }
    }
    ADD_FAILURE() << "NVRTC kept failing on the probe";
    return {};
}

std::string host_compile(const std::string& text, const std::string& name) {
    test::TempDir dir;
    const fs::path file = dir.write(name, text);
    const fs::path include = emulated_include_dir();
    const bool clang = host_compiler().version.find("clang") != std::string::npos;
    const ProcessResult result = run_process({host_compiler().path, "-std=c++17", "-fsyntax-only", clang ? "-ferror-limit=0" : "-fmax-errors=0",
                                              "-x", "c++", "-I" + include.string(), "-include", (include / "kplay_emu_prelude.h").string(),
                                              file.string()});
    return result.output;
}

std::vector<std::string> refused_by_the_prelude() {
    const std::string text = test::read_file(emulated_include_dir() / "kplay_emu_refused.h");
    std::vector<std::string> names;
    static const std::regex refused(R"(KPLAY_EMU_REFUSED\((\w+),)");
    std::istringstream lines(text);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("#define") != std::string::npos) continue;  // the macro itself
        for (auto it = std::sregex_iterator(line.begin(), line.end(), refused); it != std::sregex_iterator(); ++it)
            names.push_back((*it)[1].str());
    }
    return names;
}

TEST(EmuDeviceFunctions, EveryDeviceFunctionNvrtcAcceptsRunsOrIsRefusedByName) {
    if (host_compiler().path.empty()) GTEST_SKIP() << host_compiler().problem;
    const std::set<std::string> parsed = toolkit_device_functions();
    ASSERT_GT(parsed.size(), 800u) << "the toolkit's headers gave too few declarations: the parser lost its way";
    for (const char* known : {"__shfl_sync", "atomicAdd", "__float2half_rn", "__nv_cvt_float_to_fp8", "__reduce_add_sync", "norm3df", "tex2D"})
        EXPECT_TRUE(parsed.count(known)) << known << " was not found among the toolkit's declarations";
    const std::vector<std::string> accepted = accepted_by_nvrtc(parsed);
    ASSERT_GT(accepted.size(), 800u);

    // Declared by the emulated device (a function, a template or a macro) ...
    int first = 0;
    const std::string output = host_compile(declared_probe(accepted, first), "probe.cu");
    std::set<std::string> missing;
    static const std::regex error_line(R"(probe\.cu:(\d+):\d+: (fatal )?error)");
    for (auto it = std::sregex_iterator(output.begin(), output.end(), error_line); it != std::sregex_iterator(); ++it) {
        const int line = std::stoi((*it)[1].str());
        if (line > first) missing.insert(accepted.at(name_at_line(line, first)));
        else ADD_FAILURE() << "the probe's headers fail on the emulated device:\n" << output.substr(0, 3000);
    }
    std::string list;
    for (const std::string& name : missing) list += " " + name;
    EXPECT_TRUE(missing.empty()) << missing.size() << " device functions are neither emulated nor refused by name:" << list;

    // ... and each one it refuses says so, by name, when called.
    const std::vector<std::string> refused = refused_by_the_prelude();
    ASSERT_FALSE(refused.empty());
    std::string calls = "__global__ void k() {\n";
    for (const std::string& name : refused) calls += "    " + name + "();\n";
    const std::string refusals = host_compile(calls + "}\n", "refused.cu");
    for (const std::string& name : refused)
        EXPECT_NE(refusals.find(name + " is not supported on the emulated CPU device: "), std::string::npos)
            << name << " is refused without saying so:\n" << refusals.substr(0, 2000);
}

}  // namespace
}  // namespace kplay
