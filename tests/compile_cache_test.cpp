// The compile cache: memory and disk hits, corrupt entries, header-sensitive keys, no blocking locks.
#include <gtest/gtest.h>

#include <fstream>

#include "compile/compile_cache.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {
CompileRequest request_for(const test::TempDir& dir, const std::string& source) {
    CompileRequest request;
    request.source = source;
    request.source_path = (dir.path() / "src" / "k.cu").string();
    request.options.arch = "compute_90";
    request.options.include_dirs = {(dir.path() / "inc").string()};
    return request;
}
const char* kKernel = "#include \"helper.cuh\"\nextern \"C\" __global__ void k(float* a) { a[0] = HELPER; }\n";
}  // namespace

TEST(CompileCache, MissThenMemoryHitThenDiskHit) {
    test::TempDir dir;
    dir.write("inc/helper.cuh", "#define HELPER 1.0f\n");
    const CompileRequest request = request_for(dir, kKernel);
    CompileCache cache(dir.path() / "cache");
    const CompileResult first = cache.compile(request);
    ASSERT_TRUE(first.ok) << first.log;
    EXPECT_FALSE(first.cache_hit);
    const CompileResult second = cache.compile(request);
    EXPECT_TRUE(second.cache_hit);
    EXPECT_EQ(second.binary, first.binary);

    CompileCache fresh(dir.path() / "cache");  // a new process: only the disk remains
    const CompileResult from_disk = fresh.compile(request);
    EXPECT_TRUE(from_disk.cache_hit);
    EXPECT_EQ(from_disk.binary, first.binary);
    EXPECT_DOUBLE_EQ(from_disk.compile_ms, first.compile_ms);
}

TEST(CompileCache, KeyChangesWithHeaderContentDefinesAndArch) {
    test::TempDir dir;
    dir.write("inc/helper.cuh", "#define HELPER 1.0f\n");
    CompileCache cache(dir.path() / "cache");
    CompileRequest request = request_for(dir, kKernel);
    const std::string key = cache.key_for(request);
    dir.write("inc/helper.cuh", "#define HELPER 2.0f\n");
    EXPECT_NE(cache.key_for(request), key);
    const std::string header_changed = cache.key_for(request);
    request.options.defines.push_back({"X", "1"});
    EXPECT_NE(cache.key_for(request), header_changed);
    const std::string with_define = cache.key_for(request);
    request.options.arch = "compute_80";
    EXPECT_NE(cache.key_for(request), with_define);
    EXPECT_EQ(cache.key_for(request), cache.key_for(request));
}

TEST(CompileCache, CorruptOrPartialEntriesAreRebuilt) {
    test::TempDir dir;
    dir.write("inc/helper.cuh", "#define HELPER 1.0f\n");
    const CompileRequest request = request_for(dir, kKernel);
    CompileCache cache(dir.path() / "cache");
    const CompileResult good = cache.compile(request);
    const auto entry = cache.entry_path(cache.key_for(request));
    const std::string bytes = test::read_file(entry);
    ASSERT_GT(bytes.size(), 64u);

    for (const std::string& damaged : {bytes.substr(0, bytes.size() / 2), std::string(), std::string("garbage"),
                                       bytes.substr(0, 40) + std::string(1, static_cast<char>(bytes[40] ^ 0x55)) + bytes.substr(41)}) {
        std::ofstream(entry, std::ios::binary | std::ios::trunc) << damaged;
        CompileCache fresh(dir.path() / "cache");
        const CompileResult rebuilt = fresh.compile(request);
        EXPECT_TRUE(rebuilt.ok);
        EXPECT_FALSE(rebuilt.cache_hit) << "a damaged entry must not be used";
        EXPECT_EQ(rebuilt.binary, good.binary);
        CompileCache after(dir.path() / "cache");
        EXPECT_TRUE(after.compile(request).cache_hit) << "the entry is rewritten whole";
    }
}

TEST(CompileCache, LeftoverTempFilesAndReadOnlyFoldersNeverBlock) {
    test::TempDir dir;
    dir.write("inc/helper.cuh", "#define HELPER 1.0f\n");
    const CompileRequest request = request_for(dir, kKernel);
    CompileCache cache(dir.path() / "cache");
    const auto entry = cache.entry_path(cache.key_for(request));
    dir.write(std::filesystem::relative(entry, dir.path()).string() + ".tmp.1.0", "half written by a crashed run");
    EXPECT_TRUE(cache.compile(request).ok);

    std::filesystem::create_directories(dir.path() / "ro");
    std::filesystem::permissions(dir.path() / "ro", std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    CompileCache read_only(dir.path() / "ro" / "cache");
    EXPECT_TRUE(read_only.compile(request).ok);
}

TEST(CompileCache, FailedCompilesAreNotStored) {
    test::TempDir dir;
    CompileCache cache(dir.path() / "cache");
    const CompileRequest request = request_for(dir, "__global__ void k() { nope; }\n");
    EXPECT_FALSE(cache.compile(request).ok);
    EXPECT_FALSE(cache.compile(request).cache_hit);
    EXPECT_FALSE(std::filesystem::exists(cache.entry_path(cache.key_for(request))));
}
