// grayscale and matmul, declared as data like any user's task; only their references are kplay's code.
#include "kernel_file/builtin_tasks.hpp"

#include "base/text.hpp"

namespace kplay {

namespace {

// Planar 3xHxW uint8 RGB in, HxW uint8 gray out, the seed's formula in double, truncated; +-1 level.
TaskSpec grayscale_task() {
    TaskSpec task;
    task.name = "grayscale";
    task.summary = "RGB (planar 3xHxW uint8) to gray (HxW uint8)";
    task.builtin = true;
    task.sizes.names = {"w", "h"};
    task.sizes.gpu_default = {1280, 800};  // the built-in image's size
    task.sizes.cpu_default = {1280, 800};
    // One pixel; a size that is no multiple of any block or vector width; a million odd pixels.
    task.sizes.test = {{1, 1}, {37, 23}, {1001, 999}};
    task.sizes.gpu_bench = {{7680, 4320}};
    task.sizes.cpu_bench = {{1920, 1080}};
    task.sizes.derived = {{"n", "w*h"}};
    BufferSpec in;
    in.name = "in";
    in.type = ElementType::u8;
    in.length = "3*n";
    in.role = BufferRole::in;
    in.init = {InitKind::image, {}, ImageLayout::planar, "image(planar)"};
    BufferSpec out;
    out.name = "out";
    out.type = ElementType::u8;
    out.length = "n";
    out.shape = {"h", "w"};
    out.role = BufferRole::out;
    out.check = {CheckKind::tolerance, "1", "", "", "", "abs:1"};
    task.buffers = {in, out};
    task.cost = {"4*n", "5*n", CeilingKind::copy, {}};
    task.reference.kind = ReferenceKind::builtin;
    task.reference.builtin = BuiltinReference::grayscale_seed;
    task.presentation = {OutputKind::image, RateUnit::bytes, CoverageKind::per_element};
    task.extent_1d = "n";
    task.extent_2d = {"w", "h"};
    task.canonical = {{3, {"in", "out", "n"}, 1}, {4, {"in", "out", "w", "h"}, 2}};
    return task;
}

// fp32 row-major C(MxN) = A(MxK) * B(KxN) against an fp64 OpenBLAS reference. Element (i,j) passes when
// |C-R| <= 2 u sqrt(K) (|A||B|)ij with u = 2^-24: rounding error of any reasonable summation order,
// with room; a wrong index, a missed tile, a race or TF32 rounding fails.
TaskSpec matmul_task() {
    TaskSpec task;
    task.name = "matmul";
    task.summary = "fp32 C = A*B, row-major, against an fp64 reference";
    task.builtin = true;
    task.sizes.names = {"M", "N", "K"};
    task.sizes.gpu_default = {1024, 1024, 1024};
    task.sizes.cpu_default = {512, 512, 512};  // about a second on a CPU
    task.sizes.test = {{1, 1, 1}, {33, 17, 29}, {127, 65, 33}};
    task.sizes.gpu_bench = {{4096, 4096, 4096}};
    task.sizes.cpu_bench = {{512, 512, 512}};
    auto matrix = [](const char* name, const char* rows, const char* cols, BufferRole role) {
        BufferSpec buffer;
        buffer.name = name;
        buffer.type = ElementType::f32;
        buffer.length = std::string(rows) + "*" + cols;
        buffer.shape = {rows, cols};
        buffer.role = role;
        if (role == BufferRole::in) buffer.init = {InitKind::normal, {"0", "1"}, ImageLayout::planar, "normal(0,1)"};
        else buffer.check = {CheckKind::bound, "", "", "", "2", "bound:2"};
        return buffer;
    };
    task.buffers = {matrix("a", "M", "K", BufferRole::in), matrix("b", "K", "N", BufferRole::in), matrix("c", "M", "N", BufferRole::out)};
    task.cost = {"4*(M*K+K*N+M*N)", "2*M*N*K", CeilingKind::cublas, {"a", "b", "c", "M", "N", "K"}};
    task.reference.kind = ReferenceKind::builtin;
    task.reference.builtin = BuiltinReference::matmul_fp64;
    task.presentation = {OutputKind::matrix, RateUnit::flops, CoverageKind::per_thread_work};
    task.extent_1d = "M*N";
    task.extent_2d = {"N", "M"};  // x runs along columns, y along rows
    task.canonical = {{6, {"a", "b", "c", "M", "N", "K"}, 2}};
    return task;
}

}  // namespace

std::vector<const TaskSpec*> builtin_tasks() {
    static const TaskSpec grayscale = grayscale_task();
    static const TaskSpec matmul = matmul_task();
    return {&grayscale, &matmul};
}

const TaskSpec* find_builtin_task(std::string_view name) {
    for (const TaskSpec* task : builtin_tasks())
        if (task->name == name) return task;
    return nullptr;
}

std::string builtin_task_names() {
    std::vector<std::string> names;
    for (const TaskSpec* task : builtin_tasks()) names.push_back(task->name);
    return join(names);
}

}  // namespace kplay
