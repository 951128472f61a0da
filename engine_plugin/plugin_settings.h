// PluginSettings: the settings the plugin itself reads (engine.h lists
// them); every other key belongs to the host, and all of them also reach
// the level's init(settings).
#ifndef ENGINE_PLUGIN_PLUGIN_SETTINGS_H_
#define ENGINE_PLUGIN_PLUGIN_SETTINGS_H_

#include <cstdint>
#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/sandbox.h"
#include "tensor/device.h"

namespace engine_plugin {

struct PluginSettings {
  double episode_length_seconds = 0;  // 0: no limit
  // A tree of Lua modules the level may require (DeepMind Lab's
  // game_scripts), as an absolute path; empty: none.
  std::string game_scripts_directory;
  LimitSettings limits;
  // Where the host's frame is handed out, and whether it is rendered into
  // page-locked memory to be uploaded from there.
  tensor::Device observation_device;
  bool pinned_staging = false;
  // Players in the level (players); the host says how many it carries.
  int players = 1;
  // DeepMind Lab's mixerSeed, in [0, 2^32): mixed into every seed (the
  // level's generator's and maze seeds, lua_api::SetSeedMixer; the host's,
  // Host::SetMixerSeed), so that different mixers give disjoint episodes.
  std::uint32_t mixer_seed = 0;
};

// The most players any instance carries (the players setting's bound).
inline constexpr int kMaxPlayers = 64;

// Applies `key` = `value` to *settings. False when the key is not the
// plugin's; an error names the setting and what it expects.
absl::StatusOr<bool> ApplyPluginSetting(absl::string_view key, absl::string_view value,
                                        PluginSettings* settings);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_PLUGIN_SETTINGS_H_
