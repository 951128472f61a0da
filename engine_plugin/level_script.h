// LevelScript: a level's Lua VM and the callbacks of its api table.
//
// The VM (a Sandbox, sandbox.h) has the standard libraries, or in the
// sandbox the restricted ones, and dmlab.system.tensor, .random, .events
// and the host's own modules in package.preload. The script returns its
// api table; each callback is optional and called as a method
// (api:start(episode, seed)), as in DeepMind Lab. The api table's members
// are read raw, so no script code (an __index metamethod) runs outside a
// protected call. Every call is protected and runs under the level's
// limits: a Lua error, or a limit reached, comes back as an error Status
// with the message (and a traceback where the debug library is open), and
// leaves the VM usable.
//
// Example:
//   absl::StatusOr<std::unique_ptr<LevelScript>> level = LevelScript::Load(
//       source, "@levels/demo_maze.lua", "", LevelLimits{}, register_host_modules,
//       &event_sink);
//   (*level)->Init({{"width", "84"}});
//   absl::StatusOr<bool> finished = (*level)->HasEpisodeFinished(1.5);
#ifndef ENGINE_PLUGIN_LEVEL_SCRIPT_H_
#define ENGINE_PLUGIN_LEVEL_SCRIPT_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/events_module.h"
#include "engine_plugin/host.h"
#include "engine_plugin/level_files.h"
#include "engine_plugin/observation.h"
#include "engine_plugin/property.h"
#include "engine_plugin/sandbox.h"
#include "lua_api/lua/lua.h"
#include "lua_api/tensor/lent_tensor_slot.h"
#include "tensor/tensor.h"

namespace engine_plugin {

using Settings = std::vector<std::pair<std::string, std::string>>;

// A custom observation as the level returned it.
struct LevelObservation {
  ObservationValue value;
  // True when value.tensor shares storage with a tensor the script still
  // holds (read without a copy), so the script may write into it later.
  bool shares_script_storage = false;
};

class LevelScript {
 public:
  // `chunk_name` names the script in tracebacks ("@levels/demo_maze.lua");
  // the script can require the Lua files in paths.ModuleDirectories() (its
  // own directory, then gameScriptsDirectory; none for a built-in level):
  // they go first on package.path, or in the sandbox the sandbox's
  // searcher reads them; dmlab.system.image reads files by `paths`.
  // `register_host_modules` adds the host's modules before the script
  // runs. `events` must outlive the script.
  static absl::StatusOr<std::unique_ptr<LevelScript>> Load(
      absl::string_view source, const std::string& chunk_name, const LevelPaths& paths,
      const LevelLimits& limits, absl::FunctionRef<void(lua_State*)> register_host_modules,
      EventSink* events);

  absl::Status Init(const Settings& settings);
  // Also seeds dmlab.system.random's default generator with `seed`.
  absl::Status Start(int episode, std::uint64_t seed);
  // How the level ends the episode at `time_seconds`: nullopt (it goes
  // on: false, nil or no callback), kTerminated (true or 'terminated') or
  // kTruncated ('truncated': a time limit the level keeps itself).
  absl::StatusOr<std::optional<EpisodeEnd>> HasEpisodeFinished(double time_seconds);
  // api.episodeLengthSeconds, read after init: the level's own episode
  // length, which the engine enforces as the episodeLengthSeconds setting
  // does (that setting, when given, wins). 0 when the level sets none.
  absl::StatusOr<double> EpisodeLengthSeconds();
  absl::StatusOr<std::vector<ObservationSpec>> CustomObservationSpecs();
  absl::StatusOr<LevelObservation> CustomObservation(const ObservationSpec& spec);
  // A host's callbacks: Level::Call, CallLending and Defines (host.h).
  absl::StatusOr<bool> Call(const char* name, int num_results,
                            absl::FunctionRef<int(lua_State*)> push_arguments,
                            absl::FunctionRef<absl::Status(lua_State*, int)> read_results);
  absl::StatusOr<bool> CallLending(const char* name, absl::Span<const LentBuffer> buffers);
  bool Defines(const char* name);
  // Whether one of the level's callbacks is running: a host calling in
  // from inside one (listProperty's visitor) makes a nested call.
  bool in_callback() const { return vm_->in_call(); }

  // Properties, as DeepMind Lab's levels answer them. readProperty returns
  // the value (a string), or nil or RESULT.NOT_FOUND (1), or
  // RESULT.PERMISSION_DENIED (2); writeProperty returns one of the RESULT
  // codes (0 success, 1 not found, 2 permission denied, 3 invalid
  // argument), or true (success), or false or nil (not found). Anything
  // else is an error. kNotFound when the level has no such callback.
  absl::StatusOr<PropertyResult> ReadProperty(absl::string_view key, std::string* value);
  absl::StatusOr<PropertyResult> WriteProperty(absl::string_view key, absl::string_view value);
  // Calls listProperty(key, callback); callback(childKey, mode) with mode a
  // string of 'r', 'w', 'l'. The level returns true (listed), false (not
  // listable: a value) or nil (not found, unless it listed keys). kNotFound
  // when the level has no listProperty.
  absl::StatusOr<PropertyResult> ListProperty(
      absl::string_view key, absl::FunctionRef<void(absl::string_view, int)> visit);

  LevelScript(const LevelScript&) = delete;
  LevelScript& operator=(const LevelScript&) = delete;

 private:
  LevelScript(std::unique_ptr<Sandbox> vm, LevelPaths paths);
  // [-0, +2 or +0, -] Pushes api[name] (raw) and api; false (nothing
  // pushed) when the level does not define it.
  bool PushCallback(const char* name);
  // [-0, +1, -] `name` as a Lua string, interned once and kept in the
  // registry: pushing a C string hashes it, and the engine looks up a few
  // callbacks by name every step.
  void PushCallbackName(const char* name);
  // [-(nargs + 2), +nresults, -] Calls what PushCallback pushed.
  absl::Status CallCallback(const char* name, int nargs, int nresults);

  const LevelPaths paths_;  // before vm_: the image module reads it until L closes
  std::unique_ptr<Sandbox> vm_;
  lua_State* L_;
  int api_ref_;
  std::vector<std::pair<std::string, int>> callback_names_;  // name, registry ref
  // CallLending's buffers, by position: the same memory lent step after
  // step is the same userdata (lent_tensor_slot.h).
  std::optional<lua_api::LentTensorSlot> lent_[Level::kMaxLentBuffers];
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_LEVEL_SCRIPT_H_
