// The value kinds of kplay-cli's options, kept beside CLI11's own table for the completion script.
#include "option_values.hpp"

#include <map>

namespace kplay::cli {

namespace {

// One table per process: the options live in main's CLI::App for the whole run.
std::map<const CLI::Option*, OptionValues>& recorded() {
    static std::map<const CLI::Option*, OptionValues> table;
    return table;
}

}  // namespace

CLI::Option* one_of(CLI::Option* option, std::vector<std::string> choices) {
    option->check(CLI::IsMember(choices));
    recorded()[option] = {ValueKind::choices, std::move(choices)};
    return option;
}

CLI::Option* add_device_option(CLI::App* command, std::string& device) {
    CLI::Option* option =
        command->add_option("--device", device, "Device ordinal, or cpu for the emulated CPU device (the default without a GPU)");
    recorded()[option] = {ValueKind::device, {}};
    return option;
}

OptionValues option_values(const CLI::Option* option) {
    const auto found = recorded().find(option);
    return found == recorded().end() ? OptionValues{} : found->second;
}

}  // namespace kplay::cli
