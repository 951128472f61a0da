// dmlab.system.torch in a sandboxed level: Torch7's tensors, operators,
// indexing and serialisation work; what touches files or shows an address
// is refused with an error naming the function; class tables hide the
// tensors' real metatables; deserialised data is charged to the level's
// budgets and its work to the instruction limit.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "engine_plugin/engine.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using Settings = std::vector<std::pair<std::string, std::string>>;

// A level whose start runs `body` with `torch` required; written outside
// levels/ (TorchLevel), it runs in the sandbox.
std::string TorchSource(const std::string& body) {
  return FailingStart("local torch = require 'dmlab.system.torch'\n" + body);
}

std::string TorchLevel(const std::string& name, const std::string& body) {
  return WriteLevel(name, TorchSource(body));
}

TEST(TorchSandboxTest, TorchWorksInASandboxedLevel) {
  std::unique_ptr<Engine> engine = InitEngine(TorchLevel(
      "torch_works",
      "local x = torch.Tensor({{1, 2}, {3, 4}})\n"
      "assert((x * x)[1][1] == 7 and x[{2, 1}] == 3)\n"
      "x[x:gt(2)] = 0\n"
      "assert(x:sum() == 3)\n"
      "local back = torch.deserialize(torch.serialize({x, 'name'}, 'ascii'), 'ascii')\n"
      "assert(back[1]:equal(x) and back[2] == 'name')\n"
      "assert(torch.type(torch.LongStorage({2, 3})) == 'torch.LongStorage')\n"
      "local Point = torch.class('torch.SandboxPoint')\n"
      "function Point:__init(v) self.v = v end\n"
      "assert(torch.SandboxPoint(4).v == 4)\n"
      "torch.manualSeed(3)\n"
      "local a = torch.rand(3)\n"
      "torch.manualSeed(3)\n"
      "assert(torch.rand(3):equal(a))\n"));
  ASSERT_NE(engine, nullptr);
  absl::Status started = engine->Start(0, 1);
  EXPECT_TRUE(started.ok()) << started;
}

TEST(TorchSandboxTest, FilesAndAddressesAreRefusedByName) {
  for (const auto& [body, message] : std::vector<std::pair<std::string, std::string>>{
           {"torch.save('/tmp/x.t7', 1)", "'save': a sandboxed level has no files"},
           {"torch.load('/etc/passwd')", "'load': a sandboxed level has no files"},
           {"torch.CmdLine():log('/tmp/log', {})", "'log': a sandboxed level has no files"},
           {"torch.pointer({})", "'pointer': a sandboxed level sees no addresses"},
           {"require 'paths'", "module 'paths' not found"},
       }) {
    SCOPED_TRACE(body);
    ExpectStartFailsThenRecovers("torch_refused", TorchSource(body), {},
                                 {message});
  }
}

// The class tables a level can reach are not the tensors' metatables: no
// __gc to call, and changing them changes no tensor's safety checks.
TEST(TorchSandboxTest, ClassTablesHideTheRealMetatables) {
  std::unique_ptr<Engine> engine = InitEngine(TorchLevel(
      "torch_metatables",
      "local class = torch.getmetatable('torch.DoubleTensor')\n"
      "assert(rawget(class, '__gc') == nil)\n"
      "local t = torch.Tensor(2)\n"
      "assert(getmetatable(t) == 'torch.DoubleTensor', 'a name, not a table')\n"
      "assert(type(torch.newmetatable('torch.SandboxShape')) == 'table')\n"));
  ASSERT_NE(engine, nullptr);
  absl::Status started = engine->Start(0, 1);
  EXPECT_TRUE(started.ok()) << started;
}

// Deserialising a level's string allocates under its budgets: a storage
// past the tensor limit is refused, and a loop of deserialisation is
// stopped by the watchdog.
TEST(TorchSandboxTest, DeserialisationIsChargedToTheBudgets) {
  ExpectStartFailsThenRecovers(
      "torch_deserialize_big",
      TorchSource("local big = torch.serialize(torch.ByteTensor(4 * 2 ^ 20))\n"
                  "torch.deserialize(big)"),
      {{"tensorMemoryLimitMegabytes", "6"}}, {"'deserialize'", "limit"});
  ExpectStartFailsThenRecovers(
      "torch_deserialize_loop",
      TorchSource("local s = torch.serialize(torch.ByteTensor(2 ^ 16), 'ascii')\n"
                  "while true do torch.deserialize(s, 'ascii') end"),
      {{"instructionLimit", "10000000"}},
      {"exceeded the instruction limit of 10000000 instructions"});
}

}  // namespace
}  // namespace engine_plugin
