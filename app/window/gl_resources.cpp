// OpenGL object lifetimes and shader compilation with readable errors.
#include "gl_resources.hpp"

#include <cstdlib>

#include "base/cache_dir.hpp"

namespace kplay::window {

GlTexture::~GlTexture() {
    if (id_) glDeleteTextures(1, &id_);
}

GlTexture& GlTexture::operator=(GlTexture&& other) noexcept {
    if (this != &other) {
        if (id_) glDeleteTextures(1, &id_);
        id_ = std::exchange(other.id_, 0);
        w_ = other.w_;
        h_ = other.h_;
        internal_format_ = other.internal_format_;
    }
    return *this;
}

void GlTexture::upload(int width, int height, GLenum internal_format, GLenum format, GLenum type, const void* pixels) {
    const bool same = id_ && width == w_ && height == h_ && internal_format == internal_format_;
    if (!id_) glGenTextures(1, &id_);
    glBindTexture(GL_TEXTURE_2D, id_);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    if (same) glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, format, type, pixels);
    else glTexImage2D(GL_TEXTURE_2D, 0, static_cast<GLint>(internal_format), width, height, 0, format, type, pixels);
    internal_format_ = internal_format;
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, type == GL_FLOAT ? GL_NEAREST : GL_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    w_ = width;
    h_ = height;
}

GlProgram::~GlProgram() {
    if (id_) glDeleteProgram(id_);
}

GlProgram& GlProgram::operator=(GlProgram&& other) noexcept {
    if (this != &other) {
        if (id_) glDeleteProgram(id_);
        id_ = std::exchange(other.id_, 0);
    }
    return *this;
}

namespace {
GLuint compile_shader(GLenum kind, const std::filesystem::path& path, std::string& error) {
    std::string source;
    if (!read_whole_file(path, source) || source.empty()) {
        error = "cannot read shader " + path.string();
        return 0;
    }
    const GLuint shader = glCreateShader(kind);
    const char* text = source.c_str();
    glShaderSource(shader, 1, &text, nullptr);
    glCompileShader(shader);
    GLint ok = 0;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetShaderInfoLog(shader, sizeof log, nullptr, log);
        error = path.filename().string() + ": " + log;
        glDeleteShader(shader);
        return 0;
    }
    return shader;
}
}  // namespace

GlProgram GlProgram::from_files(const std::filesystem::path& vertex, const std::filesystem::path& fragment, std::string& error) {
    GlProgram program;
    const GLuint vs = compile_shader(GL_VERTEX_SHADER, vertex, error);
    if (!vs) return program;
    const GLuint fs = compile_shader(GL_FRAGMENT_SHADER, fragment, error);
    if (!fs) {
        glDeleteShader(vs);
        return program;
    }
    const GLuint id = glCreateProgram();
    glAttachShader(id, vs);
    glAttachShader(id, fs);
    glLinkProgram(id);
    glDeleteShader(vs);
    glDeleteShader(fs);
    GLint ok = 0;
    glGetProgramiv(id, GL_LINK_STATUS, &ok);
    if (!ok) {
        char log[2048] = {};
        glGetProgramInfoLog(id, sizeof log, nullptr, log);
        error = std::string("shader link: ") + log;
        glDeleteProgram(id);
        return program;
    }
    program.id_ = id;
    return program;
}

GlRenderTarget::~GlRenderTarget() {
    if (texture_) glDeleteTextures(1, &texture_);
    if (fbo_) glDeleteFramebuffers(1, &fbo_);
}

void GlRenderTarget::resize(int width, int height) {
    width = std::max(1, width);
    height = std::max(1, height);
    if (fbo_ && width == w_ && height == h_) return;
    if (!fbo_) {
        glGenFramebuffers(1, &fbo_);
        glGenTextures(1, &texture_);
    }
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, texture_, 0);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    w_ = width;
    h_ = height;
}

GlQuad::~GlQuad() {
    if (vbo_) glDeleteBuffers(1, &vbo_);
    if (vao_) glDeleteVertexArrays(1, &vao_);
}

void GlQuad::draw() {
    if (!vao_) {
        const float corners[] = {-1, -1, 1, -1, 1, 1, -1, -1, 1, 1, -1, 1};
        glGenVertexArrays(1, &vao_);
        glGenBuffers(1, &vbo_);
        glBindVertexArray(vao_);
        glBindBuffer(GL_ARRAY_BUFFER, vbo_);
        glBufferData(GL_ARRAY_BUFFER, sizeof corners, corners, GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 2 * sizeof(float), nullptr);
    }
    glBindVertexArray(vao_);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    glBindVertexArray(0);
}

}  // namespace kplay::window
