// Google Benchmark cases for the maze's world and renderer, on
// a 15 x 15 maze with pickups. The baseline, `frame_fill`, writes every
// byte of the same frame once (rgb and depth), so a render's ratio to it
// says how many plain passes over the frame it costs; `first_person_textured`
// draws every surface textured, and `first_person_room_floors` each room's
// floor its own colour, against `first_person`'s flat colours.
//
//   bazel run -c opt //benchmarks:render_benchmark
//   ... -- --benchmark_filter='first_person'
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <utility>
#include <vector>

#include "benchmark/benchmark.h"
#include "hosts/maze/raycaster.h"
#include "hosts/maze/text_map.h"
#include "hosts/maze/world.h"

namespace hosts::maze {
namespace {

constexpr char kMaze[] =
    "***************\n"
    "*P    *   A   *\n"
    "* *** * ***** *\n"
    "* *A  *     * *\n"
    "* * ******* * *\n"
    "* *       * * *\n"
    "* ***** * * * *\n"
    "*     * *A*   *\n"
    "***** * *** ***\n"
    "*   * *   *   *\n"
    "* * * *** *** *\n"
    "* *A*   *     *\n"
    "* ***** ***** *\n"
    "*      A     G*\n"
    "***************\n";
constexpr char kMazeVariations[] =
    "AAAAAAABBBBBBBB\n"
    "A.............B\n"
    "A.C.C.D.DDDDD.B\n"
    "A.C...D.....D.B\n"
    "A.C.EEEEEEE.D.B\n"
    "A.C.......E.D.B\n"
    "A.CCCCC.F.E.D.B\n"
    "A.....C.F.F...B\n"
    "GGGGG.C.FFF.HHH\n"
    "G...G.C...F...H\n"
    "G.G.G.III.III.H\n"
    "G.G.G...I.....H\n"
    "G.GGGGG.IIIII.H\n"
    "G.............H\n"
    "JJJJJJJJKKKKKKK\n";

World MakeWorld() {
  absl::StatusOr<TextMap> map = TextMap::Parse(kMaze, kMazeVariations);
  if (!map.ok()) std::abort();
  return World(*std::move(map), 0);
}

// Poses all over the maze, each looking along a different heading, so a
// run averages short and long rays rather than timing one view.
std::vector<Pose> Poses(const World& world) {
  std::vector<Pose> poses;
  const TextMap& map = world.map();
  int k = 0;
  for (int row = 0; row < map.rows(); ++row) {
    for (int col = 0; col < map.cols(); ++col) {
      if (map.IsWall(row, col)) continue;
      poses.push_back({map.CellCentre({row, col}), -180.0 + (k * 37) % 360, 0});
      ++k;
    }
  }
  return poses;
}

struct Buffers {
  explicit Buffers(int width, int height)
      : rgb(static_cast<std::size_t>(width) * height * 3),
        depth(static_cast<std::size_t>(width) * height),
        frame{rgb.data(), depth.data(), width, height} {}
  std::vector<std::uint8_t> rgb;
  std::vector<float> depth;
  Frame frame;
};

void BM_frame_fill(benchmark::State& state) {
  Buffers buffers(state.range(0), state.range(1));
  std::uint8_t value = 0;
  for (auto _ : state) {
    std::memset(buffers.rgb.data(), ++value, buffers.rgb.size());
    std::fill(buffers.depth.begin(), buffers.depth.end(), static_cast<float>(value));
    benchmark::ClobberMemory();
  }
}

// Renders the maze from each pose in turn, its surfaces as `surfaces` say.
void RenderPoses(benchmark::State& state, const Surfaces& surfaces) {
  const World world = MakeWorld();
  const std::vector<Pose> poses = Poses(world);
  Buffers buffers(state.range(0), state.range(1));
  std::size_t i = 0;
  for (auto _ : state) {
    RenderFirstPerson(world.map(), world.pickups(), Camera::Of(poses[i]), buffers.frame, surfaces);
    i = i + 1 == poses.size() ? 0 : i + 1;
    benchmark::ClobberMemory();
  }
}

void BM_first_person(benchmark::State& state) { RenderPoses(state, Surfaces::BuiltIn()); }

// Every surface textured (64 x 64 texels of noise): the cost of the
// texture callbacks' look against first_person's flat colours.
void BM_first_person_textured(benchmark::State& state) {
  Surfaces surfaces;
  std::vector<std::uint8_t> rgba(64 * 64 * 4);
  std::uint32_t seed = 1;
  for (std::uint8_t& byte : rgba) {
    byte = static_cast<std::uint8_t>((seed = seed * 1664525 + 1013904223) >> 24);
  }
  for (int surface = 0; surface < Surfaces::kCount; ++surface) {
    surfaces.Set(surface, rgba.data(), 64, 64);
  }
  RenderPoses(state, surfaces);
}

// Each variation's floor a colour of its own (DeepMind Lab's custom_floors,
// as its language levels use): the per-cell floor pass, flat colours.
void BM_first_person_room_floors(benchmark::State& state) {
  Surfaces surfaces;
  for (int v = 0; v < 26; ++v) {
    surfaces.SetColour(
        Surfaces::kFirstFloorVariation + v,
        {static_cast<std::uint8_t>(9 * v), 200, static_cast<std::uint8_t>(255 - 9 * v)});
  }
  RenderPoses(state, surfaces);
}

void BM_top_down(benchmark::State& state) {
  const World world = MakeWorld();
  const std::vector<Pose> poses = Poses(world);
  Buffers buffers(state.range(0), state.range(1));
  std::size_t i = 0;
  for (auto _ : state) {
    RenderTopDown(world.map(), world.pickups(), {poses[i]}, buffers.frame);
    i = i + 1 == poses.size() ? 0 : i + 1;
    benchmark::ClobberMemory();
  }
}

// Turning while running forward: the player keeps meeting walls, so the
// collision path is exercised, not just free movement.
void BM_world_step(benchmark::State& state) {
  World world = MakeWorld();
  const Actions actions = {23, 0, 0, 1, 0, 0, 0};
  for (auto _ : state) {
    benchmark::DoNotOptimize(world.Step(actions, 1.0 / 60));
  }
}

BENCHMARK(BM_frame_fill)->Args({84, 84})->Args({320, 240});
BENCHMARK(BM_first_person)->Args({84, 84})->Args({320, 240});
BENCHMARK(BM_first_person_textured)->Args({84, 84})->Args({320, 240});
BENCHMARK(BM_first_person_room_floors)->Args({84, 84})->Args({320, 240});
BENCHMARK(BM_top_down)->Args({84, 84});
BENCHMARK(BM_world_step);

}  // namespace
}  // namespace hosts::maze
