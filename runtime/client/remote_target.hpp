// Where a remote worker runs and the local command that reaches it: the system's ssh to
// [user@]host[:port] with kplay's options, or any command whose stdin and stdout carry the protocol.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace kplay {

struct RemoteTarget {
    std::string label;              // "gpu-box": how messages and the window name the remote side
    std::vector<std::string> argv;  // the local command that starts `kplay-worker --stdio` over there
    bool via_ssh = false;
    std::string destination;  // ssh: "user@host" or "host"
    int port = 0;             // ssh: 0 = ssh's default (or the user's ssh config)
    // A command to try in a terminal when the connection fails (it can answer prompts; kplay cannot).
    std::string try_command;
};

// kplay-worker's path on the host: $KPLAY_REMOTE_WORKER, else where `kplay-cli remote-install` puts it
// (relative to the remote home folder, where ssh starts).
std::string remote_worker_path();

// `ssh -T -o BatchMode=yes -o ControlMaster=auto ... host -- kplay-worker --stdio`. The ssh program and
// any options of the user's come from $KPLAY_SSH_COMMAND (like GIT_SSH_COMMAND), else "ssh"; the
// user's ssh config and agent apply as in a terminal. Throws InputError for a malformed destination.
RemoteTarget ssh_target(std::string_view destination, const std::string& worker = remote_worker_path());

// Throws ssh_target's InputError for a malformed destination, and does nothing else (a pool's entries are
// checked before any is started).
void check_ssh_destination(std::string_view destination);

// Any command (run with /bin/sh -c) whose stdin and stdout carry the protocol: `gcloud compute ssh ...
// -- kplay-worker --stdio`, `kubectl exec ...`, or a local `kplay-worker --stdio` in tests.
RemoteTarget command_target(std::string_view command);

// The ssh command line (argv without the remote command) for other uses of the same connection:
// remote-install's copies and checks. Empty for a command target.
std::vector<std::string> ssh_prefix(const RemoteTarget& target);

// The last non-empty line of what ssh and the remote shell printed (their latest complaint).
std::string last_message_line(std::string_view text);

// What to tell the user when the connection ended before the remote worker said hello: the cause,
// read from ssh's and the remote shell's messages (`stderr_tail`) and the exit status, and what to try.
std::string connection_failure_message(const RemoteTarget& target, const std::string& how_it_ended, int exit_status,
                                       std::string_view stderr_tail);

}  // namespace kplay
