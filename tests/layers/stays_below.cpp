// Must compile: a file of the device library including its own floors (plan, tasks, cuda, values, base).
// The counterpart of climbs_to_*.cpp: it shows that those fail for the climb, not for the set-up.
#include "base/error.hpp"
#include "cuda/driver.hpp"
#include "device/runner.hpp"
#include "plan/plan.hpp"
#include "tasks/task_data.hpp"
#include "values/run_report.hpp"
