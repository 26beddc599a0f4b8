// Dispatching to a task's reference, and keeping what it computed.
#include "reference/references.hpp"

#include <cctype>

#include "base/content_hash.hpp"
#include "base/text.hpp"
#include "kernel_file/source_scan.hpp"
#include "reference/builtin_references.hpp"
#include "reference/reference_source.hpp"

namespace kplay {

namespace {

// The code a host reference's outputs can depend on: its file without comments and without the bodies
// of kernels and device-only functions (a reference cannot call them), its spacing ignored. An edit of
// a kernel, the live loop's usual save, then finds the reference of the same inputs again.
std::string host_reference_code(const std::string& source) {
    const std::string code = blank_device_bodies(blank_comments_and_strings(source, false), blank_comments_and_strings(source));
    std::string collapsed;
    collapsed.reserve(code.size());
    for (const char c : code) {
        const bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
        if (!space) collapsed += c;
        else if (!collapsed.empty() && collapsed.back() != ' ') collapsed += ' ';
    }
    return collapsed;
}

// What identifies a reference's outputs, besides the inputs: which reference, and the code it runs.
std::string reference_key(const ReferenceContext& context) {
    const ReferenceSpec& reference = context.spec->task.reference;
    ContentHasher key;
    key.add(spec_name(reference.kind)).add(spec_name(reference.builtin));
    if (reference.kind != ReferenceKind::builtin) {
        key.add(reference.kind == ReferenceKind::host ? host_reference_code(*context.source) : *context.source);
        key.add(reference.function).add(reference.file).add(reference.kernel);
        for (const auto& [name, value] : context.spec->defines) key.add(name).add(value);
        if (reference.kind == ReferenceKind::kernel) key.add(kernel_reference_code(context));
    }
    return key.hex();
}

std::string describe(const ReferenceSpec& reference) {
    switch (reference.kind) {
        case ReferenceKind::builtin: return "kplay's built-in reference";
        case ReferenceKind::host: return "host function " + reference.function + " (sandboxed)";
        case ReferenceKind::kernel: return "trusted kernel " + reference.kernel + " in " + reference.file + " (emulated CPU device)";
    }
    return "reference";
}

}  // namespace

ReferenceResult References::expected(const ReferenceContext& context, const TaskData& data, const ReferenceProgress& progress) {
    const ReferenceSpec& reference = context.spec->task.reference;
    ReferenceResult result;
    result.description = describe(reference);
    const std::string key = reference_key(context) + "|" + data.identity;
    const auto compute = [&] {
        switch (reference.kind) {
            case ReferenceKind::builtin: return builtin_reference(reference.builtin, context.spec->task, data, progress);
            case ReferenceKind::host: return run_host_reference(context, data, progress);
            case ReferenceKind::kernel: return run_kernel_reference(context, data);
        }
        throw ReferenceError("Unknown kind of reference.");
    };
    const auto lookup = cache_.get(key, [&] {
        ExpectedOutputs expected = compute();
        expected.key = key;
        return expected;
    });
    result.expected = lookup.reference;
    result.ms = lookup.compute_ms;
    result.cached = lookup.cached;
    return result;
}

}  // namespace kplay
