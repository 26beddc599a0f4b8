// Mapping, filling and reading a writer map's shared pages.
#include "emu/writer_map_pages.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <new>
#include <unordered_map>
#include <utility>

#include "emu/access_tracker.hpp"
#include "emu/code_lines.hpp"

namespace kplay {

WriterMapPages::WriterMapPages(uint64_t elements) : elements_(elements) {
    bytes_ = sizeof(Header) + elements * sizeof(WriterCell);
    void* mapping = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (mapping == MAP_FAILED) throw std::bad_alloc();
    header_ = new (mapping) Header();
    cells_ = reinterpret_cast<WriterCell*>(static_cast<unsigned char*>(mapping) + sizeof(Header));
}

WriterMapPages::~WriterMapPages() noexcept {
    if (header_) munmap(header_, bytes_);
}

WriterMapPages::WriterMapPages(WriterMapPages&& other) noexcept
    : header_(std::exchange(other.header_, nullptr)), cells_(other.cells_), elements_(other.elements_), bytes_(other.bytes_) {}

WriterMapPages& WriterMapPages::operator=(WriterMapPages&& other) noexcept {
    if (this != &other) {
        if (header_) munmap(header_, bytes_);
        header_ = std::exchange(other.header_, nullptr);
        cells_ = other.cells_;
        elements_ = other.elements_;
        bytes_ = other.bytes_;
    }
    return *this;
}

void WriterMapPages::publish(const AccessTracker& tracker, size_t region, uintptr_t so_base) const {
    if (!header_) return;
    std::unordered_map<uintptr_t, uint16_t> site_of;  // a pc's index in site_pc
    for (uint64_t i = 0; i < elements_; ++i) {
        const AccessTracker::LastWrite last = tracker.last_write(region, i);
        WriterCell& cell = cells_[i];
        cell = {};
        if (last.thread == 0) continue;
        cell.thread = last.thread;
        cell.flags = static_cast<uint8_t>((last.many ? WriterCell::kMany : 0) | (last.atomic ? WriterCell::kAtomic : 0));
        const uintptr_t pc = last.pc >= so_base ? last.pc - so_base : 0;
        auto [at, added] = site_of.try_emplace(pc, static_cast<uint16_t>(header_->site_count));
        if (added && header_->site_count < kSites) header_->site_pc[header_->site_count++] = pc;
        cell.site = at->second;  // kSites (one past the table) once the table is full: a line not known
    }
    header_->published = 1;
}

bool WriterMapPages::read(const std::filesystem::path& shared_object, const std::string& runtime_headers, WriterMap& into) const {
    if (!header_ || !header_->published) return false;
    into.cells.assign(cells_, cells_ + elements_);
    const uint32_t count = std::min<uint32_t>(header_->site_count, kSites);
    const std::vector<uintptr_t> pcs(header_->site_pc, header_->site_pc + count);
    into.sites.clear();
    for (const CodeLine& line : code_lines(shared_object, pcs, runtime_headers)) into.sites.push_back({line.file, line.line, {}});
    return true;
}

}  // namespace kplay
