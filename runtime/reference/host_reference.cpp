// A host reference's build: rewrite -> hosted compile (cached) -> symbol check -> parameter sizes.
#include "reference/host_reference.hpp"

#include <dlfcn.h>

#include "base/error.hpp"
#include "emu/host_compiler.hpp"
#include "emu/message_names.hpp"
#include "reference/reference_source.hpp"
#include "emu/shared_object_check.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

// Hosted, unlike an emulated kernel: the standard library and exceptions are linked normally.
// -nostartfiles: without crtbegin there is no frame_dummy constructor, so any .init_array is the
// user's and can be refused; -z defs: a name the reference never defined is a link error with its
// name, not a refusal at load; -fno-delete-null-pointer-checks: a null store faults, as on a GPU;
// -gdwarf-4: see host_compiler.cpp (addr2line and DWARF 5's file numbers).
const std::vector<std::string>& reference_flags() {
    // clang-format off
    static const std::vector<std::string> flags = {
        "-std=c++17", "-O2", "-g1", "-gdwarf-4", "-fPIC", "-shared", "-fvisibility=hidden", "-nostartfiles", "-fno-plt",
        "-fno-math-errno", "-fno-delete-null-pointer-checks", "-Wl,-z,defs", "-w", "-DKPLAY_REFERENCE", "-x", "c++"};
    // clang-format on
    return flags;
}

// The first `FILE:LINE:COL: error: MESSAGE` of the compiler's output: file and message.
std::pair<std::string, std::string> first_error(const std::string& diagnostics) {
    const size_t marker = diagnostics.find(": error: ");
    if (marker == std::string::npos) return {};
    const size_t start = diagnostics.rfind('\n', marker) == std::string::npos ? 0 : diagnostics.rfind('\n', marker) + 1;
    const size_t end = diagnostics.find('\n', marker);
    const std::string location = diagnostics.substr(start, marker - start);
    std::string message =
        diagnostics.substr(marker + 9, end == std::string::npos ? std::string::npos : end - marker - 9);
    // GCC quotes with ‘ ’ in a UTF-8 locale, and may suggest one of kplay's own names instead.
    for (const char* quote : {"\xE2\x80\x98", "\xE2\x80\x99"})
        for (size_t at = message.find(quote); at != std::string::npos; at = message.find(quote))
            message.replace(at, 3, "'");
    if (const size_t hint = message.find("; did you mean 'kplay_"); hint != std::string::npos) message.resize(hint);
    return {location.substr(0, location.find(':')), message};
}

// A compile error in kplay's generated entry (or the prelude's checks it instantiates) is about the
// function itself: missing, overloaded, a template, or not returning void.
std::string explain_compile_failure(const HostReferenceBuildRequest& request, const std::string& display,
                                    const std::string& diagnostics) {
    const auto [file, message] = first_error(diagnostics);
    if (file != reference_entry_file_name() && file.find("kplay_reference_prelude.h") == std::string::npos)
        return diagnostics;
    std::string why = message;
    // GCC: "no matching function for call to 'invoke(<unresolved overloaded function type>, ...)'";
    // clang: "no matching function for call to 'invoke'".
    if (message.find("unresolved overloaded function type") != std::string::npos ||
        message.find("no matching function for call to 'invoke'") != std::string::npos)
        why = "it is overloaded or a template; a reference is one plain function (the compiler: " + message + ")";
    return "no host reference function '" + request.function + "(...)' in " + display + ": " + why;
}

std::vector<size_t> read_param_sizes(const fs::path& shared_object) {
    // Loading runs nothing of the user's: the object passed the check (no constructors, no resolvers).
    void* handle = dlopen(shared_object.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) throw InputError(std::string("Cannot load the host reference: ") + dlerror());
    auto params = reinterpret_cast<int (*)(unsigned long*, int)>(dlsym(handle, host_reference_params_symbol().c_str()));
    std::vector<size_t> sizes;
    if (params) {
        unsigned long found[64];
        const int count = params(found, 64);
        for (int i = 0; i < count && i < 64; ++i) sizes.push_back(found[i]);
    }
    dlclose(handle);
    if (!params) throw InputError("The host reference lacks its parameter table (a stale build?).");
    return sizes;
}

}  // namespace

std::string host_reference_entry_symbol() { return "kplay_ref_entry"; }
std::string host_reference_params_symbol() { return "kplay_ref_params"; }
std::string host_reference_bind_symbol() { return "kplay_ref_bind"; }

HostReferenceObject build_host_reference(const HostReferenceBuildRequest& request) {
    const fs::path prelude = request.emu_include_dir / "reference" / "kplay_reference_prelude.h";
    std::error_code error;
    if (!fs::is_regular_file(prelude, error))
        throw InputError("The host reference's prelude (" + prelude.string() +
                         ") was not found; set KPLAY_EMU_INCLUDE to runtime/emu/include.");
    const std::string display = kernel_file_name(request.source_path);
    HostCompileJob job;
    job.text = prepare_reference_source(request.source, display, request.function, request.constants);
    job.source_path = request.source_path;
    job.flags = reference_flags();
    for (const auto& [name, value] : request.defines)
        job.flags.push_back("-D" + name + (value.empty() ? "" : "=" + value));
    // Not emu_include_dir itself: its freestanding cmath and stdlib.h would hide the real ones.
    job.include_dirs = {(request.emu_include_dir / "reference").string()};
    job.include_dirs.insert(job.include_dirs.end(), request.include_dirs.begin(), request.include_dirs.end());
    job.preludes = {prelude};
    job.cache_dir = request.cache_dir;
    job.what = "the host reference";
    const HostBuildResult built = compile_host_shared_object(job);

    HostReferenceObject object;
    object.shared_object = built.shared_object;
    object.compile_ms = built.compile_ms;
    object.cache_hit = built.cache_hit;
    if (!built.ok) {
        object.diagnostics = explain_compile_failure(request, display, built.diagnostics);
        return object;
    }
    if (request.check_symbols) {
        check_host_reference_is_confined(built.shared_object, display);
        object.param_sizes = read_param_sizes(built.shared_object);
    }
    object.ok = true;
    return object;
}

}  // namespace kplay
