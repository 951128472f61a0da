#include "tensor/half.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tensor {
namespace {

using ::testing::Eq;

std::uint32_t FloatBits(float f) { return std::bit_cast<std::uint32_t>(f); }
float BitsToFloat(std::uint32_t bits) { return std::bit_cast<float>(bits); }

std::uint16_t HalfBits(float f) { return Float16(f).bits(); }
std::uint16_t BFloatBits(float f) { return BFloat16(f).bits(); }

bool IsHalfNaN(std::uint16_t bits) { return (bits & 0x7c00u) == 0x7c00u && (bits & 0x3ffu) != 0; }

// The compiler's own binary16 conversion (libgcc, round to nearest even),
// an implementation independent of tensor/half.cc.
std::uint16_t ReferenceHalfBits(float f) {
  const _Float16 h = static_cast<_Float16>(f);
  std::uint16_t bits;
  std::memcpy(&bits, &h, sizeof(bits));
  return bits;
}

// bfloat16 by comparing the distances to the two neighbours in double.
std::uint16_t ReferenceBFloatBits(float f) {
  const std::uint32_t bits = FloatBits(f);
  const std::uint32_t down = bits & 0xffff0000u;
  const std::uint32_t up = down + 0x10000u;
  const double x = std::fabs(static_cast<double>(f));
  const double lo = std::fabs(static_cast<double>(BitsToFloat(down)));
  // `up` may be the infinity pattern; its distance then comes from treating
  // it as the next power of two, as IEEE rounding does.
  const double hi = (up & 0x7fffffffu) == 0x7f800000u
                        ? std::ldexp(1.0, 128)
                        : std::fabs(static_cast<double>(BitsToFloat(up)));
  if (x - lo < hi - x) return static_cast<std::uint16_t>(down >> 16);
  if (x - lo > hi - x) return static_cast<std::uint16_t>(up >> 16);
  return static_cast<std::uint16_t>(((down >> 16) & 1u) == 0 ? down >> 16 : up >> 16);
}

// --- Float16 -------------------------------------------------------------

TEST(Float16Test, DefaultIsPositiveZero) {
  EXPECT_EQ(Float16().bits(), 0u);
  EXPECT_EQ(static_cast<float>(Float16()), 0.0f);
}

TEST(Float16Test, FromBitsKeepsTheBits) {
  constexpr Float16 h = Float16::FromBits(0x1234);
  static_assert(h.bits() == 0x1234);
  EXPECT_EQ(h.bits(), 0x1234u);
}

TEST(Float16Test, ExactValuesConvertToTheirKnownBitPatterns) {
  EXPECT_EQ(HalfBits(0.0f), 0x0000u);
  EXPECT_EQ(HalfBits(-0.0f), 0x8000u);
  EXPECT_EQ(HalfBits(1.0f), 0x3c00u);
  EXPECT_EQ(HalfBits(-2.0f), 0xc000u);
  EXPECT_EQ(HalfBits(0.5f), 0x3800u);
  EXPECT_EQ(HalfBits(65504.0f), 0x7bffu);
  EXPECT_EQ(HalfBits(-65504.0f), 0xfbffu);
  EXPECT_EQ(HalfBits(0x1p-14f), 0x0400u);  // smallest normal
  EXPECT_EQ(HalfBits(0x1p-24f), 0x0001u);  // smallest subnormal
  EXPECT_EQ(HalfBits(0x3ffp-24f), 0x03ffu);  // largest subnormal
}

TEST(Float16Test, BitPatternsConvertToTheirKnownFloats) {
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x3c00)), 1.0f);
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x7bff)), 65504.0f);
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x0001)), 0x1p-24f);
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x8001)), -0x1p-24f);
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x03ff)), 0x3ffp-24f);
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x3555)), 0x1.554p-2f);
  EXPECT_TRUE(std::signbit(static_cast<float>(Float16::FromBits(0x8000))));
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x8000)), 0.0f);
}

TEST(Float16Test, OneThirdRoundsToTheDocumentedValue) {
  EXPECT_EQ(static_cast<float>(Float16(1.0f / 3.0f)), 0x1.554p-2f);  // 0.333252
}

TEST(Float16Test, MaxFiniteIs65504AndValuesBelow65520RoundDownToIt) {
  EXPECT_EQ(HalfBits(65505.0f), 0x7bffu);
  EXPECT_EQ(HalfBits(65519.0f), 0x7bffu);
  EXPECT_EQ(HalfBits(std::nextafter(65520.0f, 0.0f)), 0x7bffu);
  EXPECT_EQ(HalfBits(-65519.0f), 0xfbffu);
}

TEST(Float16Test, From65520UpwardsRoundsToInfinity) {
  EXPECT_EQ(HalfBits(65520.0f), 0x7c00u);
  EXPECT_EQ(HalfBits(-65520.0f), 0xfc00u);
  EXPECT_EQ(HalfBits(65536.0f), 0x7c00u);
  EXPECT_EQ(HalfBits(1e10f), 0x7c00u);
  EXPECT_EQ(HalfBits(std::numeric_limits<float>::max()), 0x7c00u);
  EXPECT_EQ(HalfBits(-std::numeric_limits<float>::max()), 0xfc00u);
}

TEST(Float16Test, InfinitiesStayInfinite) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(HalfBits(kInf), 0x7c00u);
  EXPECT_EQ(HalfBits(-kInf), 0xfc00u);
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0x7c00)), kInf);
  EXPECT_EQ(static_cast<float>(Float16::FromBits(0xfc00)), -kInf);
}

TEST(Float16Test, NaNStaysNaNWithItsSign) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(IsHalfNaN(HalfBits(nan)));
  EXPECT_EQ(HalfBits(nan) & 0x8000u, 0u);
  EXPECT_TRUE(IsHalfNaN(HalfBits(-nan)));
  EXPECT_EQ(HalfBits(-nan) & 0x8000u, 0x8000u);
  // A NaN whose payload lies only in the low bits that are dropped must not
  // become infinity.
  EXPECT_TRUE(IsHalfNaN(HalfBits(BitsToFloat(0x7f800001u))));
  EXPECT_TRUE(IsHalfNaN(HalfBits(BitsToFloat(0xff800001u))));
  EXPECT_TRUE(IsHalfNaN(HalfBits(std::numeric_limits<float>::signaling_NaN())));
  EXPECT_TRUE(std::isnan(static_cast<float>(Float16::FromBits(0x7e00))));
  EXPECT_TRUE(std::isnan(static_cast<float>(Float16::FromBits(0x7c01))));
  EXPECT_TRUE(std::isnan(static_cast<float>(Float16::FromBits(0xfc01))));
}

TEST(Float16Test, NormalTiesRoundToEven) {
  // Around 1.0 the half ulp is 2^-10, so 1 + 2^-11 is halfway.
  EXPECT_EQ(HalfBits(1.0f + 0x1p-11f), 0x3c00u);        // tie, down to even
  EXPECT_EQ(HalfBits(1.0f + 3 * 0x1p-11f), 0x3c02u);    // tie, up to even
  EXPECT_EQ(HalfBits(std::nextafter(1.0f + 0x1p-11f, 2.0f)), 0x3c01u);
  EXPECT_EQ(HalfBits(std::nextafter(1.0f + 3 * 0x1p-11f, 0.0f)), 0x3c01u);
  // Integers above 2048 are spaced by 2.
  EXPECT_EQ(static_cast<float>(Float16(2049.0f)), 2048.0f);
  EXPECT_EQ(static_cast<float>(Float16(2051.0f)), 2052.0f);
  EXPECT_EQ(static_cast<float>(Float16(-2051.0f)), -2052.0f);
}

TEST(Float16Test, RoundingCarriesIntoTheExponent) {
  // Just below 2: all mantissa bits set, rounds up to exactly 2.
  EXPECT_EQ(HalfBits(std::nextafter(2.0f, 0.0f)), 0x4000u);
  EXPECT_EQ(HalfBits(2.0f - 0x1p-12f), 0x4000u);
}

TEST(Float16Test, SubnormalsRoundToNearestEven) {
  constexpr float kStep = 0x1p-24f;  // the subnormal spacing
  EXPECT_EQ(HalfBits(kStep / 2), 0x0000u);       // tie, down to even (zero)
  EXPECT_EQ(HalfBits(-kStep / 2), 0x8000u);      // keeps the sign
  EXPECT_EQ(HalfBits(std::nextafter(kStep / 2, 1.0f)), 0x0001u);
  EXPECT_EQ(HalfBits(3 * kStep / 2), 0x0002u);   // tie, up to even
  EXPECT_EQ(HalfBits(5 * kStep / 2), 0x0002u);   // tie, down to even
  EXPECT_EQ(HalfBits(kStep / 4), 0x0000u);
  EXPECT_EQ(HalfBits(std::numeric_limits<float>::denorm_min()), 0x0000u);
  EXPECT_EQ(HalfBits(-std::numeric_limits<float>::denorm_min()), 0x8000u);
  // Halfway between the largest subnormal and the smallest normal: even is
  // the normal 0x0400.
  EXPECT_EQ(HalfBits(0x7ffp-25f), 0x0400u);
  EXPECT_EQ(HalfBits(std::nextafter(0x7ffp-25f, 0.0f)), 0x03ffu);
}

TEST(Float16Test, EveryNonNaNBitPatternRoundTripsThroughFloat) {
  for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const Float16 h = Float16::FromBits(static_cast<std::uint16_t>(bits));
    if (IsHalfNaN(h.bits())) {
      ASSERT_TRUE(std::isnan(static_cast<float>(h))) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(Float16(static_cast<float>(h)).bits(), bits) << std::hex << bits;
  }
}

TEST(Float16Test, EveryMidpointBetweenNeighboursRoundsToEvenAndItsNeighboursDoNot) {
  // For each positive finite half h, the float halfway to the next half is
  // exact; it must round to the even one of the pair, and the floats on
  // either side of it to the nearer one.
  for (std::uint32_t bits = 0; bits < 0x7c00u; ++bits) {
    const float lo = static_cast<float>(Float16::FromBits(static_cast<std::uint16_t>(bits)));
    const float hi =
        bits + 1 == 0x7c00u
            ? 65536.0f  // where the next exponent would begin
            : static_cast<float>(Float16::FromBits(static_cast<std::uint16_t>(bits + 1)));
    const float mid = (lo + hi) / 2;
    const std::uint32_t even = (bits & 1u) == 0 ? bits : bits + 1;
    ASSERT_EQ(HalfBits(mid), even) << std::hex << bits;
    ASSERT_EQ(HalfBits(-mid), even | 0x8000u) << std::hex << bits;
    ASSERT_EQ(HalfBits(std::nextafter(mid, 0.0f)), bits) << std::hex << bits;
    ASSERT_EQ(HalfBits(std::nextafter(mid, 1e30f)), bits + 1) << std::hex << bits;
  }
}

TEST(Float16Test, AgreesWithTheCompilersConversionAcrossAllFloats) {
  // Every 997th float bit pattern, covering all exponents and both signs.
  for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += 997) {
    const float f = BitsToFloat(static_cast<std::uint32_t>(bits));
    const std::uint16_t got = HalfBits(f);
    if (std::isnan(f)) {
      ASSERT_TRUE(IsHalfNaN(got)) << std::hex << bits;
      continue;
    }
    ASSERT_EQ(got, ReferenceHalfBits(f)) << std::hex << bits;
  }
}

// --- BFloat16 ------------------------------------------------------------

TEST(BFloat16Test, DefaultIsPositiveZero) {
  EXPECT_EQ(BFloat16().bits(), 0u);
  EXPECT_EQ(static_cast<float>(BFloat16()), 0.0f);
}

TEST(BFloat16Test, ExactValuesKeepTheHighHalfOfTheFloat) {
  EXPECT_EQ(BFloatBits(1.0f), 0x3f80u);
  EXPECT_EQ(BFloatBits(-2.0f), 0xc000u);
  EXPECT_EQ(BFloatBits(-0.0f), 0x8000u);
  EXPECT_EQ(static_cast<float>(BFloat16::FromBits(0x3f80)), 1.0f);
  EXPECT_EQ(static_cast<float>(BFloat16::FromBits(0x4049)), 3.140625f);
  EXPECT_EQ(BFloat16::FromBits(0xabcd).bits(), 0xabcdu);
}

TEST(BFloat16Test, TiesRoundToEven) {
  EXPECT_EQ(BFloatBits(BitsToFloat(0x3f808000u)), 0x3f80u);  // tie, even below
  EXPECT_EQ(BFloatBits(BitsToFloat(0x3f818000u)), 0x3f82u);  // tie, even above
  EXPECT_EQ(BFloatBits(BitsToFloat(0x3f808001u)), 0x3f81u);
  EXPECT_EQ(BFloatBits(BitsToFloat(0x3f807fffu)), 0x3f80u);
  EXPECT_EQ(BFloatBits(BitsToFloat(0xbf818000u)), 0xbf82u);
}

TEST(BFloat16Test, LargestFloatsRoundToInfinity) {
  EXPECT_EQ(BFloatBits(std::numeric_limits<float>::max()), 0x7f80u);
  EXPECT_EQ(BFloatBits(-std::numeric_limits<float>::max()), 0xff80u);
  EXPECT_EQ(BFloatBits(BitsToFloat(0x7f7f7fffu)), 0x7f7fu);  // stays finite
}

TEST(BFloat16Test, InfinitiesStayInfinite) {
  constexpr float kInf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(BFloatBits(kInf), 0x7f80u);
  EXPECT_EQ(BFloatBits(-kInf), 0xff80u);
  EXPECT_EQ(static_cast<float>(BFloat16::FromBits(0xff80)), -kInf);
}

TEST(BFloat16Test, NaNStaysNaNWithItsSignEvenWhenThePayloadIsInTheLowBits) {
  for (std::uint32_t bits : {0x7fc00000u, 0x7f800001u, 0x7f80ffffu, 0x7fffffffu}) {
    const BFloat16 positive(BitsToFloat(bits));
    const BFloat16 negative(BitsToFloat(bits | 0x80000000u));
    EXPECT_TRUE(std::isnan(static_cast<float>(positive))) << std::hex << bits;
    EXPECT_TRUE(std::isnan(static_cast<float>(negative))) << std::hex << bits;
    EXPECT_EQ(positive.bits() & 0x8000u, 0u);
    EXPECT_EQ(negative.bits() & 0x8000u, 0x8000u);
  }
}

TEST(BFloat16Test, SubnormalFloatsRoundToNearestEven) {
  EXPECT_EQ(BFloatBits(std::numeric_limits<float>::denorm_min()), 0x0000u);
  EXPECT_EQ(BFloatBits(BitsToFloat(0x00008000u)), 0x0000u);  // tie, down to even
  EXPECT_EQ(BFloatBits(BitsToFloat(0x00018000u)), 0x0002u);  // tie, up to even
  EXPECT_EQ(BFloatBits(BitsToFloat(0x00008001u)), 0x0001u);
}

TEST(BFloat16Test, EveryNonNaNBitPatternRoundTripsThroughFloat) {
  for (std::uint32_t bits = 0; bits <= 0xffffu; ++bits) {
    const BFloat16 b = BFloat16::FromBits(static_cast<std::uint16_t>(bits));
    const float f = static_cast<float>(b);
    ASSERT_EQ(FloatBits(f), bits << 16) << std::hex << bits;
    if (std::isnan(f)) continue;
    ASSERT_EQ(BFloat16(f).bits(), bits) << std::hex << bits;
  }
}

TEST(BFloat16Test, EveryMidpointBetweenNeighboursRoundsToEven) {
  for (std::uint32_t bits = 0; bits < 0x7f80u; ++bits) {
    const std::uint32_t mid = (bits << 16) | 0x8000u;
    const std::uint32_t even = (bits & 1u) == 0 ? bits : bits + 1;
    ASSERT_EQ(BFloatBits(BitsToFloat(mid)), even) << std::hex << bits;
    ASSERT_EQ(BFloatBits(BitsToFloat(mid | 0x80000000u)), even | 0x8000u) << std::hex << bits;
    ASSERT_EQ(BFloatBits(BitsToFloat(mid - 1)), bits) << std::hex << bits;
    ASSERT_EQ(BFloatBits(BitsToFloat(mid + 1)), bits + 1) << std::hex << bits;
  }
}

TEST(BFloat16Test, AgreesWithAnIndependentRoundingAcrossAllFloats) {
  for (std::uint64_t bits = 0; bits <= 0xffffffffu; bits += 997) {
    const float f = BitsToFloat(static_cast<std::uint32_t>(bits));
    if (std::isnan(f) || std::isinf(f)) continue;
    ASSERT_THAT(BFloatBits(f), Eq(ReferenceBFloatBits(f))) << std::hex << bits;
  }
}

}  // namespace
}  // namespace tensor
