// Frame encoding over a Unix socket with descriptor passing, and memfd blobs.
#include "protocol/frames.hpp"

#include <errno.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <string_view>
#include <utility>

#include "base/write_all.hpp"

namespace kplay {

UniqueFd SharedBlob::create(const void* bytes, size_t size, const char* name) {
    UniqueFd fd(memfd_create(name, MFD_CLOEXEC));
    if (!fd) throw ProtocolError(std::string("memfd_create failed: ") + std::strerror(errno));
    // write() rather than a mapping and memcpy: the kernel fills the memfd's pages as it allocates them,
    // without a page fault per 4 KiB in this process (a view of some MiB is sent on every save).
    if (const int error = write_all(fd.get(), std::string_view(static_cast<const char*>(bytes), size)))
        throw ProtocolError(std::string("cannot fill shared memory: ") + std::strerror(error));
    return fd;
}

void SharedBlob::read_into(int fd, size_t expected_size, void* destination) {
    if (expected_size == 0) return;
    struct stat info {};
    if (fstat(fd, &info) != 0 || static_cast<size_t>(info.st_size) < expected_size)
        throw ProtocolError("shared memory block is smaller than announced");
    // MAP_POPULATE maps every page at once instead of faulting them in one by one during the copy.
    void* map = mmap(nullptr, expected_size, PROT_READ, MAP_SHARED | MAP_POPULATE, fd, 0);
    if (map == MAP_FAILED) throw ProtocolError(std::string("cannot map shared memory: ") + std::strerror(errno));
    std::memcpy(destination, map, expected_size);
    munmap(map, expected_size);
}

std::vector<unsigned char> SharedBlob::read(int fd, size_t expected_size) {
    std::vector<unsigned char> bytes(expected_size);
    read_into(fd, expected_size, bytes.data());
    return bytes;
}

void send_frame(int socket, const nlohmann::json& message, const std::vector<int>& fds) {
    // Logs and source lines may hold bytes that are not UTF-8; replace them rather than fail.
    const std::string payload = message.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (payload.size() > kMaxPayloadBytes) throw ProtocolError("message too large to send");
    if (fds.size() > kMaxFramesFds) throw ProtocolError("too many descriptors in one message");
    FrameHeader header;
    header.payload_bytes = static_cast<uint32_t>(payload.size());
    header.fd_count = static_cast<uint32_t>(fds.size());

    iovec parts[2] = {{&header, sizeof header}, {const_cast<char*>(payload.data()), payload.size()}};
    msghdr msg{};
    msg.msg_iov = parts;
    msg.msg_iovlen = 2;
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFramesFds)] = {};
    if (!fds.empty()) {
        msg.msg_control = control;
        msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
        cmsghdr* cmsg = CMSG_FIRSTHDR(&msg);
        cmsg->cmsg_level = SOL_SOCKET;
        cmsg->cmsg_type = SCM_RIGHTS;
        cmsg->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
        std::memcpy(CMSG_DATA(cmsg), fds.data(), sizeof(int) * fds.size());
    }
    size_t total = sizeof header + payload.size(), sent = 0;
    bool first = true;
    while (sent < total) {
        ssize_t n;
        if (first) {
            n = sendmsg(socket, &msg, MSG_NOSIGNAL);
        } else {
            // Rest of the bytes after a partial write; descriptors went with the first chunk.
            const size_t header_left = sent < sizeof header ? sizeof header - sent : 0;
            iovec rest[2] = {{reinterpret_cast<char*>(&header) + (sizeof header - header_left), header_left},
                             {const_cast<char*>(payload.data()) + (sent - sizeof header + header_left),
                              payload.size() - (sent - sizeof header + header_left)}};
            msghdr tail{};
            tail.msg_iov = rest;
            tail.msg_iovlen = 2;
            n = sendmsg(socket, &tail, MSG_NOSIGNAL);
        }
        if (n < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                fd_set writable;
                FD_ZERO(&writable);
                FD_SET(socket, &writable);
                select(socket + 1, nullptr, &writable, nullptr, nullptr);
                continue;
            }
            throw ProtocolError(std::string("cannot send to the peer: ") + std::strerror(errno));
        }
        sent += static_cast<size_t>(n);
        first = false;
    }
}

FrameReader::Status FrameReader::read_from(int socket) {
    char data[64 * 1024];
    iovec part{data, sizeof data};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * kMaxFramesFds)];
    msghdr msg{};
    msg.msg_iov = &part;
    msg.msg_iovlen = 1;
    msg.msg_control = control;
    msg.msg_controllen = sizeof control;
    ssize_t n;
    do {
        n = recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK) return Status::need_more;
        if (errno == ECONNRESET) return Status::closed;
        throw ProtocolError(std::string("cannot read from the peer: ") + std::strerror(errno));
    }
    for (cmsghdr* cmsg = CMSG_FIRSTHDR(&msg); cmsg; cmsg = CMSG_NXTHDR(&msg, cmsg)) {
        if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS) continue;
        const size_t count = (cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t i = 0; i < count; ++i) {
            int fd;
            std::memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof fd);
            fds_.emplace_back(fd);
        }
    }
    if (msg.msg_flags & MSG_CTRUNC) throw ProtocolError("too many descriptors attached to a message");
    if (n == 0) return Status::closed;
    buffer_.append(data, static_cast<size_t>(n));
    return Status::frame;
}

std::optional<Frame> FrameReader::next() {
    if (buffer_.size() < sizeof(FrameHeader)) return std::nullopt;
    FrameHeader header;
    std::memcpy(&header, buffer_.data(), sizeof header);
    if (header.magic != kFrameMagic) throw ProtocolError("garbled message from the peer (bad frame marker)");
    if (header.version != kProtocolVersion)
        throw ProtocolError("protocol version mismatch: peer speaks " + std::to_string(header.version) + ", expected " +
                            std::to_string(kProtocolVersion) + " (rebuild kplay)");
    if (header.payload_bytes > kMaxPayloadBytes)
        throw ProtocolError("oversized message from the peer (" + std::to_string(header.payload_bytes) + " bytes)");
    if (header.fd_count > kMaxFramesFds) throw ProtocolError("too many descriptors announced by the peer");
    if (buffer_.size() < sizeof header + header.payload_bytes) return std::nullopt;
    if (fds_.size() < header.fd_count) throw ProtocolError("a message arrived without its shared-memory blocks");
    Frame frame;
    try {
        frame.message = nlohmann::json::parse(buffer_.begin() + sizeof header, buffer_.begin() + sizeof header + header.payload_bytes);
    } catch (const nlohmann::json::exception& error) {
        throw ProtocolError(std::string("garbled message from the peer: ") + error.what());
    }
    buffer_.erase(0, sizeof header + header.payload_bytes);
    for (uint32_t i = 0; i < header.fd_count; ++i) {
        frame.fds.push_back(std::move(fds_.front()));
        fds_.pop_front();
    }
    return frame;
}

}  // namespace kplay
