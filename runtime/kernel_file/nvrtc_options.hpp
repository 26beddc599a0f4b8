// The NVRTC options a kernel file may ask for (`nvrtc=` in its annotation), checked before a compile.
//
// A file that needs an option nvcc users pass on the command line (CuTe's headers need
// `-default-device`; a tuned kernel `-use_fast_math` or `-maxrregcount=64`) names it in the file, so
// the file says how it builds. kplay passes on the options that change how device code is compiled,
// and refuses by name, with the reason, those that kplay sets itself (the target, the include path,
// defines: the annotation's own keys say them), that write files, or that make code kplay cannot load.
#pragma once

#include <string>
#include <vector>

namespace kplay {

// `value` is the annotation's text, options separated by ','. Returns them in NVRTC's spelling
// ("-default-device" -> "--device-as-default-execution-space"), in order. Throws InputError naming the
// option: "nvrtc=-arch=sm_80: the target is arch= in the annotation (kplay compiles for it)", or for an
// unknown one, "nvrtc=-foo: not an NVRTC option kplay passes on (it passes: ...)".
std::vector<std::string> parse_nvrtc_options(const std::string& value);

}  // namespace kplay
