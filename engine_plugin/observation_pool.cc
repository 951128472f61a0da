#include "engine_plugin/observation_pool.h"

#include <cstddef>
#include <utility>

namespace engine_plugin {

absl::StatusOr<tensor::Tensor> ObservationPool::Acquire(tensor::DType dtype,
                                                        absl::Span<const tensor::Index> shape) {
  absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
  if (!layout.ok()) return layout.status();
  const std::size_t bytes =
      static_cast<std::size_t>(layout->num_elements()) * tensor::DTypeSize(dtype);

  std::shared_ptr<tensor::Storage> chosen;
  int free_kept = 0;
  for (auto it = buffers_.begin(); it != buffers_.end();) {
    const bool free = it->use_count() == 1;
    if (free && chosen == nullptr && (*it)->bytes() == bytes) {
      chosen = *it;
    } else if (free && ++free_kept > kMaxFreeBuffers) {
      it = buffers_.erase(it);
      continue;
    }
    ++it;
  }
  if (chosen == nullptr) {
    absl::StatusOr<std::shared_ptr<tensor::Storage>> fresh =
        tensor::Storage::Allocate(bytes, *allocator_, /*zeroed=*/false);
    if (!fresh.ok()) return fresh.status();
    chosen = *std::move(fresh);
    buffers_.push_back(chosen);
    ++allocations_;
  }
  return tensor::Tensor::FromStorage(dtype, *std::move(layout), std::move(chosen));
}

}  // namespace engine_plugin
