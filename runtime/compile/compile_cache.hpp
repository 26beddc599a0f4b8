// NVRTC results cached in memory and on disk, keyed by everything that can change the binary.
//
// The key covers the source, the content of every header it reaches, the full option list (arch,
// defines, include paths), the name expressions and the NVRTC version. Disk entries are written
// atomically and carry a checksum; a corrupt or partial entry is ignored and rebuilt. There is no lock
// file: two processes racing on one key both compile and the last rename wins, with identical bytes.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "compile/nvrtc_compiler.hpp"

namespace kplay {

class CompileCache {
public:
    // What compiles on a miss: NVRTC in this process, or the compile server (compiler_process.hpp).
    using Compiler = std::function<CompileResult(const CompileRequest&)>;

    // `dir` empty: memory only.
    explicit CompileCache(std::filesystem::path dir, Compiler compiler = compile_with_nvrtc);

    // Returns the cached result for this request, or compiles and stores it. Failed compiles are not
    // stored (they are cheap, and the user is about to change the file anyway).
    CompileResult compile(const CompileRequest& request);

    std::string key_for(const CompileRequest& request) const;
    std::filesystem::path entry_path(const std::string& key) const;
    const std::filesystem::path& dir() const { return dir_; }

private:
    bool load_entry(const std::string& key, CompileResult& result) const;
    void store_entry(const std::string& key, const CompileResult& result) const;

    std::filesystem::path dir_;
    Compiler compiler_;
    mutable std::mutex mutex_;
    std::map<std::string, CompileResult> memory_;
};

}  // namespace kplay
