// A pool of workers as the user writes it (`--pool`): one member per entry, each a way to start
// workers (this machine's GPUs, an ssh host, Slurm, any command), parsed into values. Nothing is started
// here; worker_pool.hpp starts them.
//
//   local               every local GPU, a worker each pinned with CUDA_VISIBLE_DEVICES; without a GPU,
//                       one worker of the emulated CPU device
//   local:N             N workers sharing this machine's device (two workers on one GPU)
//   ssh:HOST            a worker over ssh, as `--remote HOST`: [user@]host[:port]
//   slurm[:PARTITION][ xN]
//                       N workers that Slurm places, one GPU each (`srun --gres=gpu:1 ...`): inside the
//                       user's allocation ($SLURM_JOB_ID) without a partition, else jobs of their own
//   cmd:COMMAND         a worker reached by any command, as `--remote-command COMMAND`
//
// Entries are separated by commas, or given as repeated flags. A `cmd:` entry takes the rest of its
// flag's text, commas included, so a command with a comma is the last entry of its flag (or has a flag
// of its own). The count of a Slurm entry follows a space (`slurm:gpu x4`): a partition's name may
// itself end in x and digits.
#pragma once

#include <string>
#include <vector>

namespace kplay {

enum class PoolMemberKind { local_gpus, local_shared, ssh, slurm, command };

struct PoolMember {
    PoolMemberKind kind = PoolMemberKind::local_gpus;
    std::string entry;      // as written (trimmed): messages name the member by it
    int count = 1;          // its workers: local:N, slurm xN (local: one per GPU, known once it starts)
    std::string host;       // ssh: [user@]host[:port]
    std::string partition;  // slurm: empty for the allocation's (inside one) or the cluster's default
    std::string command;    // cmd: run with /bin/sh -c
};

// The most workers one entry may ask for: a typo (`local:1000`) is refused, not obeyed.
inline constexpr int kMaxWorkersPerEntry = 64;

// Each text is one --pool value. Throws InputError naming the bad entry and what would be right.
std::vector<PoolMember> parse_pool(const std::vector<std::string>& texts);

}  // namespace kplay
