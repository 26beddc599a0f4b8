// The host-compiler half of the emulated device's compile path (NVRTC has already judged the source).
#include "emu/host_compiler.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "base/cache_dir.hpp"
#include "base/install_paths.hpp"
#include "base/content_hash.hpp"
#include "emu/sanitizer_runtime.hpp"
#include "base/subprocess.hpp"
#include "base/error.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

// Flags every build uses. -O2: the emulator's speed comes from compiled code; -g1: line tables, so a
// fault's address maps to the user's line; -gdwarf-4: Debian 12's addr2line misreads DWARF 5's file
// numbers and names the compiler's temporary file instead of the #line one; -fno-math-errno: sqrt becomes an instruction;
// -fno-delete-null-pointer-checks: address 0 is an address, so a null store faults as on a GPU.
const std::vector<std::string>& base_flags() {
    static const std::vector<std::string> flags = {
        "-std=c++17", "-O2", "-g1", "-gdwarf-4", "-fPIC", "-shared", "-nostdlib", "-fvisibility=hidden", "-fno-exceptions",
        "-fno-rtti", "-fno-math-errno", "-fno-delete-null-pointer-checks", "-fno-stack-protector", "-fno-plt", "-w", "-x", "c++"};
    return flags;
}

// A tracked build: the compiler's ThreadSanitizer instrumentation without its runtime. kplay_emu_track.h
// defines the calls it inserts; function entries and exits are not needed, volatile accesses are told apart
// (a warp-synchronous idiom's explanation depends on them).
std::vector<std::string> track_flags(const std::string& compiler) {
    if (compiler.find("clang") != std::string::npos)
        return {"-fsanitize=thread", "-mllvm", "-tsan-instrument-func-entry-exit=0", "-mllvm", "-tsan-distinguish-volatile=1", "-DKPLAY_EMU_TRACK"};
    return {"-fsanitize=thread", "--param=tsan-instrument-func-entry-exit=0", "--param=tsan-distinguish-volatile=1", "-DKPLAY_EMU_TRACK"};
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
    HostCompileJob job;
    job.text = request.source.text;
    job.source_path = request.source_path;
    job.flags = base_flags();
    if (request.debug) {  // the flags are part of the cache key: a debug build has an object of its own
        std::replace(job.flags.begin(), job.flags.end(), std::string("-O2"), std::string("-O0"));
        std::replace(job.flags.begin(), job.flags.end(), std::string("-g1"), std::string("-g"));
    }
    if (request.sanitize) job.flags.insert(job.flags.end(), sanitizer_build_flags().begin(), sanitizer_build_flags().end());
    if (request.track)
        for (auto& flag : track_flags(host_compiler().path)) job.flags.push_back(std::move(flag));
    for (const auto& [name, value] : request.defines) job.flags.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    job.include_dirs = {request.emu_include_dir.string()};
    job.include_dirs.insert(job.include_dirs.end(), request.include_dirs.begin(), request.include_dirs.end());
    job.preludes = {request.emu_include_dir / "kplay_emu_prelude.h"};
    job.cache_dir = request.cache_dir;
    return compile_host_shared_object(job);
}

namespace {

// The CUDA toolkit's include folder, searched after everything else (the system's headers included):
// the toolkit headers kplay compiles as they are, cuRAND's device API, find theirs there, and kplay's
// stand-ins for the rest come first. Empty when there is none.
fs::path toolkit_include_dir() {
    std::error_code error;
    const fs::path dir = cuda_include_dir();
    return fs::is_directory(dir, error) ? dir : fs::path();
}

// The arguments of one compile, without the compiler, the input and the output.
std::vector<std::string> compile_arguments(const HostCompileJob& job) {
    std::vector<std::string> args = job.flags;
    const fs::path source_dir = fs::path(job.source_path).parent_path();
    if (!source_dir.empty()) args.push_back("-iquote" + source_dir.string());
    for (const auto& dir : job.include_dirs) args.push_back("-I" + dir);
    if (const fs::path toolkit = toolkit_include_dir(); !toolkit.empty()) args.push_back("-idirafter" + toolkit.string());
    for (const auto& prelude : job.preludes) {
        args.push_back("-include");
        args.push_back(prelude.string());
    }
    return args;
}

// The headers whose contents change the object: the preludes, and what they and the text include.
std::vector<fs::path> headers_of(const HostCompileJob& job) {
    std::vector<fs::path> search(job.include_dirs.begin(), job.include_dirs.end());
    if (const fs::path toolkit = toolkit_include_dir(); !toolkit.empty()) search.push_back(toolkit);
    std::vector<fs::path> headers = find_included_files(job.text, fs::path(job.source_path).parent_path(), search);
    for (const auto& prelude : job.preludes) {
        std::string content;
        read_whole_file(prelude, content);
        headers.push_back(prelude);
        for (auto& header : find_included_files(content, prelude.parent_path(), search)) headers.push_back(std::move(header));
    }
    return headers;
}

std::string cache_key(const HostCompileJob& job, const std::vector<std::string>& args) {
    const HostCompiler& compiler = host_compiler();
    ContentHasher key;
    key.add(job.text).add(compiler.path).add(compiler.version);
    for (const auto& arg : args) key.add(arg);
    for (const auto& header : headers_of(job)) {
        std::string content;
        read_whole_file(header, content);
        key.add(header.string()).add(content);
    }
    return key.hex();
}

}  // namespace

HostBuildResult compile_host_shared_object(const HostCompileJob& job) {
    HostBuildResult result;
    const HostCompiler& compiler = host_compiler();
    if (compiler.path.empty()) throw InputError(compiler.problem);
    std::vector<std::string> args = compile_arguments(job);
    const std::string hex = cache_key(job, args);

    fs::path dir = job.cache_dir.empty() ? fs::temp_directory_path() / ("kplay-emu-" + std::to_string(getuid())) : job.cache_dir / "emu";
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
    if (!write_file_atomically(source_file, job.text))
        throw InputError("Cannot write the source of " + job.what + " to " + source_file.string() + ".");
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
    if (error) throw InputError("Cannot store " + job.what + " in " + dir.string() + ": " + error.message());
    result.ok = true;
    return result;
}

}  // namespace kplay
