// libFuzzer target: decoding a PNG or JPEG the way the worker does (base/image_io.hpp decode_image),
// then scaling it as a run that asks for another size would. InputError is the documented failure.
#include <cstddef>
#include <cstdint>
#include <string>

#include "base/error.hpp"
#include "base/image_io.hpp"

// Decoding a large image faithfully is seconds of work under the sanitizers, not a finding: the target
// refuses images over 4 million pixels as decode_image refuses those over kMaxImagePixels.
constexpr int64_t kMaxFuzzedPixels = 1 << 22;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    try {
        const kplay::PlanarImage image = kplay::decode_image(bytes, "fuzz.png", kMaxFuzzedPixels);
        if (image.planes.size() != 3 * image.pixels()) __builtin_trap();
        if (image.pixels() <= 64 * 64) (void)kplay::resize_image(image, 7, 5);
    } catch (const kplay::InputError&) {
    }
    return 0;
}
