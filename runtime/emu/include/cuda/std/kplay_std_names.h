// libcu++'s cuda::std names on the emulated device and in a host reference: the host's own standard
// library (libstdc++, header-only parts), under the namespace libcu++ gives them, so a kernel written
// for CCCL (`cuda::std::is_same_v`, `cuda::std::numeric_limits<float>::max()`) builds here unchanged.
// Each cuda/std/<name> beside this file includes the host's <name> and then this.
#pragma once

namespace cuda {
namespace std {
using namespace ::std;
}  // namespace std
}  // namespace cuda
