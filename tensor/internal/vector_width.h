// Run-time choice of the vector width that dense kernel loops compile for.
//
// The core builds for any x86-64 (SSE2), but a loop over contiguous
// elements runs two to four times the elements per instruction with AVX2
// or AVX-512. Every family of element-wise kernels (scalar and component
// arithmetic, copies and conversions, element-wise maths, comparisons,
// reductions) hands its dense inner loop to AtVectorWidth, which runs it in
// a copy of the loop compiled for the widest instruction set this
// processor and its OS support, chosen once from cpuid.
//
// At the AVX-512 width, a loop that reads two or more arrays (cadd, cmul,
// binary maths, comparing two tensors) runs on 256-bit vectors once it is
// longer than LongestLoopOn512Bits() (kLongestLoopOn512Bits, but no limit
// on AMD Zen 5, whose units are 512 bits wide), still with AVX-512's instructions
// (mask registers; conversions between int64 and double, which AVX2
// lacks); every other loop runs on 512-bit vectors. Measured on an AMD
// Zen 4 (//benchmarks:width_benchmark, C loops, 2026-11-27): on 512-bit
// vectors, cadd and cmul over a million doubles (in the level-3 cache)
// took 1.10-1.26 times as long as on 256-bit ones, 1.06-1.26 at 16M (in
// memory), and a byte add of two 8 MB arrays 1.11 times; in the level-1
// cache they were as fast. A loop over one array was as fast or faster on
// 512 bits at every size: a byte add of a scalar took 0.68 of the time at
// 21 KB (a frame) and 0.88 at 8 MB.
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
  kAvx512 = 2,    // AVX-512 F, VL, BW, DQ: 512-bit vectors, or 256 (see above)
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

// AVX-512 on 512-bit vectors, and on 256-bit vectors for long loops that
// read several arrays (above).
template <typename F>
[[gnu::noinline, gnu::target("avx512f,avx512vl,avx512bw,avx512dq")]] auto RunAtAvx512(F body) {
  return body();
}

// clang's `target` takes no vector-width preference (it would ignore the
// whole attribute), so under clang the long loops run the AVX2 copy's code.
#if defined(__clang__)
#define TENSOR_AVX512_ON_256_BITS "avx2"
#else
#define TENSOR_AVX512_ON_256_BITS "avx512f,avx512vl,avx512bw,avx512dq,prefer-vector-width=256"
#endif

template <typename F>
[[gnu::noinline, gnu::target(TENSOR_AVX512_ON_256_BITS)]] auto RunAtAvx512On256Bits(F body) {
  return body();
}
#undef TENSOR_AVX512_ON_256_BITS
#endif

// Loops over fewer elements run inline, at the baseline: the call into a
// copy costs a small tensor's add 15 instructions of about 1000 (callgrind),
// more than wider vectors save on so few elements.
inline constexpr std::int64_t kShortestDispatchedLoop = 16;

// How many arrays a loop body reads: the AVX-512 width runs long loops that
// read several on 256-bit vectors.
enum class Reads { kOneArray, kSeveralArrays };

// The longest loop over several arrays that runs on 512-bit vectors at the
// AVX-512 width, on processors that run 512-bit instructions as two
// 256-bit halves (AMD Zen 4, measured above) or that were not measured:
// 4096 elements (of doubles, 32 KiB: a level-1 data cache). AMD Zen 5
// (family 1Ah) has 512-bit units, and there every loop runs on 512-bit
// vectors: cadd over a million doubles took 1.2 times as long on 256-bit
// ones (//benchmarks:summary's plain loops, 2026-11-28).
inline constexpr std::int64_t kLongestLoopOn512Bits = 4096;

// Read through LongestLoopOn512Bits: kLongestLoopOn512Bits, or no limit on
// a processor with 512-bit units.
extern std::atomic<std::int64_t> longest_loop_on_512_bits;
inline std::int64_t LongestLoopOn512Bits() {
  return longest_loop_on_512_bits.load(std::memory_order_relaxed);
}

// Makes loops over several arrays of more than `n` elements run on 256-bit
// vectors at the AVX-512 width (for tests, which compare both sides of the
// switch on any processor); returns the limit it replaced.
std::int64_t SetLongestLoopOn512Bits(std::int64_t n);

// Runs `body` (a TENSOR_VECTOR_LOOP lambda over n elements that reads
// `kReads`) compiled for the active width, and returns what it returns.
template <Reads kReads = Reads::kOneArray, typename F>
auto AtVectorWidth(std::int64_t n, F body) {
  if (n < kShortestDispatchedLoop) return body();
#if defined(__x86_64__)
  switch (ActiveVectorWidth()) {
    case VectorWidth::kAvx512:
      if constexpr (kReads == Reads::kSeveralArrays) {
        if (n > LongestLoopOn512Bits()) return RunAtAvx512On256Bits(body);
      }
      return RunAtAvx512(body);
    case VectorWidth::kAvx2: return RunAtAvx2(body);
    case VectorWidth::kBaseline: break;
  }
#endif
  return RunAtBaseline(body);
}

}  // namespace tensor::internal

#endif  // TENSOR_INTERNAL_VECTOR_WIDTH_H_
