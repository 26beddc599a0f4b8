// kplay-cli's exit codes (documented in README.md and `kplay-cli --help`).
#pragma once

namespace kplay::cli {

enum ExitCode : int {
    kSuccess = 0,         // compiled; a run went through and its check passed
    kCompileError = 1,    // the kernel did not compile (diagnostics printed)
    kUsageError = 2,      // bad command line
    kInputError = 3,      // missing file, bad annotation, bad image or size, invalid launch configuration
    kNoDevice = 4,        // no CUDA driver or device: compiling works, running does not
    kCudaError = 5,       // a CUDA call or the kernel failed at run time
    kCheckFailed = 6,     // the kernel ran but its output does not match the reference
};

}  // namespace kplay::cli
