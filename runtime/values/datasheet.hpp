// The vendor's datasheet peaks of the GPUs kplay knows by name: shown beside the measured ceilings and
// labelled as the vendor's, never the ceiling a kernel is judged by (no device reaches its datasheet).
#pragma once

#include <optional>
#include <string>

namespace kplay {

struct DatasheetPeaks {
    std::string product;     // "H200 SXM (141 GB HBM3e)"
    double memory_gbps = 0;  // memory bandwidth, GB/s
    double fp32_gflops = 0;  // fp32 on the FMA units, GFLOP/s
    double tf32_gflops = 0;  // TF32 on the tensor cores, dense (without 2:4 sparsity), GFLOP/s
};

// The peaks for a device's name as the driver reports it ("NVIDIA H200"); none for a GPU not in the
// table (a name is matched whole: an H200 NVL has other peaks than an H200 SXM).
std::optional<DatasheetPeaks> datasheet_peaks(const std::string& device_name);

}  // namespace kplay
