// ObservationPool: recycled owned storage for the observations an engine
// hands out.
//
// Acquire returns a contiguous tensor whose storage nobody outside the pool
// references: a free buffer of the same size if there is one, else a new
// one. A buffer stays out of circulation while any tensor shares its
// storage (the engine's current frame, a host's retained observation), so
// a retained buffer is never written again; once the last holder lets go it
// is reused. Holders may let go on any thread: the pool reads the shared
// count, which only its own thread can raise above one.
//
// Example:
//   ObservationPool pool;
//   absl::StatusOr<tensor::Tensor> frame = pool.Acquire(tensor::DType::kUInt8, {84, 84, 3});
//   tensor::Tensor held = *frame;          // a host retains it
//   frame = pool.Acquire(...);             // a different buffer
//   ObservationPool on_gpu(**gpu_allocator);  // the same, in device memory
#ifndef ENGINE_PLUGIN_OBSERVATION_POOL_H_
#define ENGINE_PLUGIN_OBSERVATION_POOL_H_

#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace engine_plugin {

class ObservationPool {
 public:
  // Free buffers kept for reuse beyond this are released, so a host that
  // once retained many frames does not pin their memory forever.
  static constexpr int kMaxFreeBuffers = 4;

  // Buffers come from `allocator` (and are on its device), which must
  // outlive the pool.
  explicit ObservationPool(tensor::Allocator& allocator = tensor::CpuAllocator())
      : allocator_(&allocator) {}

  // Contents unspecified (the previous user's data).
  absl::StatusOr<tensor::Tensor> Acquire(tensor::DType dtype,
                                         absl::Span<const tensor::Index> shape);

  // Buffers allocated over the pool's life: evidence that steps recycle
  // rather than allocate.
  int allocations() const { return allocations_; }

 private:
  tensor::Allocator* allocator_;
  std::vector<std::shared_ptr<tensor::Storage>> buffers_;
  int allocations_ = 0;
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_OBSERVATION_POOL_H_
