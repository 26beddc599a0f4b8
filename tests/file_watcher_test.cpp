// Saves the way real editors do them are each seen as one change of the watched file.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <thread>

#include "session/file_watcher.hpp"
#include "test_support.hpp"

using namespace kplay;

namespace {
std::vector<FileChange> settle(FileWatcher& watcher) {
    std::vector<FileChange> all;
    for (int i = 0; i < 20; ++i) {
        for (auto& change : watcher.poll()) all.push_back(change);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return all;
}
}  // namespace

TEST(FileWatcher, SeesEachEditorStyleOfSavingOnce) {
    test::TempDir dir;
    const auto file = dir.write("k.cu", "v0");
    dir.write("other.cu", "x");
    FileWatcher watcher;
    ASSERT_TRUE(watcher.watch(file));
    EXPECT_TRUE(settle(watcher).empty());

    // VS Code: truncate and write in place.
    { std::ofstream(file, std::ios::trunc) << "v1"; }
    EXPECT_EQ(settle(watcher).size(), 1u);
    // vim: rename the original to a backup, write a new file.
    std::filesystem::rename(file, dir.path() / "k.cu~");
    { std::ofstream(file) << "v2"; }
    EXPECT_EQ(settle(watcher).size(), 1u);
    // JetBrains safe-write and sed -i: write a temp file, rename it over.
    dir.write("k.cu.tmp", "v3");
    std::filesystem::rename(dir.path() / "k.cu.tmp", file);
    EXPECT_EQ(settle(watcher).size(), 1u);
    ASSERT_EQ(std::system(("sed -i s/v3/v4/ " + file.string()).c_str()), 0);
    EXPECT_EQ(settle(watcher).size(), 1u);
    // cp over it.
    const auto source = dir.write("src.cu", "v5");
    std::filesystem::copy_file(source, file, std::filesystem::copy_options::overwrite_existing);
    EXPECT_EQ(settle(watcher).size(), 1u);
    // Other files in the folder are not reported.
    { std::ofstream(dir.path() / "other.cu", std::ios::trunc) << "y"; }
    EXPECT_TRUE(settle(watcher).empty());
}

TEST(FileWatcher, MissingFolderIsRefused) {
    FileWatcher watcher;
    EXPECT_FALSE(watcher.watch("/no/such/folder/k.cu"));
    EXPECT_FALSE(watcher.active());
}
