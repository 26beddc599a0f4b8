// cuda_fp8.h for a host reference: the software types the emulated device uses, so a reference rounds exactly as a kernel does.
#pragma once
#include "../kplay_fp8.h"
