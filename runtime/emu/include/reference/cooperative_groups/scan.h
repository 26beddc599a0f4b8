// cooperative_groups/scan.h for a host reference: the emulated device's, as cooperative_groups.h.
#pragma once
#include "../../cooperative_groups.h"
