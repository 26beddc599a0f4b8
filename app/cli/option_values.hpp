// What an option's values may be, said once: CLI11 checks them, and `kplay-cli completion bash` offers
// them (completion_command.cpp).
#pragma once

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace kplay::cli {

enum class ValueKind {
    any,      // a number, a size, a path: the shell's own completion (file names)
    choices,  // one of a fixed list
    device,   // cpu, or a GPU ordinal
};

struct OptionValues {
    ValueKind kind = ValueKind::any;
    std::vector<std::string> choices;  // for ValueKind::choices
};

// Checks the option's value against `choices` and records them for the completion.
CLI::Option* one_of(CLI::Option* option, std::vector<std::string> choices);

// --device: a GPU ordinal, or cpu for the emulated CPU device.
CLI::Option* add_device_option(CLI::App* command, std::string& device);

// What one_of or add_device_option recorded for this option; ValueKind::any otherwise.
OptionValues option_values(const CLI::Option* option);

}  // namespace kplay::cli
