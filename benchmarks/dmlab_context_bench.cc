// DeepMind Lab's engine under DeepMind's own context against the same
// engine under the plugin (hosts/dmlab/), in one process and one run:
//   1. the same game: with the same seed and action sequence, each step's
//      reward, episode status and the player's position (the level's own
//      DEBUG.POS.TRANS, computed by the same Lua in both) must agree;
//      and the frames: how many of the compared steps' frames are equal,
//      and the largest difference of a byte between them;
//   2. the speed: steps per second with the frame read each step, both
//      driven through the same loop, alternating blocks, medians; and the
//      time of a start (an episode's reset).
// Usage (both libraries built from one checkout: DeepMind's with its
// Bazel or ../shared/anchors/dmlab_engine, ours with ./lab dmlab):
//   bazel run -c opt //benchmarks:dmlab_context_bench -- \
//     --theirs=/path/libdmlab_headless_sw.so --ours=/path/libdmlab_engine.so \
//     --levels=nav_maze_static_01,seekavoid_arena_01 --width=84 --height=84
// Each library's runfiles are run/ beside it unless --theirs_runfiles or
// --ours_runfiles say otherwise.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "engine_plugin/engine.h"
#include "hosts/dmlab/dmlab_abi.h"

ABSL_FLAG(std::string, theirs, "", "DeepMind Lab's library with DeepMind's context");
ABSL_FLAG(std::string, theirs_runfiles, "", "its runfiles (default: run/ beside it)");
ABSL_FLAG(std::string, ours, "", "the engine library ./lab dmlab built");
ABSL_FLAG(std::string, ours_runfiles, "", "its runfiles (default: run/ beside it)");
ABSL_FLAG(std::string, levels, "nav_maze_static_01", "comma-separated level names");
ABSL_FLAG(int, width, 84, "frame width");
ABSL_FLAG(int, height, 84, "frame height");
ABSL_FLAG(int, fps, 60, "the engine's frames per second (without it DeepMind's engine runs on "
                        "the wall clock)");
ABSL_FLAG(int, steps, 600, "steps compared, and steps per timed block");
ABSL_FLAG(int, blocks, 5, "timed blocks per side (medians reported)");
ABSL_FLAG(int, seed, 1, "the episode's seed");
ABSL_FLAG(std::string, mixer, "0", "DeepMind Lab's mixerSeed, given to both sides");
ABSL_FLAG(int, trace, 0, "print both sides' first this many steps");

namespace {

using Clock = std::chrono::steady_clock;

std::string RunfilesOf(const std::string& library, const std::string& flag) {
  return flag.empty() ? (std::filesystem::path(library).parent_path() / "run").string() : flag;
}

// One step of the compared game.
struct Step {
  double reward = 0;
  int status = 0;  // 0 running, 1 ended
  double pos[3] = {0, 0, 0};
  std::vector<unsigned char> rgb;  // the frame, when asked for (not while timed)
};

// The same pseudo-random walk for both: turns, forward and back, strafes.
std::vector<std::vector<int>> Actions(int steps, int seed) {
  std::mt19937 prbg(static_cast<unsigned>(seed));
  std::vector<std::vector<int>> out;
  std::vector<int> a(7, 0);
  for (int i = 0; i < steps; ++i) {
    if (i % 8 == 0) {
      a.assign(7, 0);
      a[0] = std::uniform_int_distribution<int>(-30, 30)(prbg);
      a[3] = std::uniform_int_distribution<int>(-1, 1)(prbg) >= 0 ? 1 : -1;
      a[2] = std::uniform_int_distribution<int>(-1, 1)(prbg);
    }
    out.push_back(a);
  }
  return out;
}

// DeepMind's context, through DeepMind Lab's EnvCApi.
class Theirs {
 public:
  static std::unique_ptr<Theirs> Open(const std::string& library, const std::string& runfiles,
                                      const std::string& level) {
    auto t = std::make_unique<Theirs>();
    // A copy per level: the engine keeps global state, and a second dlopen
    // of one path would share it (DeepMind Lab's dmlab_so_loader copies too).
    std::string name = level;
    std::replace(name.begin(), name.end(), '/', '_');
    const std::filesystem::path copy =
        std::filesystem::temp_directory_path() / ("dmlab_context_bench_" + name + ".so");
    std::filesystem::copy_file(library, copy, std::filesystem::copy_options::overwrite_existing);
    t->handle_ = dlopen(copy.c_str(), RTLD_NOW | RTLD_LOCAL);
    std::filesystem::remove(copy);
    if (t->handle_ == nullptr) {
      std::fprintf(stderr, "theirs: %s\n", dlerror());
      return nullptr;
    }
    auto connect = reinterpret_cast<DmlabConnect>(dlsym(t->handle_, "dmlab_connect"));
    DmlabLaunchParams params{};
    params.runfiles_path = runfiles.c_str();
    if (connect == nullptr || connect(&params, &t->api_, &t->ctx_) != 0) return nullptr;
    const std::string w = std::to_string(absl::GetFlag(FLAGS_width)),
                      h = std::to_string(absl::GetFlag(FLAGS_height));
    t->api_.setting(t->ctx_, "levelName", level.c_str());
    t->api_.setting(t->ctx_, "width", w.c_str());
    t->api_.setting(t->ctx_, "height", h.c_str());
    t->api_.setting(t->ctx_, "fps", std::to_string(absl::GetFlag(FLAGS_fps)).c_str());
    t->api_.setting(t->ctx_, "mixerSeed", absl::GetFlag(FLAGS_mixer).c_str());
    if (t->api_.init(t->ctx_) != 0) {
      std::fprintf(stderr, "theirs: init: %s\n", t->api_.error_message(t->ctx_));
      return nullptr;
    }
    for (int i = 0; i < t->api_.observation_count(t->ctx_); ++i) {
      const std::string name = t->api_.observation_name(t->ctx_, i);
      if (name == "RGB_INTERLEAVED") t->rgb_ = i;
      if (name == "DEBUG.POS.TRANS") t->pos_ = i;
    }
    return t;
  }
  ~Theirs() {
    if (ctx_ != nullptr) api_.release_context(ctx_);
    // The engine's globals cannot be torn down twice: the library stays.
  }
  // A start and its first frame read, as ours renders its first frame.
  bool Start(int seed) {
    if (api_.start(ctx_, 0, seed) != 0) return false;
    DmlabObservation frame;
    api_.observation(ctx_, rgb_, &frame);
    return true;
  }
  Step Advance(const std::vector<int>& a, bool keep_frame = false) {
    api_.act_discrete(ctx_, a.data());
    Step s;
    const DmlabStatus status = api_.advance(ctx_, 1, &s.reward);
    s.status = status == DmlabStatus_Running ? 0 : 1;
    DmlabObservation frame;
    api_.observation(ctx_, rgb_, &frame);
    if (keep_frame) {
      std::size_t bytes = 1;
      for (int k = 0; k < frame.spec.dims; ++k) bytes *= frame.spec.shape[k];
      s.rgb.assign(frame.payload.bytes, frame.payload.bytes + bytes);
    }
    if (pos_ >= 0) {
      DmlabObservation pos;
      api_.observation(ctx_, pos_, &pos);
      std::copy_n(pos.payload.doubles, 3, s.pos);
    }
    return s;
  }

 private:
  void* handle_ = nullptr;
  DmlabEnvApi api_{};
  void* ctx_ = nullptr;
  int rgb_ = -1, pos_ = -1;
};

// The plugin with the dmlab host.
class Ours {
 public:
  static std::unique_ptr<Ours> Open(const std::string& library, const std::string& runfiles,
                                    const std::string& level) {
    const std::string scripts = runfiles + "/baselab/game_scripts";
    absl::StatusOr<std::unique_ptr<engine_plugin::Engine>> engine =
        engine_plugin::Engine::Create(scripts + "/levels/" + level + ".lua");
    if (!engine.ok()) return nullptr;
    auto o = std::make_unique<Ours>();
    o->engine_ = *std::move(engine);
    const std::pair<std::string, std::string> settings[] = {
        {"host", "dmlab"},
        {"dmlabLibrary", library},
        {"dmlabRunfiles", runfiles},
        {"gameScriptsDirectory", scripts},
        {"width", std::to_string(absl::GetFlag(FLAGS_width))},
        {"height", std::to_string(absl::GetFlag(FLAGS_height))},
        {"fps", std::to_string(absl::GetFlag(FLAGS_fps))},
        {"mixerSeed", absl::GetFlag(FLAGS_mixer)}};
    for (const auto& [key, value] : settings) {
      if (absl::Status s = o->engine_->SetSetting(key, value); !s.ok()) {
        std::fprintf(stderr, "ours: %s\n", std::string(s.message()).c_str());
        return nullptr;
      }
    }
    if (absl::Status s = o->engine_->Init(); !s.ok()) {
      std::fprintf(stderr, "ours: init: %s\n", std::string(s.message()).c_str());
      return nullptr;
    }
    const auto& specs = o->engine_->observation_specs();
    for (int i = 0; i < static_cast<int>(specs.size()); ++i) {
      if (specs[i].name == "DEBUG.POS.TRANS") o->pos_ = i;
    }
    return o;
  }
  bool Start(int seed) {
    absl::Status s = engine_->Start(0, static_cast<std::uint64_t>(seed));
    if (!s.ok()) std::fprintf(stderr, "ours: start: %s\n", std::string(s.message()).c_str());
    return s.ok();
  }
  Step Advance(const std::vector<int>& a, bool keep_frame = false) {
    engine_->Act(a);
    Step s;
    absl::StatusOr<engine_plugin::EpisodeStatus> status = engine_->Advance(1, &s.reward);
    s.status = status.ok() && *status == engine_plugin::EpisodeStatus::kRunning ? 0 : 1;
    if (!status.ok()) {
      std::fprintf(stderr, "ours: %s\n", std::string(status.status().message()).c_str());
    }
    absl::StatusOr<engine_plugin::ObservationValue> frame = engine_->Observation(0);
    if (keep_frame && frame.ok()) {
      const auto* bytes = reinterpret_cast<const unsigned char*>(*frame->tensor.data());
      s.rgb.assign(bytes, bytes + frame->tensor.num_elements());
    }
    if (pos_ >= 0) {
      absl::StatusOr<engine_plugin::ObservationValue> pos = engine_->Observation(pos_);
      if (pos.ok()) {
        const auto* d = reinterpret_cast<const double*>(*pos->tensor.data());
        std::copy_n(d, 3, s.pos);
      }
    }
    return s;
  }

 private:
  std::unique_ptr<engine_plugin::Engine> engine_;
  int pos_ = -1;
};

template <typename Side>
double TimedBlock(Side& side, const std::vector<std::vector<int>>& actions, int seed) {
  side.Start(seed);
  const Clock::time_point t0 = Clock::now();
  for (const std::vector<int>& a : actions) {
    if (side.Advance(a).status != 0) side.Start(seed);
  }
  return actions.size() / std::chrono::duration<double>(Clock::now() - t0).count();
}

template <typename Side>
double StartSeconds(Side& side, int seed) {
  const Clock::time_point t0 = Clock::now();
  side.Start(seed);
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  const std::string theirs_lib = absl::GetFlag(FLAGS_theirs), ours_lib = absl::GetFlag(FLAGS_ours);
  if (theirs_lib.empty() || ours_lib.empty()) {
    std::fprintf(stderr, "give --theirs and --ours (see the header)\n");
    return 2;
  }
  const int seed = absl::GetFlag(FLAGS_seed), steps = absl::GetFlag(FLAGS_steps);
  const std::vector<std::vector<int>> actions = Actions(steps, seed);
  int failures = 0;
  std::printf("%-32s %8s %8s %6s %10s %10s %7s %9s %9s\n", "level", "agree", "frames=",
              "maxdif", "theirs/s", "ours/s", "ratio", "start(t)", "start(o)");
  for (const std::string& level :
       std::vector<std::string>(absl::StrSplit(absl::GetFlag(FLAGS_levels), ','))) {
    std::unique_ptr<Theirs> theirs =
        Theirs::Open(theirs_lib, RunfilesOf(theirs_lib, absl::GetFlag(FLAGS_theirs_runfiles)),
                     level);
    std::unique_ptr<Ours> ours =
        Ours::Open(ours_lib, RunfilesOf(ours_lib, absl::GetFlag(FLAGS_ours_runfiles)), level);
    if (theirs == nullptr || ours == nullptr || !theirs->Start(seed) || !ours->Start(seed)) {
      std::printf("%-32s could not start (%s)\n", level.c_str(),
                  theirs == nullptr ? "theirs" : "ours");
      ++failures;
      continue;
    }
    int agreed = 0, frames_equal = 0, max_difference = 0;
    for (int i = 0; i < steps; ++i) {
      const Step a = theirs->Advance(actions[i], true), b = ours->Advance(actions[i], true);
      if (a.rgb.size() == b.rgb.size()) {
        int difference = 0;
        for (std::size_t k = 0; k < a.rgb.size(); ++k) {
          difference = std::max(difference, std::abs(int{a.rgb[k]} - int{b.rgb[k]}));
        }
        frames_equal += difference == 0;
        max_difference = std::max(max_difference, difference);
      } else {
        max_difference = 255;
      }
      if (i < absl::GetFlag(FLAGS_trace)) {
        std::printf("  %4d theirs %g %d (%.2f %.2f %.2f)  ours %g %d (%.2f %.2f %.2f)\n", i,
                    a.reward, a.status, a.pos[0], a.pos[1], a.pos[2], b.reward, b.status, b.pos[0],
                    b.pos[1], b.pos[2]);
        if (i + 1 < absl::GetFlag(FLAGS_trace)) continue;
      }
      bool same = a.reward == b.reward && a.status == b.status;
      for (int k = 0; k < 3; ++k) same = same && std::abs(a.pos[k] - b.pos[k]) < 1e-3;
      if (!same) {
        std::printf("  %s: step %d differs: theirs reward %g end %d pos (%.2f %.2f %.2f); "
                    "ours reward %g end %d pos (%.2f %.2f %.2f)\n",
                    level.c_str(), i, a.reward, a.status, a.pos[0], a.pos[1], a.pos[2], b.reward,
                    b.status, b.pos[0], b.pos[1], b.pos[2]);
        ++failures;
        break;
      }
      ++agreed;
      if (a.status != 0) break;
    }
    std::vector<double> t_rate, o_rate, t_start, o_start;
    for (int b = 0; b < absl::GetFlag(FLAGS_blocks); ++b) {
      t_rate.push_back(TimedBlock(*theirs, actions, seed));
      o_rate.push_back(TimedBlock(*ours, actions, seed));
      t_start.push_back(StartSeconds(*theirs, seed));
      o_start.push_back(StartSeconds(*ours, seed));
    }
    const double t = Median(t_rate), o = Median(o_rate);
    std::printf("%-32s %8d %8d %6d %10.1f %10.1f %7.2f %8.3fs %8.3fs\n", level.c_str(), agreed,
                frames_equal, max_difference, t, o, o / t, Median(t_start), Median(o_start));
    std::fflush(stdout);
  }
  return failures == 0 ? 0 : 1;
}
