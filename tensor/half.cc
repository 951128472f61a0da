#include "tensor/half.h"

#include <bit>
#include <cstdint>

namespace tensor {

std::uint16_t Float16::FromFloat(float value) {
  const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
  const std::uint16_t sign = static_cast<std::uint16_t>((f >> 16) & 0x8000u);
  const std::uint32_t magnitude = f & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return sign | 0x7e00u;   // NaN
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;  // rounds to inf
  if (magnitude < 0x38800000u) {
    // Below the smallest normal half (2^-14): a subnormal half or zero.
    // Adding 0.5 in float aligns the mantissa so the FPU's own
    // round-to-nearest-even does the rounding.
    const float shifted = std::bit_cast<float>(magnitude) + 0.5f;
    return sign | static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(shifted) -
                                             std::bit_cast<std::uint32_t>(0.5f));
  }
  // Normal: rebias the exponent (127 -> 15) and round 13 dropped bits to
  // nearest even.
  const std::uint32_t odd = (magnitude >> 13) & 1u;
  const std::uint32_t rounded = magnitude + 0xfffu + odd - (112u << 23);
  return sign | static_cast<std::uint16_t>(rounded >> 13);
}

float Float16::ToFloat(std::uint16_t bits) {
  const std::uint32_t sign = static_cast<std::uint32_t>(bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1fu) {  // inf or NaN
    return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  }
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
    const float value = static_cast<float>(mantissa) * 0x1p-24f;
    return std::bit_cast<float>(sign | std::bit_cast<std::uint32_t>(value));
  }
  return std::bit_cast<float>(sign | ((exponent + 112u) << 23) | (mantissa << 13));
}

}  // namespace tensor
