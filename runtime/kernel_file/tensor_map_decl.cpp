// Reading kplay-tma lines.
#include "kernel_file/tensor_map_decl.hpp"

#include <cctype>
#include <sstream>

#include "base/error.hpp"
#include "base/text.hpp"
#include "kernel_file/kplay_lines.hpp"

namespace kplay {

int swizzle_span_bytes(TmaSwizzle swizzle) {
    switch (swizzle) {
        case TmaSwizzle::bytes32: return 32;
        case TmaSwizzle::bytes64: return 64;
        case TmaSwizzle::bytes128: return 128;
        case TmaSwizzle::none: break;
    }
    return 0;
}

namespace {

const char* const kKeys = "buffer, shape, box, swizzle, type";

bool is_identifier(const std::string& text) {
    if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
    for (char c : text)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
    return true;
}

TensorMapDecl parse_line(const std::string& rest, const std::string& at, int number) {
    std::istringstream tokens(rest);
    TensorMapDecl decl;
    decl.line = number;
    if (!(tokens >> decl.name) || decl.name.find('=') != std::string::npos)
        throw InputError(at + "name the kernel argument first, e.g. '// kplay-tma: a_map buffer=a shape=M,K box=128,32 swizzle=128'");
    if (!is_identifier(decl.name)) throw InputError(at + "'" + decl.name + "' is not an argument name (letters, digits and _)");
    std::vector<std::pair<std::string, std::string>> entries;
    std::string token;
    while (tokens >> token) {
        const auto equals = token.find('=');
        const std::string key = equals == std::string::npos ? "" : token.substr(0, equals);
        if (key == "buffer" || key == "shape" || key == "box" || key == "swizzle" || key == "type") {
            for (const auto& entry : entries)
                if (entry.first == key) throw InputError(at + "'" + key + "' is given twice");
            entries.emplace_back(key, token.substr(equals + 1));
        } else if (!entries.empty() && equals == std::string::npos) {
            entries.back().second += token;  // "shape=M, K" reads as one value
        } else {
            throw InputError(at + "unknown key '" + (key.empty() ? token : key) + "' (keys: " + kKeys + ")");
        }
    }
    for (const auto& [key, value] : entries) {
        if (value.empty()) throw InputError(at + "'" + key + "=' has no value");
        if (key == "buffer") decl.buffer = value;
        else if (key == "shape") decl.shape = split_list(value);
        else if (key == "box") decl.box = split_list(value);
        else if (key == "swizzle") {
            if (value == "none") decl.swizzle = TmaSwizzle::none;
            else if (value == "32") decl.swizzle = TmaSwizzle::bytes32;
            else if (value == "64") decl.swizzle = TmaSwizzle::bytes64;
            else if (value == "128") decl.swizzle = TmaSwizzle::bytes128;
            else throw InputError(at + "swizzle must be none, 32, 64 or 128 (bytes), not '" + value + "'");
        } else {
            if (value == "tf32") decl.element = TmaElement::tf32;
            else throw InputError(at + "type may only be tf32 (an f32 buffer the copy engine treats as TF32), not '" + value + "'; without type= the buffer's own type is used");
        }
    }
    for (const char* required : {"buffer", "shape", "box"}) {
        bool found = false;
        for (const auto& entry : entries) found = found || entry.first == required;
        if (!found) throw InputError(at + "needs " + required + "= (keys: " + kKeys + ")");
    }
    if (decl.shape.size() > 5) throw InputError(at + "a tensor map has at most 5 dimensions; shape= gives " + std::to_string(decl.shape.size()));
    if (decl.box.size() != decl.shape.size())
        throw InputError(at + "box= gives " + std::to_string(decl.box.size()) + " values and shape= " + std::to_string(decl.shape.size()) +
                         ": one box extent per dimension, outermost first");
    return decl;
}

}  // namespace

std::vector<TensorMapDecl> read_tensor_map_lines(std::string_view source, const std::string& file) {
    std::vector<TensorMapDecl> maps;
    for (const KplayLine& found : kplay_lines(source, "tma")) {
        const std::string at = file + ":" + std::to_string(found.number) + ": kplay-tma: ";
        TensorMapDecl decl = parse_line(found.rest, at, found.number);
        for (const auto& earlier : maps)
            if (earlier.name == decl.name)
                throw InputError(at + "'" + decl.name + "' is declared twice (first at line " + std::to_string(earlier.line) + ")");
        maps.push_back(std::move(decl));
    }
    return maps;
}

}  // namespace kplay
