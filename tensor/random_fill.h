// Random fills: Torch7's uniform, normal, bernoulli and randperm, written
// into an existing tensor.
//
// The randomness comes from a RandomSource, so the core stays free of any
// particular generator; the Lua module passes its dmlab.system.random
// generators. Elements are drawn in row-major order of the tensor's own
// shape, so one seed gives the same values for a contiguous tensor and for
// a transposed or reversed view of the same shape. Every argument is
// checked before the first draw: a failed call changes neither the tensor
// nor the generator.
//
// Example:
//   absl::Status s = FillUniform(weights, -0.1, 0.1, source);
//   s = FillBernoulli(mask, 0.25, source);   // 1 with probability 0.25
#ifndef TENSOR_RANDOM_FILL_H_
#define TENSOR_RANDOM_FILL_H_

#include <cstdint>

#include "absl/status/status.h"
#include "tensor/tensor.h"

namespace tensor {

// A source of random numbers. Implementations decide the algorithms; the
// Lua module's are portable, so a seed gives the same values everywhere.
class RandomSource {
 public:
  virtual ~RandomSource() = default;
  // Uniform in [a, b), or a when a == b. REQUIRES: finite a <= b.
  virtual double UniformReal(double a, double b) = 0;
  // Normal with the given mean and standard deviation. REQUIRES: sd >= 0.
  virtual double Normal(double mean, double sd) = 0;
  // Uniform in [a, b]. REQUIRES: a <= b.
  virtual std::int64_t UniformInt(std::int64_t a, std::int64_t b) = 0;
};

// Uniform values in [a, b) (Torch7: floating types only). Fails unless a and
// b are finite with a <= b.
absl::Status FillUniform(const Tensor& tensor, double a, double b, RandomSource& source);

// Normal values (floating types only). Fails unless mean is finite and
// stdv finite and > 0, as Torch7 requires.
absl::Status FillNormal(const Tensor& tensor, double mean, double stdv, RandomSource& source);

// 1 with probability p, else 0 (any type). Fails unless 0 <= p <= 1.
absl::Status FillBernoulli(const Tensor& tensor, double p, RandomSource& source);

// A uniformly random permutation of 1 .. n, n the element count, in
// row-major order (any type that holds n). Fails for bool tensors.
absl::Status FillRandPerm(const Tensor& tensor, RandomSource& source);

// Torch7's other distributions. Integers uniform in [a, b] (any type that
// holds both bounds exactly). Fails unless a <= b.
absl::Status FillRandom(const Tensor& tensor, std::int64_t a, std::int64_t b,
                        RandomSource& source);

// Exponential with rate lambda (floating types). Fails unless lambda is
// finite and > 0.
absl::Status FillExponential(const Tensor& tensor, double lambda, RandomSource& source);

// Cauchy with the given median and scale sigma (floating types). Fails
// unless the median is finite and sigma finite and > 0.
absl::Status FillCauchy(const Tensor& tensor, double median, double sigma, RandomSource& source);

// exp of a normal with the given mean and standard deviation (floating
// types), as Torch7's logNormal. Fails unless mean is finite and stdv
// finite and > 0.
absl::Status FillLogNormal(const Tensor& tensor, double mean, double stdv, RandomSource& source);

// Torch7's geometric: i = 1, 2, ... with probability (1 - p) p^(i - 1)
// (any type). Fails unless 0 < p < 1, or if a draw does not fit the type;
// then nothing is written.
absl::Status FillGeometric(const Tensor& tensor, double p, RandomSource& source);

}  // namespace tensor

#endif  // TENSOR_RANDOM_FILL_H_
