// Resident blocks over the workers of a launch, the stall they may all reach, and that stall in words.
#include "emu/block_residency.hpp"

#include <link.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "emu/code_lines.hpp"
#include "emu/message_names.hpp"

namespace kplay {

namespace {

int64_t now_ns() {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Writers of the note: the workers that find the stall at once, and a worker that ends it.
std::mutex g_note_mutex;

}  // namespace

Residency::Residency(const Settings& settings, StallSlot* slot, std::function<void()> report)
    : settings_(settings), slot_(slot), report_(std::move(report)) {
    blocks_ = static_cast<uint64_t>(settings.grid.x) * settings.grid.y * settings.grid.z;
    threads_per_block_ = static_cast<uint64_t>(settings.block.x) * settings.block.y * settings.block.z;
    gpu_ = gpu_resident_blocks(static_cast<unsigned>(threads_per_block_), settings.shared_bytes);
    gpu_.blocks = std::max<uint64_t>(gpu_.blocks, 1);  // a block too large for an SM was refused before the launch
    workers_ = std::make_unique<WorkerState[]>(static_cast<size_t>(std::max(settings.workers, 1)));
}

bool Residency::take(kplay_emu_dim& index, bool first_on_worker) {
    if (next_.load(std::memory_order_relaxed) >= blocks_) return false;
    if (resident_blocks_.fetch_add(1) >= gpu_.blocks) {
        resident_blocks_.fetch_sub(1);
        return false;
    }
    const uint64_t threads_before = resident_threads_.fetch_add(threads_per_block_);
    const bool too_many = !first_on_worker && threads_before + threads_per_block_ > kEmulatedResidentThreads;
    const uint64_t b = too_many ? blocks_ : next_.fetch_add(1);
    if (b >= blocks_) {
        resident_threads_.fetch_sub(threads_per_block_);
        resident_blocks_.fetch_sub(1);
        return false;
    }
    const kplay_emu_dim& grid = settings_.grid;
    index = {static_cast<unsigned>(b % grid.x), static_cast<unsigned>((b / grid.x) % grid.y),
             static_cast<unsigned>(b / (static_cast<uint64_t>(grid.x) * grid.y))};
    return true;
}

void Residency::finished() {
    resident_threads_.fetch_sub(threads_per_block_);
    resident_blocks_.fetch_sub(1);
}

bool Residency::left() const { return next_.load(std::memory_order_relaxed) < blocks_; }

StallNote::Kind Residency::blocker() const {
    if (!left()) return StallNote::endless;
    return resident_blocks_.load() >= gpu_.blocks ? StallNote::gpu_limit : StallNote::emulator_limit;
}

void Residency::progress(int worker) {
    if (workers_[static_cast<size_t>(worker)].mode.exchange(running) < waiting) return;
    std::lock_guard<std::mutex> lock(g_note_mutex);
    if (slot_->state.load() == 2) slot_->state.store(0);  // that stall is over
}

void Residency::idle(int worker) { workers_[static_cast<size_t>(worker)].mode.store(idle_mode); }

void Residency::write_note(StallNote& note, bool certain, const std::function<void(StallNote&)>& describe) const {
    note = StallNote{};
    note.kind = blocker();
    note.certain = certain;
    note.resident_blocks = resident_blocks_.load();
    note.blocks = blocks_;
    note.threads_per_block = threads_per_block_;
    note.gpu_blocks = gpu_.blocks;
    note.per_sm = gpu_.per_sm;
    std::strncpy(note.per_sm_limit, gpu_.per_sm_limit, sizeof note.per_sm_limit - 1);
    describe(note);
}

void Residency::stalled(int worker, bool certain, const std::function<void(StallNote&)>& describe) {
    WorkerState& me = workers_[static_cast<size_t>(worker)];
    const int64_t now = now_ns();
    const int before = me.mode.load();
    // A certain stall starts when the worker first saw it certain.
    if (before < waiting || (certain && before != waiting_certain)) me.since_ns.store(now);
    me.mode.store(certain ? waiting_certain : waiting);
    bool every_certain = true, anyone = false;
    int64_t latest = 0;
    for (int w = 0; w < std::max(settings_.workers, 1); ++w) {
        const WorkerState& other = workers_[static_cast<size_t>(w)];
        const int mode = other.mode.load();
        if (mode == running) return;  // someone may still set what the others wait for
        if (mode == idle_mode) continue;
        anyone = true;
        every_certain = every_certain && mode == waiting_certain;
        latest = std::max(latest, other.since_ns.load());
    }
    if (!anyone) return;
    std::lock_guard<std::mutex> lock(g_note_mutex);
    if (every_certain && now - latest >= static_cast<int64_t>(settings_.report_after_s * 1e9)) {
        write_note(slot_->note, true, describe);
        slot_->state.store(2);
        report_();
    }
    if (slot_->state.load() != 0) return;
    write_note(slot_->note, every_certain, describe);
    slot_->state.store(2);
}

namespace {

Visit visit(BlockHost& host, bool by_time) {
    Visit v;
    unsigned quiet = 0;
    bool neutral = false;  // a round since the last move where only warp collectives released
    auto moved_at = std::chrono::steady_clock::now();
    for (;;) {
        const Round r = host.round();
        if (r.done) {
            v.done = true;
            return v;
        }
        if (r.moved) {
            v.moved = v.certain = true;
            quiet = 0;
            neutral = false;
            if (by_time) moved_at = std::chrono::steady_clock::now();
            continue;
        }
        if (r.quiet) {
            v.certain = v.certain && r.certain;
            if (++quiet >= kQuietRounds) return v;
        } else {
            neutral = true;
        }
        // The slice ends a visit of polls kplay cannot see; one whose rounds all polled (a slow machine) stays certain.
        if (by_time && std::chrono::steady_clock::now() - moved_at >= kTimeSlice) {
            v.certain = v.certain && !neutral && quiet > 0;
            return v;
        }
    }
}

}  // namespace

void rotate_blocks(BlockHost& host, Residency& residency, int worker) {
    bool running = false;  // the host has a block that has not returned
    unsigned quiet_visits = 0;
    bool certain = true;
    kplay_emu_dim next{};
    for (;;) {
        if (!running) {
            if (host.parked_blocks() > 0) {
                host.unpark();
            } else if (residency.take(next, true)) {
                residency.progress(worker);
                host.start(next);
                quiet_visits = 0;
            } else if (residency.left()) {  // blocks resident elsewhere must return first
                residency.idle(worker);
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                continue;
            } else {
                break;
            }
            running = true;
        }
        const Visit v = visit(host, !residency.deterministic());
        if (v.done) {
            residency.finished();
            residency.progress(worker);
            running = false;
            quiet_visits = 0;
            certain = true;
            continue;
        }
        if (v.moved) {
            residency.progress(worker);
            quiet_visits = 0;
            certain = true;
        }
        ++quiet_visits;
        certain = certain && v.certain;
        if (residency.take(next, false)) {
            host.park();
            host.start(next);
            quiet_visits = 0;
            continue;
        }
        if (host.parked_blocks() > 0) {
            host.park();
            host.unpark();
        }
        if (quiet_visits > host.parked_blocks())
            residency.stalled(worker, certain, [&host](StallNote& note) { host.describe(note); });
    }
    residency.idle(worker);
}

size_t thread_local_bytes_of(const void* symbol_address) {
    struct Search {
        uintptr_t address;
        size_t bytes;
    } search{reinterpret_cast<uintptr_t>(symbol_address), 0};
    dl_iterate_phdr(
        [](dl_phdr_info* info, size_t, void* data) {
            auto* s = static_cast<Search*>(data);
            bool holds = false;
            size_t tls = 0;
            for (int i = 0; i < info->dlpi_phnum; ++i) {
                const ElfW(Phdr)& segment = info->dlpi_phdr[i];
                const uintptr_t begin = info->dlpi_addr + segment.p_vaddr;
                if (segment.p_type == PT_LOAD && s->address >= begin && s->address < begin + segment.p_memsz)
                    holds = true;
                if (segment.p_type == PT_TLS) tls = segment.p_memsz;
            }
            if (!holds) return 0;
            s->bytes = tls;
            return 1;
        },
        &search);
    return search.bytes;
}

namespace {

// "kernels/radix.cu:23" for each entry: its poll's line, else its barrier's.
std::vector<std::string> entry_sites(const StallNote& note, const std::filesystem::path& shared_object,
                                     uintptr_t so_base, const std::string& runtime_headers, std::string& file,
                                     int& line) {
    std::vector<uintptr_t> offsets;
    for (int i = 0; i < note.entries; ++i)
        if (note.entry[i].pc >= so_base && note.entry[i].pc > 0) offsets.push_back(note.entry[i].pc - so_base);
    const std::vector<CodeLine> lines = code_lines(shared_object, offsets, runtime_headers);
    std::vector<std::string> sites;
    size_t next = 0;
    for (int i = 0; i < note.entries; ++i) {
        const StallNote::Entry& entry = note.entry[i];
        CodeLine at{kernel_file_name(std::string(entry.file, strnlen(entry.file, sizeof entry.file))), entry.line};
        if (entry.pc >= so_base && entry.pc > 0) at = next < lines.size() ? lines[next++] : CodeLine{};
        if (i == 0) file = at.file, line = at.line;
        sites.push_back(at.line > 0 ? at.file + ":" + std::to_string(at.line) : "a line kplay cannot tell");
    }
    return sites;
}

}  // namespace

StallText describe_stall(const StallSlot& slot, const std::filesystem::path& shared_object, uintptr_t so_base,
                         const std::string& runtime_headers) {
    StallText result;
    if (slot.state.load() != 2 || slot.note.entries == 0) return result;
    const StallNote& note = slot.note;
    const std::vector<std::string> sites =
        entry_sites(note, shared_object, so_base, runtime_headers, result.file, result.line);
    const bool certain = note.certain != 0;
    const StallNote::Entry& first = note.entry[0];
    std::string text = "block " + dim_text(first.block) + (certain ? " waits at " : " seemed to wait at ") + sites[0];
    if (first.polling > 0)
        text += " (" + std::to_string(first.polling) + " of its " + std::to_string(note.threads_per_block) +
                " threads " + (first.polling == 1 ? "polls" : "poll") + " there)";
    text += " for another block";
    std::string others;
    for (int i = 1; i < note.entries; ++i)
        others +=
            (i > 1 ? ", block " : " (block ") + dim_text(note.entry[i].block) + " at " + sites[static_cast<size_t>(i)];
    if (!others.empty()) others += note.resident_blocks > static_cast<uint64_t>(note.entries) ? ", ...)" : ")";
    const std::string waiting = std::string(certain ? " are waiting too" : " seemed to wait too") + others;
    // "132 SMs, 8 blocks each, as its 2048 threads per SM allow"
    const std::string gpu_blocks = std::to_string(note.gpu_blocks);
    const std::string gpu_shape =
        "132 SMs, " + std::to_string(note.per_sm) + " blocks each, as its " + note.per_sm_limit + " allow";
    const char* progress = " (forward progress between blocks is not guaranteed in CUDA)";
    switch (note.kind) {
        case StallNote::endless:
            result.text = text + (certain ? ", as does" : ", as did") + " every block still resident" + others +
                          ", and none is left to start: " +
                          (certain ? "nothing will ever set what they wait for (an endless wait)" : "an endless wait?");
            break;
        case StallNote::gpu_limit:
            result.text = text + ", but all " + gpu_blocks + " blocks a GPU keeps resident at once (" + gpu_shape +
                          ")" + waiting +
                          (certain ? ": this kernel needs more blocks at once than a GPU can hold"
                                   : ": does this kernel need more blocks at once than a GPU can hold?") +
                          progress;
            break;
        default:
            result.text = text + ", but all " + std::to_string(note.resident_blocks) +
                          " blocks the emulated device keeps resident at once (" +
                          std::to_string(kEmulatedResidentThreads) + " threads; a GPU keeps " + gpu_blocks + ": " +
                          gpu_shape + ")" + waiting +
                          ": this kernel needs more blocks at once than the emulated device can hold; launch fewer "
                          "blocks, or run it on "
                          "a GPU" +
                          progress;
    }
    return result;
}

}  // namespace kplay
