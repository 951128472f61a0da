// WorkMeter: a bound on the work one thread's tensor kernels may do.
//
// A host that runs untrusted code (the engine's sandbox) bounds each call
// by the Lua instructions it runs, but one tensor call can run for hours
// in C++ without a single instruction: a sum over a one-element tensor
// expanded to 2^50 elements uses no memory and never returns. So the CPU
// kernels charge their work to the thread's meter before they start:
//   - every kernel, the elements of each operand it reads or writes
//     (internal::CpuData charges them);
//   - matrix products and convolutions, one unit per multiply-add;
//   - LAPACK routines, rows * columns * min(rows, columns) of their matrix.
// When the meter refuses, the kernel returns its status before doing any
// work, and the caller sees an error. Without a meter (the default) work
// is not counted.
//
// Example:
//   class Budget : public tensor::WorkMeter { ... Spend(...) ... };
//   Budget budget;
//   {
//     tensor::ScopedWorkMeter metered(&budget);
//     absl::StatusOr<double> sum = tensor::Sum(huge);  // refused by Spend
//   }
#ifndef TENSOR_WORK_METER_H_
#define TENSOR_WORK_METER_H_

#include <cstdint>

#include "absl/status/status.h"

namespace tensor {

class WorkMeter {
 public:
  virtual ~WorkMeter() = default;
  // Charges `units` (>= 0) of work; an error status refuses them.
  virtual absl::Status Spend(std::int64_t units) = 0;
};

// Installs a meter for this thread for its own lifetime (null: none), and
// puts back the one before it.
class ScopedWorkMeter {
 public:
  explicit ScopedWorkMeter(WorkMeter* meter) : previous_(current_) { current_ = meter; }
  ~ScopedWorkMeter() { current_ = previous_; }

  ScopedWorkMeter(const ScopedWorkMeter&) = delete;
  ScopedWorkMeter& operator=(const ScopedWorkMeter&) = delete;

  static WorkMeter* current() { return current_; }

 private:
  inline static thread_local WorkMeter* current_ = nullptr;
  WorkMeter* const previous_;
};

// Charges `units` to this thread's meter, if it has one.
inline absl::Status ChargeWork(std::int64_t units) {
  WorkMeter* meter = ScopedWorkMeter::current();
  if (meter == nullptr) [[likely]] return absl::OkStatus();
  return meter->Spend(units);
}

// a * b * c, saturating at INT64_MAX, for charges of products whose
// extents are each below 2^63.
std::int64_t ProductOfWork(std::int64_t a, std::int64_t b, std::int64_t c = 1);

}  // namespace tensor

#endif  // TENSOR_WORK_METER_H_
