// Stream frames: inline blobs written with poll-driven writes, decoded into memfds as the bytes arrive.
#include "protocol/stream_frames.hpp"

#include <errno.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

namespace kplay {

namespace {

constexpr uint32_t kCodecRaw = 0;
constexpr uint32_t kCodecZstd = 1;
constexpr size_t kRecordBytes = 24;
constexpr size_t kReadChunk = 256 * 1024;
// Compression is tried from this size on, and kept only when it saves at least a tenth.
constexpr uint64_t kMinCompressBytes = 4096;

// The stream may cross machines, so every integer is written little-endian byte by byte rather than as the
// host's struct layout (which is the same bytes on x86-64 and arm64).
void put_le(unsigned char* out, uint64_t value, size_t bytes) {
    for (size_t i = 0; i < bytes; ++i) out[i] = static_cast<unsigned char>(value >> (8 * i));
}
uint64_t get_le(const unsigned char* in, size_t bytes) {
    uint64_t value = 0;
    for (size_t i = 0; i < bytes; ++i) value |= static_cast<uint64_t>(in[i]) << (8 * i);
    return value;
}

void encode_header(const FrameHeader& header, unsigned char out[sizeof(FrameHeader)]) {
    put_le(out, header.magic, 4);
    put_le(out + 4, header.version, 2);
    put_le(out + 6, header.reserved, 2);
    put_le(out + 8, header.payload_bytes, 4);
    put_le(out + 12, header.fd_count, 4);
}
FrameHeader decode_header(const unsigned char in[sizeof(FrameHeader)]) {
    FrameHeader header;
    header.magic = static_cast<uint32_t>(get_le(in, 4));
    header.version = static_cast<uint16_t>(get_le(in + 4, 2));
    header.reserved = static_cast<uint16_t>(get_le(in + 6, 2));
    header.payload_bytes = static_cast<uint32_t>(get_le(in + 8, 4));
    header.fd_count = static_cast<uint32_t>(get_le(in + 12, 4));
    return header;
}

struct BlobRecord {
    uint64_t raw_size = 0;
    uint64_t wire_size = 0;
    uint32_t codec = kCodecRaw;
    uint32_t reserved = 0;
};
void encode_record(const BlobRecord& record, unsigned char out[kRecordBytes]) {
    put_le(out, record.raw_size, 8);
    put_le(out + 8, record.wire_size, 8);
    put_le(out + 16, record.codec, 4);
    put_le(out + 20, record.reserved, 4);
}
BlobRecord decode_record(const unsigned char in[kRecordBytes]) {
    return {get_le(in, 8), get_le(in + 8, 8), static_cast<uint32_t>(get_le(in + 16, 4)),
            static_cast<uint32_t>(get_le(in + 20, 4))};
}

std::string errno_text() { return std::strerror(errno); }

// A memory mapping, unmapped on destruction.
class Mapping {
public:
    Mapping() = default;
    Mapping(int fd, size_t size, int protection) : size_(size) {
        if (size == 0) return;
        void* map = mmap(nullptr, size, protection, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED) throw ProtocolError("cannot map shared memory: " + errno_text());
        data_ = static_cast<unsigned char*>(map);
    }
    Mapping(Mapping&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
    Mapping& operator=(Mapping&& other) noexcept {
        if (this != &other) {
            reset();
            data_ = std::exchange(other.data_, nullptr);
            size_ = std::exchange(other.size_, 0);
        }
        return *this;
    }
    Mapping(const Mapping&) = delete;
    Mapping& operator=(const Mapping&) = delete;
    ~Mapping() { reset(); }
    void reset() {
        if (data_) munmap(data_, size_);
        data_ = nullptr;
        size_ = 0;
    }
    unsigned char* data() const { return data_; }

private:
    unsigned char* data_ = nullptr;
    size_t size_ = 0;
};

// A new memfd of `size` bytes, to be filled through a mapping: the bytes are written into it once, where
// SharedBlob::create would need them in another buffer first. Its pages cost memory only once written.
UniqueFd sized_memfd(uint64_t size) {
    UniqueFd fd = SharedBlob::create(nullptr, 0, "kplay-stream-blob");  // an empty memfd, errors checked
    if (size > 0 && ftruncate(fd.get(), static_cast<off_t>(size)) != 0)
        throw ProtocolError("cannot size shared memory: " + errno_text());
    return fd;
}

// Writes every byte of `parts`, advancing over partial writes. A socket is written with MSG_NOSIGNAL so a
// departed peer is an EPIPE error here, not a SIGPIPE that kills the process; a pipe relies on the caller
// ignoring SIGPIPE.
void write_all(int fd, bool is_socket, std::vector<iovec> parts) {
    size_t first = 0;
    for (;;) {
        while (first < parts.size() && parts[first].iov_len == 0) ++first;
        if (first == parts.size()) return;
        const size_t count = parts.size() - first;
        ssize_t n;
        if (is_socket) {
            msghdr msg{};
            msg.msg_iov = parts.data() + first;
            msg.msg_iovlen = count;
            n = sendmsg(fd, &msg, MSG_NOSIGNAL);
        } else {
            n = writev(fd, parts.data() + first, static_cast<int>(count));
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                // Non-blocking stream: wait until it drains. POLLERR/POLLHUP also wake us, and the next
                // write then reports what happened.
                pollfd wait{fd, POLLOUT, 0};
                if (poll(&wait, 1, -1) < 0 && errno != EINTR)
                    throw ProtocolError("cannot wait for the peer to read: " + errno_text());
                continue;
            }
            if (errno == EPIPE || errno == ECONNRESET)
                throw ProtocolError("cannot send to the peer: it has gone away (" + errno_text() + ")");
            throw ProtocolError("cannot send to the peer: " + errno_text());
        }
        size_t done = static_cast<size_t>(n);
        while (done > 0) {
            iovec& part = parts[first];
            const size_t step = std::min(done, part.iov_len);
            part.iov_base = static_cast<char*>(part.iov_base) + step;
            part.iov_len -= step;
            done -= step;
            if (part.iov_len == 0) ++first;
        }
    }
}

// A blob to send: mapped, not copied; compressed just before it is written so that at most one compressed
// buffer exists at a time.
struct OutgoingBlob {
    uint64_t size = 0;
    Mapping map;
};

}  // namespace

ProtocolVersionMismatch::ProtocolVersionMismatch(uint16_t peer, uint16_t ours)
    : ProtocolError("protocol version mismatch: the peer speaks version " + std::to_string(peer) + ", this side " +
                    std::to_string(ours) + " (install the same kplay version on both machines)"),
      peer_(peer),
      ours_(ours) {}

void send_stream_frame(int fd, const nlohmann::json& message, const std::vector<int>& blob_fds,
                       StreamTraffic* traffic) {
    // Logs and source lines may hold bytes that are not UTF-8; replace them rather than fail (as send_frame).
    const std::string payload = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (payload.size() > kMaxPayloadBytes) throw ProtocolError("message too large to send");
    if (blob_fds.size() > kMaxFramesFds) throw ProtocolError("too many blobs in one message");

    struct stat info {};
    if (fstat(fd, &info) != 0) throw ProtocolError("cannot send to the peer: " + errno_text());
    const bool is_socket = S_ISSOCK(info.st_mode);

    // Every blob is sized and mapped before the first byte goes out: a refusal must not leave half a frame
    // on the stream, which would desynchronize the peer for good.
    std::vector<OutgoingBlob> blobs(blob_fds.size());
    uint64_t raw_total = 0;
    for (size_t i = 0; i < blob_fds.size(); ++i) {
        struct stat blob_info {};
        if (fstat(blob_fds[i], &blob_info) != 0) throw ProtocolError("cannot read a blob to send: " + errno_text());
        if (!S_ISREG(blob_info.st_mode)) throw ProtocolError("a blob to send is not a memfd or file");
        blobs[i].size = static_cast<uint64_t>(blob_info.st_size);
        if (blobs[i].size > kMaxInlineBlobBytes)
            throw ProtocolError("blob too large to send (" + std::to_string(blobs[i].size) + " bytes)");
        raw_total += blobs[i].size;
        if (raw_total > kMaxInlineFrameBytes)
            throw ProtocolError("blobs too large to send in one message (" + std::to_string(raw_total) + " bytes)");
        blobs[i].map = Mapping(blob_fds[i], blobs[i].size, PROT_READ);
    }

    FrameHeader header;
    header.reserved = kStreamFrameFlag;
    header.payload_bytes = static_cast<uint32_t>(payload.size());
    header.fd_count = static_cast<uint32_t>(blob_fds.size());
    unsigned char header_bytes[sizeof(FrameHeader)];
    encode_header(header, header_bytes);

    // The header and payload go out with the first blob's record, so a small frame is a single write.
    std::vector<iovec> parts = {{header_bytes, sizeof header_bytes},
                                {const_cast<char*>(payload.data()), payload.size()}};
    uint64_t wire_total = sizeof header_bytes + payload.size();
    for (OutgoingBlob& blob : blobs) {
        BlobRecord record;
        record.raw_size = record.wire_size = blob.size;
        const unsigned char* wire = blob.map.data();
        std::unique_ptr<unsigned char[]> compressed;
        if (blob.size >= kMinCompressBytes) {
            // A destination of exactly 90% of the input: ZSTD_compress fails (dstSize_tooSmall) when the
            // result would not fit, which is the "does not pay" case, and a worse result is never kept in
            // memory. Any other failure also falls back to raw, which is always correct.
            const size_t capacity = static_cast<size_t>(blob.size * 9 / 10);
            compressed.reset(new unsigned char[capacity]);
            const size_t size = ZSTD_compress(compressed.get(), capacity, blob.map.data(), blob.size, 1);
            if (!ZSTD_isError(size)) {
                record.codec = kCodecZstd;
                record.wire_size = size;
                wire = compressed.get();
            } else {
                compressed.reset();
            }
        }
        unsigned char record_bytes[kRecordBytes];
        encode_record(record, record_bytes);
        parts.push_back({record_bytes, sizeof record_bytes});
        parts.push_back({const_cast<unsigned char*>(wire), static_cast<size_t>(record.wire_size)});
        write_all(fd, is_socket, std::move(parts));
        parts.clear();
        wire_total += kRecordBytes + record.wire_size;
    }
    if (!parts.empty()) write_all(fd, is_socket, std::move(parts));
    if (traffic) {
        traffic->raw_bytes += sizeof header_bytes + payload.size() + raw_total;
        traffic->wire_bytes += wire_total;
    }
}

// ---- Reading ----

struct StreamFrameReader::Partial {
    enum class Stage { header, payload, record, blob };
    Stage stage = Stage::header;
    unsigned char header_bytes[sizeof(FrameHeader)];
    size_t header_have = 0;
    FrameHeader header;
    std::string payload;
    Frame frame;
    unsigned char record_bytes[kRecordBytes];
    size_t record_have = 0;
    BlobRecord record;
    uint64_t blob_have = 0;
    // A raw blob is copied straight into its memfd as it arrives; a zstd blob is gathered (it is at most
    // the announced wire size) and decompressed into its memfd in one go. The decoded bytes thus exist
    // once, and ZSTD_decompress sizes nothing from the peer's frame header (no window to allocate).
    UniqueFd blob_fd;
    Mapping blob_map;
    std::vector<unsigned char> compressed;
    uint64_t raw_total = 0;
    uint64_t wire_total = 0;
};

StreamFrameReader::StreamFrameReader() = default;
StreamFrameReader::~StreamFrameReader() = default;
StreamFrameReader::StreamFrameReader(StreamFrameReader&&) noexcept = default;
StreamFrameReader& StreamFrameReader::operator=(StreamFrameReader&&) noexcept = default;

bool StreamFrameReader::has_partial_data() const { return partial_ || !ready_.empty() || error_; }

StreamFrameReader::Status StreamFrameReader::read_from(int fd) {
    if (!chunk_) chunk_.reset(new unsigned char[kReadChunk]);
    ssize_t n;
    do {
        n = ::read(fd, chunk_.get(), kReadChunk);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return Status::need_more;
        if (errno == ECONNRESET) return Status::closed;
        throw ProtocolError("cannot read from the peer: " + errno_text());
    }
    if (n == 0) return Status::closed;
    // After a malformed frame the rest of the stream cannot be framed again: it is read and dropped.
    if (error_) return Status::frame;
    try {
        feed(chunk_.get(), static_cast<size_t>(n));
    } catch (...) {
        error_ = std::current_exception();
        partial_.reset();  // frees what the broken frame had allocated
    }
    return Status::frame;
}

std::optional<Frame> StreamFrameReader::next() {
    if (!ready_.empty()) {
        Frame frame = std::move(ready_.front());
        ready_.pop_front();
        return frame;
    }
    if (error_) std::rethrow_exception(error_);
    return std::nullopt;
}

void StreamFrameReader::feed(const unsigned char* data, size_t size) {
    using Stage = Partial::Stage;
    // Takes up to `want` bytes from the input.
    auto take = [&](size_t want) {
        const size_t step = std::min(want, size);
        const unsigned char* from = data;
        data += step;
        size -= step;
        return std::pair{from, step};
    };
    // Each stage consumes what it can; one whose length is zero completes at once, without input.
    for (;;) {
        if (!partial_) {
            if (size == 0) return;
            partial_ = std::make_unique<Partial>();
        }
        Partial& p = *partial_;
        switch (p.stage) {
            case Stage::header: {
                auto [from, step] = take(sizeof p.header_bytes - p.header_have);
                std::memcpy(p.header_bytes + p.header_have, from, step);
                p.header_have += step;
                if (p.header_have < sizeof p.header_bytes) return;
                const FrameHeader& h = p.header = decode_header(p.header_bytes);
                if (h.magic != kFrameMagic) throw ProtocolError("garbled message from the peer (bad frame marker)");
                if (h.version != kProtocolVersion) throw ProtocolVersionMismatch(h.version, kProtocolVersion);
                if (!(h.reserved & kStreamFrameFlag))
                    throw ProtocolError("the peer sent a descriptor-passing frame over a stream");
                if (h.reserved != kStreamFrameFlag)
                    throw ProtocolError("garbled message from the peer (unknown frame flags " +
                                        std::to_string(h.reserved) + ")");
                if (h.payload_bytes > kMaxPayloadBytes)
                    throw ProtocolError("oversized message from the peer (" + std::to_string(h.payload_bytes) +
                                        " bytes)");
                if (h.fd_count > kMaxFramesFds)
                    throw ProtocolError("too many blobs announced by the peer (" + std::to_string(h.fd_count) + ")");
                p.payload.reserve(h.payload_bytes);
                p.frame.fds.reserve(h.fd_count);
                p.stage = Stage::payload;
                break;
            }
            case Stage::payload: {
                auto [from, step] = take(p.header.payload_bytes - p.payload.size());
                p.payload.append(reinterpret_cast<const char*>(from), step);
                if (p.payload.size() < p.header.payload_bytes) return;
                try {
                    p.frame.message = nlohmann::json::parse(p.payload);
                } catch (const nlohmann::json::exception& error) {
                    throw ProtocolError(std::string("garbled message from the peer: ") + error.what());
                }
                p.payload = std::string();
                p.stage = Stage::record;
                break;
            }
            case Stage::record: {
                if (p.frame.fds.size() == p.header.fd_count) {
                    traffic_.raw_bytes += sizeof(FrameHeader) + p.header.payload_bytes + p.raw_total;
                    traffic_.wire_bytes += sizeof(FrameHeader) + p.header.payload_bytes + p.wire_total;
                    ready_.push_back(std::move(p.frame));
                    partial_.reset();
                    break;
                }
                auto [from, step] = take(kRecordBytes - p.record_have);
                std::memcpy(p.record_bytes + p.record_have, from, step);
                p.record_have += step;
                if (p.record_have < kRecordBytes) return;
                p.record_have = 0;
                const BlobRecord& r = p.record = decode_record(p.record_bytes);
                if (r.codec != kCodecRaw && r.codec != kCodecZstd)
                    throw ProtocolError("garbled blob from the peer (unknown codec " + std::to_string(r.codec) + ")");
                if (r.reserved != 0) throw ProtocolError("garbled blob from the peer (reserved field set)");
                if (r.raw_size > kMaxInlineBlobBytes)
                    throw ProtocolError("oversized blob from the peer (" + std::to_string(r.raw_size) + " bytes)");
                if (p.raw_total + r.raw_size > kMaxInlineFrameBytes)
                    throw ProtocolError("oversized blobs from the peer (" + std::to_string(p.raw_total + r.raw_size) +
                                        " bytes in one message)");
                if (r.codec == kCodecRaw && r.wire_size != r.raw_size)
                    throw ProtocolError("garbled blob from the peer (a raw blob of " + std::to_string(r.raw_size) +
                                        " bytes announces " + std::to_string(r.wire_size) + " wire bytes)");
                if (r.codec == kCodecZstd && r.wire_size > ZSTD_compressBound(r.raw_size))
                    throw ProtocolError("garbled blob from the peer (" + std::to_string(r.wire_size) +
                                        " compressed bytes for " + std::to_string(r.raw_size) + ")");
                p.raw_total += r.raw_size;
                p.wire_total += kRecordBytes + r.wire_size;
                p.blob_have = 0;
                if (r.codec == kCodecRaw) {
                    p.blob_fd = sized_memfd(r.raw_size);
                    p.blob_map = Mapping(p.blob_fd.get(), r.raw_size, PROT_READ | PROT_WRITE);
                } else {
                    p.compressed.reserve(r.wire_size);
                }
                p.stage = Stage::blob;
                break;
            }
            case Stage::blob: {
                const BlobRecord& r = p.record;
                auto [from, step] = take(r.wire_size - p.blob_have);
                if (r.codec == kCodecRaw) {
                    if (step) std::memcpy(p.blob_map.data() + p.blob_have, from, step);
                } else {
                    p.compressed.insert(p.compressed.end(), from, from + step);
                }
                p.blob_have += step;
                if (p.blob_have < r.wire_size) return;
                if (r.codec == kCodecZstd) {
                    const unsigned long long content =
                        ZSTD_getFrameContentSize(p.compressed.data(), p.compressed.size());
                    if (content == ZSTD_CONTENTSIZE_ERROR || content == ZSTD_CONTENTSIZE_UNKNOWN)
                        throw ProtocolError("corrupt compressed blob from the peer (no zstd frame header with a size)");
                    if (content != r.raw_size)
                        throw ProtocolError("corrupt compressed blob from the peer (content size " +
                                            std::to_string(content) + " bytes, announced " +
                                            std::to_string(r.raw_size) + ")");
                    p.blob_fd = sized_memfd(r.raw_size);
                    p.blob_map = Mapping(p.blob_fd.get(), r.raw_size, PROT_READ | PROT_WRITE);
                    unsigned char none = 0;  // a valid destination for an empty blob (nothing is mapped)
                    const size_t got = ZSTD_decompress(r.raw_size ? p.blob_map.data() : &none, r.raw_size,
                                                       p.compressed.data(), p.compressed.size());
                    if (ZSTD_isError(got))
                        throw ProtocolError(std::string("corrupt compressed blob from the peer (") +
                                            ZSTD_getErrorName(got) + ")");
                    if (got != r.raw_size)
                        throw ProtocolError("corrupt compressed blob from the peer (" + std::to_string(got) +
                                            " bytes decoded, announced " + std::to_string(r.raw_size) + ")");
                    p.compressed = std::vector<unsigned char>();
                }
                p.blob_map.reset();
                p.frame.fds.push_back(std::move(p.blob_fd));
                p.stage = Stage::record;
                break;
            }
        }
    }
}

}  // namespace kplay
