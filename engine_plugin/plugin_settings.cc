#include "engine_plugin/plugin_settings.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <system_error>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"

namespace engine_plugin {
namespace {

template <typename Int>
absl::StatusOr<Int> ParseSettingInt(absl::string_view key, absl::string_view value, Int lowest,
                                    Int highest) {
  Int parsed = 0;
  if (!absl::SimpleAtoi(value, &parsed) || parsed < lowest || parsed > highest) {
    return absl::InvalidArgumentError(absl::StrCat("setting '", key, "': an integer in [", lowest,
                                                   ", ", highest, "] expected, got '", value,
                                                   "'"));
  }
  return parsed;
}

absl::StatusOr<bool> ParseSettingBool(absl::string_view key, absl::string_view value) {
  if (value != "true" && value != "false") {
    return absl::InvalidArgumentError(
        absl::StrCat("setting '", key, "': 'true' or 'false' expected, got '", value, "'"));
  }
  return value == "true";
}

// observationDevice: "cpu" or "cuda:N".
absl::StatusOr<tensor::Device> ParseObservationDevice(absl::string_view value) {
  if (value == "cpu") return tensor::Device::Cpu();
  absl::string_view index = value;
  int parsed = 0;
  if (absl::ConsumePrefix(&index, "cuda:") && !index.empty() &&
      std::all_of(index.begin(), index.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
      absl::SimpleAtoi(index, &parsed)) {
    return tensor::Device::Cuda(parsed);
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "setting 'observationDevice': 'cpu' or 'cuda:N' (N a device index) expected, got '", value,
      "'"));
}

}  // namespace

absl::StatusOr<bool> ApplyPluginSetting(absl::string_view key, absl::string_view value,
                                        PluginSettings* settings) {
  if (key == "episodeLengthSeconds") {
    double seconds = 0;
    if (!absl::SimpleAtod(value, &seconds) || !(seconds > 0) || seconds > 1e9) {
      return absl::InvalidArgumentError(absl::StrCat(
          "setting 'episodeLengthSeconds': a number of seconds > 0 expected, got '", value, "'"));
    }
    settings->episode_length_seconds = seconds;
  } else if (key == "gameScriptsDirectory") {
    std::error_code error;
    const std::filesystem::path directory =
        std::filesystem::canonical(std::string(value), error);
    if (error || !std::filesystem::is_directory(directory, error)) {
      return absl::InvalidArgumentError(absl::StrCat(
          "setting 'gameScriptsDirectory': '", value, "' is not a directory",
          error ? absl::StrCat(" (", error.message(), ")") : ""));
    }
    settings->game_scripts_directory = directory.string();
  } else if (key == "sandbox") {
    absl::StatusOr<bool> sandbox = ParseSettingBool(key, value);
    if (!sandbox.ok()) return sandbox.status();
    settings->limits.sandbox = *sandbox;
  } else if (key == "memoryLimitMegabytes" || key == "tensorMemoryLimitMegabytes") {
    // No Lua heap cap is 0; tensors always have a limit.
    const std::int64_t lowest = key == "memoryLimitMegabytes" ? 0 : 1;
    absl::StatusOr<std::int64_t> megabytes = ParseSettingInt(key, value, lowest, kMaxLimitMegabytes);
    if (!megabytes.ok()) return megabytes.status();
    (key == "memoryLimitMegabytes" ? settings->limits.memory_megabytes
                                   : settings->limits.tensor_memory_megabytes) = *megabytes;
  } else if (key == "instructionLimit") {
    absl::StatusOr<std::int64_t> limit =
        ParseSettingInt<std::int64_t>(key, value, 0, std::int64_t{1} << 53);
    if (!limit.ok()) return limit.status();
    settings->limits.instruction_limit = *limit;
  } else if (key == "observationDevice") {
    absl::StatusOr<tensor::Device> device = ParseObservationDevice(value);
    if (!device.ok()) return device.status();
    settings->observation_device = *device;
  } else if (key == "players") {
    absl::StatusOr<int> players = ParseSettingInt(key, value, 1, kMaxPlayers);
    if (!players.ok()) return players.status();
    settings->players = *players;
  } else if (key == "mixerSeed") {
    absl::StatusOr<std::int64_t> mixer =
        ParseSettingInt<std::int64_t>(key, value, 0, std::int64_t{0xffffffff});
    if (!mixer.ok()) return mixer.status();
    settings->mixer_seed = static_cast<std::uint32_t>(*mixer);
  } else if (key == "pinnedStaging") {
    absl::StatusOr<bool> pinned = ParseSettingBool(key, value);
    if (!pinned.ok()) return pinned.status();
    settings->pinned_staging = *pinned;
  } else {
    return false;
  }
  return true;
}

}  // namespace engine_plugin
