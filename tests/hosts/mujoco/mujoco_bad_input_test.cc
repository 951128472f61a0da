// Bad input to the MuJoCo host: broken and escaping models, oversized
// ones, bad actions, diverging physics and MuJoCo's fatal errors. Each is
// an error status that says what went wrong, and the host goes on.
#include <unistd.h>

#include <cmath>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/hosts/mujoco/mujoco_test_support.h"

namespace hosts::mujoco {
namespace {

using engine_plugin::Engine;
using engine_plugin::EpisodeStatus;
using ::testing::HasSubstr;

constexpr char kBall[] = R"(<mujoco>
  <worldbody>
    <geom type="plane" size="1 1 .1"/>
    <body pos="0 0 .5"><joint type="free"/><geom size=".1"/></body>
  </worldbody>
</mujoco>)";

// Init's error for a level whose model() returns `model_table` (Lua).
std::string InitError(const std::string& folder, const std::string& model_table,
                      const std::vector<std::pair<std::string, std::string>>& settings = {}) {
  const std::string path = folder + "/level.lua";
  WriteFile(path, absl::StrCat("-- host: mujoco\nlocal api = {}\nfunction api:model() return ",
                               model_table, " end\nreturn api\n"));
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(path);
  EXPECT_TRUE(engine.ok()) << engine.status();
  if (!engine.ok()) return "";
  for (const auto& [key, value] : settings) EXPECT_TRUE((*engine)->SetSetting(key, value).ok());
  absl::Status init = (*engine)->Init();
  EXPECT_FALSE(init.ok()) << model_table;
  return std::string(init.message());
}

TEST(MujocoBadInputTest, ABrokenModelCarriesMujocosMessageAndLine) {
  const std::string folder = TestFolder("broken");
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco>\\n<worldbody>\\n<geom size=\"x\"/>'}"),
              HasSubstr("XML parse error"));
  WriteFile(folder + "/bad.xml", "<mujoco>\n<worldbody>\n<body>\n<geom size=\"x\"/>\n</body>"
                                 "</worldbody></mujoco>");
  const std::string message = InitError(folder, "{file = 'bad.xml'}");
  EXPECT_THAT(message, HasSubstr("MuJoCo could not load the model"));
  EXPECT_THAT(message, HasSubstr("line 4"));
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><worldbody><foo/></worldbody></mujoco>'}"),
              HasSubstr("unrecognized element"));
}

TEST(MujocoBadInputTest, TheModelTableIsChecked) {
  const std::string folder = TestFolder("table");
  EXPECT_THAT(InitError(folder, "'cartpole.xml'"),
              HasSubstr("must return a table {file = ...} or {xml = ...}, not string"));
  EXPECT_THAT(InitError(folder, "{file = 'a.xml', xml = '<mujoco/>'}"),
              HasSubstr("one of 'file' and 'xml'"));
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco/>', frameSkip = 0}"),
              HasSubstr("field 'frameSkip': an integer in [1, 1000] expected, got 0"));
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco/>', camera = 'nowhere'}"),
              HasSubstr("camera 'nowhere': the model has no camera of that name"));
  EXPECT_THAT(InitError(folder, "nil"), HasSubstr("must return a table"));
}

TEST(MujocoBadInputTest, AMissingFileIsNamed) {
  const std::string folder = TestFolder("missing");
  EXPECT_THAT(InitError(folder, "{file = 'nothere.xml'}"), HasSubstr("nothere.xml"));
  WriteFile(folder + "/main.xml", "<mujoco><include file=\"parts.xml\"/></mujoco>");
  EXPECT_THAT(InitError(folder, "{file = 'main.xml'}"),
              HasSubstr("file 'parts.xml': " + folder + "/parts.xml is missing or outside"));
}

TEST(MujocoBadInputTest, NothingTheModelNamesMayLeaveTheLevelsFolder) {
  const std::string root = TestFolder("escape");
  const std::string folder = root + "/level";
  ASSERT_EQ(system(absl::StrCat("mkdir -p ", folder, "/meshes").c_str()), 0);
  WriteFile(root + "/outside.xml", "<mujoco/>");
  const std::string cases[][2] = {
      {"{file = '../outside.xml'}", "must stay inside the level's folder, not hold '..'"},
      {"{file = '/etc/hostname'}", "not hold an absolute path"},
      {"{xml = '<mujoco><include file=\"../outside.xml\"/></mujoco>'}", "not hold '..'"},
      {"{xml = '<mujoco><asset><mesh file=\"/etc/passwd\"/></asset></mujoco>'}",
       "not hold an absolute path"},
      {"{xml = '<mujoco><compiler meshdir=\"../..\"/></mujoco>'}", "meshdir='../..'"},
      {"{xml = '<mujoco><asset><texture type=\"skybox\" fileup=\"..\\\\x.png\"/></asset>"
       "</mujoco>'}",
       "a backslash"},
      {"{xml = '<mujoco><include file=\"&#46;&#46;/outside.xml\"/></mujoco>'}", "'..'"},
      {"{xml = '<!DOCTYPE x [<!ENTITY e \"../outside.xml\">]><mujoco/>'}", "DOCTYPE"},
  };
  for (const auto& [table, message] : cases) {
    EXPECT_THAT(InitError(folder, table), HasSubstr(message)) << table;
  }
  // A link inside the folder to a file outside it.
  ASSERT_EQ(symlink((root + "/outside.xml").c_str(), (folder + "/linked.xml").c_str()), 0);
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><include file=\"linked.xml\"/></mujoco>'}"),
              HasSubstr("is missing or outside the level's folder"));
  // The main model file too: it used to be read through the link.
  EXPECT_THAT(InitError(folder, "{file = 'linked.xml'}"),
              HasSubstr("is missing or outside the level's folder"));
  // A device is not a model file, even inside the folder.
  ASSERT_EQ(symlink("/dev/zero", (folder + "/meshes/zero.stl").c_str()), 0);
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><compiler meshdir=\"meshes\"/><asset>"
                                "<mesh file=\"zero.stl\"/></asset></mujoco>'}"),
              HasSubstr("outside the level's folder"));
}

// Each file is read and scanned once. A file included from two places was
// scanned again at each: eight files of twelve includes of the next ran for
// minutes (12^8 scans).
TEST(MujocoBadInputTest, AFileIsIncludedOnce) {
  const std::string folder = TestFolder("included");
  WriteFile(folder + "/part.xml", "<mujoco/>");
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><include file=\"part.xml\"/>"
                                "<include file=\"part.xml\"/></mujoco>'}"),
              HasSubstr("file 'part.xml' is included more than once"));
  // A diamond: two files that include a third.
  WriteFile(folder + "/left.xml", "<mujoco><include file=\"part.xml\"/></mujoco>");
  WriteFile(folder + "/right.xml", "<mujoco><include file=\"part.xml\"/></mujoco>");
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><include file=\"left.xml\"/>"
                                "<include file=\"right.xml\"/></mujoco>'}"),
              HasSubstr("included more than once"));
  // The chain of the report: level k includes level k+1 twelve times.
  for (int k = 0; k < 8; ++k) {
    std::string xml = "<mujoco>";
    for (int i = 0; i < 12 && k < 7; ++i) {
      absl::StrAppend(&xml, "<include file=\"chain", k + 1, ".xml\"/>");
    }
    WriteFile(absl::StrCat(folder, "/chain", k, ".xml"), xml + "</mujoco>");
  }
  EXPECT_THAT(InitError(folder, "{file = 'chain0.xml'}"), HasSubstr("included more than once"));
}

// MuJoCo's file system takes no empty file: a fatal error that ended the
// process (a fuzz finding, mujoco_model: the loader given empty text).
TEST(MujocoBadInputTest, AnEmptyModelFileIsAnError) {
  const std::string folder = TestFolder("empty");
  WriteFile(folder + "/empty.xml", "");
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><include file=\"empty.xml\"/></mujoco>'}"),
              HasSubstr("model file 'empty.xml' is empty"));
  EXPECT_THAT(InitError(folder, "{file = 'empty.xml'}"), HasSubstr("is empty"));
}

// A <composite> is counted as the bodies, joints and geoms it becomes,
// before MuJoCo compiles it (25^3 points took 19.6 s and 701 MB under a
// 16 MiB budget).
TEST(MujocoBadInputTest, ACompositeIsBoundedBeforeItIsCompiled) {
  const std::string folder = TestFolder("composite");
  EXPECT_THAT(InitError(folder,
                        "{xml = '<mujoco><worldbody><composite type=\"particle\" "
                        "count=\"25 25 25\" spacing=\"0.01\"><geom size=\".001\"/>"
                        "</composite></worldbody></mujoco>'}",
                        {{"tensorMemoryLimitMegabytes", "16"}}),
              HasSubstr("more than the 16 MiB the level may use"));
}

TEST(MujocoBadInputTest, ABuiltinLevelsModelRefersToNoFile) {
  // Built-in levels have no folder: their models live in the binary.
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create("cartpole_balance");
  ASSERT_TRUE(engine.ok());
  ASSERT_TRUE((*engine)->Init().ok());
}

TEST(MujocoBadInputTest, AnOversizedModelIsRefusedBeforeMujocoAllocatesIt) {
  const std::string folder = TestFolder("oversized");
  const std::vector<std::pair<std::string, std::string>> sandbox = {
      {"tensorMemoryLimitMegabytes", "64"}};
  // Counts MuJoCo would allocate while compiling.
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><size nstack=\"1000000000\"/></mujoco>'}",
                        sandbox),
              HasSubstr("more than the 64 MiB the level may use"));
  // A count with text after it, which MuJoCo reads as the number it
  // starts with (a fuzz finding: 160 MB of stack under a 16 MiB budget).
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><size nstack=\"20000000>00\"/></mujoco>'}",
                        sandbox),
              HasSubstr("more than the 64 MiB the level may use"));
  EXPECT_THAT(InitError(folder,
                        "{xml = '<mujoco><asset><hfield name=\"h\" nrow=\"100000\" "
                        "ncol=\"100000\" size=\"1 1 1 1\"/></asset></mujoco>'}",
                        sandbox),
              HasSubstr("more than the 64 MiB"));
  EXPECT_THAT(InitError(folder,
                        "{xml = '<mujoco><asset><texture name=\"t\" type=\"2d\" builtin=\"flat\" "
                        "width=\"60000\" height=\"60000\"/></asset></mujoco>'}",
                        sandbox),
              HasSubstr("more than the 64 MiB"));
  // mjData, which MuJoCo's compiler makes too: njmax constraints take
  // njmax x njmax doubles.
  EXPECT_THAT(InitError(folder,
                        "{xml = '<mujoco><size njmax=\"20000\"/><worldbody><geom "
                        "size=\".1\"/></worldbody></mujoco>'}",
                        sandbox),
              HasSubstr("mjData (while compiling)"));
  // The compiled model and mjData, measured exactly before mj_makeData: a
  // stack just inside the bound checked before compiling (which leaves out
  // mjData's smaller arrays and the model), and so just outside the room.
  WriteFile(folder + "/ball.xml", kBall);
  EXPECT_THAT(InitError(folder, "{xml = '<mujoco><size nstack=\"8136108\"/></mujoco>'}",
                        sandbox),
              HasSubstr("model and data"));
}

TEST(MujocoBadInputTest, TheModelCountsAgainstTheLevelsTensorMemory) {
  const std::string level = WriteMujocoLevel(TestFolder("charged"), BuiltinModel("cartpole.xml"), R"(
local tensor = require 'dmlab.system.tensor'
function api:readProperty(key)
  local bytes = tonumber(key:match('^allocate:(%d+)$'))
  if bytes == nil then return nil end
  local made, why = pcall(function() return tensor.ByteTensor(bytes) end)
  return made and 'made' or why
end
)");
  std::unique_ptr<Engine> engine = InitEngine(level, {{"tensorMemoryLimitMegabytes", "64"}});
  ASSERT_NE(engine, nullptr);
  std::string model_bytes;
  ASSERT_TRUE(engine->ReadProperty("engine.modelBytes", &model_bytes).ok());
  const std::int64_t charged = std::stoll(model_bytes);
  EXPECT_GT(charged, 10'000);  // mjModel, and mjData's buffer and stack
  const std::int64_t limit = std::int64_t{64} << 20;
  std::string result;
  ASSERT_TRUE(engine->ReadProperty(absl::StrCat("allocate:", limit - charged + 1), &result).ok());
  EXPECT_THAT(result, HasSubstr("would exceed the tensor memory limit"));
  EXPECT_THAT(result, HasSubstr(absl::StrCat("(", charged, " bytes are in use)")));
  ASSERT_TRUE(engine->ReadProperty(absl::StrCat("allocate:", limit - charged), &result).ok());
  EXPECT_EQ(result, "made");
}

TEST(MujocoBadInputTest, NonFiniteActionsAreRefusedAndChangeNothing) {
  const std::string level = WriteMujocoLevel(TestFolder("actions"), BuiltinModel("cartpole.xml"),
                                             "function api:afterStep() return 0 end");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  ASSERT_TRUE(engine->ActContinuous({0.5}).ok());
  for (double bad : {std::nan(""), HUGE_VAL, -HUGE_VAL}) {
    absl::Status refused = engine->ActContinuous({bad});
    EXPECT_THAT(refused.message(), HasSubstr("continuous action 0 ('slide')")) << bad;
    EXPECT_THAT(refused.message(), HasSubstr("not a finite number"));
  }
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  // Too few values: the rest are 0; too many: the rest are ignored.
  EXPECT_TRUE(engine->ActContinuous({}).ok());
  EXPECT_TRUE(engine->ActContinuous({0.1, 0.2, 0.3}).ok());
}

TEST(MujocoBadInputTest, DivergingPhysicsEndsTheEpisodeWithAnErrorAndStartRecovers) {
  const std::string level = WriteMujocoLevel(TestFolder("diverging"), BuiltinModel("cartpole.xml"), R"(
local blowUp = false
function api:beforeStep(state) if blowUp then state.qvel(2):val(1e300) end end
function api:afterStep() return 0 end
function api:writeProperty(key, value) blowUp = value == 'true'; return true end
)");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  ASSERT_TRUE(engine->WriteProperty("blowUp", "true").ok());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> stepped = engine->Advance(5, &reward);
  ASSERT_FALSE(stepped.ok());
  EXPECT_THAT(stepped.status().message(), HasSubstr("the physics diverged at t = "));
  EXPECT_THAT(stepped.status().message(), HasSubstr("start a new one"));
  EXPECT_FALSE(engine->Advance(1, &reward).ok());
  ASSERT_TRUE(engine->WriteProperty("blowUp", "false").ok());
  ASSERT_TRUE(engine->Start(1, 1).ok());
  EXPECT_EQ(*engine->Advance(5, &reward), EpisodeStatus::kRunning);
  for (double value : Doubles(*engine, "QVEL")) EXPECT_LT(std::abs(value), 10);
}

TEST(MujocoBadInputTest, AFatalMujocoErrorIsAnErrorStatusNotAnExit) {
  // A stack too small for the contacts to come: MuJoCo's mju_error, which
  // without a handler prints and exits the process.
  const std::string level = WriteMujocoLevel(
      TestFolder("fatal"),
      R"(<mujoco><size nstack="300"/><worldbody><geom type="plane" size="1 1 .1"/>
         <body pos="0 0 .5"><joint type="free"/><geom size=".1"/></body>
         <body pos=".05 0 .8"><joint type="free"/><geom type="box" size=".1 .1 .1"/></body>
         </worldbody></mujoco>)",
      "function api:afterStep() return 0 end");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  absl::StatusOr<EpisodeStatus> stepped = engine->Advance(300, &reward);
  ASSERT_FALSE(stepped.ok());
  EXPECT_THAT(stepped.status().message(), HasSubstr("mj_step: MuJoCo: Stack overflow"));
  EXPECT_FALSE(engine->Advance(1, &reward).ok());
  ASSERT_TRUE(engine->Start(1, 1).ok());  // mj_resetData: usable again until the contacts
  EXPECT_EQ(*engine->Advance(1, &reward), EpisodeStatus::kRunning);
}

TEST(MujocoBadInputTest, AZeroTimestepGivesABoundedRate) {
  // MuJoCo accepts <option timestep="0">; the control rate stays finite.
  const std::string level = WriteMujocoLevel(
      TestFolder("zero_timestep"),
      R"(<mujoco><option timestep="0"/><worldbody><body><joint/><geom size=".1"/></body>
         </worldbody></mujoco>)",
      "");
  std::unique_ptr<Engine> engine = InitEngine(level);
  ASSERT_NE(engine, nullptr);
  EXPECT_EQ(engine->fps(), 1'000'000);
  ASSERT_TRUE(engine->Start(0, 1).ok());
  double reward = 0;
  EXPECT_TRUE(engine->Advance(3, &reward).ok());
}

TEST(MujocoBadInputTest, BadSettingsAreRefused) {
  const std::string level = WriteMujocoLevel(TestFolder("settings"), kBall, "");
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  ASSERT_TRUE(engine.ok());
  EXPECT_THAT((*engine)->SetSetting("frameSkip", "0").message(), HasSubstr("[1, 1000]"));
  EXPECT_THAT((*engine)->SetSetting("width", "5000").message(), HasSubstr("[1, 4096]"));
  ASSERT_TRUE((*engine)->SetSetting("camera", "overhead").ok());
  EXPECT_THAT((*engine)->Init().message(), HasSubstr("camera 'overhead'"));
}

}  // namespace
}  // namespace hosts::mujoco
