// Spawning a local kplay-worker on a socketpair, and what its socket closing means.
#include "client/local_link.hpp"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

extern char** environ;

namespace kplay {

bool LocalLink::start(std::string& why) {
    int pair[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) != 0) {
        why = std::string("cannot create the worker's socket: ") + std::strerror(errno);
        return false;
    }
    UniqueFd ours(pair[0]), theirs(pair[1]);
    // The worker gets its end as fd 3 and writes anything it prints (device printf) to stderr, so the
    // CLI's stdout stays clean for JSON.
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, theirs.get(), 3);
    posix_spawn_file_actions_adddup2(&actions, 2, 1);
    std::vector<std::string> args{options_.worker_path.string(), "--fd", "3"};
    if (options_.thorough) args.push_back("--thorough");
    args.insert(args.end(), options_.worker_args.begin(), options_.worker_args.end());
    std::vector<char*> argv = argv_of(args);
    // The extra variables replace the inherited ones of the same name: getenv finds the first entry, so
    // an inherited XDG_CACHE_HOME listed before an extra one would win.
    std::vector<std::string> extra = options_.extra_environment;
    auto overridden = [&](const char* entry) {
        const std::string_view text(entry);
        const std::string_view name = text.substr(0, text.find('='));
        for (const std::string& e : extra)
            if (std::string_view(e).substr(0, e.find('=')) == name) return true;
        return false;
    };
    std::vector<char*> environment;
    for (char** entry = environ; *entry; ++entry)
        if (!overridden(*entry)) environment.push_back(*entry);
    for (auto& entry : extra) environment.push_back(entry.data());
    environment.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, args[0].c_str(), &actions, nullptr, argv.data(), environment.data());
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        why = "cannot start " + args[0] + ": " + std::strerror(spawned);
        return false;
    }
    fcntl(ours.get(), F_SETFL, fcntl(ours.get(), F_GETFL) | O_NONBLOCK);
    socket_ = std::move(ours);
    reader_ = FrameReader();
    process_ = ChildProcess(pid, false);
    return true;
}

void LocalLink::stop(bool kill_now) {
    if (!process_.running()) return;
    socket_.reset();  // a healthy worker exits when its socket closes
    if (!kill_now && process_.ends_within(50)) return;
    process_.kill();
    process_.wait();
}

void LocalLink::send(const WorkerRequest& request, const WorkerOptions&) { send_frame(socket_.get(), request.message); }

bool LocalLink::wait_for_input(int timeout_ms) {
    if (!socket_) return false;
    pollfd watch{socket_.get(), POLLIN, 0};
    ::poll(&watch, 1, timeout_ms);
    return true;
}

LinkEnding LocalLink::closed(const std::string& doing) {
    std::string how = "the worker was not running";
    if (process_.running()) {
        const std::optional<int> status = process_.wait();
        how = !status ? "the worker's exit status is unknown" : exit_description(*status, "the worker");
        if (how.empty()) how = "the worker stopped";
    }
    socket_.reset();
    return {WorkerFailure::crashed,
            "kplay-worker died while " + doing + ": " + how + ". It will be restarted for the next request."};
}

std::string LocalLink::broken_answer(const std::string& doing, const std::string& what) const {
    return "kplay-worker sent a broken answer while " + doing + " (" + what + "); it was restarted.";
}

}  // namespace kplay
