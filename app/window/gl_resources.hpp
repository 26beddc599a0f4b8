// Move-only owners of the OpenGL objects the window uses: textures, shader programs, framebuffers and
// the quad the image views are drawn with.
#pragma once

#include <GL/gl.h>
#include <GL/glext.h>

#include <filesystem>
#include <string>
#include <utility>

namespace kplay::window {

class GlTexture {
public:
    GlTexture() = default;
    ~GlTexture();
    GlTexture(GlTexture&& other) noexcept
        : id_(std::exchange(other.id_, 0)), w_(other.w_), h_(other.h_), internal_format_(other.internal_format_) {}
    GlTexture& operator=(GlTexture&& other) noexcept;
    GlTexture(const GlTexture&) = delete;
    GlTexture& operator=(const GlTexture&) = delete;

    // Uploads pixels; `format` GL_RGB / GL_RED, `type` GL_UNSIGNED_BYTE / GL_FLOAT. Magnified pixels stay
    // sharp (nearest); minified ones are averaged. Pixels of the size and format already held are written
    // into the texture there is (a software GL then copies them, without allocating anew).
    void upload(int width, int height, GLenum internal_format, GLenum format, GLenum type, const void* pixels);
    GLuint id() const { return id_; }
    int width() const { return w_; }
    int height() const { return h_; }
    explicit operator bool() const { return id_ != 0; }

private:
    GLuint id_ = 0;
    int w_ = 0, h_ = 0;
    GLenum internal_format_ = 0;
};

class GlProgram {
public:
    GlProgram() = default;
    ~GlProgram();
    GlProgram(GlProgram&& other) noexcept : id_(std::exchange(other.id_, 0)) {}
    GlProgram& operator=(GlProgram&& other) noexcept;
    GlProgram(const GlProgram&) = delete;
    GlProgram& operator=(const GlProgram&) = delete;

    // Compiles and links vertex + fragment shader files. On failure returns an empty program and puts
    // the compiler's log in `error` (the window shows it; it is never fatal).
    static GlProgram from_files(const std::filesystem::path& vertex, const std::filesystem::path& fragment, std::string& error);
    GLuint id() const { return id_; }
    GLint uniform(const char* name) const { return glGetUniformLocation(id_, name); }
    explicit operator bool() const { return id_ != 0; }

private:
    GLuint id_ = 0;
};

// An offscreen colour target an image view renders into; ImGui then draws its texture.
class GlRenderTarget {
public:
    GlRenderTarget() = default;
    ~GlRenderTarget();
    GlRenderTarget(const GlRenderTarget&) = delete;
    GlRenderTarget& operator=(const GlRenderTarget&) = delete;
    void resize(int width, int height);
    GLuint framebuffer() const { return fbo_; }
    GLuint texture() const { return texture_; }
    int width() const { return w_; }
    int height() const { return h_; }

private:
    GLuint fbo_ = 0, texture_ = 0;
    int w_ = 0, h_ = 0;
};

// A unit quad (two triangles over -1..1) with its vertex array.
class GlQuad {
public:
    GlQuad() = default;
    ~GlQuad();
    GlQuad(const GlQuad&) = delete;
    GlQuad& operator=(const GlQuad&) = delete;
    void draw();

private:
    GLuint vao_ = 0, vbo_ = 0;
};

}  // namespace kplay::window
