// write() in a loop until the buffer is through.
#include "base/write_all.hpp"

#include <unistd.h>

#include <cerrno>

namespace kplay {

int write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t put = ::write(fd, bytes.data(), bytes.size());
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) return errno;
        if (put == 0) return EIO;
        bytes.remove_prefix(static_cast<size_t>(put));
    }
    return 0;
}

}  // namespace kplay
