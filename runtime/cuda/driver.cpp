// Loads libcuda.so.1 with dlopen and resolves the function table through cuGetProcAddress.
#include "cuda/driver.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

#include "base/error.hpp"

namespace kplay {

namespace {

struct LoadedDriver {
    DriverStatus status;
    DriverApi api;
};

LoadedDriver load() {
    LoadedDriver loaded;
    DriverStatus& status = loaded.status;
    const char* override_path = std::getenv("KPLAY_CUDA_DRIVER");
    const char* path = (override_path && *override_path) ? override_path : "libcuda.so.1";

    // The handle is kept for the life of the process: function pointers into it are handed out freely.
    void* library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        status.state = DriverStatus::State::no_library;
        const char* why = dlerror();
        status.message = std::string("No CUDA driver: could not load ") + path + (why ? std::string(" (") + why + ")" : "") +
                         ". Compiling still works, and kernels run on the emulated CPU device; a GPU needs an NVIDIA driver.";
        return loaded;
    }
    // cuGetProcAddress_v2 (CUDA 12.0+) is the one symbol looked up by name; everything else goes through it.
    auto get_proc = reinterpret_cast<PFN_cuGetProcAddress_v12000>(dlsym(library, "cuGetProcAddress_v2"));
    if (!get_proc) {
        status.state = DriverStatus::State::too_old;
        status.message = "The CUDA driver is too old: it lacks cuGetProcAddress_v2 (CUDA 12.0 or newer is required).";
        return loaded;
    }
    std::string missing;
#define KPLAY_RESOLVE_DRIVER_POINTER(name, version)                                                              \
    {                                                                                                            \
        void* pointer = nullptr;                                                                                 \
        CUdriverProcAddressQueryResult found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;                             \
        if (get_proc(#name, &pointer, version, CU_GET_PROC_ADDRESS_DEFAULT, &found) == CUDA_SUCCESS &&           \
            found == CU_GET_PROC_ADDRESS_SUCCESS && pointer) {                                                   \
            loaded.api.name = reinterpret_cast<PFN_##name##_v##version>(pointer);                                \
        } else {                                                                                                 \
            missing += (missing.empty() ? "" : ", ") + std::string(#name) + " (ABI " + std::to_string(version) + ")"; \
        }                                                                                                        \
    }
    KPLAY_DRIVER_FUNCTIONS(KPLAY_RESOLVE_DRIVER_POINTER)
#undef KPLAY_RESOLVE_DRIVER_POINTER
    if (loaded.api.cuDriverGetVersion) loaded.api.cuDriverGetVersion(&status.driver_version);
    if (!missing.empty()) {
        status.state = DriverStatus::State::missing_symbol;
        status.message = "The CUDA driver (" + cuda_version_string(status.driver_version) +
                         ") lacks functions kplay needs: " + missing + ". Please update the NVIDIA driver.";
        return loaded;
    }
    const CUresult init = loaded.api.cuInit(0);
    if (init != CUDA_SUCCESS) {
        status.state = DriverStatus::State::init_failed;
        const char* name = nullptr;
        loaded.api.cuGetErrorName(init, &name);
        status.message = std::string("The CUDA driver ") + cuda_version_string(status.driver_version) +
                         " is installed but cuInit failed with " + (name ? name : "an unknown error") +
                         (init == CUDA_ERROR_NO_DEVICE ? ": no CUDA device is visible." : ".");
        return loaded;
    }
    status.state = DriverStatus::State::ready;
    return loaded;
}

const LoadedDriver& loaded_driver() {
    static const LoadedDriver driver = load();  // thread-safe one-time initialisation
    return driver;
}

}  // namespace

const DriverStatus& driver_status() { return loaded_driver().status; }

const DriverApi& driver_api() {
    const LoadedDriver& driver = loaded_driver();
    if (!driver.status.ready()) throw InputError(driver.status.message);
    return driver.api;
}

std::string cuda_result_name(int result) {
    const LoadedDriver& driver = loaded_driver();
    const char* name = nullptr;
    if (driver.api.cuGetErrorName && driver.api.cuGetErrorName(static_cast<CUresult>(result), &name) == CUDA_SUCCESS &&
        name)
        return name;
    return "CUDA_ERROR_" + std::to_string(result);
}

std::string cuda_result_description(int result) {
    const LoadedDriver& driver = loaded_driver();
    const char* text = nullptr;
    if (driver.api.cuGetErrorString &&
        driver.api.cuGetErrorString(static_cast<CUresult>(result), &text) == CUDA_SUCCESS && text)
        return text;
    return "CUDA error " + std::to_string(result);
}

}  // namespace kplay
