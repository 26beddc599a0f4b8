// cooperative_groups/reduce.h on the emulated device: in kplay's cooperative_groups.h, with the rest of the namespace.
#pragma once
#include "../cooperative_groups.h"
