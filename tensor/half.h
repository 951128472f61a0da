// Half-precision element types: IEEE 754 binary16 and bfloat16.
//
// Both are stored as 16 raw bits and computed in float. Conversions from
// float round to nearest, ties to even, and keep infinities and NaNs.
//
// Example:
//   Float16 h(1.0f / 3.0f);
//   float back = static_cast<float>(h);  // 0.333252
#ifndef TENSOR_HALF_H_
#define TENSOR_HALF_H_

#include <bit>
#include <cstdint>

namespace tensor {

class Float16 {
 public:
  constexpr Float16() = default;
  explicit Float16(float value) : bits_(FromFloat(value)) {}
  explicit operator float() const { return ToFloat(bits_); }

  static constexpr Float16 FromBits(std::uint16_t bits) {
    Float16 h;
    h.bits_ = bits;
    return h;
  }
  constexpr std::uint16_t bits() const { return bits_; }

 private:
  static std::uint16_t FromFloat(float value);
  static float ToFloat(std::uint16_t bits);

  std::uint16_t bits_ = 0;
};

class BFloat16 {
 public:
  constexpr BFloat16() = default;
  explicit BFloat16(float value) : bits_(FromFloat(value)) {}
  explicit operator float() const {
    return std::bit_cast<float>(static_cast<std::uint32_t>(bits_) << 16);
  }

  static constexpr BFloat16 FromBits(std::uint16_t bits) {
    BFloat16 b;
    b.bits_ = bits;
    return b;
  }
  constexpr std::uint16_t bits() const { return bits_; }

 private:
  static std::uint16_t FromFloat(float value) {
    const std::uint32_t f = std::bit_cast<std::uint32_t>(value);
    if ((f & 0x7fffffffu) > 0x7f800000u) {
      // NaN: keep the sign, force a quiet NaN so truncation cannot make inf.
      return static_cast<std::uint16_t>((f >> 16) | 0x0040u);
    }
    const std::uint32_t rounding_bias = 0x7fffu + ((f >> 16) & 1u);
    return static_cast<std::uint16_t>((f + rounding_bias) >> 16);
  }

  std::uint16_t bits_ = 0;
};

}  // namespace tensor

#endif  // TENSOR_HALF_H_
