#include "tensor/internal/vector_width.h"

#include <atomic>

namespace tensor::internal {
namespace {

VectorWidth DetectVectorWidth() {
#if defined(__x86_64__)
  // libgcc's cpuid check includes the OS's: a feature counts only when
  // XGETBV says the OS saves its registers.
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq")) {
    return VectorWidth::kAvx512;
  }
  if (__builtin_cpu_supports("avx2")) return VectorWidth::kAvx2;
#endif
  return VectorWidth::kBaseline;
}

}  // namespace

std::atomic<VectorWidth> active_vector_width{SupportedVectorWidth()};

const char* VectorWidthName(VectorWidth width) {
  switch (width) {
    case VectorWidth::kAvx512: return "avx512";
    case VectorWidth::kAvx2: return "avx2";
    case VectorWidth::kBaseline: break;
  }
  return "baseline";
}

VectorWidth SupportedVectorWidth() {
  static const VectorWidth supported = DetectVectorWidth();
  return supported;
}

bool UseVectorWidth(VectorWidth width) {
  if (static_cast<int>(width) > static_cast<int>(SupportedVectorWidth())) return false;
  active_vector_width.store(width, std::memory_order_relaxed);
  return true;
}

}  // namespace tensor::internal
