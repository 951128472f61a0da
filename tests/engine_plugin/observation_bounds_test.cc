// Declared observation bounds: customObservationSpec's min= and max=, their
// errors at init, a value outside them refused with its name, and the C
// ABI's observation_bounds.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

// A level whose observation 'X' (Doubles {2}) is declared with `bounds`
// (Lua fields, or "") and returns `value`; and 'Y', declared without.
std::string Level(const std::string& bounds, const std::string& value = "{0, 0}") {
  return "local tensor = require 'dmlab.system.tensor'\nlocal api = {}\n"
         "function api:nextMap() return '*****\\n*P  *\\n*****\\n' end\n"
         "function api:customObservationSpec()\n"
         "  return {{name = 'X', type = 'Doubles', shape = {2}" +
         (bounds.empty() ? "" : ", " + bounds) +
         "},\n          {name = 'Y', type = 'Bytes', shape = {1}}}\nend\n"
         "function api:customObservation(name)\n"
         "  if name == 'X' then return tensor.DoubleTensor" + value + " end\n"
         "  return tensor.ByteTensor{7}\nend\n"
         "return api\n";
}

TEST(ObservationBoundsTest, TheSpecCarriesTheDeclaredBounds) {
  std::unique_ptr<Engine> engine = InitEngine(WriteLevel("bounds", Level("min = -1, max = 1")));
  ASSERT_NE(engine, nullptr);
  const std::vector<ObservationSpec>& specs = engine->observation_specs();
  const ObservationSpec& x = specs[ObservationIndex(*engine, "X")];
  ASSERT_TRUE(x.bounds.has_value());
  EXPECT_EQ(x.bounds->min, -1);
  EXPECT_EQ(x.bounds->max, 1);
  EXPECT_FALSE(specs[ObservationIndex(*engine, "Y")].bounds.has_value());
  EXPECT_FALSE(specs[0].bounds.has_value());  // the host's RGB_INTERLEAVED
}

TEST(ObservationBoundsTest, InfiniteBoundsAreBounds) {
  std::unique_ptr<Engine> engine =
      InitEngine(WriteLevel("half", Level("min = 0, max = math.huge")));
  ASSERT_NE(engine, nullptr);
  const ObservationSpec& x = engine->observation_specs()[ObservationIndex(*engine, "X")];
  EXPECT_EQ(x.bounds->max, std::numeric_limits<double>::infinity());
}

TEST(ObservationBoundsTest, BadBoundsAreErrorsAtInit) {
  struct Case {
    const char* bounds;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"min = 0", "min and max: give both or neither, got only min"},
           {"max = 1", "min and max: give both or neither, got only max"},
           {"min = 1, max = 0", "min 1 is above max 0"},
           {"min = 0/0, max = 1", "min: a number, not NaN expected"},
           {"min = '0', max = 1", "min: a number, not NaN expected, got string"},
           {"min = 0, max = {}", "max: a number, not NaN expected, got table"},
       }) {
    absl::Status init = InitWith(WriteLevel("badbounds", Level(c.bounds)), {});
    EXPECT_EQ(init.code(), absl::StatusCode::kInvalidArgument) << c.bounds;
    EXPECT_THAT(init.message(), HasSubstr("customObservationSpec")) << c.bounds;
    EXPECT_THAT(init.message(), HasSubstr(c.message)) << c.bounds;
  }
  absl::Status text = InitWith(
      WriteLevel("textbounds",
                 "local api = {}\nfunction api:customObservationSpec()\n"
                 "  return {{name = 'T', type = 'String', min = 0, max = 1}}\nend\n"
                 "function api:customObservation() return 'x' end\nreturn api\n"),
      {});
  EXPECT_THAT(text.message(), HasSubstr("a 'String' observation has no bounds"));
}

TEST(ObservationBoundsTest, AValueOutsideIsAnErrorNamingTheObservation) {
  for (const char* value : {"{0, 1.5}", "{-2, 0}", "{0/0, 0}"}) {
    std::unique_ptr<Engine> engine =
        InitEngine(WriteLevel("outside", Level("min = -1, max = 1", value)));
    ASSERT_NE(engine, nullptr);
    ASSERT_TRUE(engine->Start(0, 0).ok());
    absl::StatusOr<ObservationValue> x = engine->Observation(ObservationIndex(*engine, "X"));
    ASSERT_FALSE(x.ok()) << value;
    EXPECT_THAT(x.status().message(), HasSubstr("customObservation('X')"));
    EXPECT_THAT(x.status().message(), HasSubstr("lies outside the declared [-1, 1]"));
    // The engine goes on.
    double reward = 0;
    EXPECT_TRUE(engine->Advance(1, &reward).ok());
  }
  // The bounds themselves are inside.
  std::unique_ptr<Engine> engine =
      InitEngine(WriteLevel("edges", Level("min = -1, max = 1", "{-1, 1}")));
  ASSERT_TRUE(engine->Start(0, 0).ok());
  EXPECT_TRUE(engine->Observation(ObservationIndex(*engine, "X")).ok());
}

TEST(ObservationBoundsTest, TheCAbiReportsThem) {
  const std::string level = WriteLevel("cbounds", Level("min = 0, max = 0.5"));
  EnvCApi api;
  void* context = StartContext(api, level);
  ASSERT_NE(context, nullptr);
  const int count = api.observation_count(context);
  double low = 7, high = 7;
  int x = -1, y = -1;
  for (int i = 0; i < count; ++i) {
    if (std::string(api.observation_name(context, i)) == "X") x = i;
    if (std::string(api.observation_name(context, i)) == "Y") y = i;
  }
  EXPECT_EQ(api.observation_bounds(context, x, &low, &high), 1);
  EXPECT_EQ(low, 0);
  EXPECT_EQ(high, 0.5);
  low = high = 7;
  EXPECT_EQ(api.observation_bounds(context, y, &low, &high), 0);
  EXPECT_EQ(low, 7);  // untouched
  EXPECT_EQ(api.observation_bounds(context, count, &low, &high), -1);
  EXPECT_THAT(api.error_message(context), HasSubstr("observation_bounds"));
  EXPECT_EQ(api.observation_bounds(context, x, nullptr, &high), -1);
  EXPECT_THAT(api.error_message(context), HasSubstr("must not be null"));
  api.release_context(context);
}

}  // namespace
}  // namespace engine_plugin
