// cooperative_groups/reduce.h for a host reference: the emulated device's, as cooperative_groups.h.
#pragma once
#include "../../cooperative_groups.h"
