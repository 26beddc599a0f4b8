// Texture and surface objects a kernel takes as arguments, declared beside its annotation:
//
//   // kplay-texture: tex buffer=img shape=h,w channels=4 filter=linear address=clamp normalized=no read=normalized-float
//   // kplay-surface: out_surf buffer=out shape=h,w
//
// Each line names a kernel argument (bound where `args=` names it, like a kplay-tma descriptor) that
// kplay builds over one of the task's buffers: on a GPU a cudaTextureObject_t or cudaSurfaceObject_t
// made with the driver's texture-object calls, on the emulated device a handle its tex2D and surf2Dwrite
// read. The shape is written outermost first, as the array is indexed (img[h][w] is shape=h,w), and
// counts elements of `channels` components each. The host reference gets the buffer itself in that
// argument's place. The values are integer expressions over the sizes; the plan evaluates them and
// checks them against the buffer (plan/texture_plan.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernel_file/task_spec.hpp"

namespace kplay {

enum class ImageKind { texture, surface };
enum class TextureFilter { point, linear };
enum class TextureAddress { clamp, wrap, mirror, border };
enum class TextureRead { element, normalized_float };
// Where a texture's data sit on a GPU: linear memory (1D: tex1Dfetch; 2D: pitched, where the device's
// alignment allows) or a CUDA array (tex1D; layered, 3D and every surface). `standard` is the default:
// linear for 1D and 2D (a 2D texture moves to an array when its rows break the pitch alignment).
enum class TextureLayout { standard, array };

struct TextureDecl {
    ImageKind kind = ImageKind::texture;
    std::string name;                // the kernel argument it is bound to
    std::string buffer;              // a task buffer
    std::vector<std::string> shape;  // extents outermost first: n, or h,w, or d,h,w
    std::string layers;              // a layered texture's layer count; empty when not layered
    int channels = 1;                // components per element: 1, 2 or 4
    TextureFilter filter = TextureFilter::point;
    TextureAddress address = TextureAddress::clamp;
    bool normalized = false;  // coordinates in [0,1) rather than elements
    TextureRead read = TextureRead::element;
    TextureLayout layout = TextureLayout::standard;
    int line = 0;

    int dims() const { return static_cast<int>(shape.size()); }
    bool in_array() const { return layout == TextureLayout::array || kind == ImageKind::surface || !layers.empty() || dims() == 3; }
    const char* key() const { return kind == ImageKind::texture ? "kplay-texture" : "kplay-surface"; }
};

const char* filter_name(TextureFilter filter);
const char* address_name(TextureAddress address);

// Every kplay-texture and kplay-surface line of the file, in order. Throws InputError
// "FILE:LINE: kplay-texture: ..." for a line that cannot be read, and for one that asks what CUDA does
// not do, with the reason: wrap or mirror without normalized coordinates, filtering or normalized
// coordinates over 1D linear memory (tex1Dfetch), a repeated name. Buffers and extents are checked
// against the task by the plan.
std::vector<TextureDecl> read_texture_lines(std::string_view source, const std::string& file);

// Each names a task buffer and is passed by a launch (`arg_lists`: each launch's args), so a typo is
// found here rather than as an unbound argument. Throws InputError "FILE:LINE: kplay-texture: NAME: ...".
void check_texture_arguments(const std::string& file, const std::vector<TextureDecl>& images, const TaskSpec& task,
                             const std::vector<std::vector<std::string>>& arg_lists);

}  // namespace kplay
