// Writing every byte of a buffer to a descriptor, over partial writes and signals.
#pragma once

#include <string_view>

namespace kplay {

// 0 once all of `bytes` is written, else the errno that stopped it (EIO for a write that wrote nothing).
int write_all(int fd, std::string_view bytes);

}  // namespace kplay
