// A compile request and its result over a stream socket, between a worker and the compile server
// (compile_server.hpp). A message is u64 size | JSON | u64 size | bytes: the JSON holds everything but a
// CUBIN's bytes, which follow it as they are (they are not JSON text).
#pragma once

#include <optional>

#include "compile/nvrtc_compiler.hpp"

namespace kplay {

// Each returns false when the other end is gone (a closed socket, never SIGPIPE). A request carries the
// sender's working folder: relative paths (a kernel named as the user typed it) mean the same there.
bool send_compile_request(int fd, const CompileRequest& request);
bool send_compile_result(int fd, const CompileResult& result);

// nullopt when the other end closed, or what came is not a message of this kind (a malformed one is
// treated as a broken link: the server drops the connection, the worker starts another).
std::optional<CompileRequest> read_compile_request(int fd, std::string& working_folder);
std::optional<CompileResult> read_compile_result(int fd);

}  // namespace kplay
