// Names used in the emulated device's messages.
#include "emu/message_names.hpp"

namespace kplay {

std::string dim_text(const kplay_emu_dim& d) {
    return "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.z) + ")";
}

std::string thread_name(const kplay_emu_dim& thread_idx, const kplay_emu_dim& block_idx) {
    return "thread " + dim_text(thread_idx) + " of block " + dim_text(block_idx);
}

std::string kernel_file_name(const std::string& path) {
    const auto last = path.rfind('/');
    if (last == std::string::npos) return path;
    if (last == 0) return path.substr(1);
    const auto before = path.rfind('/', last - 1);
    return before == std::string::npos ? path : path.substr(before + 1);
}

}  // namespace kplay
