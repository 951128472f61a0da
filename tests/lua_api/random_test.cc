#include "lua_api/tensor/random.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/types/span.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/lua_api/lua_state_fixture.h"

namespace lua_api {
namespace {

using ::testing::HasSubstr;

// The C++ standard fixes mt19937_64's output: its 10000th value from the
// default seed is 9981545732273789042 ([rand.predef]).
TEST(LuaRandomTest, TheEngineIsTheStandardMersenneTwister) {
  LuaRandom gen(5489);
  std::uint64_t value = 0;
  for (int i = 0; i < 10000; ++i) value = gen.engine()();
  EXPECT_EQ(value, 9981545732273789042ull);
}

// The distributions are plain arithmetic on the engine's output, so they
// can be recomputed here from a separate engine.
// DeepMind Lab's dmlab.system.random draws each value with a fresh
// standard distribution over std::mt19937_64; so do these, so that a
// seeded level makes the same choices here as there.
TEST(LuaRandomTest, DistributionsAreDeepMindLabs) {
  std::mt19937_64 reference(3);
  LuaRandom gen(3);
  EXPECT_EQ(gen.UniformInt(1, 1000000),
            static_cast<std::int64_t>(
                std::uniform_int_distribution<std::uint64_t>(1, 1000000)(reference)));
  EXPECT_EQ(gen.UniformReal(2, 5), std::uniform_real_distribution<double>(2, 5)(reference));
  EXPECT_EQ(gen.Normal(1, 2), std::normal_distribution<double>(1, 2)(reference));
  const double weights[] = {1, 0, 2};
  EXPECT_EQ(gen.Discrete(weights),
            std::discrete_distribution<std::size_t>(std::begin(weights), std::end(weights))(reference));
}

// DeepMind Lab's maze generation shuffles with std::shuffle; Shuffle is
// libstdc++'s, odd and even lengths (an even one swaps its first alone).
TEST(LuaRandomTest, ShuffleIsLibstdcxxs) {
  for (int n = 0; n <= 9; ++n) {
    std::vector<int> ours(n), theirs(n);
    for (int i = 0; i < n; ++i) ours[i] = theirs[i] = i;
    LuaRandom gen(11);
    gen.Shuffle(absl::MakeSpan(ours));
    const std::uint64_t after = gen.engine()();
#ifdef __GLIBCXX__
    std::mt19937_64 reference(11);
    std::shuffle(theirs.begin(), theirs.end(), reference);
    EXPECT_EQ(ours, theirs) << n;
    EXPECT_EQ(after, reference()) << n;
#endif
    std::sort(ours.begin(), ours.end());
    for (int i = 0; i < n; ++i) EXPECT_EQ(ours[i], i);
  }
  // Pinned, for every standard library.
  std::vector<int> values = {0, 1, 2, 3, 4, 5, 6, 7};
  LuaRandom gen(11);
  gen.Shuffle(absl::MakeSpan(values));
  EXPECT_THAT(values, ::testing::ElementsAre(1, 4, 2, 0, 6, 5, 3, 7));
}

// The sequence from seed 0, pinned: a change here changes every seeded
// level and test in the project. DeepMind Lab's own module (built by
// ../shared/anchors/build_dmlab.sh, run by its luarun) prints the same:
// 159794, 0.99214520962982877, 0.10191855551453792, 3 (1-based).
TEST(LuaRandomTest, GoldenValuesFromSeedZero) {
  LuaRandom gen;  // seed 0
  EXPECT_EQ(gen.UniformInt(1, 1000000), 159794);
  EXPECT_DOUBLE_EQ(gen.UniformReal(0, 1), 0.99214520962982877);
  EXPECT_NEAR(gen.Normal(0, 1), 0.10191855551453792, 1e-15);
  const double weights[] = {1, 2, 3};
  EXPECT_EQ(gen.Discrete(weights), 2u);
}

TEST(LuaRandomTest, SeedRestartsTheSequence) {
  LuaRandom gen(7);
  std::vector<std::int64_t> first;
  for (int i = 0; i < 10; ++i) first.push_back(gen.UniformInt(0, 100));
  gen.Seed(7);
  for (int i = 0; i < 10; ++i) EXPECT_EQ(gen.UniformInt(0, 100), first[i]);
}

TEST(LuaRandomTest, UniformIntCoversTheWholeInt64Range) {
  LuaRandom gen(1);
  constexpr std::int64_t kMin = std::numeric_limits<std::int64_t>::min();
  constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
  bool negative = false, positive = false;
  for (int i = 0; i < 64; ++i) {
    const std::int64_t v = gen.UniformInt(kMin, kMax);
    negative |= v < 0;
    positive |= v > 0;
  }
  EXPECT_TRUE(negative && positive);
  EXPECT_EQ(gen.UniformInt(kMax, kMax), kMax);
  EXPECT_EQ(gen.UniformInt(kMin, kMin), kMin);
  for (int i = 0; i < 100; ++i) {
    const std::int64_t v = gen.UniformInt(kMax - 1, kMax);
    EXPECT_TRUE(v == kMax - 1 || v == kMax);
  }
}

TEST(LuaRandomTest, UniformRealStaysInsideExtremeBounds) {
  LuaRandom gen(2);
  for (int i = 0; i < 1000; ++i) {
    const double v = gen.UniformReal(-DBL_MAX, DBL_MAX);
    ASSERT_TRUE(std::isfinite(v));
    ASSERT_LT(v, DBL_MAX);
    const double w = gen.UniformReal(1.0, std::nextafter(1.0, 2.0));
    ASSERT_EQ(w, 1.0) << "the only value of [1, next(1))";
  }
  EXPECT_EQ(gen.UniformReal(3, 3), 3);
}

TEST(LuaRandomTest, DiscreteSkipsZeroWeights) {
  LuaRandom gen(3);
  const double weights[] = {0, 1e-300, 0, 1, 0};
  for (int i = 0; i < 1000; ++i) {
    const std::size_t k = gen.Discrete(weights);
    ASSERT_TRUE(k == 1 || k == 3) << k;
  }
}

class RandomModuleTest : public LuaStateTest {
 protected:
  RandomModuleTest() { RegisterRandomModule(L); }
};

TEST_F(RandomModuleTest, TheModuleIsTheDefaultGenerator) {
  ASSERT_EQ(Run("random = require 'dmlab.system.random'"), "");
  lua_getglobal(L, "random");
  LuaRandom* gen = LuaRandom::Read(L, -1);
  ASSERT_NE(gen, nullptr) << "C++ (tensor:shuffle) accepts the module as a generator";
  EXPECT_EQ(gen->UniformInt(1, 1000000), 159794) << "seeded with 0";
  lua_pop(L, 1);
  EXPECT_EQ(Run("assert(require 'dmlab.system.random' == random)"), "");
  EXPECT_EQ(Run("assert(tostring(random) == 'dmlab.system.random')"), "");
  EXPECT_EQ(Run("assert(tostring(random.Generator()) == 'dmlab.system.random.Generator')"), "");
  EXPECT_EQ(Run("assert(random.Generator(5).Generator == nil, 'only the module makes generators')"),
            "");
}

// DeepMind Lab's mixerSeed: every seed a level gives is n ^ (mixer << 32).
TEST_F(RandomModuleTest, TheMixerMixesEverySeedTheLevelGives) {
  ASSERT_EQ(Run("random = require 'dmlab.system.random'"), "");
  EXPECT_EQ(MixSeed(L, 5), 5u) << "no mixer: seeds as they are";
  SetSeedMixer(L, 3);
  EXPECT_EQ(MixSeed(L, 5), 5u ^ (std::uint64_t{3} << 32));
  LuaRandom mixed(5u ^ (std::uint64_t{3} << 32));
  const std::int64_t expected = mixed.UniformInt(1, 1000000);
  EXPECT_EQ(Run(absl::StrCat("random:seed(5) assert(random:uniformInt(1, 1000000) == ", expected,
                             ")")),
            "");
  EXPECT_EQ(Run(absl::StrCat("assert(random.Generator(5):uniformInt(1, 1000000) == ", expected,
                             ")")),
            "");
  SetSeedMixer(L, 0);
  EXPECT_EQ(Run(absl::StrCat("random:seed(5) assert(random:uniformInt(1, 1000000) ~= ", expected,
                             ")")),
            "");
}

TEST_F(RandomModuleTest, EachStateHasItsOwnDefaultGenerator) {
  ASSERT_EQ(Run("random = require 'dmlab.system.random'; x = random:uniformInt(1, 1000000)"), "");
  lua_State* other = luaL_newstate();
  luaL_openlibs(other);
  RegisterRandomModule(other);
  ASSERT_EQ(luaL_dostring(other, "return require('dmlab.system.random'):uniformInt(1, 1000000)"), 0);
  lua_getglobal(L, "x");
  EXPECT_EQ(lua_tonumber(L, -1), lua_tonumber(other, -1));
  lua_pop(L, 1);
  lua_close(other);
}

TEST_F(RandomModuleTest, ErrorsReadLikeLuas) {
  ASSERT_EQ(Run("random = require 'dmlab.system.random'"), "");
  EXPECT_EQ(Run("random:uniformInt()"),
            "bad argument #1 to 'uniformInt' (integer expected, got no value)");
  EXPECT_EQ(Run("random:uniformInt(1, nil)"),
            "bad argument #2 to 'uniformInt' (integer expected, got nil)");
  EXPECT_EQ(Run("random:uniformInt(6, 1)"), "bad argument #2 to 'uniformInt' (empty range [6, 1])");
  EXPECT_EQ(Run("random:uniformReal(0, 1/0)"),
            "bad argument #2 to 'uniformReal' (finite number expected, got number inf)");
  EXPECT_EQ(Run("random:normalDistribution(0, -2)"),
            "bad argument #2 to 'normalDistribution' (standard deviation must be >= 0, got -2)");
  EXPECT_EQ(Run("random:discreteDistribution({1, true})"),
            "bad argument #1 to 'discreteDistribution' "
            "(weight 2: finite non-negative number expected, got boolean)");
  EXPECT_EQ(Run("random:discreteDistribution({0})"),
            "bad argument #1 to 'discreteDistribution' "
            "(weights must have a positive, finite sum, got 0)");
  EXPECT_EQ(Run("random:discreteDistribution({1e308, 1e308})"),
            "bad argument #1 to 'discreteDistribution' "
            "(weights must have a positive, finite sum, got inf)");
  EXPECT_EQ(Run("random:discreteDistribution()"),
            "bad argument #1 to 'discreteDistribution' (table of weights expected, got no value)");
  EXPECT_EQ(Run("random.Generator(1/0)"),
            "bad argument #1 to 'Generator' (integer expected, got number inf)");
  EXPECT_THAT(Run("random.uniformInt(1, 6)"),
              HasSubstr("calling 'uniformInt' on bad self (dmlab.system.random expected, got "
                        "number 1); call methods with ':'"));
}

TEST_F(RandomModuleTest, LuaopenWorksWithoutPreload) {
  lua_pushcfunction(L, &luaopen_dmlab_system_random);
  ASSERT_EQ(lua_pcall(L, 0, 1, 0), 0);
  EXPECT_NE(LuaRandom::Read(L, -1), nullptr);
}

}  // namespace
}  // namespace lua_api
