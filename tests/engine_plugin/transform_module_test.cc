// dmlab.system.transform: DeepMind Lab's matrices as 4x4 FloatTensors of
// column-major coefficients, through a level.
#include <memory>
#include <string>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

absl::Status InitLevel(const std::string& name, const std::string& body) {
  const std::string level = WriteLevel(
      name, absl::StrCat("local transform = require 'dmlab.system.transform'\nlocal api = {}\n",
                         "function api:init()\n", body, "\nend\nreturn api\n"));
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  if (!engine.ok()) return engine.status();
  return (*engine)->Init();
}

TEST(TransformModuleTest, MakesDeepMindLabsMatrices) {
  const absl::Status init = InitLevel("transforms", R"lua(
    local t = transform.translate{1, 2, 3}
    assert(t:type() == 'dmlab.system.tensor.FloatTensor')
    assert(t:shape()[1] == 4 and t:shape()[2] == 4)
    -- Column-major: the offset is the fourth row when read row-major.
    assert(t(4, 1):val() == 1 and t(4, 2):val() == 2 and t(4, 3):val() == 3)
    assert(t(4, 4):val() == 1 and t(1, 1):val() == 1 and t(1, 4):val() == 0)
    local s = transform.scale{2, 3, 4}
    assert(s(1, 1):val() == 2 and s(2, 2):val() == 3 and s(3, 3):val() == 4 and s(4, 4):val() == 1)
    -- 90 degrees about z takes x to y: the matrix's first column, the
    -- tensor's first row, is {~0, 1, 0, 0}.
    local r = transform.rotate(90, {0, 0, 1})
    assert(math.abs(r(1, 1):val()) < 1e-6 and r(1, 2):val() == 1 and r(2, 1):val() == -1)
    -- (1 - cos) + cos in float: 0.99999994, as Eigen's AngleAxis gives.
    assert(math.abs(r(3, 3):val() - 1) < 1e-6 and r(4, 4):val() == 1)
    local x = transform.rotate(180, {1, 0, 0})
    assert(x(1, 1):val() == 1 and math.abs(x(2, 2):val() + 1) < 1e-6)
  )lua");
  EXPECT_TRUE(init.ok()) << init;
}

TEST(TransformModuleTest, BadArgumentsNameTheFunctionAndArgument) {
  const struct {
    const char* call;
    const char* says;
  } cases[] = {
      {"transform.translate(1)", "bad argument #1 to 'transform.translate' ({x, y, z} expected"},
      {"transform.scale{1, 'a', 3}", "bad argument #1 to 'transform.scale' ({x, y, z}: entry 2"},
      {"transform.rotate('a', {0, 0, 1})", "bad argument #1 to 'transform.rotate'"},
      {"transform.rotate(90)", "bad argument #2 to 'transform.rotate'"},
  };
  for (const auto& [call, says] : cases) {
    SCOPED_TRACE(call);
    const absl::Status init =
        InitLevel("bad_transform", absl::StrCat("local ok, err = pcall(function() return ", call,
                                                " end)\nassert(not ok)\nerror(err, 0)"));
    EXPECT_THAT(std::string(init.message()), HasSubstr(says));
  }
}

}  // namespace
}  // namespace engine_plugin
