// GPU targets a kernel file may ask for with `arch=` and the devices their code runs on.
//
// sm_XX is a CUBIN for compute capability X.X that also runs on later minor versions of the same major
// one; sm_XXa adds the architecture's own instructions (Hopper's wgmma and setmaxnreg need sm_90a) and
// runs on exactly X.X; sm_XXf (a family) runs on X.X and later minors. kplay checks the match before it
// compiles, so a mismatch is a sentence rather than the driver's "no kernel image is available".
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kplay {

// sm_ followed by two or three digits and an optional a or f.
bool is_arch_name(std::string_view arch);

// Why `arch`'s code cannot run on a device of compute capability major.minor; nullopt when it can.
std::optional<std::string> arch_mismatch(const std::string& arch, int major, int minor);

}  // namespace kplay
