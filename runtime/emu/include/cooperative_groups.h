// cooperative_groups.h on the emulated device: grid-wide synchronisation cannot be emulated here.
#pragma once
#error "cooperative groups (grid sync) are not supported on the emulated CPU device; run this kernel on a GPU"
