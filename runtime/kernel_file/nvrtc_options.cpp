// The options NVRTC takes that kplay passes on, by both their spellings, and the ones it refuses with
// the reason (NVRTC's option list: nvrtc.h, nvrtcCompileProgram).
#include "kernel_file/nvrtc_options.hpp"

#include <string_view>

#include "base/error.hpp"
#include "base/text.hpp"

namespace kplay {

namespace {

struct Passed {
    const char* long_name;   // NVRTC's "--name"
    const char* short_name;  // its "-name" alias, or null
    bool takes_value;        // "--name=VALUE"
};

// Options that change how device code is compiled, and nothing else.
constexpr Passed kPassed[] = {
    {"--device-as-default-execution-space", "-default-device", false},
    {"--use_fast_math", "-use_fast_math", false},
    {"--ftz", "-ftz", true},
    {"--prec-sqrt", "-prec-sqrt", true},
    {"--prec-div", "-prec-div", true},
    {"--fmad", "-fmad", true},
    {"--maxrregcount", "-maxrregcount", true},
    {"--extra-device-vectorization", "-extra-device-vectorization", false},
    {"--restrict", "-restrict", false},
    {"--device-int128", "-device-int128", false},
    {"--device-float128", "-device-float128", false},
    {"--std", "-std", true},
    {"--device-debug", "-G", false},
    {"--dopt", "-dopt", true},
    {"--Ofast-compile", "-Ofast-compile", true},
    {"--diag-suppress", "-diag-suppress", true},
    {"--diag-error", "-diag-error", true},
    {"--diag-warn", "-diag-warn", true},
    {"--disable-warnings", "-w", false},
    {"--optimization-info", "-opt-info", true},
    {"--builtin-move-forward", "-builtin-move-forward", true},
    {"--builtin-initializer-list", "-builtin-initializer-list", true},
};

struct Refused {
    const char* names[3];
    const char* why;
};

constexpr Refused kRefused[] = {
    {{"--gpu-architecture", "-arch", nullptr}, "the target is arch= in the annotation (kplay compiles for it)"},
    {{"--include-path", "-I", nullptr}, "a header folder is include= in the annotation (kplay resolves it beside the file)"},
    {{"--define-macro", "-D", nullptr}, "defines are defines= in the annotation (the window and sweeps can change them)"},
    {{"--undefine-macro", "-U", nullptr}, "take the define out of defines= instead"},
    {{"--pre-include", "-include", nullptr}, "include the header in the file itself"},
    {{"--relocatable-device-code", "-rdc", "-dc"}, "kplay loads one compiled module and links nothing to it"},
    {{"--dlink-time-opt", "-dlto", nullptr}, "kplay loads one compiled module and links nothing to it"},
    {{"--extensible-whole-program", "-ewp", nullptr}, "kplay loads one compiled module and links nothing to it"},
    {{"--generate-line-info", "-lineinfo", nullptr}, "kplay always compiles with line info (the Inside tab and fault lines need it)"},
    {{"--pch", "-pch", nullptr}, "kplay's compiler manages precompiled headers itself"},
    {{"--create-pch", "-create-pch", nullptr}, "it writes a file; kplay's compiler manages precompiled headers itself"},
    {{"--use-pch", "-use-pch", nullptr}, "kplay's compiler manages precompiled headers itself"},
    {{"--pch-dir", "-pch-dir", nullptr}, "it writes files; kplay's compiler manages precompiled headers itself"},
    {{"--time", "-time", nullptr}, "it writes a file; kplay times the compile itself"},
    {{"--fdevice-time-trace", "-fdevice-time-trace", nullptr}, "it writes a file; kplay times the compile itself"},
    {{"--ptxas-options", "-Xptxas", nullptr}, "kplay runs ptxas with its own options (-v for the resource report)"},
};

// "--name=value" -> "--name"; "-I/usr/include" -> "-I" (the short forms that glue their value).
std::string_view option_name(std::string_view option) {
    const size_t equals = option.find('=');
    std::string_view name = option.substr(0, equals);
    for (const char* glued : {"-I", "-D", "-U"})
        if (name.size() > 2 && name.substr(0, 2) == glued && name[1] != '-') return name.substr(0, 2);
    return name;
}

std::string passed_names() {
    std::vector<std::string> names;
    for (const Passed& option : kPassed) names.push_back(option.short_name ? option.short_name : option.long_name);
    return join(names, ", ");
}

}  // namespace

std::vector<std::string> parse_nvrtc_options(const std::string& value) {
    // An item that is not an option continues the one before: -diag-suppress=177,550 is one option.
    std::vector<std::string> items;
    for (const std::string& item : split_list(value, ',')) {
        std::string text = trim(item);
        if (text.empty()) continue;
        if (text[0] != '-' && !items.empty() && items.back().find('=') != std::string::npos) items.back() += "," + text;
        else items.push_back(std::move(text));
    }
    std::vector<std::string> options;
    for (const std::string& option : items) {
        const std::string at = "nvrtc=" + option + ": ";
        if (option[0] != '-') throw InputError(at + "an NVRTC option starts with '-' (e.g. nvrtc=-default-device,-use_fast_math)");
        const std::string_view name = option_name(option);
        for (const Refused& refused : kRefused)
            for (const char* refused_name : refused.names)
                if (refused_name && name == refused_name) throw InputError(at + refused.why);
        bool found = false;
        for (const Passed& passed : kPassed) {
            if (name != passed.long_name && !(passed.short_name && name == passed.short_name)) continue;
            const bool has_value = option.find('=') != std::string::npos;
            if (passed.takes_value && (!has_value || option.back() == '='))
                throw InputError(at + "it takes a value: " + passed.long_name + "=VALUE");
            if (!passed.takes_value && has_value) throw InputError(at + "it takes no value");
            options.push_back(std::string(passed.long_name) + (has_value ? option.substr(option.find('=')) : ""));
            found = true;
            break;
        }
        if (!found) throw InputError(at + "not an NVRTC option kplay passes on (it passes: " + passed_names() + ")");
    }
    return options;
}

}  // namespace kplay
