// A task declared in its kernel file, next to the `// kplay:` annotation:
//
//   // kplay-task: name=softmax reference=host view=series
//   // kplay-sizes: R,C default=4096x1024 cpu=256x1024 test=1x1,3x1000,33x1000 bench=8192x8192
//   // kplay-buffer: x f32[R*C] in init=normal(0,1)
//   // kplay-buffer: y f32[R*C] out shape=R,C check=rel:1e-5,abs:1e-7
//   // kplay-cost: bytes=8*R*C flops=5*R*C ceiling=copy
//
// kplay-task (optional): name=, reference=host | host:FUNCTION | FILE.cu:KERNEL, view=image | matrix |
//   series | scalar, rate=bytes | flops, extent=X[,Y], coverage=per-element | per-thread, summary=TEXT.
// kplay-sizes: the size names, then default= (required), cpu=, test=, bench=, cpu-bench=; each a list of
//   AxB tuples, one value per name.
// kplay-buffer: NAME TYPE[LENGTH] ROLE, then init= (inputs), seed=, shape=ROWS,COLS, check= (outputs):
//   exact | none | abs:X | rel:X | rel:X,abs:Y | ulp:N, where X may be an expression over the sizes.
// kplay-cost (optional): bytes=, flops= (real expressions), ceiling=copy | read-only | cublas | none,
//   gemm=a,b,c,M,N,K (what cuBLAS is given, with ceiling=cublas).
// A value may hold spaces inside parentheses: init=normal(0, 1).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kernel_file/task_spec.hpp"

namespace kplay {

// The task the file declares, or nullopt when it has no kplay-sizes/-buffer/-cost/-task line.
// `notes` receives what was filled in by default (a default check, the cost), for the user.
// Throws InputError "FILE:LINE: ..." naming the mistake and what to write instead.
std::optional<TaskSpec> parse_task_declaration(std::string_view source, const std::filesystem::path& path,
                                               std::vector<std::string>* notes = nullptr);

// Replaces an input's init for one run (`kplay-cli run --init pixels=randint(0,255)`: a histogram on
// uniform bytes instead of its image), checked as the declaration's own would be. Throws InputError
// naming the buffer when it is not an input or the init does not fit it.
void override_input_init(TaskSpec& task, const std::string& buffer, const std::string& init);

}  // namespace kplay
