// Choosing and opening the device of a run.
#include "run/open_device.hpp"

#include "base/error.hpp"

namespace kplay {

namespace {

EmulationSettings emulation_settings(const RunRequest& request, const EngineConfig& config) {
    EmulationSettings settings;
    settings.emu_include_dir = config.emu_include_dir;
    settings.kernels_include_dir = config.kernels_include_dir;
    settings.cache_dir = config.cache_dir;
    settings.order = request.thread_order;
    settings.order_seed = request.order_seed;
    settings.workers = request.emulation_workers;
    settings.timeout_s = request.emulation_timeout_s;
    settings.thorough = request.emulation_thorough;
    settings.track = request.emulation_track && !request.emulation_thorough && !request.emulation_debug;  // a debug build is debugged as it is
    settings.who_wrote = request.who_wrote;
    settings.writer_map = request.writer_map;
    settings.symbol_check = request.emulation_symbol_check;
    settings.sandbox = request.emulation_sandbox;
    settings.debug = request.emulation_debug;
    return settings;
}

}  // namespace

Target choose_target(const RunRequest& request, const DeviceQuery& devices) {
    Target target;
    target.have_gpu = devices.problem().empty() && request.device < static_cast<int>(devices.devices.size());
    target.emulate = request.emulate || (!target.have_gpu && request.emulate_without_gpu);
    return target;
}

OpenedDevice open_device(const RunRequest& request, const KernelFile& file, const Target& target, const EngineServices& services) {
    OpenedDevice opened;
    if (target.emulate) {
        // NVRTC has judged the source by now (its diagnostics stand); running it needs a GPU.
        if (const std::string why = emulated_device_refusal(file.spec, request.kernel_path.filename().string()); !why.empty())
            throw InputError(why);
        opened.emulated = std::make_unique<EmulatedDevice>(emulation_settings(request, services.config));
        return opened;
    }
    if (!target.have_gpu) {
        const DeviceQuery& devices = services.devices;
        opened.problem = devices.problem().empty() ? "No CUDA device " + std::to_string(request.device) + " (the driver reports " +
                                                         std::to_string(devices.devices.size()) + ")."
                                                   : devices.problem();
        return opened;
    }
    opened.gpu = &services.gpu(request.device);
    if (opened.gpu->poisoned()) throw InputError("An earlier kernel fault left this process's CUDA context unusable; a new process is needed.");
    return opened;
}

}  // namespace kplay
