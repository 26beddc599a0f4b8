// cooperative_groups.h for a host reference: the names a kernel file may mention outside a kernel's
// body (`namespace cg = cooperative_groups;`, a helper taking `cg::thread_block&`), declared only.
#pragma once
namespace cooperative_groups {
class thread_block;
class grid_group;
template <unsigned Size, class Parent = void> class thread_block_tile;
}  // namespace cooperative_groups
