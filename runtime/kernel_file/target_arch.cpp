// Target names and the compute capabilities they run on.
#include "kernel_file/target_arch.hpp"

#include <cctype>

namespace kplay {

bool is_arch_name(std::string_view arch) {
    if (arch.substr(0, 3) != "sm_") return false;
    std::string_view rest = arch.substr(3);
    if (!rest.empty() && (rest.back() == 'a' || rest.back() == 'f')) rest.remove_suffix(1);
    if (rest.size() < 2 || rest.size() > 3) return false;
    for (char c : rest)
        if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

std::optional<std::string> arch_mismatch(const std::string& arch, int major, int minor) {
    if (!is_arch_name(arch)) return arch + " is not a target kplay knows (sm_XX, sm_XXa or sm_XXf)";
    const char suffix = std::isdigit(static_cast<unsigned char>(arch.back())) ? '\0' : arch.back();
    const int number = std::stoi(arch.substr(3));
    const int want_major = number / 10, want_minor = number % 10;
    const std::string wanted = std::to_string(want_major) + "." + std::to_string(want_minor);
    const std::string device = "compute capability " + std::to_string(major) + "." + std::to_string(minor);
    if (suffix == 'a') {
        if (major == want_major && minor == want_minor) return std::nullopt;
        return arch + " code uses that architecture's own instructions and runs only on compute capability " + wanted + "; this device has " +
               device;
    }
    if (major == want_major && minor >= want_minor) return std::nullopt;
    return arch + " code runs on compute capability " + std::to_string(want_major) + ".x from " + wanted + "; this device has " + device;
}

}  // namespace kplay
