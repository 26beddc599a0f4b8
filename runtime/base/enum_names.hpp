// Enum <-> name tables: each enum lists its names once, in a constexpr table, and looks them up here.
// Names exist for JSON, the protocol and messages; code passes the enums themselves.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace kplay {

template <typename Enum, size_t N>
using EnumNames = std::array<std::pair<Enum, const char*>, N>;

template <typename Enum, size_t N>
const char* enum_name(const EnumNames<Enum, N>& table, Enum value) {
    for (const auto& [entry, name] : table)
        if (entry == value) return name;
    return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> enum_value(const EnumNames<Enum, N>& table, std::string_view text) {
    for (const auto& [entry, name] : table)
        if (text == name) return entry;
    return std::nullopt;
}

// "a, b, c": the names, for messages that list what is allowed.
template <typename Enum, size_t N>
std::string enum_name_list(const EnumNames<Enum, N>& table) {
    std::string text;
    for (const auto& [entry, name] : table) text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
}

}  // namespace kplay
