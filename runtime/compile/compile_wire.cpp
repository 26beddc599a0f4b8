// The compile messages' encoding and their reads and writes on a socket.
#include "compile/compile_wire.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "values/codec.hpp"

namespace kplay {

namespace {

constexpr uint64_t kMaxJson = uint64_t(256) << 20;    // a compile's log and PTX: far below this
constexpr uint64_t kMaxBytes = uint64_t(1) << 30;     // a CUBIN

bool write_all(int fd, const char* data, size_t size) {
    while (size > 0) {
        const ssize_t wrote = send(fd, data, size, MSG_NOSIGNAL);
        if (wrote < 0 && errno == EINTR) continue;
        if (wrote <= 0) return false;
        data += wrote;
        size -= static_cast<size_t>(wrote);
    }
    return true;
}

bool read_all(int fd, char* data, size_t size) {
    while (size > 0) {
        const ssize_t got = read(fd, data, size);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        data += got;
        size -= static_cast<size_t>(got);
    }
    return true;
}

bool write_part(int fd, const std::string& part) {
    const uint64_t size = part.size();
    return write_all(fd, reinterpret_cast<const char*>(&size), sizeof size) && write_all(fd, part.data(), part.size());
}

bool read_part(int fd, std::string& part, uint64_t limit) {
    uint64_t size = 0;
    if (!read_all(fd, reinterpret_cast<char*>(&size), sizeof size) || size > limit) return false;
    part.resize(size);
    return read_all(fd, part.data(), size);
}

bool send_message(int fd, const nlohmann::json& json, const std::string& bytes) {
    return write_part(fd, json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)) && write_part(fd, bytes);
}

// The JSON and the bytes, or nullopt.
std::optional<std::pair<nlohmann::json, std::string>> read_message(int fd) {
    std::string text, bytes;
    if (!read_part(fd, text, kMaxJson) || !read_part(fd, bytes, kMaxBytes)) return std::nullopt;
    nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
    if (json.is_discarded() || !json.is_object()) return std::nullopt;
    return std::make_pair(std::move(json), std::move(bytes));
}

}  // namespace

bool send_compile_request(int fd, const CompileRequest& request) {
    const CompileOptions& o = request.options;
    const nlohmann::json json = {{"source", request.source},
                                 {"source_path", request.source_path},
                                 {"name_expressions", request.name_expressions},
                                 {"arch", o.arch},
                                 {"lineinfo", o.lineinfo},
                                 {"resource_report", o.resource_report},
                                 {"include_dirs", o.include_dirs},
                                 {"defines", o.defines},
                                 {"extra", o.extra},
                                 {"pch", o.pch}};
    std::error_code error;
    nlohmann::json with_folder = json;
    with_folder["working_folder"] = std::filesystem::current_path(error).string();
    return send_message(fd, with_folder, {});
}

std::optional<CompileRequest> read_compile_request(int fd, std::string& working_folder) {
    auto message = read_message(fd);
    if (!message) return std::nullopt;
    try {
        const nlohmann::json& j = message->first;
        CompileRequest request;
        j.at("source").get_to(request.source);
        j.at("source_path").get_to(request.source_path);
        j.at("name_expressions").get_to(request.name_expressions);
        CompileOptions& o = request.options;
        j.at("arch").get_to(o.arch);
        j.at("lineinfo").get_to(o.lineinfo);
        j.at("resource_report").get_to(o.resource_report);
        j.at("include_dirs").get_to(o.include_dirs);
        j.at("defines").get_to(o.defines);
        j.at("extra").get_to(o.extra);
        j.at("pch").get_to(o.pch);
        j.at("working_folder").get_to(working_folder);
        return request;
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

bool send_compile_result(int fd, const CompileResult& result) {
    // CompileFileResult's JSON form carries a compile result without a CUBIN's bytes.
    CompileFileResult wrapped;
    wrapped.compile = result;
    return send_message(fd, wrapped, result.is_cubin ? result.binary : std::string());
}

std::optional<CompileResult> read_compile_result(int fd) {
    auto message = read_message(fd);
    if (!message) return std::nullopt;
    try {
        CompileFileResult wrapped = message->first.get<CompileFileResult>();
        if (wrapped.compile.is_cubin) wrapped.compile.binary = std::move(message->second);
        return std::move(wrapped.compile);
    } catch (const nlohmann::json::exception&) {
        return std::nullopt;
    }
}

}  // namespace kplay
