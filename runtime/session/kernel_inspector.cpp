// Inspect compiles in order, one at a time: a newer run's request replaces one not yet answered.
#include "session/kernel_inspector.hpp"

namespace kplay {

std::optional<CompileFileRequest> KernelInspector::request_for(const std::filesystem::path& file, const std::string& source,
                                                               const std::string& source_hash,
                                                               const std::vector<std::pair<std::string, std::string>>& defines,
                                                               const std::string& arch) {
    std::string key = file.string() + "|" + source_hash + "|" + arch;
    for (const auto& [name, value] : defines) key += "|" + name + "=" + value;
    if (key == requested_key_) return std::nullopt;  // the same text as the last inspection: nothing new to see
    requested_key_ = key;
    requested_file_ = file.string();
    CompileFileRequest request;
    request.path = file;
    request.source = source;
    request.inspect = true;
    request.arch = arch;
    request.defines = defines;
    return request;
}

void KernelInspector::submitted(uint64_t id, int run, int block_threads) {
    pending_id_ = id;
    pending_run_ = run;
    pending_key_ = requested_key_;
    pending_block_ = block_threads;
}

bool KernelInspector::handle(const WorkerResult& result) {
    if (result.id == 0 || result.id != pending_id_) return false;
    pending_id_ = 0;
    if (!result.ok()) {  // the worker was replaced meanwhile: the next run asks again
        requested_key_.clear();
        return true;
    }
    if (work_.running()) return true;  // one disassembly at a time; the next save asks again
    working_run_ = pending_run_;
    working_key_ = pending_key_;
    work_.start([compile = result.compile, block = pending_block_, file = requested_file_] { return inspect_compile(compile, file, block, true); });
    return true;
}

bool KernelInspector::poll() {
    std::optional<KernelInspection> done = work_.take();
    if (!done) return false;
    if (done->compiled) by_run_[working_run_] = done->resources;
    recent_.push_front({working_run_, working_key_, std::move(*done)});
    if (recent_.size() > kRecent) recent_.pop_back();
    return true;
}

void KernelInspector::clear() {
    pending_id_ = 0;
    requested_key_.clear();
    recent_.clear();
}

const RunInspection* KernelInspector::previous() const {
    if (recent_.empty()) return nullptr;
    for (size_t i = 1; i < recent_.size(); ++i)
        if (recent_[i].inspection.compiled && recent_[i].text_key != recent_.front().text_key) return &recent_[i];
    return nullptr;
}

const RunInspection* KernelInspector::of_run(int run) const {
    for (const auto& entry : recent_)
        if (entry.run == run) return &entry;
    return nullptr;
}

std::vector<ResourceChange> KernelInspector::changes() const {
    const RunInspection* now = current();
    const RunInspection* before = previous();
    if (!now || !before || !now->inspection.compiled || !now->inspection.resources.found || !before->inspection.resources.found) return {};
    return resource_changes(before->inspection.resources, now->inspection.resources);
}

}  // namespace kplay
