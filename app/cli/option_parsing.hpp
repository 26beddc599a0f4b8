// Parsing of kplay-cli's compound options: dimension lists, NAME=VALUE pairs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace kplay::cli {

// "256" / "16,16" / "8,8,4" -> up to 3 positive integers; throws std::invalid_argument with a message.
std::vector<int64_t> parse_dims(const std::string& text, const char* option);
// --device's GPU ordinal ("0", "1", ...); "cpu" is the caller's to look for first.
int parse_device_ordinal(const std::string& text);

// "NAME=VALUE" (VALUE may be empty: "NAME" alone means NAME=) -> pair; throws std::invalid_argument.
std::pair<std::string, std::string> parse_assignment(const std::string& text, const char* option);

// The user's header folders for a compile: each `-I DIR` (made absolute), then KPLAY_INCLUDE_PATH's
// (colon-separated). Throws std::invalid_argument naming a -I that is not a folder.
std::vector<std::string> include_folders(const std::vector<std::string>& flags);

}  // namespace kplay::cli
