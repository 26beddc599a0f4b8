// Output views written as PNG.
#include "values/output_png.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "base/image_io.hpp"

namespace kplay {

bool save_output_view_png(const OutputView& view, const std::filesystem::path& path) {
    if (view.kind == OutputKind::image && !view.output.empty()) {
        save_interleaved_png(path, view.output.data(), view.width, view.height, view.channels);
        return true;
    }
    if (view.kind == OutputKind::matrix && !view.map.empty()) {
        float peak = 0;
        for (float v : view.map)
            if (std::isfinite(v)) peak = std::max(peak, v);
        std::vector<uint8_t> pixels(view.map.size());
        for (size_t i = 0; i < pixels.size(); ++i)
            pixels[i] = std::isfinite(view.map[i]) ? static_cast<uint8_t>(peak > 0 ? 255.0f * view.map[i] / peak : 0) : 255;
        save_gray_png(path, pixels.data(), view.width, view.height);
        return true;
    }
    return false;
}

}  // namespace kplay
