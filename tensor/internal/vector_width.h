// Run-time choice of the vector width that dense kernel loops compile for.
//
// The core builds for any x86-64 (SSE2), but a loop over contiguous
// elements runs twice the elements per instruction with AVX2 or AVX-512
// (both on 256-bit vectors, below). Every family of element-wise kernels (scalar and component
// arithmetic, copies and conversions, pointwise maths, comparisons,
// reductions) hands its dense inner loop to AtVectorWidth, which runs it in
// a copy of the loop compiled for the widest instruction set this
// processor and its OS support, chosen once from cpuid.
//
// The AVX-512 copy uses AVX-512's instructions on 256-bit vectors. Measured
// on an AMD Zen 4 (//benchmarks:width_benchmark, 2026-11-27): with 512-bit
// vectors, cadd and cmul over a million doubles (in the level-3 cache) took
// 1.10-1.26 times as long as at 256 bits, and 1.06-1.26 times at 16M (in
// memory), while in the level-1 cache 512 bits gained at most 3%, on fill
// and add. AVX-512's instructions still count: mask registers, and
// conversions between int64 and double, which AVX2 lacks.
//
// How: each width is a small noinline function template with a `target`
// attribute, and the loop body (a lambda marked TENSOR_VECTOR_LOOP, so it
// is always inlined) is compiled inside it; -O3 then vectorises it at that
// width. Each copy is a distinct instantiation per lambda, so no code built
// for a wide width is shared with the baseline (no illegal instruction on
// an older processor); anything the body calls out of line stays baseline.
//
// Results are bit-for-bit the same at every width: the copies differ only
// in how many lanes an instruction holds. No copy contracts a * b + c into
// a fused multiply-add (the kernels build with -ffp-contract=off), and
// reductions keep their fixed partial sums (line_kernels.h), which map
// onto lanes without reordering.
//
// The body captures by value, and each copy takes it by value: through a
// captured reference, a store to the elements (an int64 one) could alias
// the count, and gcc would not vectorise the loop.
//
// Example:
//   AtVectorWidth(n, [x, y, n]() TENSOR_VECTOR_LOOP {
//     for (Index i = 0; i < n; ++i) x[i] += y[i];
//   });
//   double sum = AtVectorWidth(n, [x, n]() TENSOR_VECTOR_LOOP { return SumOf(x, n); });
#ifndef TENSOR_INTERNAL_VECTOR_WIDTH_H_
#define TENSOR_INTERNAL_VECTOR_WIDTH_H_

#include <atomic>
#include <cstdint>

// Marks a loop body lambda for AtVectorWidth: without inlining, the body
// would be compiled once, for the baseline.
#define TENSOR_VECTOR_LOOP __attribute__((always_inline))

namespace tensor::internal {

enum class VectorWidth {
  kBaseline = 0,  // SSE2: any x86-64, and every other processor
  kAvx2 = 1,      // 256-bit
  kAvx512 = 2,    // AVX-512 F, VL, BW, DQ; 256-bit vectors (see above)
};

// "baseline", "avx2", "avx512".
const char* VectorWidthName(VectorWidth width);

// The widest width this processor and its OS run.
VectorWidth SupportedVectorWidth();

// Makes the kernels use `width` (for tests and benchmarks, which compare
// the widths). False, changing nothing, if this processor cannot run it.
bool UseVectorWidth(VectorWidth width);

// Read through ActiveVectorWidth. Before its dynamic initialisation (a
// kernel run by another file's static initialiser), it reads kBaseline.
extern std::atomic<VectorWidth> active_vector_width;

// The width the kernels use now: SupportedVectorWidth() unless changed.
inline VectorWidth ActiveVectorWidth() {
  return active_vector_width.load(std::memory_order_relaxed);
}

template <typename F>
[[gnu::noinline]] auto RunAtBaseline(F body) {
  return body();
}

#if defined(__x86_64__)
template <typename F>
[[gnu::noinline, gnu::target("avx2")]] auto RunAtAvx2(F body) {
  return body();
}

template <typename F>
[[gnu::noinline, gnu::target("avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=256")]] auto
RunAtAvx512(F body) {
  return body();
}
#endif

// Loops over fewer elements run inline, at the baseline: the call into a
// copy costs a small tensor's add 15 instructions of about 1000 (callgrind),
// more than wider vectors save on so few elements.
inline constexpr std::int64_t kShortestDispatchedLoop = 16;

// Runs `body` (a TENSOR_VECTOR_LOOP lambda over n elements) compiled for the
// active width, and returns what it returns.
template <typename F>
auto AtVectorWidth(std::int64_t n, F body) {
  if (n < kShortestDispatchedLoop) return body();
#if defined(__x86_64__)
  switch (ActiveVectorWidth()) {
    case VectorWidth::kAvx512: return RunAtAvx512(body);
    case VectorWidth::kAvx2: return RunAtAvx2(body);
    case VectorWidth::kBaseline: break;
  }
#endif
  return RunAtBaseline(body);
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_VECTOR_WIDTH_H_
