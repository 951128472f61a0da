// Host: the engine or simulator a level runs on, as the plugin sees it.
//
// The plugin (Engine, engine.h) owns the level runtime: the level's VM and
// its callbacks, the shared Lua modules, buffer lending, the observation
// pipeline, rewards, events, properties, episode status, the C ABI and
// labenv. A host owns its world: it declares its settings, actions,
// observations and Lua modules, starts episodes, applies actions, advances
// one control step at a time and renders into the buffers it is given.
// DeepMind Lab draws the same line between its engine and its context
// (deepmind_hooks.h, deepmind_calls.h). Host is what the plugin calls;
// Level is what a host may call back.
//
// The plugin calls a host, one instance per Engine, in this order:
//   SetSetting* -> SetPlayers -> RegisterModules -> (the level script
//   loads and runs init) -> Init -> { Start -> Render -> { Act? ; Step* ; Render ;
//   Observe* }* }*
// and never from two threads at once. A host registers itself by name
// (host_registry.h); a level names its host (docs/plugin.md), or runs on
// "maze".
//
// Example: docs/plugin.md, a bouncing ball in 150 lines.
#ifndef ENGINE_PLUGIN_HOST_H_
#define ENGINE_PLUGIN_HOST_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "absl/types/span.h"
#include "engine_plugin/level_cache.h"
#include "engine_plugin/observation.h"
#include "lua_api/lua/lua.h"
#include "tensor/tensor.h"

namespace engine_plugin {

struct DiscreteActionSpec {
  std::string name;
  int min = 0;
  int max = 0;
};

struct ContinuousActionSpec {
  std::string name;
  double min = 0;
  double max = 0;
};

// A buffer of the host's, lent to one level callback as a tensor of
// `dtype` and row-major `shape` over `data` (bytes long). `shape` is the
// caller's, for the call. The tensor is
// revoked when the callback returns: whatever the level keeps of it
// becomes an error naming `lender`.
struct LentBuffer {
  const char* lender;
  tensor::DType dtype;
  absl::Span<const std::int64_t> shape;
  void* data;
  std::size_t bytes;
};

// How a host ends an episode: the task is over (terminated), or it was
// cut short, by a time limit say (truncated: EpisodeStatus::kInterrupted).
enum class EpisodeEnd { kTerminated, kTruncated };

// What a host may ask of the plugin and its level.
class Level {
 public:
  static constexpr int kMaxLentBuffers = 8;

  virtual ~Level() = default;

  // Calls the level's api:<name>(...) under its limits, if it defines it:
  // `push_arguments` pushes the arguments onto L and returns how many;
  // `read_results` reads the `num_results` results, the first at index
  // `first`. False (nothing called) when the level has no such callback.
  // A Lua error, a limit reached or an error from `read_results` is an
  // error Status naming the callback.
  virtual absl::StatusOr<bool> Call(
      const char* name, int num_results, absl::FunctionRef<int(lua_State* L)> push_arguments,
      absl::FunctionRef<absl::Status(lua_State* L, int first)> read_results) = 0;

  // Whether the level defines api:<name>: for a host whose arguments to it
  // cost something to make.
  virtual bool Defines(const char* name) = 0;

  // Calls api:<name>(buffer1, buffer2, ...) with each buffer lent to it
  // for exactly that call (at most kMaxLentBuffers). False when the level
  // has no such callback.
  virtual absl::StatusOr<bool> CallLending(const char* name,
                                           absl::Span<const LentBuffer> buffers) = 0;

  // Adds to player `player`'s reward of the current step (a pickup, a
  // goal); players count from 0 here, from 1 in Lua. REQUIRES: 0 <=
  // player < the players setting.
  virtual void AddReward(int player, double reward) = 0;
  // Ends the episode after the current step (from Step); the level's
  // hasEpisodeFinished can end it too.
  virtual void EndEpisode(EpisodeEnd end) = 0;
  // Control steps so far in this episode over the host's fps().
  virtual double EpisodeTimeSeconds() const = 0;
  // The level script's directory, for files beside it (maps, models);
  // empty for a built-in level.
  virtual const std::string& directory() const = 0;
  // A file the level names at run time (game:loadFileToString), found and
  // confined as level_files.h says.
  virtual absl::StatusOr<std::string> ReadFile(const std::string& name) const = 0;
};

// Buffers for a step's observations, from the plugin's recycling pool:
// a buffer a caller keeps is never handed out again.
class ObservationBuffers {
 public:
  virtual ~ObservationBuffers() = default;
  // A contiguous tensor of `dtype` and `shape` on the CPU.
  virtual absl::StatusOr<tensor::Tensor> Acquire(tensor::DType dtype,
                                                 absl::Span<const std::int64_t> shape) = 0;
};

// A scripted player a host offers tools (run_level): it sees the host's
// world, as no policy outside could, and plays as a person would.
class HostAgent {
 public:
  virtual ~HostAgent() = default;
  // The discrete actions of the next step, one for each of the host's
  // DiscreteActions(), from the world as it is now.
  virtual void NextActions(absl::Span<int> discrete) = 0;
};

// What a host may offer the tools that play its levels, beyond what any
// caller of the plugin has: its own agents, and its world drawn from above
// with the player's path over it. Host::tools() returns it, or null.
class HostTools {
 public:
  virtual ~HostTools() = default;
  // The names MakeAgent takes, for a tool's --agent flag.
  virtual std::vector<std::string> AgentNames() const = 0;
  // Agent `name` (one of AgentNames()), seeded; it lives no longer than
  // the host.
  virtual absl::StatusOr<std::unique_ptr<HostAgent>> MakeAgent(absl::string_view name,
                                                               std::uint64_t seed) = 0;
  // Adds the player's position now to the path; ClearPath starts it again.
  virtual void RecordPath() = 0;
  virtual void ClearPath() = 0;
  // The world from above, `size` pixels square (size x size x 3 bytes,
  // row-major), with the recorded path over it.
  virtual std::vector<std::uint8_t> Overview(int size) const = 0;
};

class Host {
 public:
  virtual ~Host() = default;

  // What the host offers tools (HostTools), or null: most hosts offer none.
  virtual HostTools* tools() { return nullptr; }

  // Before RegisterModules. True for one of the host's own settings (its
  // frame size, its frame rate), which, as DeepMind Lab's engine settings,
  // does not reach the level's init; false for the rest, which do; an error
  // for a bad value of one of its own.
  virtual absl::StatusOr<bool> SetSetting(absl::string_view key, absl::string_view value) = 0;

  // The most players the host carries (the players setting, docs/plugin.md,
  // "Several players"): 1 unless it says more. The plugin refuses more
  // before anything else happens.
  virtual int max_players() const { return 1; }
  // Before RegisterModules: how many players the level has, at most
  // max_players(). With n > 1 the host names each player's observations
  // and actions with its number first, as Lab2D does ("1.RGB_INTERLEAVED",
  // "2.MOVE_BACK_FORWARD"), its global ones bare, and Act takes every
  // player's actions in player order.
  virtual void SetPlayers(int /*players*/) {}

  // Adds the host's Lua modules to L's package.preload, before the level
  // script runs. `level` and the host outlive L.
  virtual void RegisterModules(lua_State* L, Level& level) = 0;

  // After the level's init(settings). What follows is fixed from here on.
  virtual absl::Status Init(Level& level) = 0;
  virtual std::vector<ObservationSpec> ObservationSpecs() const = 0;
  virtual std::vector<DiscreteActionSpec> DiscreteActions() const = 0;
  virtual std::vector<ContinuousActionSpec> ContinuousActions() const = 0;
  // Control steps per second.
  virtual int fps() const = 0;

  // Which of ObservationSpecs() is the frame, or -1: a uint8 height x
  // width x 3 image that Render draws every step into a buffer the plugin
  // chooses (a pool buffer, a host's frame target, page-locked staging)
  // and that the observationDevice setting uploads. With n players, player
  // p's frame (from 0) is spec frame_observation() + p.
  virtual int frame_observation() const = 0;

  // DeepMind Lab's mixerSeed (PluginSettings::mixer_seed), before Init: a
  // host that draws from the episode's seed mixes it in, as seed ^ (mixer
  // << 32).
  virtual void SetMixerSeed(std::uint32_t /*mixer*/) {}
  // The caller's cache of compiled maps (level_cache.h), before Init; it
  // outlives the host. Hosts that compile no maps ignore it.
  virtual void SetLevelCache(const LevelCache* /*cache*/) {}
  // The seed the level's start(episode, seed) receives for an episode the
  // caller seeded with `seed`: `seed` itself, unless the host's engine
  // derives the level's seed from its own (DeepMind Lab's does).
  virtual std::uint64_t LevelSeed(std::uint64_t seed) { return seed; }
  // A new episode, after the level's start(episode, LevelSeed(seed)).
  virtual absl::Status Start(Level& level, std::uint64_t seed) = 0;
  // The actions of the following steps, clamped to their specs.
  virtual void Act(absl::Span<const int> discrete, absl::Span<const double> continuous) = 0;
  // One control step.
  virtual absl::Status Step(Level& level) = 0;
  // True for a host whose engine asks the level's hasEpisodeFinished
  // itself during Step (and reports an end with Level::EndEpisode): the
  // plugin then does not ask again, since a level's callback may log or
  // score on each call. DeepMind Lab's engine asks once a frame.
  virtual bool AsksEpisodeEnd() const { return false; }
  // After Start and after the last step of each advance: draws the frame
  // into `frame` (empty without a frame observation; with n > 1 players,
  // n x height x width x 3, player p's frame at index p) and runs the level's
  // per-frame callbacks, lending them what the host likes. `frame` stays
  // valid until the next Start or Step; keep its pointer, not the tensor
  // (a tensor held keeps the pool from recycling the buffer).
  virtual absl::Status Render(Level& level, const tensor::Tensor& frame) = 0;
  // Observation `index` (not the frame) of the current step, at most once
  // per step, in a buffer from `buffers` or storage the host owns and
  // never writes again.
  virtual absl::StatusOr<ObservationValue> Observe(int index, ObservationBuffers& buffers) = 0;

  // The host's read-only properties, shown under "engine." (engine.width).
  virtual void ListProperties(
      absl::FunctionRef<void(absl::string_view key, const std::string& value)> visit) const = 0;
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_HOST_H_
