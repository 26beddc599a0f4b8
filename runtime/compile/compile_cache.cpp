// Compile cache: key derivation, the on-disk entry format and lookups.
//
// Entry file: "KPLAYCC1" | u64 payload size | u64 XXH3 of payload | payload, where the payload is a list
// of length-prefixed fields. Anything that does not match exactly is treated as absent.
#include "compile/compile_cache.hpp"
#include "compile/nvrtc_log.hpp"

#include <chrono>
#include <cstring>

#include "base/cache_dir.hpp"
#include "base/content_hash.hpp"
#include "kernel_file/source_scan.hpp"

namespace kplay {

namespace fs = std::filesystem;

namespace {

constexpr char kMagic[8] = {'K', 'P', 'L', 'A', 'Y', 'C', 'C', '2'};  // 2: with the PTX of a CUBIN

void put_u64(std::string& out, uint64_t value) { out.append(reinterpret_cast<const char*>(&value), sizeof value); }

void put_field(std::string& out, const std::string& field) {
    put_u64(out, field.size());
    out += field;
}

struct Reader {
    const std::string& data;
    size_t at = 0;
    bool u64(uint64_t& value) {
        if (data.size() - at < sizeof value) return false;
        std::memcpy(&value, data.data() + at, sizeof value);
        at += sizeof value;
        return true;
    }
    bool field(std::string& value) {
        uint64_t size = 0;
        if (!u64(size) || data.size() - at < size) return false;
        value.assign(data, at, size);
        at += size;
        return true;
    }
};

std::string serialize(const CompileResult& result) {
    std::string payload;
    put_field(payload, result.binary);
    put_field(payload, result.log);
    put_field(payload, result.ptx);
    put_field(payload, result.arch);
    put_field(payload, result.is_cubin ? "1" : "0");
    put_field(payload, std::to_string(result.compile_ms));
    put_u64(payload, result.lowered_names.size());
    for (const auto& [expression, lowered] : result.lowered_names) {
        put_field(payload, expression);
        put_field(payload, lowered);
    }
    put_u64(payload, result.options_used.size());
    for (const auto& option : result.options_used) put_field(payload, option);
    std::string entry(kMagic, sizeof kMagic);
    put_u64(entry, payload.size());
    put_u64(entry, hash64(payload));
    return entry + payload;
}

bool deserialize(const std::string& entry, CompileResult& result) {
    if (entry.size() < sizeof kMagic + 16 || std::memcmp(entry.data(), kMagic, sizeof kMagic) != 0) return false;
    Reader header{entry, sizeof kMagic};
    uint64_t size = 0, checksum = 0;
    if (!header.u64(size) || !header.u64(checksum) || size != entry.size() - header.at) return false;
    const std::string payload = entry.substr(header.at);
    if (hash64(payload) != checksum) return false;
    Reader reader{payload};
    std::string cubin_flag, ms;
    uint64_t count = 0;
    if (!reader.field(result.binary) || !reader.field(result.log) || !reader.field(result.ptx) || !reader.field(result.arch) ||
        !reader.field(cubin_flag) || !reader.field(ms) || !reader.u64(count) || count > 100000)
        return false;
    for (uint64_t i = 0; i < count; ++i) {
        std::string expression, lowered;
        if (!reader.field(expression) || !reader.field(lowered)) return false;
        result.lowered_names[expression] = lowered;
    }
    if (!reader.u64(count) || count > 100000) return false;
    for (uint64_t i = 0; i < count; ++i) {
        std::string option;
        if (!reader.field(option)) return false;
        result.options_used.push_back(option);
    }
    if (reader.at != payload.size()) return false;
    result.is_cubin = cubin_flag == "1";
    try {
        result.compile_ms = std::stod(ms);
    } catch (...) {
        return false;
    }
    result.ok = true;
    result.diagnostics = parse_nvrtc_log(result.log);
    return true;
}

}  // namespace

CompileCache::CompileCache(fs::path dir, Compiler compiler) : dir_(std::move(dir)), compiler_(std::move(compiler)) {}

std::string CompileCache::key_for(const CompileRequest& request) const {
    ContentHasher hasher;
    hasher.add("kplay-compile-v1").add(nvrtc_version_string()).add(request.source);
    for (const auto& option : nvrtc_options(request)) hasher.add(option);
    hasher.add("names");
    for (const auto& expression : request.name_expressions) hasher.add(expression);
    // Headers: everything reachable from the file through its folder and the include dirs. Toolkit
    // headers that are not found there are pinned by the NVRTC version above.
    std::vector<fs::path> dirs;
    for (const auto& dir : request.options.include_dirs) dirs.emplace_back(dir);
    hasher.add("headers");
    for (const auto& header : find_included_files(request.source, fs::path(request.source_path).parent_path(), dirs)) {
        std::string content;
        read_whole_file(header, content);
        hasher.add(header.string()).add(content);
    }
    return hasher.hex();
}

fs::path CompileCache::entry_path(const std::string& key) const { return dir_ / "compile" / (key + ".bin"); }

bool CompileCache::load_entry(const std::string& key, CompileResult& result) const {
    if (dir_.empty()) return false;
    std::string entry;
    if (!read_whole_file(entry_path(key), entry)) return false;
    return deserialize(entry, result);
}

void CompileCache::store_entry(const std::string& key, const CompileResult& result) const {
    if (!dir_.empty()) write_file_atomically(entry_path(key), serialize(result));  // a read-only cache only costs speed
}

CompileResult CompileCache::compile(const CompileRequest& request) {
    const auto start = std::chrono::steady_clock::now();
    auto elapsed_ms = [&] {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    };
    const std::string key = key_for(request);
    {
        std::lock_guard lock(mutex_);
        if (auto found = memory_.find(key); found != memory_.end()) {
            CompileResult hit = found->second;
            hit.cache_hit = true;
            hit.lookup_ms = elapsed_ms();
            return hit;
        }
    }
    CompileResult result;
    if (load_entry(key, result)) {
        result.cache_hit = true;
        result.lookup_ms = elapsed_ms();
        std::lock_guard lock(mutex_);
        memory_[key] = result;
        return result;
    }
    result = compiler_(request);
    if (result.ok) {
        store_entry(key, result);
        std::lock_guard lock(mutex_);
        memory_[key] = result;
    }
    result.lookup_ms = elapsed_ms();
    return result;
}

}  // namespace kplay
