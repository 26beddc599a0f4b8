// Building and reading the protocol's messages; the blob names and which report arrays they carry.
#include "protocol/protocol.hpp"

#include <cstring>
#include <type_traits>

#include "base/enum_names.hpp"
#include "protocol/frames.hpp"

namespace kplay {

namespace {

constexpr EnumNames<MessageKind, 9> kKinds{{{MessageKind::run, "run"},
                                            {MessageKind::compile, "compile"},
                                            {MessageKind::devices, "devices"},
                                            {MessageKind::stats, "stats"},
                                            {MessageKind::ping, "ping"},
                                            {MessageKind::progress, "progress"},
                                            {MessageKind::hello, "hello"},
                                            {MessageKind::view, "view"},
                                            {MessageKind::cut, "cut"}}};

// Every array of an OutputView that travels as a blob, by name.
struct ByteArray {
    const char* name;
    std::vector<unsigned char> OutputView::*member;
};
struct FloatArray {
    const char* name;
    std::vector<float> OutputView::*member;
};
struct SeriesArray {
    const char* name;
    std::vector<float> Series::*member;
};
constexpr ByteArray kByteArrays[] = {{"view.output", &OutputView::output}, {"view.input", &OutputView::input}};
constexpr FloatArray kFloatArrays[] = {{"view.map", &OutputView::map}};
constexpr SeriesArray kSeriesArrays[] = {{"series.got_min", &Series::got_min},   {"series.got_max", &Series::got_max},
                                         {"series.want_min", &Series::want_min}, {"series.want_max", &Series::want_max},
                                         {"series.ratio_max", &Series::ratio_max}};
constexpr const char* kWriterCells = "writers.cells";  // RunReport::writer_map's cells

}  // namespace

const char* message_kind_name(MessageKind kind) { return enum_name(kKinds, kind); }
std::optional<MessageKind> parse_message_kind(std::string_view text) { return enum_value(kKinds, text); }

nlohmann::json request_message(MessageKind kind, uint64_t id, nlohmann::json body) {
    return {{protocol_field::id, id}, {protocol_field::type, message_kind_name(kind)}, {protocol_field::body, std::move(body)}};
}

nlohmann::json progress_message(uint64_t id, Phase phase, double fraction) {
    return {{protocol_field::id, id},
            {protocol_field::type, message_kind_name(MessageKind::progress)},
            {protocol_field::phase, phase_name(phase)},
            {protocol_field::fraction, fraction}};
}

nlohmann::json error_message(uint64_t id, std::string_view type, const std::string& error) {
    return {{protocol_field::id, id}, {protocol_field::type, type}, {protocol_field::error, error}};
}

std::optional<MessageKind> message_kind(const nlohmann::json& message) {
    const auto found = message.find(protocol_field::type);
    if (found == message.end() || !found->is_string()) return std::nullopt;
    return parse_message_kind(found->get<std::string>());
}

ReportBlobs make_report_blobs(const RunReport& report) {
    ReportBlobs blobs;
    auto attach = [&](const char* name, const void* data, size_t bytes) {
        if (bytes == 0) return;
        blobs.fds.push_back(SharedBlob::create(data, bytes, name));
        blobs.list.push_back({{protocol_field::name, name}, {protocol_field::size, bytes}});
    };
    for (const auto& array : kByteArrays) attach(array.name, (report.view.*array.member).data(), (report.view.*array.member).size());
    for (const auto& array : kFloatArrays)
        attach(array.name, (report.view.*array.member).data(), (report.view.*array.member).size() * sizeof(float));
    for (const auto& array : kSeriesArrays)
        attach(array.name, (report.view.series.*array.member).data(), (report.view.series.*array.member).size() * sizeof(float));
    attach(kWriterCells, report.writer_map.cells.data(), report.writer_map.cells.size() * sizeof(WriterCell));
    return blobs;
}

ReportBlobs make_compile_blobs(const CompileFileResult& result) {
    ReportBlobs blobs;
    const std::string& binary = result.compile.binary;
    if (!result.compile.is_cubin || binary.empty()) return blobs;
    blobs.fds.push_back(SharedBlob::create(binary.data(), binary.size(), "cubin"));
    blobs.list.push_back({{protocol_field::name, "cubin"}, {protocol_field::size, binary.size()}});
    return blobs;
}

void read_compile_blobs(const nlohmann::json& list, const std::vector<UniqueFd>& fds, CompileFileResult& result) {
    if (!list.is_array() || list.size() != fds.size() || list.size() > 1) throw ProtocolError("shared-memory blocks missing from a compile");
    if (list.empty()) return;
    if (list[0].at(protocol_field::name) != "cubin") throw ProtocolError("unknown shared-memory block in a compile");
    const std::vector<unsigned char> bytes = SharedBlob::read(fds[0].get(), list[0].at(protocol_field::size).get<size_t>());
    result.compile.binary.assign(bytes.begin(), bytes.end());
}

void read_report_blobs(const nlohmann::json& list, const std::vector<UniqueFd>& fds, RunReport& report) {
    if (!list.is_array() || list.size() != fds.size()) throw ProtocolError("shared-memory blocks missing from a result");
    for (size_t i = 0; i < list.size(); ++i) {
        const std::string name = list[i].at(protocol_field::name);
        const size_t size = list[i].at(protocol_field::size).get<size_t>();
        // Each array is filled straight from the shared memory, one copy, whatever its element type.
        const auto fill = [&](auto& values, const char* what) {
            using Element = typename std::decay_t<decltype(values)>::value_type;
            if (size % sizeof(Element) != 0) throw ProtocolError("blob " + name + " is not a whole number of " + what);
            values.resize(size / sizeof(Element));
            SharedBlob::read_into(fds[i].get(), size, values.data());
        };
        bool known = false;
        for (const auto& array : kByteArrays)
            if (name == array.name) fill(report.view.*array.member, "bytes"), known = true;
        for (const auto& array : kFloatArrays)
            if (name == array.name) fill(report.view.*array.member, "floats"), known = true;
        for (const auto& array : kSeriesArrays)
            if (name == array.name) fill(report.view.series.*array.member, "floats"), known = true;
        if (name == kWriterCells) fill(report.writer_map.cells, "cells"), known = true;
        if (!known) throw ProtocolError("unknown shared-memory block '" + name + "' in a result");
    }
}

}  // namespace kplay
