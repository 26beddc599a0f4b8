// Building the ssh command for a remote worker, and reading why a connection failed.
#include "client/remote_target.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>

#include "base/cache_dir.hpp"
#include "base/error.hpp"

namespace kplay {

namespace {

std::vector<std::string> split_words(std::string_view text) {
    std::vector<std::string> words;
    std::istringstream in{std::string(text)};
    for (std::string word; in >> word;) words.push_back(word);
    return words;
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace

std::string last_message_line(std::string_view text) {
    std::string line;
    std::istringstream in{std::string(text)};
    for (std::string each; std::getline(in, each);)
        if (each.find_first_not_of(" \t\r") != std::string::npos) line = each;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    return line;
}

std::string remote_worker_path() {
    if (const char* env = std::getenv("KPLAY_REMOTE_WORKER"); env && *env) return env;
    return ".kplay/bin/kplay-worker";
}

namespace {

// The destination's host, user and port, checked (InputError) without touching anything.
RemoteTarget parsed_destination(std::string_view destination) {
    RemoteTarget target;
    std::string host(destination);
    if (host.empty() || host.front() == '-' || host.find_first_of(" \t\n'\"`$;&|<>") != std::string::npos)
        throw InputError("'" + host + "' is not an ssh destination: use [user@]host[:port]");
    // host:port, but not an IPv6 address in brackets' inside ([::1]:2222 is handled, ::1 alone is a host).
    if (const auto colon = host.rfind(':'); colon != std::string::npos && host.find(':') == colon) {
        const std::string port = host.substr(colon + 1);
        char* end = nullptr;
        const long value = std::strtol(port.c_str(), &end, 10);
        if (port.empty() || *end || value < 1 || value > 65535)
            throw InputError("'" + std::string(destination) + "': the port must be a number from 1 to 65535");
        target.port = static_cast<int>(value);
        host.resize(colon);
    }
    if (host.size() > 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    const auto at = host.rfind('@');
    if (host.empty() || at == host.size() - 1) throw InputError("'" + std::string(destination) + "' names no host");
    target.destination = host;
    target.label = at == std::string::npos ? host : host.substr(at + 1);
    target.via_ssh = true;
    return target;
}

}  // namespace

void check_ssh_destination(std::string_view destination) { (void)parsed_destination(destination); }

RemoteTarget ssh_target(std::string_view destination, const std::string& worker) {
    RemoteTarget target = parsed_destination(destination);
    target.argv = ssh_prefix(target);
    target.argv.push_back("--");
    target.argv.push_back(worker);
    target.argv.push_back("--stdio");
    std::string try_command = "ssh";
    if (target.port) try_command += " -p " + std::to_string(target.port);
    target.try_command = try_command + " " + target.destination + " " + worker + " --version";
    return target;
}

std::vector<std::string> ssh_prefix(const RemoteTarget& target) {
    if (!target.via_ssh) return {};
    const char* env = std::getenv("KPLAY_SSH_COMMAND");
    std::vector<std::string> argv = split_words(env && *env ? env : "ssh");
    // The folder for ssh's shared connections: a reused connection starts in a tenth of the time. A Unix
    // socket's path holds at most 107 bytes and ssh adds "/%C" (41) and ".<16 random>" (17) while it sets
    // the master up, so a cache folder deeper than 48 bytes gives way to a private one in /tmp.
    std::string control = (default_cache_dir() / "ssh").string();
    if (control.size() > 48) control = "/tmp/kplay-ssh-" + std::to_string(getuid());
    std::error_code ignored;
    std::filesystem::create_directories(control, ignored);
    std::filesystem::permissions(control, std::filesystem::perms::owner_all, ignored);
    for (const char* option : {"-T", "-o", "BatchMode=yes", "-o", "ControlMaster=auto", "-o", "ControlPersist=300", "-o",
                               "ServerAliveInterval=5", "-o", "ServerAliveCountMax=3"})
        argv.push_back(option);
    argv.push_back("-o");
    argv.push_back("ControlPath=" + control + "/%C");
    if (target.port) {
        argv.push_back("-p");
        argv.push_back(std::to_string(target.port));
    }
    argv.push_back(target.destination);
    return argv;
}

RemoteTarget command_target(std::string_view command) {
    const std::vector<std::string> words = split_words(command);
    if (words.empty()) throw InputError("--remote-command is empty: give the command that starts kplay-worker --stdio");
    RemoteTarget target;
    target.label = words.front().substr(words.front().rfind('/') + 1);
    target.argv = {"/bin/sh", "-c", std::string(command)};
    target.try_command = std::string(command);
    return target;
}

std::string connection_failure_message(const RemoteTarget& target, const std::string& how_it_ended, int exit_status,
                                       std::string_view stderr_tail) {
    const std::string said = last_message_line(stderr_tail);
    std::string cause;
    if (contains(stderr_tail, "Host key verification failed") || contains(stderr_tail, "REMOTE HOST IDENTIFICATION HAS CHANGED"))
        cause = "ssh does not know " + target.label + "'s host key (or it changed), and kplay cannot answer ssh's question";
    else if (contains(stderr_tail, "Permission denied"))
        cause = "ssh could not log in to " + target.label + " (" + said + "); kplay uses your ssh keys and agent, never a password";
    else if (contains(stderr_tail, "Connection refused"))
        cause = "nothing answers ssh on " + target.label + " (" + said + ")";
    else if (contains(stderr_tail, "Could not resolve hostname"))
        cause = "there is no host called " + target.label + " (" + said + ")";
    else if (contains(stderr_tail, "timed out"))
        cause = target.label + " did not answer (" + said + ")";
    else if (exit_status == 255 && target.via_ssh)
        cause = "ssh could not reach " + target.label + (said.empty() ? "" : " (" + said + ")");
    else if (exit_status == 127 || contains(stderr_tail, "kplay-worker: No such file") || contains(stderr_tail, "kplay-worker: not found"))
        cause = "kplay-worker is not installed on " + target.label + (said.empty() ? "" : " (" + said + ")") +
                (target.via_ssh ? "; install it with: kplay-cli remote-install " + target.destination +
                                      (target.port ? ":" + std::to_string(target.port) : "")
                                : "");
    else if (exit_status == 126)
        cause = "kplay-worker on " + target.label + " cannot be run (" + said + ")";
    else
        cause = "the connection to " + target.label + " ended before kplay-worker answered: " + how_it_ended +
                (said.empty() ? "" : " (" + said + ")");
    return cause + ". Try it in a terminal: " + target.try_command;
}

}  // namespace kplay
