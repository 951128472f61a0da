#include "tensor/work_meter.h"

#include <limits>

namespace tensor {

std::int64_t ProductOfWork(std::int64_t a, std::int64_t b, std::int64_t c) {
  std::int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product) || __builtin_mul_overflow(product, c, &product)) {
    return std::numeric_limits<std::int64_t>::max();
  }
  return product;
}

}  // namespace tensor
