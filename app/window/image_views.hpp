// The image views' GPU side: textures of the last result (input, output, difference or error map) and
// their rendering with the GLSL in shaders/ (zoom, pan, colour maps) into offscreen targets.
#pragma once

#include <imgui.h>

#include <array>
#include <string>
#include <vector>

#include "values/run_report.hpp"
#include "gl_resources.hpp"

namespace kplay::window {

enum class ViewKind { input = 0, output = 1, difference = 2, error_map = 3 };

// Shared by all views, so they zoom and pan together. scale: view pixels per image pixel.
struct ViewTransform {
    float scale = 1;
    float offset_x = 0, offset_y = 0;
    bool fit_requested = true;
};

class ImageViews {
public:
    // (Re)loads shaders/image_view.{vert,frag}; a failure is kept in shader_error(), never fatal.
    void load_shaders();
    const std::string& shader_error() const { return shader_error_; }

    // Takes the images out of a report (call when the shown report changes).
    void upload(const RunReport& report);
    bool has(ViewKind kind) const { return static_cast<bool>(textures_[static_cast<int>(kind)]); }
    // The view's extent in image pixels (a downsampled view's texture spans step x step of them a texel).
    int width(ViewKind kind) const { return has(kind) ? extents_[static_cast<int>(kind)][0] : 0; }
    int height(ViewKind kind) const { return has(kind) ? extents_[static_cast<int>(kind)][1] : 0; }
    // Image pixels per texel of the output and difference views (OutputView::step); 1 at full resolution.
    int step() const { return steps_[static_cast<int>(ViewKind::output)]; }

    // Draws one view at `size` pixels and returns the texture ImGui should show.
    ImTextureID render(ViewKind kind, int width, int height, const ViewTransform& transform, float tolerance);

    // CPU copies for the pixel inspector (the output and map at the view's resolution).
    const std::vector<unsigned char>& input_planes() const { return input_; }
    const std::vector<unsigned char>& output_pixels() const { return output_; }  // channels interleaved
    int output_channels() const { return output_channels_; }
    // The output value drawn as white (255, or 1 for a float image in 0..1), and whether it is floats.
    float white() const { return white_; }
    bool float_output() const { return float_output_; }
    const std::vector<float>& map_values() const { return map_; }
    float map_max() const { return map_max_; }

private:
    // What each target last showed: it is redrawn only when one of these changes.
    struct Drawn {
        int width = 0, height = 0, generation = -1;
        float scale = 0, offset_x = 0, offset_y = 0, tolerance = 0;
        bool operator==(const Drawn&) const = default;
    };
    std::array<Drawn, 4> drawn_;
    // By view: bumped when its texture changes and at a shader reload. A save that keeps the input redraws
    // the output and difference views only.
    std::array<int, 4> generations_{};
    std::array<GlTexture, 4> textures_;
    std::array<std::array<int, 2>, 4> extents_{};  // by view: image pixels wide and high
    std::array<int, 4> steps_{1, 1, 1, 1};         // by view: image pixels per texel along a side
    std::array<GlRenderTarget, 4> targets_;
    GlProgram program_;
    GlQuad quad_;
    std::string shader_error_;
    std::vector<unsigned char> input_, output_;
    int output_channels_ = 1;
    float white_ = 255;
    bool float_output_ = false;
    std::string input_identity_;  // the input texture is uploaded again only when this changes
    std::vector<float> map_;
    float map_max_ = 0;
};

}  // namespace kplay::window
