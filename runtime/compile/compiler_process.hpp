// A worker's way to the compile server (compile_server.hpp): it connects, starts the server when none
// answers (a process of its own, in a session of its own, so it outlives this worker), and sends each
// compile there. A server that dies mid-compile is started again and the compile retried, and the
// result says so in a remark; when no server can be had the worker compiles itself, and says that.
#pragma once

#include <filesystem>
#include <mutex>
#include <optional>
#include <string>

#include "base/unique_fd.hpp"
#include "compile/nvrtc_compiler.hpp"

namespace kplay {

class CompilerProcess {
public:
    // `program` serves with `program --compile-server SOCKET` (kplay-worker); `pch`: a compile of a file with
    // a large header library (heavy_headers.hpp) asks for NVRTC's precompiled headers.
    CompilerProcess(std::filesystem::path program, std::filesystem::path socket, bool pch);

    // Never throws for the server's failures; NVRTC's own failures come as CompileResult::failure.
    CompileResult compile(const CompileRequest& request);

    const std::filesystem::path& socket() const { return socket_; }

private:
    bool connect_now();
    bool connect_or_start();
    std::optional<CompileResult> ask(const CompileRequest& request);

    std::filesystem::path program_, socket_;
    bool pch_ = true;
    std::mutex mutex_;  // one compile on the link at a time
    UniqueFd link_;
};

}  // namespace kplay
