// One buffer's writer map on its way from the launch process to the caller: shared pages mapped before
// the fork, holding the code address of each line that wrote and a cell per element (values/writer_map.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "values/writer_map.hpp"

namespace kplay {

class AccessTracker;

class WriterMapPages {
public:
    WriterMapPages() = default;
    explicit WriterMapPages(uint64_t elements);  // throws std::bad_alloc when the pages cannot be mapped
    ~WriterMapPages() noexcept;
    WriterMapPages(WriterMapPages&& other) noexcept;
    WriterMapPages& operator=(WriterMapPages&& other) noexcept;
    WriterMapPages(const WriterMapPages&) = delete;
    WriterMapPages& operator=(const WriterMapPages&) = delete;

    bool active() const { return header_ != nullptr; }
    // In the launch process, after the grid: the last writes of the tracker's global region `region`.
    // `so_base`: the kernel object's load address (the caller names lines by offsets from it).
    void publish(const AccessTracker& tracker, size_t region, uintptr_t so_base) const;
    // In the caller, once the launch process ended cleanly: the cells, and each writing line's file and
    // line (recipes left empty). False when the launch process did not publish.
    bool read(const std::filesystem::path& shared_object, const std::string& runtime_headers, WriterMap& into) const;

private:
    static constexpr size_t kSites = 1024;  // lines past these are told without their line
    struct Header {
        int published = 0;
        uint32_t site_count = 0;
        uintptr_t site_pc[kSites];
    };
    Header* header_ = nullptr;
    WriterCell* cells_ = nullptr;
    uint64_t elements_ = 0;
    size_t bytes_ = 0;
};

}  // namespace kplay
