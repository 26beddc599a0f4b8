// Frames and shared-memory blobs over a real socketpair: round trips and every malformed input.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <thread>

#include "protocol/frames.hpp"

using namespace kplay;

namespace {
struct SocketPair {
    UniqueFd a, b;
    SocketPair() {
        int fds[2];
        EXPECT_EQ(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds), 0);
        a = UniqueFd(fds[0]);
        b = UniqueFd(fds[1]);
    }
};

Frame read_one(int socket) {
    FrameReader reader;
    for (;;) {
        if (auto frame = reader.next()) return std::move(*frame);
        if (reader.read_from(socket) == FrameReader::Status::closed) throw ProtocolError("closed");
    }
}

void write_raw(int socket, const void* data, size_t size) { ASSERT_EQ(write(socket, data, size), static_cast<ssize_t>(size)); }

// Writes a frame header by hand: the tests forge broken ones.
void write_header(int socket, uint32_t payload_bytes, uint32_t fd_count = 0, uint16_t version = kProtocolVersion) {
    FrameHeader header;
    header.payload_bytes = payload_bytes;
    header.fd_count = fd_count;
    header.version = version;
    write_raw(socket, &header, sizeof header);
}
}  // namespace

TEST(WorkerProtocol, RoundTripsJsonAndSharedMemory) {
    SocketPair pair;
    std::vector<unsigned char> big(3 << 20);
    for (size_t i = 0; i < big.size(); ++i) big[i] = static_cast<unsigned char>(i * 7);
    UniqueFd blob = SharedBlob::create(big.data(), big.size(), "test");
    std::thread sender([&] { send_frame(pair.a.get(), {{"id", 7}, {"text", "h\xc3\xa9llo"}}, {blob.get()}); });
    Frame frame = read_one(pair.b.get());
    sender.join();
    EXPECT_EQ(frame.message["id"], 7);
    ASSERT_EQ(frame.fds.size(), 1u);
    EXPECT_EQ(SharedBlob::read(frame.fds[0].get(), big.size()), big);
    EXPECT_THROW(SharedBlob::read(frame.fds[0].get(), big.size() + 1), ProtocolError);
}

TEST(WorkerProtocol, SeveralFramesInOneReadAreSplit) {
    SocketPair pair;
    send_frame(pair.a.get(), {{"n", 1}});
    send_frame(pair.a.get(), {{"n", 2}});
    FrameReader reader;
    std::vector<int> seen;
    while (seen.size() < 2) {
        if (auto frame = reader.next()) seen.push_back(frame->message["n"]);
        else reader.read_from(pair.b.get());
    }
    EXPECT_EQ(seen, (std::vector<int>{1, 2}));
}

TEST(WorkerProtocol, GarbageIsAnErrorNotACrash) {
    SocketPair pair;
    const char junk[] = "definitely not a frame header";
    write_raw(pair.a.get(), junk, sizeof junk);
    FrameReader reader;
    reader.read_from(pair.b.get());
    EXPECT_THROW(reader.next(), ProtocolError);
}

TEST(WorkerProtocol, OversizedAndBadVersionAreRefusedBeforeAllocating) {
    {
        SocketPair pair;
        write_header(pair.a.get(), 0xFFFFFFF0u);
        FrameReader reader;
        reader.read_from(pair.b.get());
        try {
            reader.next();
            FAIL() << "expected an error";
        } catch (const ProtocolError& error) {
            EXPECT_NE(std::string(error.what()).find("oversized"), std::string::npos);
        }
    }
    {
        SocketPair pair;
        write_header(pair.a.get(), 0, 0, 99);
        FrameReader reader;
        reader.read_from(pair.b.get());
        EXPECT_THROW(reader.next(), ProtocolError);
    }
}

TEST(WorkerProtocol, TruncatedFrameWaitsThenReportsClosed) {
    SocketPair pair;
    write_header(pair.a.get(), 50);
    write_raw(pair.a.get(), "{\"id\":", 6);
    pair.a.reset();
    FrameReader reader;
    EXPECT_EQ(reader.read_from(pair.b.get()), FrameReader::Status::frame);
    EXPECT_FALSE(reader.next().has_value());
    EXPECT_EQ(reader.read_from(pair.b.get()), FrameReader::Status::closed);
    EXPECT_TRUE(reader.has_partial_data());
}

TEST(WorkerProtocol, InvalidJsonPayloadIsAnError) {
    SocketPair pair;
    write_header(pair.a.get(), 5);
    write_raw(pair.a.get(), "{oops", 5);
    FrameReader reader;
    reader.read_from(pair.b.get());
    EXPECT_THROW(reader.next(), ProtocolError);
}

TEST(WorkerProtocol, MissingDescriptorsAreAnError) {
    SocketPair pair;
    write_header(pair.a.get(), 2, 1);
    write_raw(pair.a.get(), "{}", 2);
    FrameReader reader;
    reader.read_from(pair.b.get());
    EXPECT_THROW(reader.next(), ProtocolError);
}
