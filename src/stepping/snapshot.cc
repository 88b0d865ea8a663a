#include "exactsim/stepping/snapshot.h"

namespace exactsim {

StepperMemory capture(const Workspace& ws) {
  StepperMemory m;
  for_each_memory_field([&](const char*, auto field, auto place) { m.*field = place(ws); });
  return m;
}

void restore(const StepperMemory& memory, Workspace& ws) {
  for_each_memory_field([&](const char*, auto field, auto place) { place(ws) = memory.*field; });
}

}  // namespace exactsim
