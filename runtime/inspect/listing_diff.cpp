// Myers' diff over interned lines, in linear space with a bound on the edit count, and listing normalization.
#include "inspect/listing_diff.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "base/text.hpp"

namespace kplay {

namespace {

class Differ {
public:
    Differ(const std::vector<int>& a, const std::vector<int>& b, int max_edits)
        : a_(a), b_(b), half_limit_(max_edits / 2 + 2) {}

    // The edit script as (kind, before index, after index); false when it needs more work than the bound.
    bool run(std::vector<DiffLine>& out) {
        out_ = &out;
        compare(0, static_cast<int>(a_.size()), 0, static_cast<int>(b_.size()));
        return !over_budget_;
    }

private:
    const std::vector<int>& a_;
    const std::vector<int>& b_;
    // A script of D edits has its middle snake at a bisection step <= ceil(D/2), so no sub-problem of
    // an answer within the bound needs more steps than this.
    int half_limit_;
    bool over_budget_ = false;
    std::vector<DiffLine>* out_ = nullptr;

    void emit(DiffKind kind, int before, int after) { out_->push_back({kind, {}, before, after}); }

    void compare(int a0, int a1, int b0, int b1) {
        if (over_budget_) return;
        while (a0 < a1 && b0 < b1 && a_[a0] == b_[b0]) emit(DiffKind::same, a0++, b0++);
        int suffix = 0;
        while (a1 > a0 && b1 > b0 && a_[a1 - 1] == b_[b1 - 1]) --a1, --b1, ++suffix;
        if (a0 == a1) {
            for (int j = b0; j < b1; ++j) emit(DiffKind::added, -1, j);
        } else if (b0 == b1) {
            for (int i = a0; i < a1; ++i) emit(DiffKind::removed, i, -1);
        } else {
            int x = 0, y = 0;
            const int found = bisect(a0, a1, b0, b1, x, y);
            if (found < 0) {
                over_budget_ = true;
                return;
            }
            if (found == 0 || (x == a0 && y == b0) || (x == a1 && y == b1)) {
                // Nothing in common (or a split that would not shrink the problem): replace the whole range.
                for (int i = a0; i < a1; ++i) emit(DiffKind::removed, i, -1);
                for (int j = b0; j < b1; ++j) emit(DiffKind::added, -1, j);
            } else {
                compare(a0, x, b0, y);
                compare(x, a1, y, b1);
            }
        }
        for (int s = 0; s < suffix; ++s) emit(DiffKind::same, a1 + s, b1 + s);
    }

    // Myers' middle snake, walked from both ends at once (as in diff-match-patch's bisect). 1 with the
    // split point in (x, y), 0 when the ranges have nothing in common, -1 when over the bound.
    int bisect(int a0, int a1, int b0, int b1, int& split_x, int& split_y) {
        const int n = a1 - a0, m = b1 - b0;
        const int max_d = (n + m + 1) / 2;
        const int steps = std::min(max_d, half_limit_);
        const int offset = steps;
        const int length = 2 * offset + 2;
        std::vector<int> v1(length, -1), v2(length, -1);
        v1[offset + 1] = 0;
        v2[offset + 1] = 0;
        const int delta = n - m;
        const bool front = (delta % 2) != 0;
        int k1start = 0, k1end = 0, k2start = 0, k2end = 0;
        for (int d = 0; d < steps; ++d) {
            for (int k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
                const int k1o = offset + k1;
                int x1 = (k1 == -d || (k1 != d && v1[k1o - 1] < v1[k1o + 1])) ? v1[k1o + 1] : v1[k1o - 1] + 1;
                int y1 = x1 - k1;
                while (x1 < n && y1 < m && a_[a0 + x1] == b_[b0 + y1]) ++x1, ++y1;
                v1[k1o] = x1;
                if (x1 > n) {
                    k1end += 2;
                } else if (y1 > m) {
                    k1start += 2;
                } else if (front) {
                    const int k2o = offset + delta - k1;
                    if (k2o >= 0 && k2o < length && v2[k2o] != -1 && x1 >= n - v2[k2o]) {
                        split_x = a0 + x1;
                        split_y = b0 + y1;
                        return 1;
                    }
                }
            }
            for (int k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
                const int k2o = offset + k2;
                int x2 = (k2 == -d || (k2 != d && v2[k2o - 1] < v2[k2o + 1])) ? v2[k2o + 1] : v2[k2o - 1] + 1;
                int y2 = x2 - k2;
                while (x2 < n && y2 < m && a_[a1 - 1 - x2] == b_[b1 - 1 - y2]) ++x2, ++y2;
                v2[k2o] = x2;
                if (x2 > n) {
                    k2end += 2;
                } else if (y2 > m) {
                    k2start += 2;
                } else if (!front) {
                    const int k1o = offset + delta - k2;
                    if (k1o >= 0 && k1o < length && v1[k1o] != -1) {
                        const int x1 = v1[k1o];
                        const int y1 = offset + x1 - k1o;
                        if (x1 >= n - x2) {
                            split_x = a0 + x1;
                            split_y = b0 + y1;
                            return 1;
                        }
                    }
                }
            }
        }
        return steps < max_d ? -1 : 0;
    }
};

// D >= |N - M| and D >= N + M - 2 * (lines the two share, counted as multisets), since a common
// subsequence uses only shared lines; either shows a hopeless pair without running the diff.
bool surely_over(const std::vector<int>& a, const std::vector<int>& b, int ids, long long max_edits) {
    const long long n = static_cast<long long>(a.size()), m = static_cast<long long>(b.size());
    if (std::max(n, m) - std::min(n, m) > max_edits) return true;
    std::vector<int> count(static_cast<size_t>(ids), 0);
    for (int id : a) ++count[id];
    long long shared = 0;
    for (int id : b)
        if (count[id] > 0) --count[id], ++shared;
    return n + m - 2 * shared > max_edits;
}

// Removed lines before added ones in each run of changes, the way diffs are read.
void order_changes(std::vector<DiffLine>& lines) {
    size_t i = 0;
    while (i < lines.size()) {
        if (lines[i].kind == DiffKind::same) {
            ++i;
            continue;
        }
        size_t end = i;
        while (end < lines.size() && lines[end].kind != DiffKind::same) ++end;
        std::stable_partition(lines.begin() + static_cast<long>(i), lines.begin() + static_cast<long>(end),
                              [](const DiffLine& line) { return line.kind == DiffKind::removed; });
        i = end;
    }
}

}  // namespace

ListingDiff diff_lines(const std::vector<std::string>& before, const std::vector<std::string>& after, int max_edits) {
    ListingDiff diff;
    if (max_edits < 0) max_edits = 0;
    // Integers compare in one step where long listing lines would not.
    std::unordered_map<std::string_view, int> ids;
    auto intern = [&](const std::vector<std::string>& lines) {
        std::vector<int> out;
        out.reserve(lines.size());
        for (const auto& line : lines) out.push_back(ids.emplace(line, static_cast<int>(ids.size())).first->second);
        return out;
    };
    const auto a = intern(before);
    const auto b = intern(after);
    if (surely_over(a, b, static_cast<int>(ids.size()), max_edits)) {
        diff.truncated = true;
        return diff;
    }
    Differ differ(a, b, max_edits);
    if (!differ.run(diff.lines)) {
        diff.lines.clear();
        diff.truncated = true;
        return diff;
    }
    for (auto& line : diff.lines) {
        if (line.kind == DiffKind::added) {
            ++diff.added;
            line.text = after[static_cast<size_t>(line.after_index)];
        } else {
            if (line.kind == DiffKind::removed) ++diff.removed;
            line.text = before[static_cast<size_t>(line.before_index)];
        }
    }
    if (diff.added + diff.removed > max_edits) {
        diff = ListingDiff{};
        diff.truncated = true;
        return diff;
    }
    order_changes(diff.lines);
    return diff;
}

namespace {

bool is_hex_digit(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// `/* 0x000fc40000000f00 */`, the encoding nvdisasm -hex prints.
bool is_encoding_comment(std::string_view text) {
    if (text.size() < 4 || text.substr(0, 2) != "/*" || text.substr(text.size() - 2) != "*/") return false;
    const auto inside = trim(text.substr(2, text.size() - 4));
    if (inside.size() < 3 || inside[0] != '0' || (inside[1] != 'x' && inside[1] != 'X')) return false;
    return std::all_of(inside.begin() + 2, inside.end(), is_hex_digit);
}

std::string comparable_sass(std::string_view text) {
    if (text.substr(0, 2) == "/*") {
        size_t i = 2;
        while (i < text.size() && is_hex_digit(text[i])) ++i;
        if (i > 2 && text.substr(i, 2) == "*/") text.remove_prefix(i + 2);
    }
    std::string line = trim(text);
    // Trailing encodings, one or two of them, after the instruction's ';'.
    while (!line.empty() && line.size() >= 2 && line.compare(line.size() - 2, 2, "*/") == 0) {
        const auto open = line.rfind("/*");
        if (open == std::string::npos || !is_encoding_comment(std::string_view(line).substr(open))) break;
        line = trim(std::string_view(line).substr(0, open));
    }
    return line;
}

}  // namespace

std::vector<std::string> comparable_lines(const Listing& listing) {
    std::vector<std::string> lines;
    const bool sass = !listing.function.empty();
    for (const auto& line : listing.lines) {
        std::string text = sass ? comparable_sass(line.text) : line.text;
        if (trim(text).empty()) continue;
        lines.push_back(std::move(text));
    }
    return lines;
}

}  // namespace kplay
