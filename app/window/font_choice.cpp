// fontconfig's best scalable match for "sans-serif", then two well-known paths, then nothing.
#include "font_choice.hpp"

#include <fontconfig/fontconfig.h>

#include <filesystem>
#include <vector>

namespace kplay::window {

namespace {

bool loadable(const std::string& path) {
    std::error_code error;
    const std::string ext = std::filesystem::path(path).extension().string();
    return (ext == ".ttf" || ext == ".otf" || ext == ".TTF" || ext == ".OTF") && std::filesystem::is_regular_file(path, error);
}

FontChoice from_fontconfig(const char* query) {
    FontChoice choice;
    if (!FcInit()) return choice;
    FcPattern* pattern = FcNameParse(reinterpret_cast<const FcChar8*>(query));
    if (!pattern) return choice;
    FcConfigSubstitute(nullptr, pattern, FcMatchPattern);
    FcDefaultSubstitute(pattern);
    FcResult result = FcResultNoMatch;
    FcPattern* match = FcFontMatch(nullptr, pattern, &result);
    FcPatternDestroy(pattern);
    if (!match) return choice;
    FcChar8* file = nullptr;
    FcChar8* family = nullptr;
    FcBool scalable = FcFalse;
    if (FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch && file &&
        FcPatternGetBool(match, FC_SCALABLE, 0, &scalable) == FcResultMatch && scalable && loadable(reinterpret_cast<const char*>(file))) {
        choice.path = reinterpret_cast<const char*>(file);
        const bool named = FcPatternGetString(match, FC_FAMILY, 0, &family) == FcResultMatch && family;
        choice.description = std::string(named ? reinterpret_cast<const char*>(family) : "a scalable font") + " (fontconfig)";
    }
    FcPatternDestroy(match);
    return choice;
}

}  // namespace

FontChoice choose_font(FontRole role) {
    const bool code = role == FontRole::code;
    FontChoice choice = from_fontconfig(code ? "monospace:scalable=true" : "sans-serif:scalable=true");
    if (!choice.path.empty()) return choice;
    const auto known = code ? std::vector<const char*>{"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                                                       "/usr/share/fonts/truetype/noto/NotoSansMono-Regular.ttf"}
                            : std::vector<const char*>{"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
                                                       "/usr/share/fonts/truetype/noto/NotoSans-Regular.ttf"};
    for (const char* path : known)
        if (loadable(path)) return {path, std::filesystem::path(path).stem().string() + " (a known path; fontconfig found none)"};
    return {"", "ImGui's built-in bitmap font (no scalable font found)"};
}

}  // namespace kplay::window
