// Stream frames with inline blobs over real pipes and socketpairs: round trips, every split, every refusal.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "protocol/stream_frames.hpp"

using namespace kplay;
using nlohmann::json;
using Bytes = std::vector<unsigned char>;

namespace {

struct Channel {
    UniqueFd writer, reader;
};

Channel make_socketpair() {
    int fds[2];
    EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
    return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

Channel make_pipe() {
    int fds[2];
    EXPECT_EQ(pipe2(fds, O_CLOEXEC), 0);
    return {UniqueFd(fds[1]), UniqueFd(fds[0])};
}

void set_nonblocking(int fd) { ASSERT_EQ(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0); }

// Text-like rows: zstd shrinks them many times over.
Bytes compressible(size_t size) {
    Bytes bytes;
    bytes.reserve(size + 64);
    char row[64];
    for (size_t i = 0; bytes.size() < size; ++i) {
        const int n = std::snprintf(row, sizeof row, "row %zu: value=%zu status=ok\n", i, i % 97);
        bytes.insert(bytes.end(), row, row + n);
    }
    bytes.resize(size);
    return bytes;
}

// Uniform bytes below `range`: 256 is incompressible, 16 halves under zstd.
Bytes random_bytes(size_t size, uint32_t seed, unsigned range = 256) {
    std::mt19937 gen(seed);
    Bytes bytes(size);
    for (auto& b : bytes) b = static_cast<unsigned char>(gen() % range);
    return bytes;
}

UniqueFd blob_of(const Bytes& bytes) { return SharedBlob::create(bytes.data(), bytes.size(), "stream-test"); }

uint64_t file_size(int fd) {
    struct stat info {};
    EXPECT_EQ(fstat(fd, &info), 0);
    return static_cast<uint64_t>(info.st_size);
}

// The blob arrived as a memfd of exactly the sent bytes.
void expect_blob(const UniqueFd& fd, const Bytes& expected) {
    ASSERT_TRUE(fd);
    EXPECT_EQ(file_size(fd.get()), expected.size());
    EXPECT_TRUE(SharedBlob::read(fd.get(), expected.size()) == expected) << "blob content differs";
}

Frame read_frame(StreamFrameReader& reader, int fd) {
    for (;;) {
        if (auto frame = reader.next()) return std::move(*frame);
        if (reader.read_from(fd) == StreamFrameReader::Status::closed) throw ProtocolError("closed before a frame");
    }
}

// The bytes send_stream_frame writes for one frame.
std::string encoded(const json& message, const std::vector<int>& blobs = {}) {
    Channel channel = make_pipe();
    std::string bytes;
    std::jthread drain([&] {
        char data[65536];
        ssize_t n;
        while ((n = read(channel.reader.get(), data, sizeof data)) > 0) bytes.append(data, static_cast<size_t>(n));
    });
    try {
        send_stream_frame(channel.writer.get(), message, blobs);
    } catch (...) {
        channel.writer.reset();  // lets the drain end
        throw;
    }
    channel.writer.reset();
    drain.join();
    return bytes;
}

void write_bytes(int fd, const std::string& bytes) {
    ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
}

size_t unread_bytes(int fd) {
    int n = -1;
    EXPECT_EQ(ioctl(fd, FIONREAD, &n), 0);
    return static_cast<size_t>(n);
}

// Forged wire pieces, little-endian as the format says.
void append_le(std::string& out, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>(value >> (8 * i)));
}
std::string header_bytes(uint32_t payload_bytes, uint32_t blobs, uint16_t flags = kStreamFrameFlag,
                         uint16_t version = kProtocolVersion, uint32_t magic = kFrameMagic) {
    std::string out;
    append_le(out, magic, 4);
    append_le(out, version, 2);
    append_le(out, flags, 2);
    append_le(out, payload_bytes, 4);
    append_le(out, blobs, 4);
    return out;
}
std::string record_bytes(uint64_t raw_size, uint64_t wire_size, uint32_t codec, uint32_t reserved = 0) {
    std::string out;
    append_le(out, raw_size, 8);
    append_le(out, wire_size, 8);
    append_le(out, codec, 4);
    append_le(out, reserved, 4);
    return out;
}
// A frame with payload "{}" and the given blob records (each followed by its bytes).
std::string forged(const std::vector<std::string>& blobs) {
    std::string out = header_bytes(2, static_cast<uint32_t>(blobs.size())) + "{}";
    for (const auto& blob : blobs) out += blob;
    return out;
}
std::string zstd_of(const Bytes& bytes) {
    std::string out(ZSTD_compressBound(bytes.size()), '\0');
    const size_t size = ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 1);
    EXPECT_FALSE(ZSTD_isError(size));
    out.resize(size);
    return out;
}

// Writes `bytes` into a pipe whose writer stays open, reads what is there without blocking and returns the
// message next() throws: the error must come from what was announced, not after waiting for more.
std::string rejection(const std::string& bytes) {
    Channel channel = make_pipe();
    write_bytes(channel.writer.get(), bytes);
    set_nonblocking(channel.reader.get());
    StreamFrameReader reader;
    while (reader.read_from(channel.reader.get()) == StreamFrameReader::Status::frame) {
    }
    try {
        reader.next();
    } catch (const ProtocolError& error) {
        EXPECT_TRUE(reader.has_partial_data());
        EXPECT_THROW(reader.next(), ProtocolError) << "a broken stream stays broken";
        return error.what();
    }
    return "(no error)";
}

#define EXPECT_CONTAINS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << (text)

// In a child process with little address space to spare, the refusal of `bytes` must say `expected`: a
// reader that allocated what a forged header announces (gigabytes) fails there in another way.
[[noreturn]] void refuse_in_small_address_space(const std::string& bytes, const std::string& expected) {
    long pages = 0;
    FILE* statm = std::fopen("/proc/self/statm", "r");
    if (!statm || std::fscanf(statm, "%ld", &pages) != 1) _exit(3);
    std::fclose(statm);
    const rlim_t limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (256ull << 20);
    const rlimit rl = {limit, limit};
    if (setrlimit(RLIMIT_AS, &rl) != 0) _exit(4);
    const std::string message = rejection(bytes);
    std::fprintf(stderr, "%s\n", message.c_str());
    _exit(message.find(expected) != std::string::npos ? 0 : 1);
}
void expect_refused_in_small_address_space(const std::string& bytes, const std::string& expected) {
    EXPECT_EXIT(refuse_in_small_address_space(bytes, expected), ::testing::ExitedWithCode(0), "");
}

// Sets a signal's disposition for a scope.
struct SignalDisposition {
    int signal;
    struct sigaction old {};
    SignalDisposition(int sig, void (*handler)(int)) : signal(sig) {
        struct sigaction action {};
        action.sa_handler = handler;
        sigaction(sig, &action, &old);
    }
    ~SignalDisposition() { sigaction(signal, &old, nullptr); }
};

void round_trip(Channel channel) {
    SignalDisposition ignore(SIGPIPE, SIG_IGN);
    const Bytes empty;
    const Bytes text = compressible(1 << 20);
    const Bytes noise = random_bytes(300 << 10, 42);
    UniqueFd empty_fd = blob_of(empty), text_fd = blob_of(text), noise_fd = blob_of(noise);
    StreamTraffic sent[3];
    std::jthread sender([&] {
        try {
            send_stream_frame(channel.writer.get(), {{"kind", "ping"}}, {}, &sent[0]);
            send_stream_frame(channel.writer.get(), {{"kind", "one"}, {"n", 1}}, {text_fd.get()}, &sent[1]);
            send_stream_frame(channel.writer.get(), {{"kind", "three"}, {"list", {1, 2, 3}}},
                              {empty_fd.get(), text_fd.get(), noise_fd.get()}, &sent[2]);
        } catch (const std::exception& error) {
            ADD_FAILURE() << "send: " << error.what();
        }
        channel.writer.reset();  // a failed send ends the reader's wait
    });
    StreamFrameReader reader;
    std::vector<Frame> frames;
    try {
        for (int i = 0; i < 3; ++i) frames.push_back(read_frame(reader, channel.reader.get()));
    } catch (const std::exception& error) {
        ADD_FAILURE() << "receive: " << error.what();
        channel.reader.reset();  // the sender fails too (SIGPIPE is ignored here) and is joined
        return;
    }
    sender.join();
    EXPECT_FALSE(reader.has_partial_data());
    EXPECT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::closed);

    EXPECT_EQ(frames[0].message, json({{"kind", "ping"}}));
    EXPECT_TRUE(frames[0].fds.empty());
    EXPECT_EQ(frames[1].message, json({{"kind", "one"}, {"n", 1}}));
    ASSERT_EQ(frames[1].fds.size(), 1u);
    expect_blob(frames[1].fds[0], text);
    EXPECT_EQ(frames[2].message, json({{"kind", "three"}, {"list", {1, 2, 3}}}));
    ASSERT_EQ(frames[2].fds.size(), 3u);
    expect_blob(frames[2].fds[0], empty);
    expect_blob(frames[2].fds[1], text);
    expect_blob(frames[2].fds[2], noise);

    // Both sides count the same bytes.
    EXPECT_EQ(sent[0].raw_bytes + sent[1].raw_bytes + sent[2].raw_bytes, reader.traffic().raw_bytes);
    EXPECT_EQ(sent[0].wire_bytes + sent[1].wire_bytes + sent[2].wire_bytes, reader.traffic().wire_bytes);
    // A frame without blobs: header and payload, nothing else.
    EXPECT_EQ(sent[0].raw_bytes, sent[0].wire_bytes);
    // The compressible megabyte travels as a small fraction of itself...
    EXPECT_GE(sent[1].raw_bytes, text.size());
    EXPECT_LT(sent[1].wire_bytes, sent[1].raw_bytes / 10);
    // ...while random bytes go raw: the third frame is at least the noise plus 3 record headers.
    EXPECT_GE(sent[2].wire_bytes, noise.size() + 3 * 24);
    EXPECT_LT(sent[2].wire_bytes, noise.size() + text.size() / 10);
}

}  // namespace

TEST(StreamFrames, RoundTripsOverASocketpair) { round_trip(make_socketpair()); }

TEST(StreamFrames, RoundTripsOverAPipe) { round_trip(make_pipe()); }

TEST(StreamFrames, CompressesOnlyWhenItPays) {
    struct Case {
        const char* what;
        Bytes bytes;
        bool compressed;
    };
    const Case cases[] = {
        {"4095 zeros (under the threshold)", Bytes(4095, 0), false},
        {"4096 zeros", Bytes(4096, 0), true},
        {"64 KiB below 200 (saves under 10%)", random_bytes(64 << 10, 7, 200), false},
        {"64 KiB below 16 (saves half)", random_bytes(64 << 10, 8, 16), true},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.what);
        UniqueFd blob = blob_of(c.bytes);
        StreamTraffic traffic;
        const std::string wire = encoded({{"k", 1}}, {blob.get()});
        Channel channel = make_pipe();
        std::jthread sender([&] {
            try {
                send_stream_frame(channel.writer.get(), {{"k", 1}}, {blob.get()}, &traffic);
            } catch (const std::exception& error) {
                ADD_FAILURE() << "send: " << error.what();
            }
            channel.writer.reset();
        });
        StreamFrameReader reader;
        Frame frame = read_frame(reader, channel.reader.get());
        sender.join();
        ASSERT_EQ(frame.fds.size(), 1u);
        expect_blob(frame.fds[0], c.bytes);
        EXPECT_EQ(traffic.wire_bytes, wire.size());
        // The codec field of the one record, right after header and payload.
        const size_t record = 16 + std::string(R"({"k":1})").size();
        ASSERT_GT(wire.size(), record + 24);
        EXPECT_EQ(static_cast<unsigned char>(wire[record + 16]), c.compressed ? 1 : 0);
        if (c.compressed) {
            const uint64_t blob_wire = traffic.wire_bytes + c.bytes.size() - traffic.raw_bytes - 24;
            EXPECT_LE(blob_wire * 10, c.bytes.size() * 9);
        } else {
            EXPECT_EQ(traffic.wire_bytes, traffic.raw_bytes + 24);
        }
    }
}

TEST(StreamFrames, PlainFilesAreBlobsToo) {
    const Bytes bytes = compressible(10000);
    UniqueFd file(open("/tmp", O_TMPFILE | O_RDWR | O_CLOEXEC, 0600));
    ASSERT_TRUE(file);
    ASSERT_EQ(write(file.get(), bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    Channel channel = make_socketpair();
    send_stream_frame(channel.writer.get(), {{"file", true}}, {file.get()});
    StreamFrameReader reader;
    Frame frame = read_frame(reader, channel.reader.get());
    ASSERT_EQ(frame.fds.size(), 1u);
    expect_blob(frame.fds[0], bytes);
}

TEST(StreamFrames, TextThatIsNotUtf8IsReplacedNotRefused) {
    Channel channel = make_socketpair();
    send_stream_frame(channel.writer.get(), {{"log", "ok \xff\xfe end"}});
    StreamFrameReader reader;
    Frame frame = read_frame(reader, channel.reader.get());
    EXPECT_EQ(frame.message["log"], "ok \xEF\xBF\xBD\xEF\xBF\xBD end");
}

TEST(StreamFrames, DecodesWhenFedOneByteAtATime) {
    const Bytes small = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    const Bytes text = compressible(8192);  // zstd: its compressed bytes are split too
    UniqueFd small_fd = blob_of(small), empty_fd = blob_of({}), text_fd = blob_of(text);
    const std::string first =
        encoded({{"kind", "split"}, {"s", "h\xc3\xa9llo"}}, {small_fd.get(), empty_fd.get(), text_fd.get()});
    const std::string second = encoded({{"kind", "after"}});
    ASSERT_LT(first.size(), text.size() / 4) << "the text blob should have been compressed";
    const std::string stream = first + second;

    Channel channel = make_pipe();
    StreamFrameReader reader;
    std::vector<Frame> frames;
    for (size_t i = 0; i < stream.size(); ++i) {
        write_bytes(channel.writer.get(), stream.substr(i, 1));
        ASSERT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::frame);
        auto frame = reader.next();
        const bool frame_ends_here = i + 1 == first.size() || i + 1 == stream.size();
        ASSERT_EQ(frame.has_value(), frame_ends_here) << "after byte " << i;
        if (frame) frames.push_back(std::move(*frame));
        EXPECT_EQ(reader.has_partial_data(), !frame_ends_here) << "after byte " << i;
    }
    ASSERT_EQ(frames.size(), 2u);
    EXPECT_EQ(frames[0].message["s"], "h\xc3\xa9llo");
    ASSERT_EQ(frames[0].fds.size(), 3u);
    expect_blob(frames[0].fds[0], small);
    expect_blob(frames[0].fds[1], {});
    expect_blob(frames[0].fds[2], text);
    EXPECT_EQ(frames[1].message["kind"], "after");
    EXPECT_EQ(reader.traffic().wire_bytes, stream.size());
}

TEST(StreamFrames, DecodesWhenSplitAtEveryBoundary) {
    const Bytes small = {9, 8, 7};
    const Bytes text = compressible(5000);
    UniqueFd small_fd = blob_of(small), text_fd = blob_of(text);
    const std::string first = encoded({{"kind", "split"}}, {text_fd.get(), small_fd.get()});
    const std::string stream = first + encoded({{"kind", "after"}});
    for (size_t cut = 1; cut < stream.size(); ++cut) {
        SCOPED_TRACE("cut at " + std::to_string(cut));
        Channel channel = make_pipe();
        StreamFrameReader reader;
        write_bytes(channel.writer.get(), stream.substr(0, cut));
        ASSERT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::frame);
        std::vector<Frame> frames;
        while (auto frame = reader.next()) frames.push_back(std::move(*frame));
        EXPECT_EQ(frames.size(), cut < first.size() ? 0u : 1u);
        EXPECT_EQ(reader.has_partial_data(), cut != first.size());
        write_bytes(channel.writer.get(), stream.substr(cut));
        ASSERT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::frame);
        while (auto frame = reader.next()) frames.push_back(std::move(*frame));
        EXPECT_FALSE(reader.has_partial_data());
        ASSERT_EQ(frames.size(), 2u);
        ASSERT_EQ(frames[0].fds.size(), 2u);
        expect_blob(frames[0].fds[0], text);
        expect_blob(frames[0].fds[1], small);
        EXPECT_EQ(frames[1].message["kind"], "after");
    }
}

TEST(StreamFrames, NonBlockingReaderSaysNeedMore) {
    Channel channel = make_pipe();
    set_nonblocking(channel.reader.get());
    StreamFrameReader reader;
    EXPECT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::need_more);
    const std::string frame = encoded({{"n", 5}});
    write_bytes(channel.writer.get(), frame.substr(0, 10));
    EXPECT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::frame);
    EXPECT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::need_more);
    EXPECT_FALSE(reader.next());
    write_bytes(channel.writer.get(), frame.substr(10));
    EXPECT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::frame);
    auto got = reader.next();
    ASSERT_TRUE(got);
    EXPECT_EQ(got->message["n"], 5);
}

TEST(StreamFrames, NonBlockingWriterWaitsForASlowReader) {
    for (bool socket : {false, true}) {
        SCOPED_TRACE(socket ? "socket" : "pipe");
        Channel channel = socket ? make_socketpair() : make_pipe();
        set_nonblocking(channel.writer.get());
        const Bytes text = compressible(1 << 20), noise = random_bytes(300 << 10, 3);
        UniqueFd text_fd = blob_of(text), noise_fd = blob_of(noise);
        std::vector<Frame> frames;
        std::jthread receiver([&] {
            StreamFrameReader reader;
            try {
                for (int i = 0; i < 2; ++i) {
                    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the writer fills the buffer first
                    frames.push_back(read_frame(reader, channel.reader.get()));
                }
            } catch (const std::exception& error) {
                ADD_FAILURE() << "receive: " << error.what();
            }
        });
        try {
            send_stream_frame(channel.writer.get(), {{"n", 1}}, {noise_fd.get(), text_fd.get()});
            send_stream_frame(channel.writer.get(), {{"n", 2}}, {noise_fd.get()});
        } catch (const std::exception& error) {
            ADD_FAILURE() << "send: " << error.what();
        }
        channel.writer.reset();
        receiver.join();
        ASSERT_EQ(frames.size(), 2u);
        ASSERT_EQ(frames[0].fds.size(), 2u);
        expect_blob(frames[0].fds[0], noise);
        expect_blob(frames[0].fds[1], text);
        ASSERT_EQ(frames[1].fds.size(), 1u);
        expect_blob(frames[1].fds[0], noise);
    }
}

TEST(StreamFrames, FramesBeforeABrokenOneAreStillDelivered) {
    const std::string stream = encoded({{"n", 1}}) + encoded({{"n", 2}}) + "garbage that is no frame header";
    Channel channel = make_pipe();
    write_bytes(channel.writer.get(), stream);
    StreamFrameReader reader;
    ASSERT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::frame);
    EXPECT_EQ(reader.next()->message["n"], 1);
    EXPECT_EQ(reader.next()->message["n"], 2);
    EXPECT_THROW(reader.next(), ProtocolError);
}

TEST(StreamFrames, RefusesBadMagic) {
    EXPECT_CONTAINS(rejection(header_bytes(2, 0, kStreamFrameFlag, kProtocolVersion, 0x12345678u) + "{}"),
                    "bad frame marker");
    EXPECT_CONTAINS(rejection("definitely not a frame header"), "bad frame marker");
}

TEST(StreamFrames, RefusesAnotherVersionNamingBoth) {
    Channel channel = make_pipe();
    write_bytes(channel.writer.get(), header_bytes(2, 0, kStreamFrameFlag, 7) + "{}");
    StreamFrameReader reader;
    reader.read_from(channel.reader.get());
    try {
        reader.next();
        FAIL() << "expected ProtocolVersionMismatch";
    } catch (const ProtocolVersionMismatch& error) {
        EXPECT_EQ(error.peer_version(), 7);
        EXPECT_EQ(error.our_version(), kProtocolVersion);
        EXPECT_CONTAINS(error.what(), "version 7");
        EXPECT_CONTAINS(error.what(), std::to_string(kProtocolVersion));
    }
    const ProtocolError& as_base = ProtocolVersionMismatch(3, 1);
    EXPECT_CONTAINS(as_base.what(), "mismatch");
}

TEST(StreamFrames, RefusesADescriptorPassingFrame) {
    EXPECT_CONTAINS(rejection(header_bytes(2, 0, 0) + "{}"), "the peer sent a descriptor-passing frame over a stream");
    EXPECT_CONTAINS(rejection(header_bytes(2, 0, 2) + "{}"), "the peer sent a descriptor-passing frame over a stream");
    EXPECT_CONTAINS(rejection(header_bytes(2, 0, kStreamFrameFlag | 2) + "{}"), "unknown frame flags 3");
}

TEST(StreamFrames, RefusesAnOversizedPayload) {
    EXPECT_CONTAINS(rejection(header_bytes(kMaxPayloadBytes + 1, 0)),
                    "oversized message from the peer (" + std::to_string(kMaxPayloadBytes + 1) + " bytes)");
    expect_refused_in_small_address_space(header_bytes(0xFFFFFFFFu, 0), "oversized message");
}

TEST(StreamFrames, RefusesTooManyBlobs) {
    EXPECT_CONTAINS(rejection(header_bytes(2, kMaxFramesFds + 1) + "{}"), "too many blobs announced by the peer (" + std::to_string(kMaxFramesFds + 1) + ")");
}

TEST(StreamFrames, RefusesGarbledJson) {
    EXPECT_CONTAINS(rejection(header_bytes(3, 0) + "{\"a"), "garbled message from the peer");
    EXPECT_CONTAINS(rejection(header_bytes(0, 0)), "garbled message from the peer");
}

TEST(StreamFrames, RefusesAHugeBlobBeforeAllocating) {
    const std::string huge = forged({record_bytes(2ull << 30, 2ull << 30, 0)});
    EXPECT_CONTAINS(rejection(huge), "oversized blob from the peer (2147483648 bytes)");
    expect_refused_in_small_address_space(huge, "oversized blob from the peer (2147483648 bytes)");
    // Just over the limit, compressed: refused on the record too.
    EXPECT_CONTAINS(rejection(forged({record_bytes(kMaxInlineBlobBytes + 1, 100, 1)})),
                    "oversized blob from the peer (" + std::to_string(kMaxInlineBlobBytes + 1) + " bytes)");
    // A compressed size past what zstd could ever produce for the raw size.
    const std::string bloated = forged({record_bytes(1ull << 20, 1ull << 30, 1)});
    EXPECT_CONTAINS(rejection(bloated), "1073741824 compressed bytes for 1048576");
    expect_refused_in_small_address_space(bloated, "compressed bytes for");
}

TEST(StreamFrames, RefusesARawRecordWithAnotherWireSize) {
    EXPECT_CONTAINS(rejection(forged({record_bytes(100, 101, 0)})), "a raw blob of 100 bytes announces 101 wire bytes");
    EXPECT_CONTAINS(rejection(forged({record_bytes(100, 99, 0)})), "a raw blob of 100 bytes announces 99 wire bytes");
}

TEST(StreamFrames, RefusesAnUnknownCodecOrReservedBits) {
    EXPECT_CONTAINS(rejection(forged({record_bytes(10, 10, 2) + "0123456789"})), "unknown codec 2");
    EXPECT_CONTAINS(rejection(forged({record_bytes(10, 10, 0, 1) + "0123456789"})), "reserved field set");
}

TEST(StreamFrames, RefusesCorruptZstd) {
    // Not a zstd frame at all.
    const std::string junk(64, '\xAB');
    EXPECT_CONTAINS(rejection(forged({record_bytes(8192, junk.size(), 1) + junk})),
                    "corrupt compressed blob from the peer (no zstd frame header");
    // A valid frame header with its body cut short.
    const Bytes text = compressible(8192);
    std::string cut = zstd_of(text);
    cut.resize(cut.size() - 8);
    const std::string message = rejection(forged({record_bytes(text.size(), cut.size(), 1) + cut}));
    EXPECT_CONTAINS(message, "corrupt compressed blob from the peer (");
    EXPECT_EQ(message.find("frame header"), std::string::npos) << message;
    // Two frames where one was announced: more bytes than raw_size would come out.
    const std::string twice = zstd_of(text) + zstd_of(text);
    EXPECT_CONTAINS(rejection(forged({record_bytes(text.size(), twice.size(), 1) + twice})),
                    "corrupt compressed blob from the peer (");
}

TEST(StreamFrames, RefusesZstdWhoseContentSizeDiffers) {
    const Bytes text = compressible(8192);
    const std::string packed = zstd_of(text);
    EXPECT_CONTAINS(rejection(forged({record_bytes(text.size() + 1, packed.size(), 1) + packed})),
                    "content size 8192 bytes, announced 8193");
    EXPECT_CONTAINS(rejection(forged({record_bytes(text.size() - 1, packed.size(), 1) + packed})),
                    "content size 8192 bytes, announced 8191");
    // The same bytes with the right size decode (so the refusals above are about the size alone).
    Channel channel = make_pipe();
    write_bytes(channel.writer.get(), forged({record_bytes(text.size(), packed.size(), 1) + packed}));
    StreamFrameReader reader;
    Frame frame = read_frame(reader, channel.reader.get());
    ASSERT_EQ(frame.fds.size(), 1u);
    expect_blob(frame.fds[0], text);
}

TEST(StreamFrames, AWriterThatDiesMidFrameLeavesPartialData) {
    const Bytes noise = random_bytes(100000, 5);
    UniqueFd noise_fd = blob_of(noise);
    const std::string frame = encoded({{"kind", "cut"}}, {noise_fd.get()});
    const size_t payload_end = 16 + std::string(R"({"kind":"cut"})").size();
    for (size_t cut :
         {size_t{5}, size_t{16}, payload_end - 3, payload_end + 10, payload_end + 24 + 5000, frame.size() - 1}) {
        for (bool socket : {false, true}) {
            SCOPED_TRACE("cut at " + std::to_string(cut) + (socket ? " over a socket" : " over a pipe"));
            Channel channel = socket ? make_socketpair() : make_pipe();
            const pid_t child = fork();
            ASSERT_GE(child, 0);
            if (child == 0) {
                channel.reader.reset();
                size_t done = 0;
                while (done < cut) {
                    const ssize_t n = write(channel.writer.get(), frame.data() + done, cut - done);
                    if (n <= 0) _exit(1);
                    done += static_cast<size_t>(n);
                }
                _exit(0);  // dies with the frame half written
            }
            channel.writer.reset();
            StreamFrameReader reader;
            StreamFrameReader::Status status;
            while ((status = reader.read_from(channel.reader.get())) == StreamFrameReader::Status::frame) {
                EXPECT_FALSE(reader.next());
            }
            int wstatus = 0;
            waitpid(child, &wstatus, 0);
            EXPECT_EQ(status, StreamFrameReader::Status::closed);
            EXPECT_TRUE(reader.has_partial_data());
            EXPECT_FALSE(reader.next());
        }
    }
    // The control: a whole frame, then the end of the stream, leaves nothing partial.
    Channel channel = make_pipe();
    std::jthread writer([&] {
        write_bytes(channel.writer.get(), frame);
        channel.writer.reset();
    });
    StreamFrameReader reader;
    Frame whole = read_frame(reader, channel.reader.get());
    writer.join();
    expect_blob(whole.fds.at(0), noise);
    EXPECT_EQ(reader.read_from(channel.reader.get()), StreamFrameReader::Status::closed);
    EXPECT_FALSE(reader.has_partial_data());
}

TEST(StreamFrames, AConnectionResetCountsAsClosed) {
    Channel channel = make_socketpair();
    const std::string frame = encoded({{"kind", "reset"}});
    // The writer leaves unread data behind when it goes: the kernel then resets the connection.
    write_bytes(channel.reader.get(), "unread");
    write_bytes(channel.writer.get(), frame.substr(0, frame.size() / 2));
    channel.writer.reset();
    StreamFrameReader reader;
    StreamFrameReader::Status status;
    while ((status = reader.read_from(channel.reader.get())) == StreamFrameReader::Status::frame) {
    }
    EXPECT_EQ(status, StreamFrameReader::Status::closed);
    EXPECT_TRUE(reader.has_partial_data());
}

namespace {
// SIGPIPE left at its default: only MSG_NOSIGNAL keeps the process alive.
[[noreturn]] void send_to_closed_socket_with_default_sigpipe() {
    signal(SIGPIPE, SIG_DFL);
    Channel channel = make_socketpair();
    channel.reader.reset();
    const Bytes noise = random_bytes(300 << 10, 9);
    UniqueFd blob = blob_of(noise);
    try {
        send_stream_frame(channel.writer.get(), {{"n", 1}}, {blob.get()});
    } catch (const ProtocolError& error) {
        _exit(std::string(error.what()).find("gone away") != std::string::npos ? 0 : 2);
    }
    _exit(1);
}
}  // namespace

TEST(StreamFrames, SendingToAClosedSocketThrowsWithoutSigpipe) {
    EXPECT_EXIT(send_to_closed_socket_with_default_sigpipe(), ::testing::ExitedWithCode(0), "");
}

TEST(StreamFrames, SendingToAClosedPipeThrows) {
    SignalDisposition ignore(SIGPIPE, SIG_IGN);  // as callers do: a pipe write cannot ask for no signal
    Channel channel = make_pipe();
    channel.reader.reset();
    try {
        send_stream_frame(channel.writer.get(), {{"n", 1}});
        FAIL() << "expected ProtocolError";
    } catch (const ProtocolError& error) {
        EXPECT_CONTAINS(error.what(), "gone away");
    }
}

TEST(StreamFrames, APeerLeavingMidFrameFailsTheSend) {
    SignalDisposition ignore(SIGPIPE, SIG_IGN);
    for (bool socket : {false, true}) {
        SCOPED_TRACE(socket ? "socket" : "pipe");
        Channel channel = socket ? make_socketpair() : make_pipe();
        const Bytes noise = random_bytes(4 << 20, 11);
        UniqueFd blob = blob_of(noise);
        std::jthread leaver([&] {
            char data[1000];
            EXPECT_GT(read(channel.reader.get(), data, sizeof data), 0);
            channel.reader.reset();
        });
        EXPECT_THROW(send_stream_frame(channel.writer.get(), {{"n", 1}}, {blob.get()}), ProtocolError);
        leaver.join();
    }
}

TEST(StreamFrames, SenderRefusesWhatThePeerWouldRefuseAndWritesNothing) {
    Channel channel = make_pipe();
    auto refusal = [&](const json& message, const std::vector<int>& blobs) -> std::string {
        try {
            send_stream_frame(channel.writer.get(), message, blobs);
        } catch (const ProtocolError& error) {
            EXPECT_EQ(unread_bytes(channel.reader.get()), 0u) << "half a frame was written";
            return error.what();
        }
        return "(no error)";
    };
    // Sparse memfds: their sizes are real, their pages never touched.
    auto sparse = [](uint64_t size) {
        UniqueFd fd = SharedBlob::create(nullptr, 0, "sparse");
        EXPECT_EQ(ftruncate(fd.get(), static_cast<off_t>(size)), 0);
        return fd;
    };
    UniqueFd small = blob_of({1, 2, 3});
    EXPECT_CONTAINS(refusal({{"n", 1}}, std::vector<int>(kMaxFramesFds + 1, small.get())), "too many blobs");
    UniqueFd over = sparse(kMaxInlineBlobBytes + 1);
    EXPECT_CONTAINS(refusal({{"n", 1}}, {small.get(), over.get()}), "blob too large to send");
    UniqueFd gig = sparse(kMaxInlineBlobBytes);
    EXPECT_CONTAINS(refusal({{"n", 1}}, {gig.get(), gig.get(), small.get()}), "too large to send in one message");
    EXPECT_CONTAINS(refusal({{"text", std::string(kMaxPayloadBytes, 'x')}}, {}), "message too large");
    Channel other = make_pipe();
    EXPECT_CONTAINS(refusal({{"n", 1}}, {other.reader.get()}), "not a memfd or file");
}
