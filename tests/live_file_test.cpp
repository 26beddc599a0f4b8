// The live file: its text and spec read, unchanged content no new text, an editor's mid-save empty or
// missing file retried until its content comes (a save of its own or not), and a file that stays empty
// reported.
#include "session/live_file.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <thread>

#include "test_support.hpp"

using namespace kplay;
using namespace std::chrono_literals;

namespace {

const std::string kKernel =
    "// kplay: task=matmul kernel=k args=a,b,c,M,N,K launch=2d block=16,16\n"
    "__global__ void k(const float* a, const float* b, float* c, int M, int N, int K) {}\n";

// Polls until `done` holds; false when the deadline passed.
bool poll_until(LiveFile& file, const std::function<bool(const LiveFile::Poll&)>& done,
                std::chrono::milliseconds timeout = 3000ms) {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
        if (done(file.poll())) return true;
        std::this_thread::sleep_for(5ms);
    }
    return false;
}

}  // namespace

TEST(LiveFile, ReadsTheTextAndItsSpecAndDropsUnchangedContent) {
    test::TempDir dir;
    const auto path = dir.write("kernels/k.cu", kKernel);
    LiveFile file;
    file.open(path);
    EXPECT_TRUE(file.source().empty()) << "read by load()";
    ASSERT_TRUE(file.load(Clock::now(), false));
    EXPECT_EQ(file.source(), kKernel);
    EXPECT_FALSE(file.source_hash().empty());
    ASSERT_TRUE(file.spec());
    EXPECT_EQ(file.spec()->task.name, "matmul");
    EXPECT_TRUE(file.spec_error().empty());
    EXPECT_TRUE(file.error().empty());
    EXPECT_EQ(file.reloads(), 1);

    EXPECT_FALSE(file.load(Clock::now(), false)) << "the same bytes again";
    EXPECT_TRUE(file.load(Clock::now(), true)) << "Ctrl+R reads it anyway";
    EXPECT_EQ(file.reloads(), 2);

    // A save is seen by poll(), with the time its change was seen.
    std::this_thread::sleep_for(20ms);
    const Clock::time_point before = Clock::now();
    dir.write("kernels/k.cu", kKernel + "// edited\n");
    std::optional<Clock::time_point> changed_at;
    ASSERT_TRUE(poll_until(file, [&](const LiveFile::Poll& read) {
        changed_at = read.new_text_at;
        return read.read;
    }));
    ASSERT_TRUE(changed_at);
    EXPECT_GE(*changed_at, before);
    EXPECT_EQ(file.source(), kKernel + "// edited\n");
    EXPECT_EQ(file.reloads(), 3);

    // Saved again unchanged (a touch): read, but no new text.
    dir.write("kernels/k.cu", kKernel + "// edited\n");
    ASSERT_TRUE(poll_until(file, [](const LiveFile::Poll& read) { return read.read; }));
    EXPECT_EQ(file.reloads(), 3);
}

TEST(LiveFile, ABadAnnotationIsASpecErrorNotAFileError) {
    test::TempDir dir;
    LiveFile file;
    file.open(dir.write("k.cu", "// kplay: task=blur\n__global__ void k() {}\n"));
    ASSERT_TRUE(file.load(Clock::now(), false)) << "new text all the same: the window shows why";
    EXPECT_FALSE(file.spec());
    EXPECT_NE(file.spec_error().find("unknown task 'blur'"), std::string::npos) << file.spec_error();
    EXPECT_TRUE(file.error().empty()) << file.error();
}

TEST(LiveFile, AnEmptyFileIsRetriedUntilItsContentComesWithoutASave) {
    test::TempDir dir;
    const auto path = dir.write("kernels/k.cu", "");
    LiveFile file;
    file.open(path);
    const Clock::time_point saved = Clock::now() - 5ms;
    EXPECT_FALSE(file.load(saved, false)) << "never compile emptiness";
    EXPECT_TRUE(file.error().empty()) << "not reported while it is retried";

    // The content comes while the writer holds the file open: no save is seen, only a retry reads it.
    const int held = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
    ASSERT_GE(held, 0);
    ASSERT_EQ(::write(held, kKernel.data(), kKernel.size()), static_cast<ssize_t>(kKernel.size()));
    std::optional<Clock::time_point> changed_at;
    ASSERT_TRUE(poll_until(file, [&](const LiveFile::Poll& read) {
        changed_at = read.new_text_at;
        return changed_at.has_value();
    }));
    EXPECT_EQ(*changed_at, saved) << "timed from the change the retries read for";
    EXPECT_EQ(file.source(), kKernel);
    ::close(held);  // now the save arrives: the same content
    ASSERT_TRUE(poll_until(file, [](const LiveFile::Poll& read) { return read.read; }));
    EXPECT_EQ(file.reloads(), 1);
}

TEST(LiveFile, AMissingFileIsRetriedAndSaidWhy) {
    test::TempDir dir;
    const auto staged = dir.write("staging/k.cu", kKernel);
    const auto path = dir.path() / "kernels/k.cu";
    std::filesystem::create_directories(path.parent_path());
    LiveFile file;
    file.open(path);
    EXPECT_FALSE(file.load(Clock::now(), false));
    EXPECT_NE(file.error().find("not found"), std::string::npos) << file.error();
    std::filesystem::create_hard_link(staged, path);  // linked into place: no save
    ASSERT_TRUE(poll_until(file, [](const LiveFile::Poll& read) { return read.new_text_at.has_value(); }));
    EXPECT_TRUE(file.error().empty()) << file.error();
}

TEST(LiveFile, AFileThatStaysEmptyIsReported) {
    test::TempDir dir;
    const auto path = dir.write("k.cu", "  \n");
    LiveFile file;
    file.open(path);
    EXPECT_FALSE(file.load(Clock::now(), false));
    ASSERT_TRUE(poll_until(file, [&](const LiveFile::Poll&) { return !file.error().empty(); }));
    EXPECT_EQ(file.error(), path.string() + " is empty.");
    EXPECT_TRUE(file.source().empty());
}

TEST(LiveFile, AFileInAMissingFolderCannotBeWatched) {
    test::TempDir dir;
    LiveFile file;
    file.open(dir.path() / "no/such/k.cu");
    EXPECT_EQ(file.error(), "Cannot watch " + (dir.path() / "no/such/k.cu").string() + ": its folder does not exist.");
}

// The headers the file reaches are watched: beside it (quoted, recursively), in its include= folder and
// in the user's folder; a save of one is a change (the file's text the same), a header no longer
// included is no longer watched, and the toolkit's headers never are.
TEST(LiveFile, TheHeadersTheFileReachesAreWatched) {
    test::TempDir dir;
    dir.write("k/near.cuh", "#pragma once\n#include \"deeper.cuh\"\n");
    dir.write("k/deeper.cuh", "#pragma once\n");
    dir.write("k/lib/mini/layout.hpp", "#pragma once\n");
    dir.write("user/tile.cuh", "#pragma once\n");
    const std::string kernel = "// kplay: task=matmul kernel=k args=a,b,c,M,N,K launch=2d block=16,16 include=lib\n"
                               "#include \"near.cuh\"\n#include <mini/layout.hpp>\n#include <tile.cuh>\n#include <cuda_fp16.h>\n"
                               "__global__ void k(const float* a, const float* b, float* c, int M, int N, int K) {}\n";
    const auto path = dir.write("k/k.cu", kernel);
    LiveFile file;
    file.set_include_dirs({(dir.path() / "user").string()});
    file.open(path);
    ASSERT_TRUE(file.load(Clock::now(), true));
    std::vector<std::string> names;
    for (const auto& header : file.headers()) names.push_back(header.filename().string());
    std::sort(names.begin(), names.end());
    EXPECT_EQ(names, (std::vector<std::string>{"deeper.cuh", "layout.hpp", "near.cuh", "tile.cuh"}));

    for (const std::string header : {"k/deeper.cuh", "k/lib/mini/layout.hpp", "user/tile.cuh"}) {
        dir.write(header, "#pragma once\n// edited\n");
        LiveFile::Poll seen;
        ASSERT_TRUE(poll_until(file, [&](const LiveFile::Poll& poll) {
            seen = poll;
            return poll.new_text_at.has_value();
        })) << header;
        EXPECT_EQ(seen.header, std::filesystem::weakly_canonical(dir.path() / header));
        EXPECT_EQ(file.source(), kernel);
        EXPECT_EQ(file.reloads(), 1);  // the file's own text was not read again
    }

    // The file stops including near.cuh: near.cuh and what it included leave the watch.
    const std::string fewer = kernel.substr(0, kernel.find("#include \"near.cuh\"")) + kernel.substr(kernel.find("#include <mini"));
    dir.write("k/k.cu", fewer);
    ASSERT_TRUE(poll_until(file, [](const LiveFile::Poll& poll) { return poll.new_text_at.has_value(); }));
    EXPECT_EQ(file.headers().size(), 2u);
    dir.write("k/deeper.cuh", "#pragma once\n// edited again\n");
    EXPECT_FALSE(poll_until(file, [](const LiveFile::Poll& poll) { return poll.new_text_at.has_value(); }, 300ms));
}
