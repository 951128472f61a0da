// Steps per second of one reference-engine instance on one core, with a
// random agent, reading observations as a host does after every step:
//   Steps/84x84/rgb            RGB_INTERLEAVED only (demo_maze with its
//                              custom observations off)
//   Steps/84x84/rgb+custom     plus demo_maze's two Lua observations
//   Steps/320x240/rgb
//   Players/N                  apple_race with N players (1, 2, 4, 8): each
//                              player's frame and reward read every step
// Each is beside RenderOnly at the same size (the renderer alone, into a
// reused buffer): the engine's cost over drawing the frame. The counter
// new_buffers counts observation buffers allocated while timing; 0 means
// every frame was rendered into a recycled buffer and handed out as it is
// (zero copies).
//
//   bazel run -c opt //benchmarks:engine_benchmark
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "benchmark/benchmark.h"
#include "engine_plugin/engine.h"
#include "hosts/maze/raycaster.h"
#include "hosts/maze/text_map.h"
#include "hosts/maze/world.h"
#include "levels/builtin_levels.h"

namespace engine_plugin {
namespace {

using hosts::maze::Actions;
using hosts::maze::Camera;
using hosts::maze::Frame;
using hosts::maze::TextMap;
using hosts::maze::World;

std::unique_ptr<Engine> MakeEngine(benchmark::State& state, int width, int height, bool custom) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create("demo_maze");
  absl::Status status = engine.status();
  if (status.ok()) status = (*engine)->SetSetting("width", std::to_string(width));
  if (status.ok()) status = (*engine)->SetSetting("height", std::to_string(height));
  if (status.ok()) status = (*engine)->SetSetting("customObservations", custom ? "true" : "false");
  if (status.ok()) status = (*engine)->Init();
  if (status.ok()) status = (*engine)->Start(0, 1);
  if (!status.ok()) {
    state.SkipWithError(status.ToString().c_str());
    return nullptr;
  }
  return *std::move(engine);
}

// The random agent of run_level: look, strafe and move at random.
Actions RandomActions(std::mt19937_64& random) {
  return {static_cast<int>(random() % 41) - 20, 0, static_cast<int>(random() % 3) - 1,
          static_cast<int>(random() % 3) - 1, 0, 0, 0};
}

void BM_Steps(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  const int height = static_cast<int>(state.range(1));
  const bool custom = state.range(2) != 0;
  std::unique_ptr<Engine> engine = MakeEngine(state, width, height, custom);
  if (engine == nullptr) return;
  std::vector<int> read = {0};
  for (int i = 0; i < static_cast<int>(engine->observation_specs().size()); ++i) {
    if (custom && i >= 5) read.push_back(i);  // after the five built-in ones
  }
  std::mt19937_64 random(1);
  std::uint64_t seed = 1;
  int allocated_before = 0;
  bool first = true;
  for (auto _ : state) {
    if (first) {
      state.PauseTiming();
      allocated_before = engine->frame_buffers_allocated();
      first = false;
      state.ResumeTiming();
    }
    engine->Act(RandomActions(random));
    double reward = 0;
    absl::StatusOr<EpisodeStatus> status = engine->Advance(1, &reward);
    if (!status.ok()) {
      state.SkipWithError(status.status().ToString().c_str());
      return;
    }
    for (int index : read) {
      absl::StatusOr<ObservationValue> value = engine->Observation(index);
      benchmark::DoNotOptimize(value);
    }
    if (*status != EpisodeStatus::kRunning) engine->Start(0, ++seed).IgnoreError();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["new_buffers"] = engine->frame_buffers_allocated() - allocated_before;
}
BENCHMARK(BM_Steps)
    ->ArgNames({"width", "height", "custom"})
    ->Args({84, 84, 0})
    ->Args({84, 84, 1})
    ->Args({320, 240, 0})
    ->Unit(benchmark::kMicrosecond);

// Players/N: apple_race at 84x84 with N players, each a random agent; a
// step reads every player's frame and reward, as a multi-agent harness
// does. items_per_second counts player-steps, so N players cost N times
// one exactly when the figure matches Players/1's (the goal: within 1.1x).
void BM_Players(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  absl::StatusOr<std::unique_ptr<Engine>> created = Engine::Create("apple_race");
  absl::Status status = created.status();
  if (status.ok()) status = (*created)->SetSetting("players", std::to_string(players));
  if (status.ok()) status = (*created)->Init();
  if (status.ok()) status = (*created)->Start(0, 1);
  if (!status.ok()) {
    state.SkipWithError(status.ToString().c_str());
    return;
  }
  Engine& engine = **created;
  std::vector<int> read;
  for (int i = 0; i < static_cast<int>(engine.observation_specs().size()); ++i) {
    const std::string& name = engine.observation_specs()[i].name;
    if (name.find("RGB_INTERLEAVED") != std::string::npos && name.find("RGBD") == std::string::npos) {
      read.push_back(i);
    } else if (name.find(".REWARD") != std::string::npos) {
      read.push_back(i);
    }
  }
  std::mt19937_64 random(1);
  std::uint64_t seed = 1;
  std::vector<int> actions(static_cast<std::size_t>(7 * players));
  for (auto _ : state) {
    for (int p = 0; p < players; ++p) {
      const Actions one = RandomActions(random);
      std::copy(one.begin(), one.end(), actions.begin() + 7 * p);
    }
    engine.Act(actions);
    double reward = 0;
    absl::StatusOr<EpisodeStatus> stepped = engine.Advance(1, &reward);
    if (!stepped.ok()) {
      state.SkipWithError(stepped.status().ToString().c_str());
      return;
    }
    for (int index : read) benchmark::DoNotOptimize(engine.Observation(index));
    if (*stepped != EpisodeStatus::kRunning) engine.Start(0, ++seed).IgnoreError();
  }
  state.SetItemsProcessed(state.iterations() * players);
}
BENCHMARK(BM_Players)->ArgName("players")->Arg(1)->Arg(2)->Arg(4)->Arg(8)->Unit(
    benchmark::kMicrosecond);

void BM_RenderOnly(benchmark::State& state) {
  const int width = static_cast<int>(state.range(0));
  const int height = static_cast<int>(state.range(1));
  absl::StatusOr<TextMap> map =
      TextMap::Parse(*levels::FindBuiltinLevelFile("maps/demo_maze.txt"),
                     levels::FindBuiltinLevelFile("maps/demo_maze.variations.txt").value_or(""));
  if (!map.ok()) {
    state.SkipWithError(map.status().ToString().c_str());
    return;
  }
  World world(*std::move(map), 0);
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
  std::vector<float> depth(static_cast<std::size_t>(width) * height);
  std::mt19937_64 random(1);
  for (auto _ : state) {
    world.Step(RandomActions(random), 1.0 / 60);
    hosts::maze::RenderFirstPerson(world.map(), world.pickups(), Camera::Of(world.pose()),
                      Frame{rgb.data(), depth.data(), width, height});
    benchmark::DoNotOptimize(rgb.data());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_RenderOnly)
    ->ArgNames({"width", "height"})
    ->Args({84, 84})
    ->Args({320, 240})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace engine_plugin

BENCHMARK_MAIN();
