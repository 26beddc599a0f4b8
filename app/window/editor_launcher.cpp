// Detached editor start through /bin/sh (so $EDITOR may hold arguments, e.g. "code -g").
#include "editor_launcher.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cstdlib>
#include <vector>

extern char** environ;

namespace kplay::window {

namespace {
std::string shell_quote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}
}  // namespace

std::string open_in_editor(const std::string& path, int line) {
    const char* visual = std::getenv("VISUAL");
    const char* editor = visual && *visual ? visual : std::getenv("EDITOR");
    if (!editor || !*editor) return "";
    const std::string command = std::string(editor) + " +" + std::to_string(line) + " " + shell_quote(path) + " >/dev/null 2>&1 &";
    std::vector<char*> argv{const_cast<char*>("/bin/sh"), const_cast<char*>("-c"), const_cast<char*>(command.c_str()), nullptr};
    pid_t pid = 0;
    if (posix_spawn(&pid, "/bin/sh", nullptr, nullptr, argv.data(), environ) != 0) return "Could not start " + std::string(editor);
    waitpid(pid, nullptr, 0);  // the shell returns at once, leaving the editor running on its own
    return "Opened in " + std::string(editor);
}

}  // namespace kplay::window
