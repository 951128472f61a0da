#include "tensor/dtype.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/half.h"

namespace tensor {
namespace {

using ::testing::ElementsAre;
using ::testing::Optional;
using ::testing::StrEq;

static_assert(DTypeOf<bool>() == DType::kBool);
static_assert(DTypeOf<std::uint8_t>() == DType::kUInt8);
static_assert(DTypeOf<std::int8_t>() == DType::kInt8);
static_assert(DTypeOf<std::int16_t>() == DType::kInt16);
static_assert(DTypeOf<std::int32_t>() == DType::kInt32);
static_assert(DTypeOf<std::int64_t>() == DType::kInt64);
static_assert(DTypeOf<Float16>() == DType::kFloat16);
static_assert(DTypeOf<BFloat16>() == DType::kBFloat16);
static_assert(DTypeOf<float>() == DType::kFloat32);
static_assert(DTypeOf<double>() == DType::kFloat64);

static_assert(std::is_same_v<DTypeTraits<DType::kUInt8>::type, std::uint8_t>);
static_assert(std::is_same_v<DTypeTraits<DType::kFloat16>::type, Float16>);
static_assert(std::is_same_v<DTypeTraits<DType::kFloat64>::type, double>);

static_assert(kIsFloating<float> && kIsFloating<double> && kIsFloating<Float16> &&
              kIsFloating<BFloat16>);
static_assert(!kIsFloating<bool> && !kIsFloating<std::int32_t> && !kIsFloating<std::uint8_t>);
static_assert(kIsInteger<std::uint8_t> && kIsInteger<std::int8_t> && kIsInteger<std::int64_t>);
static_assert(!kIsInteger<bool> && !kIsInteger<float> && !kIsInteger<Float16>);

static_assert(std::is_same_v<ComputeType<Float16>, float>);
static_assert(std::is_same_v<ComputeType<BFloat16>, float>);
static_assert(std::is_same_v<ComputeType<double>, double>);
static_assert(std::is_same_v<ComputeType<std::int8_t>, std::int8_t>);

TEST(DTypeTest, AllDTypesListsTheTenTypesOnceEach) {
  const std::set<DType> unique(std::begin(kAllDTypes), std::end(kAllDTypes));
  EXPECT_EQ(std::size(kAllDTypes), 10u);
  EXPECT_EQ(unique.size(), 10u);
}

TEST(DTypeTest, NamesAreTheShortSpellings) {
  EXPECT_THAT(DTypeName(DType::kBool), StrEq("bool"));
  EXPECT_THAT(DTypeName(DType::kUInt8), StrEq("uint8"));
  EXPECT_THAT(DTypeName(DType::kInt8), StrEq("int8"));
  EXPECT_THAT(DTypeName(DType::kInt16), StrEq("int16"));
  EXPECT_THAT(DTypeName(DType::kInt32), StrEq("int32"));
  EXPECT_THAT(DTypeName(DType::kInt64), StrEq("int64"));
  EXPECT_THAT(DTypeName(DType::kFloat16), StrEq("float16"));
  EXPECT_THAT(DTypeName(DType::kBFloat16), StrEq("bfloat16"));
  EXPECT_THAT(DTypeName(DType::kFloat32), StrEq("float32"));
  EXPECT_THAT(DTypeName(DType::kFloat64), StrEq("float64"));
}

TEST(DTypeTest, TensorNamesAreTheLuaClassNames) {
  EXPECT_THAT(DTypeTensorName(DType::kBool), StrEq("BoolTensor"));
  EXPECT_THAT(DTypeTensorName(DType::kUInt8), StrEq("ByteTensor"));
  EXPECT_THAT(DTypeTensorName(DType::kInt8), StrEq("CharTensor"));
  EXPECT_THAT(DTypeTensorName(DType::kInt16), StrEq("Int16Tensor"));
  EXPECT_THAT(DTypeTensorName(DType::kInt32), StrEq("Int32Tensor"));
  EXPECT_THAT(DTypeTensorName(DType::kInt64), StrEq("Int64Tensor"));
  EXPECT_THAT(DTypeTensorName(DType::kFloat16), StrEq("HalfTensor"));
  EXPECT_THAT(DTypeTensorName(DType::kBFloat16), StrEq("BFloat16Tensor"));
  EXPECT_THAT(DTypeTensorName(DType::kFloat32), StrEq("FloatTensor"));
  EXPECT_THAT(DTypeTensorName(DType::kFloat64), StrEq("DoubleTensor"));
}

TEST(DTypeTest, SizesAreTheElementSizesInBytes) {
  EXPECT_EQ(DTypeSize(DType::kBool), 1u);
  EXPECT_EQ(DTypeSize(DType::kUInt8), 1u);
  EXPECT_EQ(DTypeSize(DType::kInt8), 1u);
  EXPECT_EQ(DTypeSize(DType::kInt16), 2u);
  EXPECT_EQ(DTypeSize(DType::kInt32), 4u);
  EXPECT_EQ(DTypeSize(DType::kInt64), 8u);
  EXPECT_EQ(DTypeSize(DType::kFloat16), 2u);
  EXPECT_EQ(DTypeSize(DType::kBFloat16), 2u);
  EXPECT_EQ(DTypeSize(DType::kFloat32), 4u);
  EXPECT_EQ(DTypeSize(DType::kFloat64), 8u);
}

TEST(DTypeTest, IsFloatingIsTrueForExactlyTheFourFloatTypes) {
  std::set<DType> floating;
  for (DType dtype : kAllDTypes) {
    if (IsFloating(dtype)) floating.insert(dtype);
  }
  EXPECT_THAT(floating, ElementsAre(DType::kFloat16, DType::kBFloat16, DType::kFloat32,
                                    DType::kFloat64));
}

TEST(DTypeTest, FromNameInvertsNameForEveryDType) {
  for (DType dtype : kAllDTypes) {
    EXPECT_THAT(DTypeFromName(DTypeName(dtype)), Optional(dtype)) << DTypeName(dtype);
  }
}

TEST(DTypeTest, FromNameRejectsUnknownAndMisspelledNames) {
  EXPECT_EQ(DTypeFromName(""), std::nullopt);
  EXPECT_EQ(DTypeFromName("float"), std::nullopt);
  EXPECT_EQ(DTypeFromName("Float32"), std::nullopt);
  EXPECT_EQ(DTypeFromName("float32 "), std::nullopt);
  EXPECT_EQ(DTypeFromName("DoubleTensor"), std::nullopt);
  EXPECT_EQ(DTypeFromName("uint16"), std::nullopt);
}

TEST(DTypeTest, FromNameComparesOnlyTheGivenCharacters) {
  const std::string padded = "int8x";
  EXPECT_THAT(DTypeFromName(std::string_view(padded).substr(0, 4)), Optional(DType::kInt8));
  EXPECT_EQ(DTypeFromName(std::string_view(padded)), std::nullopt);
}

TEST(DTypeTest, DispatchCallsTheLambdaWithTheMatchingType) {
  for (DType dtype : kAllDTypes) {
    const DType seen = DispatchDType(dtype, [](auto tag) {
      return DTypeOf<typename decltype(tag)::type>();
    });
    EXPECT_EQ(seen, dtype) << DTypeName(dtype);
  }
}

TEST(DTypeTest, DispatchTypeSizeMatchesDTypeSize) {
  for (DType dtype : kAllDTypes) {
    const std::size_t size =
        DispatchDType(dtype, [](auto tag) { return sizeof(typename decltype(tag)::type); });
    EXPECT_EQ(size, DTypeSize(dtype)) << DTypeName(dtype);
  }
}

TEST(DTypeTest, DispatchReturnsReferencesUnchanged) {
  int target = 0;
  int& result = DispatchDType(DType::kInt32, [&](auto) -> int& { return target; });
  result = 42;
  EXPECT_EQ(target, 42);
}

TEST(DTypeTest, DispatchRunsTheLambdaExactlyOnce) {
  int calls = 0;
  DispatchDType(DType::kFloat16, [&](auto) { ++calls; });
  EXPECT_EQ(calls, 1);
}

}  // namespace
}  // namespace tensor
