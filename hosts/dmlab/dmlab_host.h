// The DeepMind Lab host: DeepMind Lab's own engine (its ioquake3 fork, 3-D
// renderer, bots and compiled maps) under the plugin, with the level
// runtime the plugin's rather than DeepMind's context (docs/dmlab.md).
//
// The engine is a shared library that `./lab dmlab --lab=DIR` builds from
// the user's DeepMind Lab checkout: DeepMind Lab's engine with
// context_link.c in place of DeepMind's context. The host loads a private
// copy of it per instance (the engine keeps global state, so two instances
// in one process need two copies, as DeepMind Lab's dmlab_so_loader makes),
// binds its hooks (context.h) and drives it through the engine's EnvCApi:
// Start is the engine's start, Step one advance, Render reads the engine's
// RGB_INTERLEAVED into the plugin's frame.
//
// Settings (the host's own; the rest reach the level's init):
//   dmlabLibrary   the engine library; default: the DMLAB_LIBRARY
//                  environment variable
//   dmlabRunfiles  its runfiles folder (baselab/: the pk3s, maps,
//                  game_scripts); default: run/ beside the library
//   dmlabTools     the folder of the engine's q3map2 and bspc, which compile
//                  text levels (map_maker_module.h); default: the library's
//   dmlabTempFolder the engine's writable folder (DeepMind Lab's
//                  temp_folder: compiled maps, logs), made if missing and
//                  kept; default: a new one, removed with the host
//   width, height  the frame (default 320 x 240, DeepMind Lab's)
//   fps            the engine's frames per second (default 60)
//   renderer       'software' (OSMesa, default) or 'hardware' (EGL), as the
//                  library was built
//   logToStdErr, minimalUI, reducedUI, vmMode, appendCommand, playerName,
//   use_pbos, hasAltCameras, maxAltCameraWidth, maxAltCameraHeight
//                  DeepMind Lab's own engine settings, handed to the engine
//                  (the last two size game:renderCustomView's largest view)
// Observations: RGB_INTERLEAVED (height x width x 3, the frame), then the
// engine's others as it declares them (DeepMind Lab's RGBD_INTERLEAVED,
// RGB, RGBD, BGR_INTERLEAVED, BGRD_INTERLEAVED, MAP_FRAME_NUMBER; not its
// deprecated *_INTERLACED), then the level's.
// Actions: the engine's seven (LOOK_LEFT_RIGHT_PIXELS_PER_FRAME, ...).
#ifndef HOSTS_DMLAB_DMLAB_HOST_H_
#define HOSTS_DMLAB_DMLAB_HOST_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "engine_plugin/host.h"
#include "hosts/dmlab/context.h"
#include "hosts/dmlab/dmlab_abi.h"
#include "hosts/dmlab/game_module.h"

namespace hosts::dmlab {

class DmlabHost final : public engine_plugin::Host {
 public:
  DmlabHost();
  ~DmlabHost() override;

  absl::StatusOr<bool> SetSetting(absl::string_view key, absl::string_view value) override;
  void RegisterModules(lua_State* L, engine_plugin::Level& level) override;
  absl::Status Init(engine_plugin::Level& level) override;
  std::vector<engine_plugin::ObservationSpec> ObservationSpecs() const override;
  std::vector<engine_plugin::DiscreteActionSpec> DiscreteActions() const override {
    return actions_;
  }
  std::vector<engine_plugin::ContinuousActionSpec> ContinuousActions() const override {
    return {};
  }
  int fps() const override { return fps_; }
  int frame_observation() const override { return 0; }
  // DeepMind Lab's: the engine's generator, seeded with `seed`, draws the
  // level's (context.h), so that a level gets the seed it gets there.
  std::uint64_t LevelSeed(std::uint64_t seed) override;
  void SetMixerSeed(std::uint32_t mixer) override { context_->SetMixerSeed(mixer); }
  void SetLevelCache(const engine_plugin::LevelCache* cache) override {
    level_cache_ = cache;
    if (context_ != nullptr) context_->set_level_cache(cache);
  }
  absl::Status Start(engine_plugin::Level& level, std::uint64_t seed) override;
  void Act(absl::Span<const int> discrete, absl::Span<const double> continuous) override;
  absl::Status Step(engine_plugin::Level& level) override;
  bool AsksEpisodeEnd() const override { return true; }
  absl::Status Render(engine_plugin::Level& level, const tensor::Tensor& frame) override;
  absl::StatusOr<engine_plugin::ObservationValue> Observe(
      int index, engine_plugin::ObservationBuffers& buffers) override;
  void ListProperties(absl::FunctionRef<void(absl::string_view, const std::string&)> visit)
      const override;

 private:
  absl::Status Connect();
  // The engine's error after a failed call, or the error a hook recorded.
  absl::Status EngineError(const char* call);
  // The error a hook recorded during `call`, if any.
  absl::Status HookError(const char* call);

  struct Library;  // the loaded copy of the engine library
  std::unique_ptr<Library> library_;
  std::string library_path_;
  std::string runfiles_;
  std::string tools_;  // q3map2 and bspc (map_maker_module.h)
  std::string given_temp_folder_;  // dmlabTempFolder
  // The engine's writable folder: dmlabTempFolder (kept), or one made in
  // Connect and removed with the host.
  std::string temp_folder_;
  bool owns_temp_folder_ = false;
  bool hardware_ = false;
  int width_ = 320;
  int height_ = 240;
  int fps_ = 60;
  std::unique_ptr<Context> context_;
  const engine_plugin::LevelCache* level_cache_ = nullptr;
  absl::Status connected_;  // Connect's, reported by Init
  GameModuleTarget modules_{};
  DmlabEnvApi api_{};
  void* env_ = nullptr;
  int rgb_index_ = -1;
  // The engine's observations beyond the frame: its index, and the spec.
  struct EngineObservation {
    int index;
    engine_plugin::ObservationSpec spec;
  };
  std::vector<EngineObservation> engine_observations_;
  int episode_ = 0;
  std::vector<engine_plugin::DiscreteActionSpec> actions_;
  std::vector<int> pending_actions_;
  std::vector<std::pair<std::string, std::string>> engine_settings_;  // kEngineSettings given
};

}  // namespace hosts::dmlab

#endif  // HOSTS_DMLAB_DMLAB_HOST_H_
