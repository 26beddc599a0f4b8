// The window's Copy as PyTorch: the open file with the launch settings the user set in the window, as
// the snippet `kplay-cli export --torch` writes (export/torch_export.hpp).
#pragma once

#include <string>

#include "export/torch_export.hpp"
#include "session/kernel_session.hpp"

namespace kplay {

// The window's overrides as the plan reads them (what KernelSession sends with a run).
LaunchSettings launch_settings_of(const LaunchOverrides& overrides);

// Throws InputError when the file's spec does not resolve (its message) or the kernel cannot be exported.
std::string torch_snippet_of(const KernelSession& session);

}  // namespace kplay
