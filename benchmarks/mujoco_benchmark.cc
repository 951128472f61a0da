// The MuJoCo host against MuJoCo alone, on one core, per control step:
//   Raw/skip:N              a C++ loop: set ctrl, mj_step N times
//   Plugin/skip:N           the same through the plugin: cartpole_balance,
//                           with its reward (three tolerance() calls, in
//                           Lua, on the lent state) every control step
//   PluginBare/skip:N       a level with no callbacks: the plugin alone
//   RawBallInCup/skip:2     ball_in_cup_catch's model (contacts) at the
//                           task's own control step, two 0.01 s steps,
//                           from the start state the plugin's episodes
//                           have (the level's draws for seed 1)
//   PluginBallInCup/skip:2  the level through the plugin, its reward (two
//                           views, a copy, a difference, in Lua) every
//                           control step
//   RawRender/84x84         mj_step, then mjv_updateScene, mjr_render and
//                           mjr_readPixels into a reused buffer
//   RawRender/84x84/rebind  the same, making the context current before
//                           each frame and releasing it after, as the host
//                           does so that an instance may step on any thread
//   PluginRender/84x84      a step and RGB_INTERLEAVED through the plugin
//                           (a pool buffer, rows flipped top first)
// Both sides of each pair run the same model (levels/models/) with the
// same settings; report the ratios of one run (docs/mujoco.md), e.g. of
// the best of 10 repetitions in random order:
//   --benchmark_repetitions=10 --benchmark_enable_random_interleaving=true
//
//   bazel run -c opt //benchmarks:mujoco_benchmark
#include <GL/osmesa.h>
#include <mujoco/mujoco.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "benchmark/benchmark.h"
#include "engine_plugin/engine.h"
#include "levels/builtin_levels.h"
#include "tensor/typed_view.h"

namespace {

using engine_plugin::Engine;

// A model of levels/models/ (e.g. "cartpole.xml"), compiled straight from
// the binary's copy.
mjModel* LoadModel(const std::string& name) {
  const std::string xml(*levels::FindBuiltinLevelFile("models/" + name));
  mjVFS* vfs = new mjVFS;
  mj_defaultVFS(vfs);
  mj_makeEmptyFileVFS(vfs, name.c_str(), static_cast<int>(xml.size()));
  std::copy(xml.begin(), xml.end(), static_cast<char*>(vfs->filedata[0]));
  char error[1000];
  mjModel* model = mj_loadXML(name.c_str(), vfs, error, sizeof(error));
  mj_deleteVFS(vfs);
  delete vfs;
  return model;
}

// The control both sides follow: a small oscillation that keeps the cart
// off its rail's ends, where limit constraints would make physics cost
// more on whichever side drifted there.
double Control(std::int64_t step) { return 0.5 * std::sin(0.1 * static_cast<double>(step)); }

// A raw loop over a model of levels/models/: each episode_steps control
// steps, start(m, d) begins an episode as the task's level does; each
// control step sets every actuator to the control and steps physics
// state.range(0) times.
void RawSteps(benchmark::State& state, const std::string& model_name,
              void (*start)(const mjModel*, mjData*), int episode_steps) {
  const int skip = static_cast<int>(state.range(0));
  mjModel* m = LoadModel(model_name);
  mjData* d = mj_makeData(m);
  std::int64_t step = 0;
  for (auto _ : state) {
    if (step % episode_steps == 0) start(m, d);
    const double control = Control(step++);
    for (int i = 0; i < m->nu; ++i) d->ctrl[i] = control;
    for (int i = 0; i < skip; ++i) mj_step(m, d);
  }
  mj_deleteData(d);
  mj_deleteModel(m);
}

void StartCartpole(const mjModel* m, mjData* d) { mj_resetData(m, d); }

// The joint positions ball_in_cup_catch starts from in the plugin
// benchmark's episodes (episode 0, seed 1, each time): the raw loop starts
// from the very same state, so that both sides simulate the same
// trajectory, with the same contacts. The level draws the ball's place at
// random, and where it falls changes what a physics step costs.
std::vector<double> BallInCupStart() {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create("ball_in_cup_catch");
  absl::Status status = engine.status();
  if (status.ok()) status = (*engine)->Init();
  if (status.ok()) status = (*engine)->Start(0, 1);
  const auto& specs = status.ok() ? (*engine)->observation_specs()
                                  : std::vector<engine_plugin::ObservationSpec>{};
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name != "QPOS") continue;
    absl::StatusOr<engine_plugin::ObservationValue> qpos =
        (*engine)->Observation(static_cast<int>(i));
    if (!qpos.ok()) break;
    return *tensor::TypedView<double>::Of(qpos->tensor)->ToVector();
  }
  std::fprintf(stderr, "ball_in_cup_catch's start state: %s\n", status.ToString().c_str());
  std::abort();
}

// ball_in_cup_catch's start (levels/ball_in_cup_catch.lua's reset): the
// level's start qpos, and the cup's weight carried by an applied force.
void StartBallInCup(const mjModel* m, mjData* d) {
  static const std::vector<double> start = BallInCupStart();
  mj_resetData(m, d);
  std::copy(start.begin(), start.end(), d->qpos);
  d->qfrc_applied[m->jnt_dofadr[mj_name2id(m, mjOBJ_JOINT, "cup_z")]] = 0.1 * 9.81;
  mj_forward(m, d);
}

void Raw(benchmark::State& state) { RawSteps(state, "cartpole.xml", StartCartpole, 1000); }

void RawBallInCup(benchmark::State& state) {
  RawSteps(state, "ball_in_cup.xml", StartBallInCup, 500);
}

std::unique_ptr<Engine> Started(benchmark::State& state, const std::string& level, int frame_skip) {
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  absl::Status status = engine.status();
  if (status.ok()) status = (*engine)->SetSetting("frameSkip", std::to_string(frame_skip));
  if (status.ok()) status = (*engine)->Init();
  if (status.ok()) status = (*engine)->Start(0, 1);
  if (!status.ok()) {
    state.SkipWithError(status.ToString().c_str());
    return nullptr;
  }
  return *std::move(engine);
}

constexpr std::size_t kMaxActuators = 4;

void Step(benchmark::State& state, Engine& engine, std::int64_t& step) {
  double reward = 0;
  // Every actuator gets the control, as in the raw loops (no allocation:
  // the benchmarked levels have at most kMaxActuators).
  std::array<double, kMaxActuators> controls;
  controls.fill(Control(step++));
  const std::size_t actuators = engine.continuous_actions().size();
  if (actuators > controls.size()) state.SkipWithError("more actuators than kMaxActuators");
  engine.ActContinuous(absl::MakeConstSpan(controls.data(), std::min(actuators, controls.size())))
      .IgnoreError();
  absl::StatusOr<engine_plugin::EpisodeStatus> status = engine.Advance(1, &reward);
  if (!status.ok()) {
    state.SkipWithError(status.status().ToString().c_str());
  } else if (*status != engine_plugin::EpisodeStatus::kRunning) {
    engine.Start(0, 1).IgnoreError();
  }
}

void PluginSteps(benchmark::State& state, const std::string& level) {
  std::unique_ptr<Engine> engine = Started(state, level, static_cast<int>(state.range(0)));
  if (engine == nullptr) return;
  std::int64_t step = 0;
  for (auto _ : state) Step(state, *engine, step);
}

void Plugin(benchmark::State& state) { PluginSteps(state, "cartpole_balance"); }

// A level with the cartpole model and no callbacks, in /tmp.
std::string BareLevel() {
  const std::string folder = "/tmp/mujoco_benchmark_bare";
  std::system(("mkdir -p " + folder).c_str());
  std::ofstream(folder + "/cartpole.xml") << *levels::FindBuiltinLevelFile("models/cartpole.xml");
  std::ofstream(folder + "/level.lua")
      << "-- host: mujoco\nlocal api = {}\n"
         "function api:model() return {file = 'cartpole.xml', camera = 'fixed'} end\n"
         "return api\n";
  return folder + "/level.lua";
}

void PluginBare(benchmark::State& state) { PluginSteps(state, BareLevel()); }

void PluginBallInCup(benchmark::State& state) { PluginSteps(state, "ball_in_cup_catch"); }

constexpr int kSize = 84;

void RawRender(benchmark::State& state) {
  const bool rebind = state.range(0) != 0;
  mjModel* m = LoadModel("cartpole.xml");
  mjData* d = mj_makeData(m);
  OSMesaContext context = OSMesaCreateContextExt(OSMESA_RGBA, 24, 8, 0, nullptr);
  unsigned char surface[4];
  OSMesaMakeCurrent(context, surface, GL_UNSIGNED_BYTE, 1, 1);
  m->vis.global.offwidth = kSize;
  m->vis.global.offheight = kSize;
  m->vis.quality.offsamples = 0;
  mjvScene scene;
  mjvCamera camera;
  mjvOption option;
  mjrContext render;
  mjv_defaultScene(&scene);
  mjv_defaultCamera(&camera);
  mjv_defaultOption(&option);
  mjr_defaultContext(&render);
  mjv_makeScene(m, &scene, 2000);
  mjr_makeContext(m, &render, mjFONTSCALE_100);
  mjr_setBuffer(mjFB_OFFSCREEN, &render);
  mjv_updateScene(m, d, &option, nullptr, &camera, mjCAT_ALL, &scene);
  mjr_render({0, 0, kSize, kSize}, &scene, &render);  // compiles the shaders, untimed
  scene.flags[mjRND_SHADOW] = 0;
  scene.flags[mjRND_REFLECTION] = 0;
  camera.type = mjCAMERA_FIXED;
  camera.fixedcamid = 0;
  std::vector<unsigned char> rgb(kSize * kSize * 3);
  const mjrRect viewport = {0, 0, kSize, kSize};
  std::int64_t step = 0;
  for (auto _ : state) {
    d->ctrl[0] = Control(step++);
    mj_step(m, d);
    if (rebind) OSMesaMakeCurrent(context, surface, GL_UNSIGNED_BYTE, 1, 1);
    mjv_updateScene(m, d, &option, nullptr, &camera, mjCAT_ALL, &scene);
    mjr_render(viewport, &scene, &render);
    mjr_readPixels(rgb.data(), nullptr, viewport, &render);
    if (rebind) OSMesaMakeCurrent(nullptr, nullptr, 0, 0, 0);
    benchmark::DoNotOptimize(rgb.data());
  }
  OSMesaMakeCurrent(context, surface, GL_UNSIGNED_BYTE, 1, 1);
  mjr_freeContext(&render);
  mjv_freeScene(&scene);
  OSMesaDestroyContext(context);
  mj_deleteData(d);
  mj_deleteModel(m);
}

void PluginRender(benchmark::State& state) {
  std::unique_ptr<Engine> engine = Started(state, BareLevel(), 1);
  if (engine == nullptr) return;
  int rgb = -1;
  for (std::size_t i = 0; i < engine->observation_specs().size(); ++i) {
    if (engine->observation_specs()[i].name == "RGB_INTERLEAVED") rgb = static_cast<int>(i);
  }
  // The first frame makes the GL context and compiles llvmpipe's shaders:
  // not timed, as RawRender's are made before its loop.
  if (!engine->Observation(rgb).ok()) state.SkipWithError("no first frame");
  std::int64_t step = 0;
  for (auto _ : state) {
    Step(state, *engine, step);
    absl::StatusOr<engine_plugin::ObservationValue> frame = engine->Observation(rgb);
    if (!frame.ok()) state.SkipWithError(frame.status().ToString().c_str());
    benchmark::DoNotOptimize(frame);
  }
}

BENCHMARK(Raw)->ArgName("skip")->Arg(1)->Arg(5);
BENCHMARK(Plugin)->ArgName("skip")->Arg(1)->Arg(5);
BENCHMARK(PluginBare)->ArgName("skip")->Arg(1)->Arg(5);
BENCHMARK(RawBallInCup)->ArgName("skip")->Arg(2);
BENCHMARK(PluginBallInCup)->ArgName("skip")->Arg(2);
BENCHMARK(RawRender)->Name("RawRender/84x84")->Arg(0);
BENCHMARK(RawRender)->Name("RawRender/84x84/rebind")->Arg(1);
BENCHMARK(PluginRender)->Name("PluginRender/84x84");

}  // namespace

BENCHMARK_MAIN();
