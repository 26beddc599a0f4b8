// The host-compiler half of the emulated device's compile path (NVRTC has already judged the source).
#include "emu/host_compiler.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "base/cache_dir.hpp"
#include "base/content_hash.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "emu/subprocess.hpp"
#include "base/error.hpp"
#include "spec/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

// Flags every build uses. -O2: the emulator's speed comes from compiled code; -g1: line tables, so a
// fault's address maps to the user's line; -fno-math-errno: sqrt becomes an instruction;
// -fno-delete-null-pointer-checks: address 0 is an address, so a null store faults as on a GPU.
const std::vector<std::string>& base_flags() {
    static const std::vector<std::string> flags = {
        "-std=c++17", "-O2", "-g1", "-fPIC", "-shared", "-nostdlib", "-fvisibility=hidden", "-fno-exceptions",
        "-fno-rtti", "-fno-math-errno", "-fno-delete-null-pointer-checks", "-fno-stack-protector", "-fno-plt", "-w", "-x", "c++"};
    return flags;
}

}  // namespace

const HostCompiler& host_compiler() {
    static const HostCompiler compiler = [] {
        HostCompiler found;
        if (const char* env = std::getenv("KPLAY_HOST_CXX"); env && *env) found.path = find_in_path(env).empty() ? env : find_in_path(env);
        for (const char* name : {"g++", "clang++"})
            if (found.path.empty()) found.path = find_in_path(name);
        if (found.path.empty() || access(found.path.c_str(), X_OK) != 0) {
            found.path.clear();
            found.problem = "The emulated CPU device needs a host C++ compiler, and none was found (looked for $KPLAY_HOST_CXX, g++ and "
                            "clang++ in PATH). Install one, e.g. `apt-get install g++`.";
            return found;
        }
        const ProcessResult version = run_process({found.path, "--version"});
        found.version = version.output.substr(0, version.output.find('\n'));
        if (version.exit_code != 0) {
            found.problem = "The host compiler " + found.path + " does not run: " + version.output;
            found.path.clear();
        }
        return found;
    }();
    return compiler;
}

HostBuildResult build_with_host_compiler(const HostBuildRequest& request) {
    HostBuildResult result;
    const HostCompiler& compiler = host_compiler();
    if (compiler.path.empty()) throw InputError(compiler.problem);

    std::vector<std::string> include_dirs{request.emu_include_dir.string()};
    include_dirs.insert(include_dirs.end(), request.include_dirs.begin(), request.include_dirs.end());
    std::vector<std::string> args = base_flags();
    if (request.sanitize) args.insert(args.end(), sanitizer_build_flags().begin(), sanitizer_build_flags().end());
    for (const auto& [name, value] : request.defines) args.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    const fs::path source_dir = fs::path(request.source_path).parent_path();
    if (!source_dir.empty()) args.push_back("-iquote" + source_dir.string());
    for (const auto& dir : include_dirs) args.push_back("-I" + dir);
    args.push_back("-include");
    args.push_back((request.emu_include_dir / "kplay_emu_prelude.h").string());

    // Key: everything that changes the object.
    ContentHasher key;
    key.add(request.source.text).add(compiler.path).add(compiler.version);
    for (const auto& arg : args) key.add(arg);
    std::vector<fs::path> search;
    for (const auto& dir : include_dirs) search.emplace_back(dir);
    std::vector<fs::path> headers = find_included_files(request.source.text, source_dir, search);
    headers.push_back(request.emu_include_dir / "kplay_emu_prelude.h");
    headers.push_back(request.emu_include_dir / "kplay_emu_abi.h");
    for (const auto& header : headers) {
        std::string content;
        read_whole_file(header, content);
        key.add(header.string()).add(content);
    }
    const std::string hex = key.hex();

    fs::path dir = request.cache_dir.empty() ? fs::temp_directory_path() / ("kplay-emu-" + std::to_string(getuid())) : request.cache_dir / "emu";
    std::error_code error;
    fs::create_directories(dir, error);
    result.shared_object = dir / (hex + ".so");
    if (fs::is_regular_file(result.shared_object, error)) {
        result.ok = true;
        result.cache_hit = true;
        return result;
    }

    const auto start = std::chrono::steady_clock::now();
    const std::string unique = std::to_string(getpid()) + "-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    const fs::path source_file = dir / (hex + "." + unique + ".cu");
    const fs::path temp_object = dir / (hex + "." + unique + ".so.tmp");
    if (!write_file_atomically(source_file, request.source.text))
        throw InputError("Cannot write the emulated kernel's source to " + source_file.string() + ".");
    args.push_back(source_file.string());
    args.push_back("-o");
    args.push_back(temp_object.string());
    args.insert(args.begin(), compiler.path);
    const ProcessResult built = run_process(args);
    fs::remove(source_file, error);
    result.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (built.exit_code != 0) {
        fs::remove(temp_object, error);
        result.diagnostics = built.output.empty() ? "the host compiler failed without a message" : built.output;
        return result;
    }
    fs::rename(temp_object, result.shared_object, error);
    if (error) throw InputError("Cannot store the emulated kernel in " + dir.string() + ": " + error.message());
    result.ok = true;
    return result;
}

}  // namespace kplay
