// Engine: one instance of the plugin: a host (host.h) and the level
// running on it.
//
// An instance owns a Lua VM with dmlab.system.tensor, .random, .events and
// its host's modules preloaded,
// the host, and the observation pipeline. Instances share nothing
// mutable: many may run at once, each on its own thread (one thread at a
// time per instance).
//
// Lifecycle, as in DeepMind Lab's EnvCApi:
//   Create(level) -> SetSetting(key, value)* -> Init() ->
//   { Start(episode, seed) -> { Act(actions); Advance(n) ; Observation(i)* }* }*
//
// Each Advance runs n control steps of the host, then has it render
// once. The host's frame observation (RGB_INTERLEAVED) is drawn into a buffer from the observation pool, so
// handing it out copies nothing; the host lends it and its other buffers
// to the level's callbacks for one call each. With the setting
// observationDevice=cuda:N the frame is instead a copy on that device,
// uploaded on the first request of a step into a pooled device buffer
// (docs/levels.md, "Device observations").
//
// Errors: every method returns a Status; a Lua error in a callback, or a
// sandbox limit it reached, becomes an error Status with the Lua message
// and traceback. After an error the instance stays usable from the next
// Start.
//
// Example:
//   absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create("demo_maze");
//   (*engine)->SetSetting("width", "84");
//   (*engine)->Init();
//   (*engine)->Start(/*episode=*/0, /*seed=*/1);
//   (*engine)->Act(std::vector<int>{0, 0, 0, 1, 0, 0, 0});   // the host's actions
//   double reward = 0;
//   absl::StatusOr<EpisodeStatus> status = (*engine)->Advance(4, &reward);
//   absl::StatusOr<ObservationValue> rgb = (*engine)->Observation(0);
#ifndef ENGINE_PLUGIN_ENGINE_H_
#define ENGINE_PLUGIN_ENGINE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine_plugin/event_log.h"
#include "engine_plugin/host.h"
#include "engine_plugin/level_cache.h"
#include "engine_plugin/observation.h"
#include "engine_plugin/property.h"

namespace engine_plugin {

enum class EpisodeStatus {
  kRunning,
  kTerminated,   // the level or host ended the episode (hasEpisodeFinished true)
  // A time limit cut it short: episodeLengthSeconds (the setting, or the
  // level's api.episodeLengthSeconds), or the level or host said 'truncated'.
  kInterrupted,
};

class Engine {
 public:
  // `level` is the name of a built-in level ("demo_maze", from levels/) or
  // a path to a level script (anything containing '/' or ending in ".lua").
  // It runs on the host it names (level_source.h), which this binary must
  // have registered (host_registry.h), unless the setting host says
  // another.
  static absl::StatusOr<std::unique_ptr<Engine>> Create(std::string level);
  ~Engine();

  // Before Init. host: the host to run the level on (a registered name),
  // rather than the one the level names: a DeepMind Lab level script runs
  // on the maze or on DeepMind Lab's engine ("dmlab") and names neither;
  // it must come before the settings that go to a host. The host's own
  // settings (Host::SetSetting; each host's header lists them) go to the
  // host. The plugin's: episodeLengthSeconds (> 0; by default the level's
  // api.episodeLengthSeconds, else none). The level's
  // limits (sandbox.h): sandbox ('true' or
  // 'false'; default 'true' for a level loaded from a path, 'false' for a
  // built-in one), memoryLimitMegabytes (the Lua heap, 0 for no cap;
  // default 256 in the sandbox, else 0), instructionLimit (Lua instructions
  // per callback, 0 for none; default 1000000000 in the sandbox, else 0),
  // tensorMemoryLimitMegabytes (tensor storage alive at once, >= 1; default
  // 1024 in the sandbox, else 4096). Observations (docs/levels.md):
  // observationDevice ('cpu', the default, or 'cuda:N': RGB_INTERLEAVED on
  // that CUDA device; Init fails if this build has no backend for it or
  // the device does not exist), pinnedStaging ('true' or 'false', default
  // 'false': with a CUDA observationDevice, frames are rendered into
  // page-locked host memory). players (1 to 64, default 1; at most what
  // the host carries, else Init fails): the players in the level, each
  // with its own actions, observations and reward (docs/plugin.md,
  // "Several players"). As in DeepMind Lab, these and the host's own
  // settings (Host::SetSetting) stay with the engine; every other setting
  // reaches the level's init(settings) as a string, and so do
  // episodeLengthSeconds and players, a level's own parameters too.
  absl::Status SetSetting(absl::string_view key, absl::string_view value);
  // Before Init: the caller's cache of compiled maps (level_cache.h),
  // which the host asks before it compiles a level's map (the DeepMind Lab
  // host; others compile none).
  absl::Status SetLevelCache(LevelCache cache);
  // Loads the level script and calls its init(settings).
  absl::Status Init();
  // Seeds dmlab.system.random with `seed`, calls start(episode, seed),
  // starts the host's episode (Host::Start), and renders the
  // first frame.
  absl::Status Start(int episode, std::uint64_t seed);

  // OK unless one of the level's callbacks is running (the host called in
  // from listProperty's visitor): Start and Advance (`what`) are refused
  // then, with this status, before they change anything. A wrapper that
  // keeps per-step state of its own (the C ABI) asks first.
  absl::Status CheckCanStep(const char* what) const;

  // The host's observations (Host::ObservationSpecs), then the level's
  // customObservationSpec(). Fixed after Init.
  const std::vector<ObservationSpec>& observation_specs() const;

  // The three reads of observation `index` of the current step, each
  // computed at most once a step; observations.h says what each keeps
  // unchanged for how long. Observation is Observations::Read (no copy),
  // SteadyObservation is Steady (the C ABI's observation()), and
  // RetainObservation is Retain (safe to hold across steps). Custom
  // observations read a contiguous tensor of the declared type and shape
  // without a copy; anything else is compacted once or is an error.
  absl::StatusOr<ObservationValue> Observation(int index);
  absl::StatusOr<ObservationValue> SteadyObservation(int index);
  absl::StatusOr<ObservationValue> RetainObservation(int index);

  // The host's actions; fixed after Init.
  const std::vector<DiscreteActionSpec>& discrete_actions() const;
  const std::vector<ContinuousActionSpec>& continuous_actions() const;

  // The actions of the following steps, one value per spec, clamped to
  // the spec's bounds. Values past the specs are ignored, missing ones
  // are 0 (and so is every action until the first Act of an episode).
  void Act(absl::Span<const int> discrete);
  // The same for continuous actions, counting the values clamped; a NaN
  // or an infinity is an error and changes nothing.
  absl::Status ActContinuous(absl::Span<const double> continuous);

  // Runs `num_steps` >= 1 control steps, adding their rewards (every
  // player's) to *reward.
  absl::StatusOr<EpisodeStatus> Advance(int num_steps, double* reward);

  // Event types are registered on first use by events.add(name, ...).
  const std::vector<std::string>& event_type_names() const;
  // The events raised since the last Start or Advance began.
  const std::vector<Event>& events() const;

  // Properties: engine.* keys are the plugin's and the host's own
  // (read-only: engine.host, engine.episodeTimeSeconds, engine.steps,
  // engine.clampedActions,
  // engine.frameBuffersAllocated; the maze's engine.fps, engine.width,
  // engine.height); other keys go to the level's
  // readProperty / writeProperty / listProperty callbacks when it defines
  // them. A Lua error in one is an error Status.
  absl::StatusOr<PropertyResult> ReadProperty(absl::string_view key, std::string* value);
  absl::StatusOr<PropertyResult> WriteProperty(absl::string_view key, absl::string_view value);
  absl::StatusOr<PropertyResult> ListProperty(
      absl::string_view key, absl::FunctionRef<void(absl::string_view key, int attributes)> visit);

  // The host's control steps per second.
  int fps() const;
  // The players setting. With several, each player's reward over the last
  // Advance is observation "<player>.REWARD" (observations.h); the reward
  // Advance adds is their sum.
  int players() const;
  double episode_time_seconds() const;
  // The host, for code that knows which one it is (a test of the maze).
  const Host& host() const;
  // What the host offers tools (host.h), or null.
  HostTools* host_tools();
  const std::string& host_name() const;
  // How many frame buffers the observation pools ever allocated (host,
  // and with observationDevice the device's and pinned ones): stays small
  // while nobody retains them (benchmarks report it).
  int frame_buffers_allocated() const;
  // How many continuous action values ActContinuous clamped to their
  // bounds since Init (engine.clampedActions).
  std::int64_t clamped_actions() const;

  // Renders the frames of the following Start and Advance calls straight
  // into `pixels`, a caller's row-major height x width x 3 byte buffer (the
  // host's frame observation),
  // instead of pool buffers; null goes back to pool buffers. A host that
  // batches many instances into one array (labenv.VectorLab) points each
  // at its slot, so every frame is written once, where it is wanted.
  // While a target is set:
  //   - observeFrame's rgb is the target, lent for that call as always;
  //   - RGB_INTERLEAVED is lent over the target (lender "host frame
  //     target") until the next Start or Advance, which revokes it: a kept
  //     value becomes an error rather than silently showing a later frame;
  //   - RetainObservation(RGB_INTERLEAVED) copies the frame into a pool
  //     buffer, since the next frame overwrites the target.
  // REQUIRES: after Init, on a host with a frame observation; `bytes` is
  // height * width * 3; the memory stays
  // valid, and the host leaves it alone during Start and Advance, until
  // the target is replaced or cleared or the engine is destroyed.
  //
  // Example:
  //   std::vector<std::uint8_t> slot(84 * 84 * 3);
  //   engine.SetFrameTarget(slot.data(), slot.size());
  //   engine.Advance(1, &reward);   // the frame is now in `slot`
  absl::Status SetFrameTarget(std::uint8_t* pixels, std::size_t bytes);

  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

 private:
  absl::Status SetHost(absl::string_view name);
  struct State;
  explicit Engine(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_ENGINE_H_
