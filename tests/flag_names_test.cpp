// Every flag a message names exists: each `--name` in a string literal of runtime/ and app/ is a flag
// the programs declare (kplay, kplay-cli, kplay-worker), or one of another tool's that kplay runs
// (ncu, compute-sanitizer, NVRTC, gdb, Slurm's commands). A message that sends a user to `--emulate`
// when the flag is `--device cpu` fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <string>

#include "test_support.hpp"

namespace {

namespace fs = std::filesystem;

const std::map<std::string, std::set<std::string>> kOtherToolsFlags = {
    {"ncu (inspect/profiler)",
     {"--page", "--kernel-name", "--kernel-name-base", "--target-processes", "--section", "--metrics", "--log-file",
      "--launch-count", "--csv", "--clock-control", "--export", "--import", "--print-source", "--force-overwrite"}},
    {"compute-sanitizer (inspect/fault_finder)",
     {"--tool", "--show-backtrace", "--report-api-errors", "--print-limit", "--racecheck-report", "--initcheck-address-space"}},
    {"NVRTC (compile/nvrtc_compiler)", {"--gpu-architecture", "--ptxas-options", "--pre-include"}},
    {"gdb and its MI commands (session/gdb_process, session/debug_session)", {"--interpreter", "--nx", "--quiet", "--args", "--no-values"}},
    {"srun, squeue and scancel (client/slurm_target)",
     {"--partition", "--jobid", "--exact", "--nodes", "--ntasks", "--gres", "--quiet", "--unbuffered", "--job-name", "--noheader",
      "--format", "--name", "--user", "--jobs"}},
};

// Files whose string literals are another tool's whole option table: the NVRTC options an annotation's
// nvrtc= may pass on or is refused.
const std::set<std::string> kOptionTables = {"runtime/kernel_file/nvrtc_options.cpp"};

std::vector<fs::path> sources(const fs::path& root) {
    std::vector<fs::path> files;
    for (const char* folder : {"runtime", "app"})
        for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
            const std::string ext = entry.path().extension().string();
            if (entry.is_regular_file() && (ext == ".cpp" || ext == ".hpp")) files.push_back(entry.path());
        }
    return files;
}

// The string literals of a C++ file's code (escaped quotes kept inside; raw strings are not used for
// messages); comment lines are left out, since they quote other tools' options when they explain.
std::vector<std::string> literals(const std::string& source) {
    std::string text;
    for (size_t at = 0; at < source.size();) {
        const size_t end = std::min(source.find('\n', at), source.size());
        const std::string line = source.substr(at, end - at);
        const size_t first = line.find_first_not_of(" \t");
        if (first == std::string::npos || line.compare(first, 2, "//") != 0) text += line + "\n";
        at = end + 1;
    }
    std::vector<std::string> found;
    static const std::regex literal(R"re("((?:[^"\\\n]|\\.)*)")re");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), literal); it != std::sregex_iterator(); ++it)
        found.push_back((*it)[1].str());
    return found;
}

}  // namespace

TEST(FlagNames, EveryFlagAMessageNamesExists) {
    const fs::path root = kplay::test::kernels_dir().parent_path();
    std::set<std::string> declared = {"--help", "--version"};  // CLI11's, and kplay-worker's own --version
    static const std::regex declaration(R"re(add_(?:flag|option)\("([^"]+)")re");
    static const std::regex flag(R"(--[a-z][a-z0-9-]*)");
    for (const fs::path& file : sources(root)) {
        const std::string text = kplay::test::read_file(file);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), declaration); it != std::sregex_iterator(); ++it) {
            const std::string names = (*it)[1].str();  // "-D,--define"
            for (auto f = std::sregex_iterator(names.begin(), names.end(), flag); f != std::sregex_iterator(); ++f) declared.insert(f->str());
        }
        // kplay-worker reads its few flags by hand: a literal that is one flag alone.
        if (file.parent_path().filename() == "worker")
            for (const std::string& literal : literals(text))
                if (std::regex_match(literal, flag)) declared.insert(literal);
    }
    ASSERT_TRUE(declared.count("--device") && declared.count("--remote") && declared.count("--stdio")) << "the scan found the programs' flags";

    std::set<std::string> others;
    for (const auto& [tool, flags] : kOtherToolsFlags) others.insert(flags.begin(), flags.end());
    for (const fs::path& file : sources(root)) {
        if (kOptionTables.count(fs::relative(file, root).string())) continue;
        for (const std::string& literal : literals(kplay::test::read_file(file))) {
            for (auto f = std::sregex_iterator(literal.begin(), literal.end(), flag); f != std::sregex_iterator(); ++f) {
                const std::string name = f->str();
                EXPECT_TRUE(declared.count(name) || others.count(name))
                    << fs::relative(file, root).string() << " names " << name << ", which no kplay program has: \"" << literal << "\"";
            }
        }
    }
}
