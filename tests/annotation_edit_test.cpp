// Writing a sweep's point back into the `// kplay:` line: only the values asked for change, every
// other byte stays (CRLF, a byte-order mark), and the file is saved with a one-time .orig copy.
#include "sweep/annotation_edit.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>

#include "base/error.hpp"
#include "test_support.hpp"
#include "kernel_file/kernel_spec.hpp"

using namespace kplay;
namespace fs = std::filesystem;

namespace {


// The annotation line after the edit, for tests that look at one line only.
std::string edited(const std::string& line, const AnnotationValues& values) {
    return edit_annotation(line + "\n", values).after;
}

AnnotationValues block(std::vector<int64_t> values) {
    AnnotationValues out;
    out.block = std::move(values);
    return out;
}

AnnotationValues literal(const std::string& name, const std::string& value) {
    AnnotationValues out;
    out.literals[name] = value;
    return out;
}

AnnotationValues define(const std::string& name, const std::string& value) {
    AnnotationValues out;
    out.defines.emplace_back(name, value);
    return out;
}

// A fresh folder under the system temp dir, removed at the end.
class Folder {
public:
    Folder() {
        std::string name = (fs::temp_directory_path() / "kplay-annotation-edit-XXXXXX").string();
        if (!::mkdtemp(name.data())) throw std::runtime_error("mkdtemp failed");
        path_ = name;
    }
    ~Folder() {
        std::error_code error;
        fs::remove_all(path_, error);
    }
    const fs::path& path() const { return path_; }
    fs::path write(const std::string& name, const std::string& bytes) const {
        std::ofstream(path_ / name, std::ios::binary) << bytes;
        return path_ / name;
    }

private:
    fs::path path_;
};

std::string read(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

mode_t mode_of(const fs::path& path) {
    struct stat status {};
    ::stat(path.c_str(), &status);
    return status.st_mode & 07777;
}

const char* const kMatmul =
    "// kplay: task=matmul kernel=matmul_k args=a,b,c,M,N,K,tw=16 launch=2d block=tw,tw smem=2*tw*tw*4";

}  // namespace

TEST(AnnotationEdit, RewritesBlockArgsAndDefines) {
    AnnotationValues values;
    values.block = std::vector<int64_t>{32, 8};
    values.literals["tw"] = "32";
    values.defines = {{"TILE", "16"}, {"FAST", "0"}, {"NEW", "1"}};
    const std::string line = std::string(kMatmul) + " defines=TILE=8,FAST,OTHER=2 tol=3";
    EXPECT_EQ(edited(line, values),
              "// kplay: task=matmul kernel=matmul_k args=a,b,c,M,N,K,tw=32 launch=2d block=32,8 smem=2*tw*tw*4 "
              "defines=TILE=16,FAST=0,OTHER=2,NEW=1 tol=3");
}

TEST(AnnotationEdit, TheEditedFileReadsBackWithTheNewValues) {
    AnnotationValues values;
    values.block = std::vector<int64_t>{64, 4};
    values.literals["tw"] = "8";
    values.defines = {{"TILE", "64"}};
    const std::string source =
        std::string(kMatmul) +
        "\n__global__ void matmul_k(float* a, float* b, float* c, int M, int N, int K, int tw) {}\n";
    const KernelSpec spec = resolve_kernel_spec(edit_annotation(source, values).text, "x.cu");
    EXPECT_EQ(spec.block, (std::vector<std::string>{"64", "4"}));
    EXPECT_EQ(spec.args.back(), "tw=8");
    ASSERT_EQ(spec.defines.size(), 1u);
    EXPECT_EQ(spec.defines[0], (std::pair<std::string, std::string>{"TILE", "64"}));
    EXPECT_EQ(spec.smem, "2*tw*tw*4");
}

TEST(AnnotationEdit, DefinesAppendedOrAdded) {
    EXPECT_EQ(edited("// kplay: task=matmul defines=TILE=8 tol=3", define("NEW", "1")),
              "// kplay: task=matmul defines=TILE=8,NEW=1 tol=3");
    EXPECT_EQ(edited("// kplay: defines=A=1 task=matmul defines=B=2", define("C", "3")),
              "// kplay: defines=A=1 task=matmul defines=B=2,C=3");
    EXPECT_EQ(edited("// kplay: defines=A=1 task=matmul defines=B=2", define("A", "5")),
              "// kplay: defines=A=5 task=matmul defines=B=2");
    EXPECT_EQ(edited("// kplay: task=matmul", define("TILE", "16")), "// kplay: task=matmul defines=TILE=16");
    EXPECT_EQ(edited("// kplay: task=matmul defines=FAST", define("FAST", "")), "// kplay: task=matmul defines=FAST");
    EXPECT_EQ(edited("// kplay: task=matmul defines=X=1", define("FAST", "")),
              "// kplay: task=matmul defines=X=1,FAST");
    EXPECT_EQ(edited("// kplay: task=matmul defines=", define("T", "float")), "// kplay: task=matmul defines=T=float");
    // The last value given for a name is written, once.
    AnnotationValues twice;
    twice.defines = {{"T", "1"}, {"U", "2"}, {"T", "3"}};
    EXPECT_EQ(edited("// kplay: task=matmul", twice), "// kplay: task=matmul defines=T=3,U=2");
    // Additions go after the last token: trailing spaces stay at the end, an empty annotation gets one.
    EXPECT_EQ(edited("// kplay: task=matmul   ", define("T", "1")), "// kplay: task=matmul defines=T=1   ");
    EXPECT_EQ(edited("// kplay:", define("T", "1")), "// kplay: defines=T=1");
}

TEST(AnnotationEdit, BlockKeepsItsCountOrIsAdded) {
    EXPECT_EQ(edited("// kplay: block=tw,tw launch=2d", block({64})), "// kplay: block=64,1 launch=2d");
    EXPECT_EQ(edited("// kplay: block=256", block({32, 4})), "// kplay: block=32,4");
    EXPECT_EQ(edited("// kplay: block=8,8,8", block({8, 8, 1})), "// kplay: block=8,8,1");
    EXPECT_EQ(edited("// kplay: block=8,8", block({16, 1, 1})), "// kplay: block=16,1");
    EXPECT_EQ(edited("// kplay: block=8,8", block({16, 1, 2})), "// kplay: block=16,1,2");
    EXPECT_EQ(edited("// kplay: block=16 , 16 smem=0", block({32, 32})), "// kplay: block=32,32 smem=0");
    EXPECT_EQ(edited("// kplay: task=matmul launch=2d", block({32, 1, 1})), "// kplay: task=matmul launch=2d block=32");
    EXPECT_EQ(edited("// kplay: task=matmul", block({1})), "// kplay: task=matmul block=1");
    EXPECT_EQ(edited("// kplay: task=matmul", block({16, 16})), "// kplay: task=matmul block=16,16");
    // Both added: block first, then defines.
    AnnotationValues both = block({128});
    both.defines = {{"T", "2"}};
    EXPECT_EQ(edited("// kplay: task=matmul", both), "// kplay: task=matmul block=128 defines=T=2");
    // A block given twice: both are written, so neither disagrees.
    EXPECT_EQ(edited("// kplay: block=1 block=2,2", block({4})), "// kplay: block=4,1 block=4,1");
}

TEST(AnnotationEdit, LiteralsInsideExpressionsAndSpacedValues) {
    EXPECT_EQ(edited("// kplay: args=a, cdiv(n,256), tw = 16 ,k smem=2 * tw * 4", literal("tw", "32")),
              "// kplay: args=a, cdiv(n,256), tw = 32 ,k smem=2 * tw * 4");
    EXPECT_EQ(edited("// kplay: args=a,tw=16 args=tw=2", literal("tw", "8")), "// kplay: args=a,tw=8 args=tw=8");
    EXPECT_EQ(edited("// kplay: args=a,min(tw,4),tw=4", literal("tw", "-1")), "// kplay: args=a,min(tw,4),tw=-1");
}

TEST(AnnotationEdit, OnlyTheAnnotationLineChanges) {
    const std::string bom = "\xEF\xBB\xBF";
    const std::string head = bom + "// a comment: kplay: is mentioned here\r\n#include <x.h>\r\n";
    const std::string tail =
        "\r\n// kplay: task=grayscale block=1\r\n__global__ void k() {}\r\n\r\n// kplay-sweep: tw=8,16\r\n";
    const std::string line = "int x;  // kplay: task=matmul args=tw=16 block=16,16\t";
    const std::string file = head + line + tail;
    AnnotationValues values = block({32, 32});
    values.literals["tw"] = "64";
    const AnnotationEdit edit = edit_annotation(file, values);
    EXPECT_EQ(edit.line, 3);
    EXPECT_EQ(edit.before, line);
    EXPECT_EQ(edit.after, "int x;  // kplay: task=matmul args=tw=64 block=32,32\t");
    EXPECT_EQ(edit.text, head + edit.after + tail);
    EXPECT_TRUE(edit.changed());
    EXPECT_EQ(edit.preview(), "line 3:\n- " + line + "\n+ " + edit.after + "\n");
}

TEST(AnnotationEdit, ByteOrderMarkAndCrlfOnTheAnnotationLine) {
    const std::string file = "\xEF\xBB\xBF// kplay: task=matmul block=16\r\nint x;\r\n";
    const AnnotationEdit edit = edit_annotation(file, block({8}));
    EXPECT_EQ(edit.line, 1);
    EXPECT_EQ(edit.before, "// kplay: task=matmul block=16");
    EXPECT_EQ(edit.after, "// kplay: task=matmul block=8");
    EXPECT_EQ(edit.text, "\xEF\xBB\xBF// kplay: task=matmul block=8\r\nint x;\r\n");
    // No line ending at all.
    EXPECT_EQ(edit_annotation("// kplay: block=16", block({8})).text, "// kplay: block=8");
}

TEST(AnnotationEdit, NothingAskedChangesNothing) {
    const std::string file = "// kplay: task=matmul block=16,16\n";
    const AnnotationEdit edit = edit_annotation(file, {});
    EXPECT_EQ(edit.text, file);
    EXPECT_FALSE(edit.changed());
    EXPECT_FALSE(edit_annotation(file, block({16, 16})).changed());
}

TEST(AnnotationEdit, ExactMessages) {
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("__global__ void k() {}\n// kplay-sweep: tw=8\n", block({8})); }),
              "the file has no '// kplay:' line to write the values into; add one, e.g. '// kplay: block=16,16', or "
              "change the file by "
              "hand");
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("\n// kplay: task=matmul args=a,b,M,tw2=4\n", literal("tw", "32")); }),
              "tw is not a literal of args=a,b,M,tw2=4 (line 2), so it cannot be written; add it there as tw=VALUE");
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("// kplay: task=matmul args=a, tw\n", literal("tw", "32")); }),
              "tw is not a literal of args=a,tw (line 1), so it cannot be written; add it there as tw=VALUE");
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("// kplay: task=matmul\n", literal("tw", "32")); }),
              "tw is not a literal of args= (line 1 has no args=), so it cannot be written; add args=...,tw=VALUE to "
              "the annotation");
    EXPECT_EQ(
        kplay::test::input_error_of([] { edit_annotation("// kplay: args=tw=1\n", literal("tw", "3 2")); }),
        "cannot write tw=3 2 into the annotation: a value there is not empty and has no spaces, commas or brackets");
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("// kplay: args=tw=1\n", literal("tw", "")); }),
              "cannot write tw= into the annotation: a value there is not empty and has no spaces, commas or brackets");
    EXPECT_EQ(
        kplay::test::input_error_of([] { edit_annotation("// kplay: args=tw=1\n", define("T", "a,b")); }),
        "cannot write T=a,b into the annotation: a value there is not empty and has no spaces, commas or brackets");
    EXPECT_EQ(
        kplay::test::input_error_of([] { edit_annotation("// kplay: args=tw=1\n", define("T", "f(1)")); }),
        "cannot write T=f(1) into the annotation: a value there is not empty and has no spaces, commas or brackets");
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("// kplay: args=tw=1\n", define("-DT", "1")); }),
              "cannot write the define '-DT': a define's name is letters, digits and _");
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("// kplay: block=1\n", block({})); }),
              "cannot write block=: a block takes 1 to 3 values (x,y,z)");
    EXPECT_EQ(kplay::test::input_error_of([] {
                  edit_annotation("// kplay: block=1\n", block({1, 2, 3, 4}));
              }),
              "cannot write block=1,2,3,4: a block takes 1 to 3 values (x,y,z)");
    EXPECT_EQ(kplay::test::input_error_of([] {
                  edit_annotation("// kplay: block=1\n", block({32, 0}));
              }),
              "cannot write block=32,0: block sizes are 1 or more");
    // A line find_annotation refuses is refused with its message.
    EXPECT_EQ(kplay::test::input_error_of([] { edit_annotation("// kplay: oops task=matmul\n", block({8})); }),
              "kplay annotation at line 1: expected key=value, got 'oops' (keys: task, kernel, args, launch, block, "
              "grid, smem, cluster, arch, defines, "
              "tol, requires, nvrtc, include, cooperative)");
}

TEST(AnnotationWrite, WritesTheFileAndKeepsTheFirstOriginal) {
    Folder folder;
    const std::string first = std::string(kMatmul) + "\nint x;\n";
    const fs::path file = folder.write("k.cu", first);
    ASSERT_EQ(::chmod(file.c_str(), 0640), 0);
    const AnnotationEdit edit = edit_annotation(first, literal("tw", "32"));
    const fs::path orig = write_annotation_edit(file, first, edit);
    EXPECT_EQ(orig, folder.path() / "k.cu.orig");
    EXPECT_EQ(read(file), edit.text);
    EXPECT_EQ(read(orig), first);
    EXPECT_EQ(mode_of(file), 0640u);
    EXPECT_EQ(mode_of(orig), 0640u);

    // A second edit leaves the .orig as it was before the first.
    const AnnotationEdit again = edit_annotation(edit.text, literal("tw", "64"));
    EXPECT_EQ(write_annotation_edit(file, edit.text, again), orig);
    EXPECT_EQ(read(file), again.text);
    EXPECT_EQ(read(orig), first);
    EXPECT_EQ(mode_of(file), 0640u);
    // Nothing else is left in the folder (no temporary files).
    size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder.path())) ++entries;
    EXPECT_EQ(entries, 2u);
}

TEST(AnnotationWrite, AnExistingOrigIsNeverOverwritten) {
    Folder folder;
    const std::string bytes = "// kplay: block=16\n";
    const fs::path file = folder.write("k.cu", bytes);
    folder.write("k.cu.orig", "older\n");
    write_annotation_edit(file, bytes, edit_annotation(bytes, block({8})));
    EXPECT_EQ(read(folder.path() / "k.cu.orig"), "older\n");
    EXPECT_EQ(read(file), "// kplay: block=8\n");
    // Not even a dangling link named .orig is followed.
    const fs::path other = folder.write("o.cu", bytes);
    fs::create_symlink(folder.path() / "nowhere", folder.path() / "o.cu.orig");
    write_annotation_edit(other, bytes, edit_annotation(bytes, block({4})));
    EXPECT_FALSE(fs::exists(folder.path() / "nowhere"));
    EXPECT_EQ(read(other), "// kplay: block=4\n");
}

TEST(AnnotationWrite, ReadOnlyFileStaysReadOnly) {
    Folder folder;
    const std::string bytes = "// kplay: block=16\n";
    const fs::path file = folder.write("k.cu", bytes);
    ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
    write_annotation_edit(file, bytes, edit_annotation(bytes, block({8})));
    EXPECT_EQ(read(file), "// kplay: block=8\n");
    EXPECT_EQ(mode_of(file), 0444u);
}

TEST(AnnotationWrite, ALinkIsFollowed) {
    Folder folder;
    const std::string bytes = "// kplay: block=16\n";
    const fs::path target = folder.write("real.cu", bytes);
    const fs::path link = folder.path() / "link.cu";
    fs::create_symlink(target, link);
    const fs::path orig = write_annotation_edit(link, bytes, edit_annotation(bytes, block({8})));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(read(target), "// kplay: block=8\n");
    EXPECT_EQ(orig, folder.path() / "link.cu.orig");
    EXPECT_EQ(read(orig), bytes);
}

TEST(AnnotationWrite, RefusesAFileThatChanged) {
    Folder folder;
    const std::string bytes = "// kplay: block=16\n";
    const fs::path file = folder.write("k.cu", "// kplay: block=16\n// saved since\n");
    const AnnotationEdit edit = edit_annotation(bytes, block({8}));
    EXPECT_EQ(
        kplay::test::input_error_of([&] { write_annotation_edit(file, bytes, edit); }),
        file.string() + " changed since kplay read it; nothing was written. Reload it and apply the values again.");
    EXPECT_EQ(read(file), "// kplay: block=16\n// saved since\n");
    EXPECT_FALSE(fs::exists(folder.path() / "k.cu.orig"));
    size_t entries = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder.path())) ++entries;
    EXPECT_EQ(entries, 1u);
}

TEST(AnnotationWrite, MissingFile) {
    Folder folder;
    const fs::path file = folder.path() / "gone.cu";
    EXPECT_EQ(kplay::test::input_error_of([&] { write_annotation_edit(file, "x", AnnotationEdit{}); }),
              "cannot read " + file.string() +
                  " to write the values into it: No such file or directory; nothing was written");
    EXPECT_FALSE(fs::exists(folder.path() / "gone.cu.orig"));
}

// The file's folder refuses new files, whoever runs the test (root ignores a folder's permissions):
// a link to a file in /proc, where nothing can be created.
TEST(AnnotationWrite, AFolderThatTakesNoFilesLeavesTheFileUnchanged) {
    const std::string bytes = read("/proc/version");
    if (bytes.empty()) GTEST_SKIP() << "no /proc/version here";
    Folder folder;
    const fs::path link = folder.path() / "k.cu";
    fs::create_symlink("/proc/version", link);
    AnnotationEdit edit;
    edit.text = "new";
    const std::string message = kplay::test::input_error_of([&] { write_annotation_edit(link, bytes, edit); });
    const std::string start = "cannot write " + link.string() + ": ";
    const std::string end = "; the file is unchanged (a copy is at " + link.string() + ".orig)";
    EXPECT_EQ(message.substr(0, start.size()), start) << message;
    ASSERT_GT(message.size(), start.size() + end.size()) << message;
    EXPECT_EQ(message.substr(message.size() - end.size()), end) << message;
    EXPECT_EQ(read("/proc/version"), bytes);
}
