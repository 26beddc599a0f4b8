// The search space of a sweep: parameters, each with a list or a range of values, and restrictions over
// them. Parsed from the command line (`--param tw=8,16,32 --restrict "tw*tw*8 <= smem_max"`), from the
// window, or from the kernel file's own sweep lines:
//
//     // kplay-sweep: tw=8,16,32; block_x=32..1024 step *2; restrict block_x*block_y <= threads_max
//
// Items on a line are separated by ';'; several kplay-sweep lines add up. A parameter is a block axis
// (block_x, block_y, block_z), the whole block (block=256 or block=32x8: x, then y and z), a literal argument of the annotation (the `tw` of args=...,tw=16), a -D
// define (-DTILE=..., or a name the annotation's defines= already has) or one of the task's sizes.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/expression.hpp"
#include "kernel_file/kernel_spec.hpp"

namespace kplay {

enum class SweepParamKind { block, literal, define, size };
const char* sweep_param_kind_name(SweepParamKind kind);  // "block", "literal", "define", "size"

struct SweepParam {
    std::string name;  // block_x | block_y | block_z | block, a literal (tw), a define without -D (TILE), a size (n)
    SweepParamKind kind = SweepParamKind::literal;
    bool written_as_define = false;     // given as -DNAME=...
    std::vector<std::string> values;    // in order, without repeats; integers except a define's and block's ("32x8")
    std::string text;                   // as written, for messages: "block_x=32..1024 step *2"
};

struct SweepSpace {
    std::vector<SweepParam> params;
    std::vector<std::string> restrictions;  // integer expressions; a point is kept where every one is non-zero
    int line = 0;                           // the first kplay-sweep line, 0 when not from a file
    // The number of points before restrictions: the product of the value counts, saturating at UINT64_MAX
    // (1 for no parameters: the file as it is).
    uint64_t size() const;
};

// One value per parameter, in the space's parameter order.
struct SweepPoint {
    std::vector<std::string> values;
    bool operator==(const SweepPoint& other) const { return values == other.values; }
};

// Most values one parameter may take.
constexpr size_t kMaxSweepValues = 4096;

// "NAME=VALUES". VALUES is a comma list (8,16,32; a define's may hold words: float,double) or one range
// "A..B" with an optional " step S" (S = N or +N adds, *N multiplies; default 1; B is included when
// reached). The kind is preliminary: block for block_x/y/z and block, define for -DNAME, literal otherwise (see
// resolve_sweep_params). Throws InputError with an exact message: no '=', an empty name or list, a
// value that is not an integer, a range that runs backwards or never moves (step 0, *1, *N from 0),
// more than kMaxSweepValues values. A list's values are checked for integers here only for a block
// axis (and a range's always): another name may turn out to be one of the annotation's defines, so
// resolve_sweep_params checks them. Messages cut a long parameter to its first 60 characters.
SweepParam parse_sweep_param(std::string_view text);

// The kplay-sweep lines of a file, in order; nullopt when there are none. Each item is NAME=VALUES or
// `restrict EXPR`. Throws InputError "FILE:LINE: kplay-sweep: ..." for an item that does not parse or
// names a parameter twice (TILE and -DTILE are one name), a `restrict` without an expression, and a
// line with no items. `file` names the file in messages. Raw bytes read as well (a byte-order mark, CRLF).
std::optional<SweepSpace> find_sweep_lines(std::string_view source, std::string_view file);

// The same items typed into a box (the window's sweep editor): one or more per line, separated by ';'.
// Messages name the box's line: "line 2: ...". An empty text is an empty space.
SweepSpace parse_sweep_text(std::string_view text);

// A space back as that text: each parameter as written, then each restriction, one per line.
std::string sweep_text(const SweepSpace& space);

// Settles each parameter's kind against the spec: block axes, and `block` unless the annotation has a
// literal or define of that name (with block_x/y/z beside it, it is refused); -DNAME or a name among spec.defines is a
// define; a literal of spec.args (name=expression) is a literal; one of spec.task.sizes.names is a size.
// Throws InputError naming the parameter and listing what it could have been ("unknown parameter 'q':
// not the block (block, or its axes block_x, block_y, block_z), a literal argument (tw), a define (-DNAME=...) or a
// size (M, N, K)"), and for a parameter given twice. Integer values are required for all but defines;
// they are rewritten in one spelling ("08" -> "8", repeats then removed), and a block axis's and a
// size's must be 1 or more. A define's values are kept as written (they go to -D as text).
void resolve_sweep_params(SweepSpace& space, const KernelSpec& spec);

// The point with this index, in mixed radix, the last parameter changing fastest. index < size().
SweepPoint point_at(const SweepSpace& space, uint64_t index);

// The point's integer values by parameter name (block_x, tw, TILE, n; `block` gives block_x, block_y and
// block_z, 1 where it has no extent); a define whose value is not an integer is left out.
NamedValues point_names(const SweepSpace& space, const SweepPoint& point);

// The extents of a value of the `block` parameter ("256" -> {256}, "32x8" -> {32, 8}), as
// parse_sweep_param spelled it.
std::vector<int64_t> block_extents(const std::string& value);

// The first restriction that does not hold at `names` (the point's and whatever the caller adds:
// sizes, device limits), as "restriction block_x*block_y <= 1024 does not hold (block_x=64,
// block_y=32)" listing the point's values; nullopt when all hold. Throws InputError for a restriction
// that cannot be evaluated ("restriction 'q < 3': unknown name 'q' ..."). The point's own values are
// added to `names` (and win over a caller's value of the same name).
std::optional<std::string> restriction_broken(const SweepSpace& space, const SweepPoint& point, const NamedValues& names);

// "tw=16 block_x=32 -DTILE=8": each parameter as NAME=VALUE in order, defines with -D.
std::string point_label(const SweepSpace& space, const SweepPoint& point);

}  // namespace kplay
