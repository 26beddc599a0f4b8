// The table of datasheet peaks (NVIDIA's published figures for each product).
#include "values/datasheet.hpp"

#include <array>

namespace kplay {

namespace {

struct Entry {
    const char* device_name;  // as cuDeviceGetName reports it
    DatasheetPeaks peaks;
};

// NVIDIA's datasheets: H200 (SXM), H100 (SXM5 80 GB, PCIe), A100 (SXM4 80 GB and 40 GB). TF32 is the dense
// figure, half of the "with sparsity" one the datasheets print first.
const std::array<Entry, 5> kTable = {{
    {"NVIDIA H200", {"H200 SXM (141 GB HBM3e)", 4800, 67000, 494700}},
    {"NVIDIA H100 80GB HBM3", {"H100 SXM5 (80 GB HBM3)", 3350, 67000, 494700}},
    {"NVIDIA H100 PCIe", {"H100 PCIe (80 GB HBM2e)", 2000, 51000, 378000}},
    {"NVIDIA A100-SXM4-80GB", {"A100 SXM4 (80 GB HBM2e)", 2039, 19500, 156000}},
    {"NVIDIA A100-SXM4-40GB", {"A100 SXM4 (40 GB HBM2)", 1555, 19500, 156000}},
}};

}  // namespace

std::optional<DatasheetPeaks> datasheet_peaks(const std::string& device_name) {
    for (const Entry& entry : kTable)
        if (device_name == entry.device_name) return entry.peaks;
    return std::nullopt;
}

}  // namespace kplay
