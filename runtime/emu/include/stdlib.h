// stdlib.h on the emulated device: its CUDA parts come from kplay_emu_prelude.h (given with -include);
// the C library itself is not available to a kernel.
#pragma once
