// What the kernels of tests/data/args must show on either device: each passes at its size and every
// test size, and its arguments were bound as the declaration says (a float literal as a float, a
// pointer with its offset, a null pointer, a struct with its fields), since a reference handed the
// same wrong value would agree with the kernel.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "values/run_report.hpp"

namespace kplay::test {

inline std::vector<std::string> argument_case_files() {
    return {"adamw_step.cu", "attention_row_stats.cu", "constant_conv.cu", "csr_spmv.cu", "scan_offsets.cu"};
}

inline const BoundArgument* argument_named(const RunReport& report, const std::string& param) {
    for (const BoundArgument& argument : report.arguments)
        if (argument.param == param) return &argument;
    return nullptr;
}

inline void expect_argument(const RunReport& report, const std::string& param, const std::string& kind, const std::string& value) {
    const BoundArgument* argument = argument_named(report, param);
    ASSERT_TRUE(argument) << "no argument " << param;
    EXPECT_EQ(argument->kind, kind) << param;
    EXPECT_EQ(argument->value, value) << param;
}

inline void expect_argument_case(const std::string& file, const RunReport& report) {
    SCOPED_TRACE(file);
    ASSERT_TRUE(report.ok()) << report.stage << ": " << report.error;
    EXPECT_TRUE(report.check.passed) << report.check.summary << " " << report.check.first_bad;
    EXPECT_GE(report.check.sizes.size(), 3u);
    for (const SizeCheck& size : report.check.sizes) EXPECT_TRUE(size.passed) << size.sizes << ": " << size.summary;
    if (file == "adamw_step.cu") {
        expect_argument(report, "lr", "float32", "0.001");
        expect_argument(report, "beta2", "float32", "0.999");
        expect_argument(report, "eps", "float32", "1e-08");
        expect_argument(report, "step", "int32", "3");
    } else if (file == "attention_row_stats.cu") {
        expect_argument(report, "scale", "float32", "0.125");  // 1/sqrt(64)
    } else if (file == "csr_spmv.cu") {
        const BoundArgument* matrix = argument_named(report, "A");
        ASSERT_TRUE(matrix);
        EXPECT_EQ(matrix->kind, "struct");
        EXPECT_EQ(matrix->size, 32u);
        EXPECT_EQ(matrix->value.rfind("CSRMatrix{rowPtrs=row_ptr, colIdx=col_idx, values=vals, numRows=", 0), 0u) << matrix->value;
    } else if (file == "scan_offsets.cu") {
        const BoundArgument* in = argument_named(report, "in");
        ASSERT_TRUE(in);
        EXPECT_EQ(in->kind, "pointer");
        EXPECT_EQ(in->value.rfind("x+", 0), 0u) << in->value;
        expect_argument(report, "partial_sums", "null pointer", "null");
    }
}

}  // namespace kplay::test
