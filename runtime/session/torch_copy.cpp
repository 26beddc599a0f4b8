// The open file and the window's launch settings, exported for PyTorch.
#include "session/torch_copy.hpp"

#include "base/error.hpp"

namespace kplay {

LaunchSettings launch_settings_of(const LaunchOverrides& overrides) {
    LaunchSettings settings;
    if (overrides.block) settings.block = std::vector<int64_t>(overrides.block->begin(), overrides.block->end());
    if (overrides.grid) settings.grid = std::vector<int64_t>(overrides.grid->begin(), overrides.grid->end());
    settings.smem = overrides.smem;
    settings.arg_overrides = overrides.args;
    return settings;
}

std::string torch_snippet_of(const KernelSession& session) {
    if (!session.spec()) throw InputError(session.spec_error().empty() ? "no kernel file is open" : session.spec_error());
    return torch_snippet(prepare_torch_export(session.file(), session.source(), *session.spec(), launch_settings_of(session.overrides),
                                              session.overrides.defines));
}

}  // namespace kplay
