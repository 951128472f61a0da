#include "tensor/internal/vector_width.h"

#include <atomic>
#include <cstdint>
#include <limits>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

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

// kLongestLoopOn512Bits, or no limit on AMD family 1Ah (Zen 5), whose
// 512-bit instructions run on 512-bit units.
std::int64_t DetectLongestLoopOn512Bits() {
#if defined(__x86_64__)
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (__get_cpuid(0, &eax, &ebx, &ecx, &edx) != 0 && ebx == 0x68747541 /* "Auth" */ &&
      edx == 0x69746e65 /* "enti" */ && ecx == 0x444d4163 /* "cAMD" */ &&
      __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0) {
    const unsigned base = (eax >> 8) & 0xf;
    const unsigned family = base == 0xf ? base + ((eax >> 20) & 0xff) : base;
    if (family >= 0x1a) return std::numeric_limits<std::int64_t>::max();
  }
#endif
  return kLongestLoopOn512Bits;
}

}  // namespace

std::atomic<VectorWidth> active_vector_width{SupportedVectorWidth()};
std::atomic<std::int64_t> longest_loop_on_512_bits{DetectLongestLoopOn512Bits()};

std::int64_t SetLongestLoopOn512Bits(std::int64_t n) {
  return longest_loop_on_512_bits.exchange(n, std::memory_order_relaxed);
}

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
