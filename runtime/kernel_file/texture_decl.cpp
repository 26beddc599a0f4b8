// Reading kplay-texture and kplay-surface lines.
#include "kernel_file/texture_decl.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <utility>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/kplay_lines.hpp"

namespace kplay {

const char* filter_name(TextureFilter filter) { return filter == TextureFilter::linear ? "linear" : "point"; }

const char* address_name(TextureAddress address) {
    switch (address) {
        case TextureAddress::wrap: return "wrap";
        case TextureAddress::mirror: return "mirror";
        case TextureAddress::border: return "border";
        case TextureAddress::clamp: break;
    }
    return "clamp";
}

namespace {

const std::vector<std::string> kTextureKeys{"buffer", "shape", "layers", "channels", "filter", "address", "normalized", "read", "layout"};
const std::vector<std::string> kSurfaceKeys{"buffer", "shape", "layers", "channels"};

bool is_identifier(const std::string& text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    return std::all_of(text.begin(), text.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A key's value among `choices`, by its spelling in the line.
template <typename Value>
Value choose(const std::string& at, const std::string& key, const std::string& value, const std::vector<std::pair<const char*, Value>>& choices) {
    std::vector<std::string> names;
    for (const auto& [name, choice] : choices) {
        if (value == name) return choice;
        names.emplace_back(name);
    }
    throw InputError(at + key + " must be " + join(names, ", ") + ", not '" + value + "'");
}

void set_value(TextureDecl& decl, const std::string& at, const std::string& key, const std::string& value) {
    if (key == "buffer") decl.buffer = value;
    else if (key == "shape") decl.shape = split_list(value);
    else if (key == "layers") decl.layers = value;
    else if (key == "channels") decl.channels = choose<int>(at, key, value, {{"1", 1}, {"2", 2}, {"4", 4}});
    else if (key == "filter") decl.filter = choose<TextureFilter>(at, key, value, {{"point", TextureFilter::point}, {"linear", TextureFilter::linear}});
    else if (key == "address")
        decl.address = choose<TextureAddress>(at, key, value, {{"clamp", TextureAddress::clamp}, {"wrap", TextureAddress::wrap},
                                                               {"mirror", TextureAddress::mirror}, {"border", TextureAddress::border}});
    else if (key == "normalized") decl.normalized = choose<bool>(at, key, value, {{"no", false}, {"yes", true}});
    else if (key == "read")
        decl.read = choose<TextureRead>(at, key, value, {{"element", TextureRead::element}, {"normalized-float", TextureRead::normalized_float}});
    else decl.layout = choose<TextureLayout>(at, key, value, {{"linear", TextureLayout::standard}, {"array", TextureLayout::array}});
}

// What CUDA itself refuses or leaves undefined, said before anything is built.
void check_rules(const TextureDecl& decl, const std::string& at, const std::vector<std::string>& given) {
    const auto has = [&](const char* key) { return std::find(given.begin(), given.end(), key) != given.end(); };
    if (decl.shape.empty() || decl.shape.size() > 3)
        throw InputError(at + "shape= gives " + std::to_string(decl.shape.size()) + " extents; a " + (decl.kind == ImageKind::texture ? "texture" : "surface") +
                         " has 1 (n), 2 (h,w) or 3 (d,h,w), outermost first");
    if (!decl.layers.empty() && decl.dims() == 3)
        throw InputError(at + "layers= goes with a 1D or 2D shape (a layered 3D texture does not exist in CUDA); write shape=h,w layers=" + decl.shape[0]);
    if ((decl.address == TextureAddress::wrap || decl.address == TextureAddress::mirror) && !decl.normalized)
        throw InputError(at + "address=" + address_name(decl.address) +
                         " needs normalized coordinates (CUDA wraps and mirrors only coordinates in [0,1)): add normalized=yes, or use clamp or border");
    if (decl.kind == ImageKind::texture && decl.dims() == 1 && !decl.in_array()) {
        std::string asked = decl.filter == TextureFilter::linear ? "filter=linear" : decl.normalized ? "normalized=yes" : "";
        if (asked.empty() && has("address")) asked = std::string("address=") + address_name(decl.address);
        if (!asked.empty())
            throw InputError(at + asked + " over 1D linear memory: tex1Dfetch reads linear memory by index, unfiltered and without address modes. "
                                  "Add layout=array to put it in a CUDA array and sample it with tex1D");
    }
    if (decl.kind == ImageKind::texture && has("layout") && decl.layout == TextureLayout::standard && decl.in_array())
        throw InputError(at + "layout=linear: a layered or 3D texture lives in a CUDA array; leave layout= out");
}

TextureDecl parse_line(ImageKind kind, const std::string& rest, const std::string& at, int number) {
    std::istringstream tokens(rest);
    TextureDecl decl;
    decl.kind = kind;
    decl.line = number;
    const std::string example = kind == ImageKind::texture ? "// kplay-texture: tex buffer=img shape=h,w filter=linear"
                                                           : "// kplay-surface: surf buffer=out shape=h,w";
    if (!(tokens >> decl.name) || decl.name.find('=') != std::string::npos)
        throw InputError(at + "name the kernel argument first, e.g. '" + example + "'");
    if (!is_identifier(decl.name)) throw InputError(at + "'" + decl.name + "' is not an argument name (letters, digits and _)");
    const std::vector<std::string>& keys = kind == ImageKind::texture ? kTextureKeys : kSurfaceKeys;
    std::vector<std::pair<std::string, std::string>> entries;
    std::string token;
    while (tokens >> token) {
        const auto equals = token.find('=');
        const std::string key = equals == std::string::npos ? "" : token.substr(0, equals);
        if (std::find(keys.begin(), keys.end(), key) != keys.end()) {
            for (const auto& entry : entries)
                if (entry.first == key) throw InputError(at + "'" + key + "' is given twice");
            entries.emplace_back(key, token.substr(equals + 1));
        } else if (!entries.empty() && equals == std::string::npos) {
            entries.back().second += token;  // "shape=h, w" reads as one value
        } else if (kind == ImageKind::surface && std::find(kTextureKeys.begin(), kTextureKeys.end(), key) != kTextureKeys.end()) {
            throw InputError(at + "'" + key + "' is a texture's key: a surface reads and writes whole elements at integer coordinates (keys: " +
                             join(keys, ", ") + ")");
        } else {
            throw InputError(at + "unknown key '" + (key.empty() ? token : key) + "' (keys: " + join(keys, ", ") + ")");
        }
    }
    std::vector<std::string> given;
    for (const auto& [key, value] : entries) {
        if (value.empty()) throw InputError(at + "'" + key + "=' has no value");
        set_value(decl, at, key, value);
        given.push_back(key);
    }
    for (const char* required : {"buffer", "shape"})
        if (std::find(given.begin(), given.end(), required) == given.end())
            throw InputError(at + "needs " + required + "= (keys: " + join(keys, ", ") + ")");
    check_rules(decl, at, given);
    return decl;
}

}  // namespace

std::vector<TextureDecl> read_texture_lines(std::string_view source, const std::string& file) {
    std::vector<std::pair<ImageKind, KplayLine>> lines;
    for (const KplayLine& found : kplay_lines(source, "texture")) lines.emplace_back(ImageKind::texture, found);
    for (const KplayLine& found : kplay_lines(source, "surface")) lines.emplace_back(ImageKind::surface, found);
    std::sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.second.number < b.second.number; });
    std::vector<TextureDecl> images;
    for (const auto& [kind, found] : lines) {
        const std::string at = file + ":" + std::to_string(found.number) + ": kplay-" + (kind == ImageKind::texture ? "texture" : "surface") + ": ";
        TextureDecl decl = parse_line(kind, found.rest, at, found.number);
        for (const auto& earlier : images)
            if (earlier.name == decl.name)
                throw InputError(at + "'" + decl.name + "' is declared twice (first at line " + std::to_string(earlier.line) + ")");
        images.push_back(std::move(decl));
    }
    return images;
}

void check_texture_arguments(const std::string& file, const std::vector<TextureDecl>& images, const TaskSpec& task,
                             const std::vector<std::vector<std::string>>& arg_lists) {
    for (const auto& image : images) {
        const std::string at = file + ":" + std::to_string(image.line) + ": " + image.key() + ": " + image.name + ": ";
        if (!task.find_buffer(image.buffer)) {
            std::vector<std::string> names;
            for (const auto& buffer : task.buffers) names.push_back(buffer.name);
            throw InputError(at + "buffer=" + image.buffer + " is not one of the task's buffers (" + join(names) + ")");
        }
        if (task.find_buffer(image.name))
            throw InputError(at + "an object cannot have the name of a buffer (the reference gets the buffer in its place); call it e.g. " +
                             image.name + (image.kind == ImageKind::texture ? "_tex" : "_surf"));
        bool bound = false;
        for (const auto& args : arg_lists) bound = bound || std::find(args.begin(), args.end(), image.name) != args.end();
        if (!bound)
            throw InputError(at + "no launch passes it: name it in args= where the kernel takes it" +
                             (arg_lists.empty() ? std::string() : " (args=" + join(arg_lists.front(), ",") + ")"));
    }
}

}  // namespace kplay
