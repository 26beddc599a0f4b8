// A run's output as a grayscale PNG, for `kplay-cli run --out` and the window's "Save output PNG".
#pragma once

#include <filesystem>

#include "values/output_view.hpp"

namespace kplay {

// An image output as it is; a matrix as its |C-R| / allowed map scaled to its worst cell (white: not
// finite). Returns false, writing nothing, for outputs that are not pictures (1D series, scalars);
// throws InputError when the file cannot be written.
bool save_output_view_png(const OutputView& view, const std::filesystem::path& path);

}  // namespace kplay
