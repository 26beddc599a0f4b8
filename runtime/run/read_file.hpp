// The first stages of a run: the kernel file's text (Stage::source), then its spec (Stage::spec): the
// annotation and task with the request's defines and input overrides, and the text the host reference
// is built from.
#pragma once

#include <string>

#include "values/run_request.hpp"
#include "kernel_file/kernel_spec.hpp"

namespace kplay {

struct KernelFile {
    std::string source;            // what the kernels are built from: the file with its host code blanked
    std::string reference_source;  // `source` with the host reference's headers expanded
    KernelSpec spec;
};

// The request's text, else the file's. Throws InputError.
std::string read_source(const RunRequest& request);

// Throws InputError (a spec the file's lines do not make).
KernelFile read_kernel_file(const RunRequest& request, std::string source);

}  // namespace kplay
