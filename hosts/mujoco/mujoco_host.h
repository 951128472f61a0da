// MujocoHost: the MuJoCo simulator as a host of the plugin (host.h).
//
// A level on it begins `-- host: mujoco` and names its model from
// model(): {file = 'cartpole.xml'} (beside the level, or among the
// built-in levels' files) or {xml = '<mujoco>...'}, with optional
// frameSkip (physics steps per control step) and camera (for the
// images). The model is confined and bounded as model_files.h says.
//
// Actions are continuous, one per actuator, named after it and bounded by
// its ctrlrange (unbounded when it has none); the plugin clamps values
// outside (engine.clampedActions counts them) and refuses NaN and
// infinities. Each control step: the action goes to ctrl, the level's
// beforeStep(state) may adjust it, MuJoCo steps frameSkip times, and
// afterStep(state) returns the step's reward and, to end the episode,
// 'terminated' or 'truncated'. start(episode, seed) is followed by
// reset(state), where the level sets the initial qpos and qvel (then
// mj_forward). Each callback's state lends mjData's arrays
// (state_lending.h). docs/mujoco.md has the whole API.
//
// Physics that diverges (MuJoCo's bad qpos, qvel, qacc or ctrl warnings)
// and MuJoCo's fatal errors end the episode with an error status saying
// so; the next start recovers (mj_resetData).
//
// Settings: width, height (pixels, 1..4096, default 84), frameSkip
// (1..1000, default the level's, else 1), camera (a camera's name, or -1
// for the free camera; default the level's, else -1). Observations:
// RGB_INTERLEAVED (height x width x 3 bytes, top row first), DEPTH
// (height x width float32, metres), QPOS, QVEL and SENSORDATA (float64;
// SENSORDATA when the model has sensors). Images render on request only,
// so a physics-only agent never pays for them. Lua modules:
// dmlab.system.mujoco and dmlab.system.mujoco.rewards (mujoco_module.h).
// Properties: engine.frameSkip, engine.timestep, engine.controlTimestep,
// engine.width, engine.height, engine.camera, engine.modelBytes (what the
// model and its data count against the level's tensor memory limit).
//
// Registered as "mujoco".
#ifndef HOSTS_MUJOCO_MUJOCO_HOST_H_
#define HOSTS_MUJOCO_MUJOCO_HOST_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine_plugin/host.h"
#include "hosts/mujoco/model_files.h"
#include "hosts/mujoco/mujoco_module.h"
#include "hosts/mujoco/renderer.h"
#include "hosts/mujoco/state_lending.h"
#include "lua_api/tensor/tensor_limits.h"

namespace hosts::mujoco {

class MujocoHost final : public engine_plugin::Host, public ModelHost {
 public:
  // engine_plugin::Host
  absl::StatusOr<bool> SetSetting(absl::string_view key, absl::string_view value) override;
  void RegisterModules(lua_State* L, engine_plugin::Level& level) override;
  absl::Status Init(engine_plugin::Level& level) override;
  std::vector<engine_plugin::ObservationSpec> ObservationSpecs() const override;
  std::vector<engine_plugin::DiscreteActionSpec> DiscreteActions() const override { return {}; }
  std::vector<engine_plugin::ContinuousActionSpec> ContinuousActions() const override;
  int fps() const override;
  int frame_observation() const override { return -1; }
  absl::Status Start(engine_plugin::Level& level, std::uint64_t seed) override;
  void Act(absl::Span<const int> discrete, absl::Span<const double> continuous) override;
  absl::Status Step(engine_plugin::Level& level) override;
  absl::Status Render(engine_plugin::Level&, const tensor::Tensor&) override {
    return absl::OkStatus();
  }
  absl::StatusOr<engine_plugin::ObservationValue> Observe(
      int index, engine_plugin::ObservationBuffers& buffers) override;
  void ListProperties(absl::FunctionRef<void(absl::string_view, const std::string&)> visit)
      const override;

  // ModelHost
  const mjModel* model() const override { return loaded_.model.get(); }
  int frame_skip() const override { return frame_skip_; }

 private:
  // What model() returned.
  struct ModelChoice {
    ModelRequest request;
    std::optional<int> frame_skip;
    std::string camera;
    std::size_t memory_bytes = 0;  // what the level may still use
  };
  absl::StatusOr<ModelChoice> CallModel(engine_plugin::Level& level);
  absl::Status ResolveCamera(const std::string& camera);
  // An error status when the last mj_step or mj_forward diverged, saying
  // `when` ("": at the simulation's time).
  absl::Status CheckDiverged(absl::string_view when);
  absl::Status StepPhysics();
  absl::StatusOr<tensor::Tensor> RenderImage(bool rgb, engine_plugin::ObservationBuffers& buffers);

  // Settings.
  int width_ = 84;
  int height_ = 84;
  std::optional<int> frame_skip_setting_;
  std::optional<std::string> camera_setting_;

  lua_State* level_state_ = nullptr;  // from RegisterModules: the level's VM

  // From Init.
  LoadedModel loaded_;
  // The model's and its data's bytes, counted against the level's tensor
  // memory limit for as long as they live.
  lua_api::TensorMemoryCharge memory_charge_;
  int frame_skip_ = 1;
  int camera_ = -1;
  std::string camera_name_ = "-1";
  std::vector<engine_plugin::ObservationSpec> specs_;
  std::unique_ptr<Renderer> renderer_;  // made on the first image
  std::vector<float> depth_;

  // The episode.
  StateLending lending_;
  std::vector<double> action_;
  // After a divergence or a MuJoCo error, mjData is not to be trusted
  // until the next Start resets it.
  bool broken_ = false;
};

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_MUJOCO_HOST_H_
