// Texture uploads from RunReports and offscreen rendering of each view with the image_view shader.
#include "image_views.hpp"

#include <algorithm>
#include <cmath>

#include "base/install_paths.hpp"

namespace kplay::window {

void ImageViews::load_shaders() {
    shader_error_.clear();
    const auto dir = kplay::shaders_dir();  // installed, source tree or $KPLAY_SHADERS_DIR (base/install_paths)
    program_ = GlProgram::from_files(dir / "image_view.vert", dir / "image_view.frag", shader_error_);
    for (int& generation : generations_) ++generation;
}

void ImageViews::upload(const RunReport& report) {
    const OutputView& view = report.view;
    const bool image = view.kind == OutputKind::image;
    // Bars (a histogram) are drawn beside the image they count, when the task has one.
    const bool with_input = image || (view.kind == OutputKind::bars && view.input_w > 0);
    const bool same_input = with_input && !input_identity_.empty() && view.input_identity == input_identity_ && textures_[0];
    // The textures this result fills are written in place; the others it leaves are emptied below.
    std::array<bool, 4> filled{same_input, false, false, false};
    for (int i = same_input ? 1 : 0; i < 4; ++i) ++generations_[i];
    output_.clear();
    map_.clear();
    map_max_ = 0;
    if (with_input && !same_input) {
        input_ = view.input;
        input_identity_ = view.input_identity;
        const size_t input_pixels = static_cast<size_t>(view.input_w) * view.input_h;
        if (input_pixels > 0 && 3 * input_pixels <= input_.size()) {
            std::vector<unsigned char> interleaved(3 * input_pixels);
            for (size_t i = 0; i < input_pixels; ++i)
                for (int c = 0; c < 3; ++c) interleaved[3 * i + c] = input_[c * input_pixels + i];
            textures_[0].upload(view.input_w, view.input_h, GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE, interleaved.data());
            extents_[0] = {view.input_w, view.input_h};
            filled[0] = true;
        }
    }
    output_channels_ = view.channels;
    // A float image's values (0..1 or 0..255, as its task's image input) were made bytes by the worker;
    // its differences are in its own units, coloured on the byte scale.
    const BufferSpec* shown = report.spec ? report.spec->task.find_buffer(view.buffer) : nullptr;
    white_ = shown ? static_cast<float>(report.spec->task.image_white(*shown)) : 255.0f;
    float_output_ = shown && is_floating(shown->type);
    if (image && view.width > 0) {
        const size_t pixels = static_cast<size_t>(view.width) * view.height;
        // A downsampled view spans the whole image: its extent is the image's, each texel step pixels.
        const int step = std::max(1, view.step);
        const std::array<int, 2> extent{view.cols > 0 ? static_cast<int>(view.cols) : view.width * step,
                                        view.rows > 0 ? static_cast<int>(view.rows) : view.height * step};
        extents_[1] = extents_[2] = extent;
        steps_[1] = steps_[2] = step;
        if (view.output.size() == pixels * static_cast<size_t>(view.channels) && view.channels != 2) {
            output_ = view.output;
            // RGBA is drawn opaque (the shader takes .rgb): course kernels often leave alpha 0 or copy it.
            if (view.channels == 4) textures_[1].upload(view.width, view.height, GL_RGBA8, GL_RGBA, GL_UNSIGNED_BYTE, output_.data());
            else if (view.channels == 3) textures_[1].upload(view.width, view.height, GL_RGB8, GL_RGB, GL_UNSIGNED_BYTE, output_.data());
            else textures_[1].upload(view.width, view.height, GL_R8, GL_RED, GL_UNSIGNED_BYTE, output_.data());
            filled[1] = true;
        }
        if (view.map.size() == pixels) {
            map_ = view.map;
            textures_[2].upload(view.width, view.height, GL_R32F, GL_RED, GL_FLOAT, map_.data());
            filled[2] = true;
        }
    } else if (view.kind == OutputKind::matrix && !view.map.empty()) {
        input_.clear();
        input_identity_.clear();
        map_ = view.map;
        for (float v : map_)
            if (std::isfinite(v)) map_max_ = std::max(map_max_, v);
        textures_[3].upload(view.width, view.height, GL_R32F, GL_RED, GL_FLOAT, map_.data());
        extents_[3] = {view.width, view.height};
        filled[3] = true;
    }
    for (int i = 0; i < 4; ++i)
        if (!filled[i]) textures_[i] = GlTexture();
}

ImTextureID ImageViews::render(ViewKind kind, int width, int height, const ViewTransform& transform, float tolerance) {
    const int index = static_cast<int>(kind);
    GlRenderTarget& target = targets_[index];
    target.resize(width, height);
    const GlTexture& texture = textures_[index];
    if (!program_ || !texture) {
        // Without shaders, fall back to the raw texture (no zoom) so something is still visible.
        return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(texture ? texture.id() : target.texture()));
    }
    const Drawn wanted{target.width(), target.height(), generations_[index], transform.scale, transform.offset_x, transform.offset_y, tolerance};
    if (drawn_[index] == wanted) return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(target.texture()));
    drawn_[index] = wanted;
    GLint previous_viewport[4];
    glGetIntegerv(GL_VIEWPORT, previous_viewport);
    glBindFramebuffer(GL_FRAMEBUFFER, target.framebuffer());
    glViewport(0, 0, target.width(), target.height());
    glDisable(GL_BLEND);
    glDisable(GL_SCISSOR_TEST);
    glUseProgram(program_.id());
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture.id());
    glUniform1i(program_.uniform("u_image"), 0);
    glUniform2f(program_.uniform("u_view_size"), static_cast<float>(target.width()), static_cast<float>(target.height()));
    glUniform2f(program_.uniform("u_image_size"), static_cast<float>(extents_[index][0]), static_cast<float>(extents_[index][1]));
    glUniform1f(program_.uniform("u_step"), static_cast<float>(steps_[index]));
    glUniform1f(program_.uniform("u_scale"), transform.scale);
    glUniform2f(program_.uniform("u_offset"), transform.offset_x, transform.offset_y);
    const int mode = kind == ViewKind::input ? 0 : kind == ViewKind::output ? (output_channels_ >= 3 ? 0 : 1) : kind == ViewKind::difference ? 2 : 3;
    glUniform1i(program_.uniform("u_mode"), mode);
    glUniform1f(program_.uniform("u_to_byte"), 255.0f / white_);
    glUniform1f(program_.uniform("u_tolerance"), tolerance);
    quad_.draw();
    glUseProgram(0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glViewport(previous_viewport[0], previous_viewport[1], previous_viewport[2], previous_viewport[3]);
    return reinterpret_cast<ImTextureID>(static_cast<intptr_t>(target.texture()));
}

}  // namespace kplay::window
