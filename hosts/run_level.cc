// run_level: plays a level, on any host this binary links, with a
// scripted agent, reports returns and speed, and saves the last frame as
// a PNG.
//
//   bazel run -c opt //hosts:run_level -- --level=demo_maze
//       --steps=1000 --seed=1 --width=84 --height=84 --agent=random
//       --png=out.png [--top_down_png=top.png] [--setting=key=value,...]
//       [--episodes=N] [--frames=DIR --frame_every=N]
//       [--contact_sheet=sheet.png] [--gif=episode.gif --gif_every=N]
//       [--game_scripts=DIR] [--host=NAME]
//
// Each step advances the host one control step (a frame, for the maze).
// A host that offers agents (engine_plugin::HostTools: the maze's random
// and forward move as a player would) is played by the one --agent names;
// on any other host, --agent=random holds uniformly random actions
// (within their bounds) for a few steps each. --agent=zero leaves every
// action at 0, on any host (MuJoCo's passive dynamics). --frames
// writes the RGB frame of every --frame_every-th step as
// DIR/frame_<step>.png (step 0: the episode's first frame). --contact_sheet
// writes one PNG of 16 frames taken evenly across the run (steps 0 to the
// last) in a 4 x 4 grid, with, on a host that offers one (the maze), a
// view of the world from above beside them and the agent's path over it (the last episode's, blue to
// yellow). --gif writes the first episode (up to the last step) as an
// animated GIF, every --gif_every-th frame, at the speed it was played.
// When an episode ends (the level
// terminates it or episodeLengthSeconds interrupts it) its return is
// printed and episode e + 1 starts with seed + e + 1. At the end it prints
// the steps, the seconds they took, steps per second and how many frame
// buffers the observation pool allocated: a small number there means the
// frames went out without copies, the pool recycling a few buffers.
//
// Output (stdout), one line each:
//   episode <e> return <r> steps <n> <terminated|interrupted>
//   steps <n> seconds <s> steps_per_second <v> frame_buffers_allocated <k>
//   wrote <path> <width>x<height>     (paths as given, absolute for the sheet and GIF)
// Progress goes to stderr: a bar on a terminal, plain lines otherwise.
//
// Relative paths (--png, --top_down_png, a --level script) are taken from
// the directory `bazel run` was started in (BUILD_WORKING_DIRECTORY).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "absl/flags/flag.h"
#include "absl/flags/parse.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/engine.h"
#include "engine_plugin/host.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/observation.h"
#include "hosts/contact_sheet.h"
#include "hosts/gif_writer.h"
#include "hosts/png_writer.h"
#include "tensor/tensor.h"

ABSL_FLAG(std::string, level, "demo_maze",
          "built-in level name (demo_maze, random_maze) or path to a .lua level script");
ABSL_FLAG(int, steps, 1000, "frames to play in all (each step advances one frame)");
ABSL_FLAG(std::string, host, "",
          "the host to run the level on (default: the one the level names, else the maze)");
ABSL_FLAG(int, episodes, 0, "stop after this many episodes end (0: only --steps limits)");
ABSL_FLAG(std::uint64_t, seed, 1, "seed of episode 0 and of the random agent");
ABSL_FLAG(int, width, 84, "frame width in pixels");
ABSL_FLAG(int, height, 84, "frame height in pixels");
ABSL_FLAG(std::string, agent, "random",
          "zero: no actions; random: the host's own random agent, or random actions held "
          "a few steps each on a host that offers none; any other agent the host offers "
          "(the maze: forward, runs and turns at walls); with several players (--setting="
          "players=N) it plays player 1, and the others stand still");
ABSL_FLAG(std::string, png, "",
          "write the last RGB frame here (player 1's with several players; none when empty)");
ABSL_FLAG(std::string, frames, "",
          "write RGB frames into this directory as frame_<step>.png (none when empty)");
ABSL_FLAG(int, frame_every, 1, "with --frames, write every this many steps' frame");
ABSL_FLAG(std::string, top_down_png, "",
          "write the last DEBUG.CAMERA.TOP_DOWN frame here (default: --png with _top_down "
          "before the extension)");
ABSL_FLAG(std::string, contact_sheet, "",
          "write 16 frames across the run in a grid, with the host's view from above and "
          "the agent's path (the maze's), as this PNG (none when empty)");
ABSL_FLAG(std::string, gif, "", "write the first episode as this animated GIF (none when empty)");
ABSL_FLAG(int, gif_every, 6, "with --gif, keep every this many steps' frame");
ABSL_FLAG(std::string, game_scripts, "",
          "a tree of Lua modules the level may require, as DeepMind Lab's game_scripts (the "
          "gameScriptsDirectory setting)");
ABSL_FLAG(std::vector<std::string>, setting, {},
          "more engine/level settings, comma-separated key=value pairs");

namespace hosts {
namespace {

using engine_plugin::Engine;
using engine_plugin::EpisodeStatus;
using engine_plugin::ObservationSpec;
using engine_plugin::ObservationType;
using engine_plugin::ObservationValue;

// Any host: each action uniform within its bounds, held 4 to 20 steps.
class UniformAgent {
 public:
  UniformAgent(const Engine& engine, std::uint64_t seed) : engine_(engine), random_(seed) {}

  void Act(Engine& engine) {
    if (hold_ == 0) {
      discrete_.clear();
      continuous_.clear();
      for (const auto& spec : engine_.discrete_actions()) {
        discrete_.push_back(std::uniform_int_distribution<int>(spec.min, spec.max)(random_));
      }
      for (const auto& spec : engine_.continuous_actions()) {
        continuous_.push_back(std::uniform_real_distribution<double>(spec.min, spec.max)(random_));
      }
      hold_ = std::uniform_int_distribution<int>(4, 20)(random_);
    }
    --hold_;
    engine.Act(discrete_);
    engine.ActContinuous(continuous_).IgnoreError();  // never NaN
  }

 private:
  const Engine& engine_;
  std::mt19937_64 random_;
  std::vector<int> discrete_;
  std::vector<double> continuous_;
  int hold_ = 0;
};

// `path` made absolute against the directory `bazel run` was started in.
std::string FromWorkingDirectory(const std::string& path) {
  const char* directory = std::getenv("BUILD_WORKING_DIRECTORY");
  if (path.empty() || path[0] == '/' || directory == nullptr) return path;
  return absl::StrCat(directory, "/", path);
}

bool IsLevelPath(absl::string_view level) {
  return level.find('/') != absl::string_view::npos ||
         (level.size() > 4 && level.substr(level.size() - 4) == ".lua");
}

// "out.png" -> "out_top_down.png"; "out" -> "out_top_down".
std::string TopDownName(const std::string& png) {
  const std::size_t slash = png.find_last_of('/');
  const std::size_t dot = png.find_last_of('.');
  if (dot == std::string::npos || (slash != std::string::npos && dot < slash)) {
    return png + "_top_down";
  }
  return absl::StrCat(png.substr(0, dot), "_top_down", png.substr(dot));
}

absl::StatusOr<int> FindObservation(const Engine& engine, absl::string_view name) {
  const std::vector<ObservationSpec>& specs = engine.observation_specs();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].name == name) return static_cast<int>(i);
  }
  return absl::NotFoundError(absl::StrCat("the level has no observation ", name));
}

// The frame the tool shows: RGB_INTERLEAVED, or with several players
// player 1's (the one its agents play).
std::string FrameName(const Engine& engine) {
  return engine.players() > 1 ? "1.RGB_INTERLEAVED" : "RGB_INTERLEAVED";
}

// Observation `name` of the current frame, an H x W x 3 byte image, copied.
absl::StatusOr<RgbImage> ReadRgb(Engine& engine, absl::string_view name) {
  absl::StatusOr<int> index = FindObservation(engine, name);
  if (!index.ok()) return index.status();
  absl::StatusOr<ObservationValue> value = engine.Observation(*index);
  if (!value.ok()) return value.status();
  const tensor::Tensor& tensor = value->tensor;
  const tensor::Shape& shape = tensor.shape();
  // Interleaved H x W x 3, or planar 3 x H x W as DeepMind Lab's
  // debug_observations declares DEBUG.CAMERA.TOP_DOWN.
  const bool interleaved = shape.size() == 3 && shape[2] == 3;
  const bool planar = shape.size() == 3 && shape[0] == 3 && !interleaved;
  if (value->type != ObservationType::kBytes || !(interleaved || planar)) {
    return absl::InvalidArgumentError(
        absl::StrCat(name, " is not an H x W x 3 or 3 x H x W byte image"));
  }
  absl::StatusOr<std::byte*> data = tensor.data();
  if (!data.ok()) return data.status();
  // Observations are contiguous (engine.h).
  RgbImage image;
  image.height = static_cast<int>(interleaved ? shape[0] : shape[1]);
  image.width = static_cast<int>(interleaved ? shape[1] : shape[2]);
  const auto* bytes = reinterpret_cast<const std::uint8_t*>(*data);
  const std::size_t pixels = static_cast<std::size_t>(image.width) * image.height;
  if (interleaved) {
    image.pixels.assign(bytes, bytes + pixels * 3);
  } else {
    image.pixels.resize(pixels * 3);
    for (std::size_t p = 0; p < pixels; ++p) {
      for (std::size_t c = 0; c < 3; ++c) image.pixels[p * 3 + c] = bytes[c * pixels + p];
    }
  }
  return image;
}

absl::Status SavePng(const RgbImage& image, const std::string& path) {
  absl::Status written = WritePng(path, image.pixels.data(), image.width, image.height);
  if (!written.ok()) return written;
  std::printf("wrote %s %dx%d\n", path.c_str(), image.width, image.height);
  return absl::OkStatus();
}

// Saves observation `name` of the current frame as a PNG.
absl::Status SaveObservation(Engine& engine, absl::string_view name, const std::string& path) {
  absl::StatusOr<RgbImage> image = ReadRgb(engine, name);
  if (!image.ok()) return image.status();
  return SavePng(*image, path);
}

// "sheet.png" as an absolute path, for the line that says where it went.
std::string Absolute(const std::string& path) {
  std::error_code error;
  std::filesystem::path absolute = std::filesystem::absolute(path, error);
  return error ? path : absolute.string();
}

// Progress on stderr: a bar redrawn in place on a terminal, a line every
// tenth of the run otherwise (logs stay short).
class Progress {
 public:
  explicit Progress(int total) : total_(total), tty_(isatty(fileno(stderr)) != 0) {}

  void Update(int done, double seconds) {
    if (tty_) {
      if (done != total_ && seconds - last_draw_ < 0.1) return;
      last_draw_ = seconds;
      constexpr int kWidth = 30;
      const int filled = static_cast<int>(static_cast<long long>(kWidth) * done / total_);
      std::fprintf(stderr, "\r[%s%s] %d/%d %.0f steps/s", std::string(filled, '#').c_str(),
                   std::string(kWidth - filled, ' ').c_str(), done, total_,
                   seconds > 0 ? done / seconds : 0.0);
      if (done == total_) std::fputc('\n', stderr);
      drawn_ = done != total_;
    } else if (static_cast<long long>(done) * 10 / total_ >
               static_cast<long long>(done - 1) * 10 / total_) {
      std::fprintf(stderr, "progress %d/%d steps %.2f s\n", done, total_, seconds);
    }
  }

  // Erases the bar, so that a line printed next starts at the margin; the
  // next Update draws it again.
  void Clear() {
    if (!drawn_) return;
    std::fputs("\r\033[K", stderr);
    drawn_ = false;
    last_draw_ = -1;
  }

 private:
  int total_;
  bool tty_;
  bool drawn_ = false;
  double last_draw_ = -1;
};

absl::Status Run() {
  const int steps = absl::GetFlag(FLAGS_steps);
  const int max_episodes = absl::GetFlag(FLAGS_episodes);
  if (steps < 1) return absl::InvalidArgumentError("--steps must be >= 1");
  if (max_episodes < 0) return absl::InvalidArgumentError("--episodes must be >= 0");
  std::string level = absl::GetFlag(FLAGS_level);
  if (IsLevelPath(level)) level = FromWorkingDirectory(level);

  absl::StatusOr<std::unique_ptr<Engine>> created = Engine::Create(level);
  if (!created.ok()) return created.status();
  Engine& engine = **created;
  std::vector<std::pair<std::string, std::string>> settings;
  // The host first: the settings after it go to it.
  if (const std::string host = absl::GetFlag(FLAGS_host); !host.empty()) {
    settings.emplace_back("host", host);
  }
  settings.emplace_back("width", absl::StrCat(absl::GetFlag(FLAGS_width)));
  settings.emplace_back("height", absl::StrCat(absl::GetFlag(FLAGS_height)));
  if (const std::string scripts = absl::GetFlag(FLAGS_game_scripts); !scripts.empty()) {
    settings.emplace_back("gameScriptsDirectory", FromWorkingDirectory(scripts));
  }
  for (const std::string& setting : absl::GetFlag(FLAGS_setting)) {
    const std::size_t equals = setting.find('=');
    if (equals == std::string::npos) {
      return absl::InvalidArgumentError(absl::StrCat("--setting '", setting, "' is not key=value"));
    }
    settings.emplace_back(setting.substr(0, equals), setting.substr(equals + 1));
  }
  for (const auto& [key, value] : settings) {
    if (absl::Status status = engine.SetSetting(key, value); !status.ok()) return status;
  }
  if (absl::Status status = engine.Init(); !status.ok()) return status;

  const std::uint64_t seed = absl::GetFlag(FLAGS_seed);
  const std::string agent_name = absl::GetFlag(FLAGS_agent);
  // A host's own agents see its world; others get random actions.
  engine_plugin::HostTools* tools = engine.host_tools();
  std::unique_ptr<engine_plugin::HostAgent> agent;
  UniformAgent uniform(engine, seed);
  const bool zero = agent_name == "zero";
  if (zero) {
    // Every action stays 0: no Act at all.
  } else if (tools != nullptr) {
    absl::StatusOr<std::unique_ptr<engine_plugin::HostAgent>> made =
        tools->MakeAgent(agent_name, seed);
    if (!made.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--agent: ", made.status().message(), ", or zero"));
    }
    agent = *std::move(made);
  } else if (agent_name != "random") {
    return absl::InvalidArgumentError(absl::StrCat(
        "--agent=", agent_name, ": this level's host '", engine.host_name(),
        "' offers no agents of its own (use --agent=random or zero)"));
  }
  std::vector<int> discrete(engine.discrete_actions().size());

  int episode = 0;
  if (absl::Status status = engine.Start(episode, seed); !status.ok()) return status;
  double episode_return = 0;
  int episode_steps = 0;
  int episodes_ended = 0;
  Progress progress(steps);
  const auto begin = std::chrono::steady_clock::now();
  const std::string frames = FromWorkingDirectory(absl::GetFlag(FLAGS_frames));
  const int frame_every = absl::GetFlag(FLAGS_frame_every);
  if (frame_every < 1) {
    return absl::InvalidArgumentError(absl::StrCat("--frame_every must be >= 1, not ", frame_every));
  }
  // Writes step `step`'s frame when --frames asks for it.
  auto write_frame = [&](int step) -> absl::Status {
    if (frames.empty() || step % frame_every != 0) return absl::OkStatus();
    char name[32];
    std::snprintf(name, sizeof(name), "/frame_%06d.png", step);
    return SaveObservation(engine, FrameName(engine), frames + name);
  };
  if (!frames.empty()) {
    std::error_code error;
    std::filesystem::create_directories(frames, error);
    if (error) {
      return absl::InvalidArgumentError(
          absl::StrCat("--frames: cannot make '", frames, "': ", error.message()));
    }
  }
  // What the run looked like: frames at 16 steps spread over 0..steps for
  // the sheet, the first episode for the GIF, the path (HostTools).
  const std::string contact_sheet = FromWorkingDirectory(absl::GetFlag(FLAGS_contact_sheet));
  const std::string gif = FromWorkingDirectory(absl::GetFlag(FLAGS_gif));
  const int gif_every = absl::GetFlag(FLAGS_gif_every);
  if (gif_every < 1) {
    return absl::InvalidArgumentError(absl::StrCat("--gif_every must be >= 1, not ", gif_every));
  }
  constexpr int kSheetFrames = 16;
  std::vector<RgbImage> sheet_frames;
  std::vector<std::vector<std::uint8_t>> gif_frames;
  RgbImage gif_frame;
  auto record = [&](int step) -> absl::Status {
    const bool for_sheet =
        !contact_sheet.empty() &&
        static_cast<long long>(sheet_frames.size()) * steps <= static_cast<long long>(step) * (kSheetFrames - 1);
    const bool for_gif = !gif.empty() && episodes_ended == 0 && step % gif_every == 0;
    if (tools != nullptr && !contact_sheet.empty()) tools->RecordPath();
    if (!for_sheet && !for_gif) return absl::OkStatus();
    absl::StatusOr<RgbImage> frame = ReadRgb(engine, FrameName(engine));
    if (!frame.ok()) return frame.status();
    if (for_gif) {
      gif_frame = *frame;
      gif_frames.push_back(frame->pixels);
    }
    if (for_sheet) sheet_frames.push_back(*std::move(frame));
    return absl::OkStatus();
  };
  if (absl::Status written = write_frame(0); !written.ok()) return written;
  if (absl::Status recorded = record(0); !recorded.ok()) return recorded;
  int step = 0;
  while (step < steps) {
    if (zero) {
    } else if (agent != nullptr) {
      agent->NextActions(absl::MakeSpan(discrete));
      engine.Act(discrete);
    } else {
      uniform.Act(engine);
    }
    absl::StatusOr<EpisodeStatus> status = engine.Advance(1, &episode_return);
    if (!status.ok()) return status.status();
    ++step;
    if (absl::Status written = write_frame(step); !written.ok()) return written;
    if (absl::Status recorded = record(step); !recorded.ok()) return recorded;
    ++episode_steps;
    progress.Update(
        step, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count());
    if (*status == EpisodeStatus::kRunning) continue;
    progress.Clear();
    std::printf("episode %d return %g steps %d %s\n", episode, episode_return, episode_steps,
                *status == EpisodeStatus::kTerminated ? "terminated" : "interrupted");
    // Before the bar is drawn again on the same terminal.
    std::fflush(stdout);
    ++episodes_ended;
    if (max_episodes > 0 && episodes_ended == max_episodes) break;
    ++episode;
    episode_return = 0;
    episode_steps = 0;
    if (absl::Status started = engine.Start(episode, seed + episode); !started.ok()) {
      return started;
    }
    // The path on the sheet is the last episode's: a new one starts it again.
    if (tools != nullptr) tools->ClearPath();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  std::printf("steps %d seconds %.3f steps_per_second %.1f frame_buffers_allocated %d\n", step,
              seconds, seconds > 0 ? step / seconds : 0.0, engine.frame_buffers_allocated());

  const std::string png = FromWorkingDirectory(absl::GetFlag(FLAGS_png));
  std::string top_down_png = FromWorkingDirectory(absl::GetFlag(FLAGS_top_down_png));
  // The default top-down view, where the host has one (the maze).
  if (top_down_png.empty() && !png.empty() &&
      FindObservation(engine, "DEBUG.CAMERA.TOP_DOWN").ok()) {
    top_down_png = TopDownName(png);
  }
  if (!png.empty()) {
    if (absl::Status status = SaveObservation(engine, FrameName(engine), png); !status.ok()) {
      return status;
    }
  }
  if (!top_down_png.empty()) {
    if (absl::Status status = SaveObservation(engine, "DEBUG.CAMERA.TOP_DOWN", top_down_png);
        !status.ok()) {
      return status;
    }
  }
  if (!contact_sheet.empty()) {
    // The top-down view as tall as the grid of 4 rows.
    RgbImage side;
    if (tools != nullptr && !sheet_frames.empty()) {
      const int rows = (static_cast<int>(sheet_frames.size()) + 3) / 4;
      const int size = rows * (sheet_frames[0].height + kSheetGap) - kSheetGap;
      side = RgbImage{size, size, tools->Overview(size)};
    }
    absl::StatusOr<RgbImage> sheet = ComposeContactSheet(sheet_frames, 4, side);
    if (!sheet.ok()) return sheet.status();
    if (absl::Status status = SavePng(*sheet, Absolute(contact_sheet)); !status.ok()) return status;
  }
  if (!gif.empty()) {
    // The delay of gif_every steps, in the centiseconds GIF counts in.
    const int delay = std::max(1, static_cast<int>(std::lround(100.0 * gif_every / engine.fps())));
    absl::Status written =
        WriteGif(gif, gif_frames, gif_frame.width, gif_frame.height, delay);
    if (!written.ok()) return written;
    std::printf("wrote %s %dx%d %zu frames\n", Absolute(gif).c_str(), gif_frame.width,
                gif_frame.height, gif_frames.size());
  }
  return absl::OkStatus();
}

}  // namespace
}  // namespace hosts

int main(int argc, char** argv) {
  absl::ParseCommandLine(argc, argv);
  absl::Status status = hosts::Run();
  std::fflush(stdout);
  if (!status.ok()) {
    std::fprintf(stderr, "run_level: %s\n", status.ToString().c_str());
    return 1;
  }
  return 0;
}
