// Frames over a plain byte stream (a remote worker behind ssh): blobs travel inline, zstd-compressed where it pays.
#pragma once

#include <cstdint>
#include <deque>
#include <exception>
#include <memory>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "protocol/frames.hpp"

namespace kplay {

// Wire layout: a FrameHeader with reserved = kStreamFrameFlag, fd_count = number of blobs and payload_bytes =
// JSON length; the JSON payload; then per blob a 24-byte little-endian record
// {uint64 raw_size; uint64 wire_size; uint32 codec (0 raw, 1 zstd); uint32 reserved = 0} and wire_size bytes.
constexpr uint16_t kStreamFrameFlag = 1;               // FrameHeader::reserved bit: blobs are inline, not descriptors
constexpr uint64_t kMaxInlineBlobBytes = 1ull << 30;   // one blob, decoded
constexpr uint64_t kMaxInlineFrameBytes = 2ull << 30;  // all blobs of one frame, decoded

// What went through, summed over whole frames: raw_bytes is the frame header, the payload and the blobs as
// decoded; wire_bytes is every byte of the stream (record headers included, blobs as sent).
struct StreamTraffic {
    uint64_t raw_bytes = 0;
    uint64_t wire_bytes = 0;
};

// Writes one frame to a byte stream (pipe, socket, ssh's stdin). blob_fds are memfds (read by fstat size
// and mmap; a plain file descriptor also works). Blocks until written (handles EAGAIN with poll(2) and
// partial writes, EINTR). Throws ProtocolError on failure, including a peer that has gone away; nothing is
// written when the message or a blob cannot be sent at all. `traffic`, when given, is added to once the
// frame is fully written.
void send_stream_frame(int fd, const nlohmann::json& message, const std::vector<int>& blob_fds = {},
                       StreamTraffic* traffic = nullptr);

// Accumulates bytes from a stream and yields whole frames; blobs come back as new memfds in Frame::fds.
// Memory stays bounded by what the frame being received announced (and checked): bytes are decoded as
// they are read, never queued undecoded.
class StreamFrameReader {
public:
    using Status = FrameReader::Status;  // frame (bytes were read), need_more (EAGAIN), closed (EOF/ECONNRESET)

    StreamFrameReader();
    ~StreamFrameReader();
    StreamFrameReader(StreamFrameReader&&) noexcept;
    StreamFrameReader& operator=(StreamFrameReader&&) noexcept;

    Status read_from(int fd);     // read(2), 256 KiB at a time; non-blocking or blocking fd
    std::optional<Frame> next();  // throws ProtocolError for a malformed or oversized frame
    // Bytes of a frame not (yet) returned by next(): true at `closed` means the peer stopped mid-frame.
    bool has_partial_data() const;
    const StreamTraffic& traffic() const { return traffic_; }  // raw (decoded) and wire bytes received so far
    // A header with another protocol version is thrown as ProtocolVersionMismatch (below) so the caller can
    // say how to update the remote side.

private:
    struct Partial;  // the frame being received (stream_frames.cpp)
    void feed(const unsigned char* data, size_t size);

    std::unique_ptr<Partial> partial_;
    std::deque<Frame> ready_;
    // A malformed frame is found while reading but reported by next(), after the frames before it.
    std::exception_ptr error_;
    std::unique_ptr<unsigned char[]> chunk_;
    StreamTraffic traffic_;
};

class ProtocolVersionMismatch : public ProtocolError {
public:
    ProtocolVersionMismatch(uint16_t peer, uint16_t ours);
    uint16_t peer_version() const { return peer_; }
    uint16_t our_version() const { return ours_; }

private:
    uint16_t peer_, ours_;
};

}  // namespace kplay
