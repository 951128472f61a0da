// Baselines: what the tensor core is measured against, in the same process.
//
// Each is the plain loop a C programmer would write over a raw array (or
// memcpy, or a raw cblas call). They live in their own translation unit so
// the compiler cannot fold a call into the benchmark loop around it.
//
// Example:
//   AlignedBuffer<double> a(1 << 20), b(1 << 20);
//   FillPattern(a.data(), a.size(), 7);
//   RawAdd(a.data(), b.data(), a.size());                  // a[i] += b[i]
//   RawCopyTransposed(a.data(), b.data(), 1024);           // a = b^T
#ifndef BENCHMARKS_BASELINES_H_
#define BENCHMARKS_BASELINES_H_

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <vector>

#include "tensor/allocator.h"

namespace benchmarks {

using Index = std::int64_t;

// An uninitialised array of `size` elements from the core's CPU allocator,
// so a baseline gets the same alignment and pages (huge pages for large
// blocks) as a tensor, and a ratio measures the loops alone.
template <typename T>
class AlignedBuffer {
 public:
  explicit AlignedBuffer(Index size)
      : size_(size),
        data_(static_cast<T*>(*tensor::CpuAllocator().Allocate(size * sizeof(T), false)),
              Free{size * static_cast<Index>(sizeof(T))}) {}

  T* data() const { return data_.get(); }
  Index size() const { return size_; }

 private:
  struct Free {
    Index bytes;
    void operator()(T* p) const { tensor::CpuAllocator().Deallocate(p, bytes); }
  };
  Index size_;
  std::unique_ptr<T, Free> data_;
};

// a[i] = i % modulus: small integers, so sums and products of them are exact
// in any order and results can be compared with ==.
void FillPattern(double* a, Index n, int modulus);
void FillPattern(float* a, Index n, int modulus);

// a[i] = -1 for i % 3 == 0, else 1: a multiplier that keeps values bounded
// however often it is applied, yet is not a no-op.
void FillSigns(double* a, Index n);

// The vector widths a contiguous raw loop can be compiled for, chosen by
// the benchmark, never by the core: a baseline that ran at the core's own
// choice of width could never show that choice to be wrong. kAvx512On256
// is AVX-512's instructions on 256-bit vectors.
enum class RawWidth { kSse2, kAvx2, kAvx512, kAvx512On256 };

// Those this processor runs, narrowest first; "sse2", "avx2", "avx512",
// "avx512/256".
std::vector<RawWidth> RawWidths();
const char* RawWidthName(RawWidth width);

// The width the contiguous raw loops below (and STREAM's) run at from now
// on; at first the widest of RawWidths() on 512-bit vectors.
void SetRawWidth(RawWidth width);
RawWidth CurrentRawWidth();

// Contiguous loops over n elements.
void RawFill(double* a, Index n, double value);                // a[i] = value
void RawAddScalar(double* a, Index n, double value);           // a[i] += value
void RawAdd(double* a, const double* b, Index n);              // a[i] += b[i]
void RawMul(double* a, const double* b, Index n);              // a[i] *= b[i]
void RawCopy(double* dst, const double* src, Index n);         // memcpy
double RawNaiveSum(const double* a, Index n);                  // s += a[i], in order

// McCalpin's STREAM loops, for the memory bandwidth the machine gives a
// plain loop (at the current raw width, as the raw loops above). They stay
// loops: the library is built with -fno-tree-loop-distribute-patterns, so
// gcc does not turn c = a into a call of memcpy.
void StreamCopy(double* c, const double* a, Index n);                      // c = a
void StreamScale(double* b, const double* c, double q, Index n);           // b = q c
void StreamAdd(double* c, const double* a, const double* b, Index n);      // c = a + b
void StreamTriad(double* a, const double* b, const double* c, double q, Index n);  // a = b + q c

// The same work on a side x side row-major matrix, walking the row-major
// order of its transposed view (or, for two operands, the destination
// row-major and the source transposed): the naive strided loop.
void RawFillTransposed(double* a, Index side, double value);       // a[j][i] = value
void RawAddScalarTransposed(double* a, Index side, double value);  // a[j][i] += value
void RawAddTransposed(double* a, const double* b, Index side);     // a[i][j] += b[j][i]
void RawMulTransposed(double* a, const double* b, Index side);     // a[i][j] *= b[j][i]
void RawCopyTransposed(double* dst, const double* src, Index side);  // dst[i][j] = src[j][i]
double RawNaiveSumTransposed(const double* a, Index side);         // s += a[j][i]

// c = a . b for row-major n x n matrices, straight to cblas_sgemm / dgemm.
void RawGemm(const float* a, const float* b, float* c, Index n);
void RawGemm(const double* a, const double* b, double* c, Index n);

// OpenBLAS's thread count, which both MatMul and RawGemm run with.
int BlasThreads();

}  // namespace benchmarks

#endif  // BENCHMARKS_BASELINES_H_
