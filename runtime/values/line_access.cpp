// Per-line memory counters: ratios, plain words and JSON (the protocol and `--json` share this form).
#include "values/line_access.hpp"

#include <algorithm>
#include <cstdio>

#include "base/enum_names.hpp"

namespace kplay {

namespace {

constexpr EnumNames<LineAccessOrigin, 2> kOriginNames{{{LineAccessOrigin::ncu, "ncu"}, {LineAccessOrigin::emulated_device, "emulated device"}}};

double ratio(int64_t a, int64_t b) { return b > 0 ? static_cast<double>(a) / static_cast<double>(b) : 0; }

std::string number(double value) {
    char text[32];
    std::snprintf(text, sizeof text, value >= 10 || value == static_cast<double>(static_cast<int64_t>(value)) ? "%.0f" : "%.1f", value);
    return text;
}

// A line costs more than it must once it is a quarter over the ideal.
constexpr double kExcessShown = 1.25;

std::string global_words(const char* what, const GlobalAccess& a) {
    const double per_request = a.sectors_per_request();
    std::string text = std::string(what) + " " + number(per_request) + (per_request == 1 ? " sector/request" : " sectors/request");
    const double excess = a.excess();
    if (excess >= kExcessShown) text += ", " + number(excess) + "x the ideal: uncoalesced";
    else if (excess > 0) text += ", at the ideal";
    if (per_request > 0 && per_request <= 1) text += " (one sector for the whole warp: a broadcast)";
    return text;
}

std::string shared_words(const char* what, const SharedAccess& a) {
    std::string text = std::string(what) + " " + number(a.wavefronts_per_request()) + " wavefronts/request";
    const double excess = a.excess();
    if (excess >= kExcessShown) text += ", " + number(excess) + "x the ideal: " + number(excess) + "-way bank conflicts";
    else if (excess > 0) text += ", conflict-free";
    return text;
}

}  // namespace

std::string_view name_of(LineAccessOrigin origin) { return enum_name(kOriginNames, origin); }

double GlobalAccess::sectors_per_request() const { return ratio(sectors, requests); }
double GlobalAccess::excess() const { return ratio(sectors, ideal_sectors); }
double SharedAccess::wavefronts_per_request() const { return ratio(wavefronts, requests); }
double SharedAccess::excess() const { return ratio(wavefronts, ideal_wavefronts); }

const LineAccess* find_line(const LineAccessProfile& profile, const std::string& file, int line) {
    const auto it = std::find_if(profile.lines.begin(), profile.lines.end(), [&](const LineAccess& a) { return a.line == line && a.file == file; });
    return it == profile.lines.end() ? nullptr : &*it;
}

std::string describe_line_access(const LineAccess& a) {
    std::vector<std::string> parts;
    if (a.global_loads.requests > 0) parts.push_back(global_words("loads", a.global_loads));
    if (a.global_stores.requests > 0) parts.push_back(global_words("stores", a.global_stores));
    if (a.shared_loads.requests > 0) parts.push_back(shared_words("shared loads", a.shared_loads));
    if (a.shared_stores.requests > 0) parts.push_back(shared_words("shared stores", a.shared_stores));
    std::string text;
    for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
    return text;
}

void to_json(nlohmann::json& j, const GlobalAccess& v) {
    j = {{"requests", v.requests}, {"sectors", v.sectors}, {"ideal_sectors", v.ideal_sectors}};
}
void from_json(const nlohmann::json& j, GlobalAccess& v) {
    j.at("requests").get_to(v.requests);
    j.at("sectors").get_to(v.sectors);
    j.at("ideal_sectors").get_to(v.ideal_sectors);
}
void to_json(nlohmann::json& j, const SharedAccess& v) {
    j = {{"requests", v.requests}, {"wavefronts", v.wavefronts}, {"ideal_wavefronts", v.ideal_wavefronts}};
}
void from_json(const nlohmann::json& j, SharedAccess& v) {
    j.at("requests").get_to(v.requests);
    j.at("wavefronts").get_to(v.wavefronts);
    j.at("ideal_wavefronts").get_to(v.ideal_wavefronts);
}

void to_json(nlohmann::json& j, const LineAccess& v) {
    j = {{"file", v.file},
         {"line", v.line},
         {"global_loads", v.global_loads},
         {"global_stores", v.global_stores},
         {"shared_loads", v.shared_loads},
         {"shared_stores", v.shared_stores},
         {"stall_samples", v.stall_samples}};
}

void from_json(const nlohmann::json& j, LineAccess& v) {
    j.at("file").get_to(v.file);
    j.at("line").get_to(v.line);
    j.at("global_loads").get_to(v.global_loads);
    j.at("global_stores").get_to(v.global_stores);
    j.at("shared_loads").get_to(v.shared_loads);
    j.at("shared_stores").get_to(v.shared_stores);
    j.at("stall_samples").get_to(v.stall_samples);
}

void to_json(nlohmann::json& j, const LineAccessProfile& v) { j = {{"origin", name_of(v.origin)}, {"kernel", v.kernel}, {"lines", v.lines}}; }

void from_json(const nlohmann::json& j, LineAccessProfile& v) {
    const std::string origin = j.at("origin").get<std::string>();
    const auto parsed = enum_value(kOriginNames, origin);
    if (!parsed) throw nlohmann::json::other_error::create(501, "unknown line access origin '" + origin + "' (known: " + enum_name_list(kOriginNames) + ")", &j);
    v.origin = *parsed;
    j.at("kernel").get_to(v.kernel);
    j.at("lines").get_to(v.lines);
}

}  // namespace kplay
