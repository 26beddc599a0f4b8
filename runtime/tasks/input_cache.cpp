// Choosing sizes, loading or making the image, and keeping recent input sets.
#include "tasks/input_cache.hpp"

#include <algorithm>
#include "kernel_file/task_sizes.hpp"

#include <filesystem>

#include "base/content_hash.hpp"
#include "base/default_image.hpp"
#include "base/image_io.hpp"
#include "tasks/task_inputs.hpp"

namespace kplay {

namespace {

size_t bytes_of(const TaskData& data) {
    size_t bytes = 0;
    for (const auto& buffer : data.buffers) bytes += buffer.data.size();
    return bytes;
}

// An image file is identified by its path, size and modification time, so an edited image reloads.
std::string file_stamp(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    const auto time = std::filesystem::last_write_time(path, error);
    return path + "|" + std::to_string(size) + "|" + std::to_string(time.time_since_epoch().count());
}

// Everything of the declaration that decides the inputs or whether they can be made: zeros=ok too, so a
// declaration that drops it is refused again rather than handed the set its zeros=ok version was given.
std::string declaration_key(const TaskSpec& task) {
    ContentHasher key;
    key.add(task.name);
    for (const auto& buffer : task.buffers)
        key.add(buffer.name).add(spec_name(buffer.type)).add(buffer.length).add(buffer.init.text).add(std::to_string(buffer.seed.value_or(0)))
            .add(buffer.zeros_allowed ? "zeros=ok" : "");
    return key.hex();
}

}  // namespace

std::shared_ptr<const TaskData> InputCache::get(const TaskSpec& task, const InputRequest& request, bool cpu, bool bench) {
    const bool image_file = task.has_image_input() && !request.image_path.empty();
    std::string size_text = request.size;
    if (size_text.empty() && bench && !image_file) {
        const auto& sizes = cpu && !task.sizes.cpu_bench.empty() ? task.sizes.cpu_bench : task.sizes.gpu_bench;
        if (!sizes.empty()) size_text = size_values_text(sizes.front());
    }
    const std::string key = declaration_key(task) + "|" + (image_file ? file_stamp(request.image_path) : "") + "|" + size_text + "|" +
                            (cpu ? "cpu" : "gpu") + "|" + std::to_string(request.seed);
    // Found, it becomes the most recent: a save's further sizes must not push out the main size the next save needs.
    if (const auto* found = entries_.find(key)) return *found;

    PlanarImage image;
    std::string description;
    if (image_file) {
        image = load_image(request.image_path);
        description = request.image_path;
        if (!size_text.empty()) {
            // A photo at the size asked for: scaled (a bench several times the L2 on a natural image).
            const NamedValues values = size_values(task, parse_size_values(task, size_text));
            if (values.count("w") && values.count("h")) {
                const int width = static_cast<int>(values.at("w")), height = static_cast<int>(values.at("h"));
                if (width != image.width || height != image.height) {
                    description += " scaled from " + std::to_string(image.width) + "x" + std::to_string(image.height);
                    image = resize_image(image, width, height);
                }
            }
        }
    }
    const std::vector<int64_t> sizes = choose_sizes(task, size_text, cpu, image_file ? &image : nullptr);
    if (task.has_image_input() && !image_file) {
        const NamedValues values = size_values(task, sizes);
        image = make_default_image(static_cast<int>(values.at("w")), static_cast<int>(values.at("h")));
        description = "built-in image";
    }
    auto data = std::make_shared<const TaskData>(
        make_task_inputs(task, sizes, request.seed, task.has_image_input() ? &image : nullptr, description));
    entries_.put(key, data, bytes_of(*data));
    return data;
}

}  // namespace kplay
