// Must not compile: a file of the device library including the engine's header (the floor above the
// reference, which is above the device). tests/CMakeLists.txt builds it as a test that passes only
// when the build fails.
#include "run/engine.hpp"
