// TMA descriptors a kernel takes as arguments, declared beside its annotation:
//
//   // kplay-tma: a_map buffer=a shape=M,K box=128,32 swizzle=128
//
// Each line names a kernel argument (bound where `args=` names it) that kplay builds in the worker with
// cuTensorMapEncodeTiled over one of the task's buffers: the array's extents and the box one TMA copy
// moves, both written outermost first as the array is indexed (a[M][K] is shape=M,K), the shared-memory
// swizzle, and optionally the element type the copy engine is told (the buffer's, or tf32 over f32).
// The values are integer expressions over the sizes; the plan evaluates and checks them
// (plan/tensor_map_plan.hpp), so a descriptor the driver would refuse is a message first.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kplay {

// The swizzle of the box's rows in shared memory: the 16-byte chunks of each row XORed with the row
// index, over spans of 32, 64 or 128 bytes, so a column read of the tile does not hit one bank.
enum class TmaSwizzle { none, bytes32, bytes64, bytes128 };
int swizzle_span_bytes(TmaSwizzle swizzle);  // 0 for none

// What the copy engine is told the elements are; `same` keeps the buffer's type.
enum class TmaElement { same, tf32 };

struct TensorMapDecl {
    std::string name;                // the kernel argument it is bound to
    std::string buffer;              // a task buffer
    std::vector<std::string> shape;  // the array's extents, outermost first; 1 to 5
    std::vector<std::string> box;    // the box, outermost first; as many as shape
    TmaSwizzle swizzle = TmaSwizzle::none;
    TmaElement element = TmaElement::same;
    int line = 0;
};

// Every kplay-tma line of the file, in order. Throws InputError "FILE:LINE: kplay-tma: ..." for a line
// that cannot be read (a missing key, an unknown swizzle, shape and box of different lengths, a
// repeated name). Buffers and values are checked against the task by the plan.
std::vector<TensorMapDecl> read_tensor_map_lines(std::string_view source, const std::string& file);

}  // namespace kplay
