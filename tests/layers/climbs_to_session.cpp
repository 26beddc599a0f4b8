// Must not compile: a file of the plan library (a low floor) including the session's header (a high
// one). tests/CMakeLists.txt builds it as a test that passes only when the build fails.
#include "session/kernel_session.hpp"
