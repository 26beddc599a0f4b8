// mma.h on the emulated device: tensor cores cannot be emulated here.
#pragma once
#error "WMMA / tensor cores (mma.h) are not supported on the emulated CPU device; run this kernel on a GPU"
