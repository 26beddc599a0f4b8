// Struct parameters a kernel takes by value, made of buffers and sizes, declared beside its annotation:
//
//   // kplay-struct: crsMatrix rowPtrs=row_ptr colIdx=col_idx values=vals numRows=N
//
// The line names the kernel parameter, then gives every field of its struct a value: a buffer (a
// pointer field), `buffer+offset`, `null`, or an expression over the sizes (a scalar field, typed by
// the field: a float field takes `1/sqrt(d)`). The struct's definition is read from the file
// (`struct CSRMatrix { int* rowPtrs; ...; int numRows; };`), so kplay knows each field's type and order
// and can lay the bytes out as C does; the plan builds them (plan/argument_binding.hpp).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kernel_file/source_scan.hpp"

namespace kplay {

struct StructField {
    std::string name;
    std::string type;   // as written, without the name: "int*", "const float*", "float"
    bool pointer = false;
    std::string value;  // what the kplay-struct line gives it
};

struct StructDecl {
    std::string param;                // the kernel parameter it is passed as
    std::string type;                 // the struct's name
    std::vector<StructField> fields;  // in declaration order
    int line = 0;
};

// Every kplay-struct line of the file, each checked against the struct's definition in `source`: the
// parameter must be one of `kernels`' and its type a struct the file defines with plain fields (no
// arrays, bit fields or member functions), and every field must get a value. Throws InputError
// "FILE:LINE: kplay-struct: ..." naming what is wrong.
std::vector<StructDecl> read_struct_lines(std::string_view source, const std::string& file, const std::vector<KernelDecl>& kernels);

}  // namespace kplay
