// Reading CSV records out of a tool's mixed output.
#include "inspect/csv_rows.hpp"

#include "base/text.hpp"

namespace kplay::detail {

bool split_csv(std::string_view record, CsvRow& fields) {
    fields.clear();
    std::string field;
    bool quoted = false, was_quoted = false;
    for (size_t i = 0; i < record.size(); ++i) {
        const char c = record[i];
        if (quoted) {
            if (c == '"' && i + 1 < record.size() && record[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && !was_quoted && field.empty()) {
            quoted = was_quoted = true;
        } else if (c == ',') {
            fields.push_back(std::move(field));
            field.clear();
            was_quoted = false;
        } else {
            field += c;
        }
    }
    if (quoted) return false;
    fields.push_back(std::move(field));
    return true;
}

std::vector<CsvRow> csv_rows(std::string_view text) {
    constexpr int kMaxContinuation = 64;  // a program line with a stray quote must not swallow the rest
    const std::vector<std::string_view> lines = split_lines(text);
    std::vector<CsvRow> rows;
    CsvRow fields;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (!lines[i].starts_with("\"")) continue;
        std::string record(lines[i]);
        size_t last = i;
        bool complete = split_csv(record, fields);
        while (!complete && last + 1 < lines.size() && static_cast<int>(last - i) < kMaxContinuation) {
            record += '\n';
            record += lines[++last];
            complete = split_csv(record, fields);
        }
        if (!complete) continue;  // truncated: an unclosed quote
        rows.push_back(fields);
        i = last;
    }
    return rows;
}

}  // namespace kplay::detail
