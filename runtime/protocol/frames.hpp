// The wire format between kplay's programs and kplay-worker.
//
// A frame is a 16-byte header (magic "KPW1", version, payload length, attached fd count) followed by a
// JSON payload. Large data (images, outputs, diff maps) never travels in the payload: it goes in memfd
// shared-memory blobs whose descriptors ride along with the frame (SCM_RIGHTS). Every length is checked
// before anything is allocated, so a truncated, oversized or garbled frame is an error, never a crash.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/unique_fd.hpp"

namespace kplay {

constexpr uint32_t kFrameMagic = 0x3157504Bu;  // "KPW1" little-endian
constexpr uint16_t kProtocolVersion = 1;
constexpr uint32_t kMaxPayloadBytes = 32u << 20;
constexpr uint32_t kMaxFramesFds = 16;  // a report sends at most 9 (protocol.cpp: the view's arrays and the writer cells)

struct FrameHeader {
    uint32_t magic = kFrameMagic;
    uint16_t version = kProtocolVersion;
    uint16_t reserved = 0;
    uint32_t payload_bytes = 0;
    uint32_t fd_count = 0;
};
static_assert(sizeof(FrameHeader) == 16);

// A block of bytes in anonymous shared memory (memfd), to hand to another process by descriptor.
class SharedBlob {
public:
    // Copies `bytes` into a new memfd.
    static UniqueFd create(const void* bytes, size_t size, const char* name);
    // Maps a received memfd and copies its content out; throws ProtocolError when it cannot.
    static std::vector<unsigned char> read(int fd, size_t expected_size);
    // The same into `destination` (expected_size bytes), so a typed array is filled with one copy.
    static void read_into(int fd, size_t expected_size, void* destination);
};

class ProtocolError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct Frame {
    nlohmann::json message;
    std::vector<UniqueFd> fds;
};

// Sends one frame; blocks until written (the peer reads promptly). Throws ProtocolError on failure,
// including a peer that has gone away.
void send_frame(int socket, const nlohmann::json& message, const std::vector<int>& fds = {});

// Accumulates bytes (and attached descriptors) from a socket and yields whole frames.
class FrameReader {
public:
    enum class Status { frame, need_more, closed };
    // Reads what is available without blocking (socket must be non-blocking) or blocks (blocking socket).
    // Returns `closed` at end of stream; throws ProtocolError for a malformed frame.
    Status read_from(int socket);
    // The next complete frame, if any.
    std::optional<Frame> next();
    bool has_partial_data() const { return !buffer_.empty(); }

private:
    std::string buffer_;
    std::deque<UniqueFd> fds_;
};

}  // namespace kplay
