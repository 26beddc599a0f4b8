// The compile server: a long-lived process that compiles with NVRTC and owns no CUDA context, so what
// NVRTC keeps between compiles (its loaded state, and the precompiled headers a request asks for with
// CompileOptions::pch) outlives the workers, which are replaced after every fault. Workers reach it through a socket in a folder only this user can enter
// (compiler_process.hpp starts it when none answers); each connection is served on a thread of its own,
// compiles side by side where they can (compile_slots.hpp), and it ends after a while with no worker
// connected.
#pragma once

#include <chrono>
#include <filesystem>

namespace kplay {

// Where the server for this program and cache folder listens: $XDG_RUNTIME_DIR/kplay (else
// /tmp/kplay-UID), made 0700; `<hash>.sock` and `<hash>.lock` (which holds the server's pid while it
// runs). Empty when no such folder can be made or it is not this user's alone (then compiles stay in
// the worker).
std::filesystem::path compile_server_socket(const std::filesystem::path& program, const std::filesystem::path& cache_dir);

// Serves at `socket` until no connection has been open for `idle`; returns the exit status (0 also when
// another server already holds the place).
int serve_compiles(const std::filesystem::path& socket, std::chrono::seconds idle = std::chrono::seconds(60));

}  // namespace kplay
