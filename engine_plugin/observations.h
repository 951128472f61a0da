// Observations: one instance's observation pipeline, apart from the rest
// of the plugin as DeepMind Lab keeps its context's observations apart
// (context_observations.h): the specs (the host's, then the level's),
// the buffer each step's frame is drawn in (a pool buffer, page-locked
// staging, or a caller's frame target), the frame's upload to the
// observationDevice, each observation computed at most once a step, and
// the copies that keeping one needs.
//
// The three ways to read observation i of the current step (Engine's
// Observation, SteadyObservation and RetainObservation are these):
//   Read(i)    the value as computed, without a copy. Its storage is
//              never written again by the plugin, but a tensor the level
//              script holds (a customObservation read without a copy) may
//              be written by the script later, in this step or after.
//   Steady(i)  unchanged until the next step: Read's value, or a copy
//              made here when the script holds its storage. The C ABI's
//              observation().
//   Retain(i)  unchanged for as long as the caller keeps it: Read's value
//              when the plugin owns its storage, else a copy (a level's
//              tensor, or a frame lent over a caller's frame target).
//
// Each step: BeginStep, then NewFrame for the buffer the host renders the
// step's frame into, then any reads. A host's Observe, or the level's
// customObservation, may read other observations of the step (reentry):
// the first value stored for a slot is the step's.
//
// Example:
//   Observations observations;
//   observations.OpenDevice(plugin);                      // at Init
//   observations.SetSpecs(*std::move(merged), frame_index);
//   observations.BeginStep();
//   absl::StatusOr<tensor::Tensor> frame = observations.NewFrame();
//   host->Render(level, *frame);
//   absl::StatusOr<ObservationValue> rgb = observations.Read(0, sources);
#ifndef ENGINE_PLUGIN_OBSERVATIONS_H_
#define ENGINE_PLUGIN_OBSERVATIONS_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/types/span.h"
#include "engine_plugin/host.h"
#include "engine_plugin/level_script.h"
#include "engine_plugin/observation.h"
#include "engine_plugin/observation_pool.h"
#include "engine_plugin/observation_specs.h"
#include "engine_plugin/players_module.h"
#include "engine_plugin/plugin_settings.h"
#include "tensor/device_ops.h"
#include "tensor/loan.h"
#include "tensor/tensor.h"

namespace engine_plugin {

class Observations final : public ObservationBuffers {
 public:
  // Where an observation the pipeline does not make comes from.
  class Sources {
   public:
    virtual ~Sources() = default;
    // The level's customObservation of `spec`.
    virtual absl::StatusOr<LevelObservation> FromLevel(const ObservationSpec& spec) = 0;
    // The host's observation `index` (Host::Observe), in `buffers`.
    virtual absl::StatusOr<ObservationValue> FromHost(int index, ObservationBuffers& buffers) = 0;
    // Player `player`'s reward over the step (from 0), and its part of
    // the episode.
    virtual double PlayerReward(int player) const = 0;
    virtual PlayerStatus player_status(int player) const = 0;
  };

  // At Init: finds observationDevice's backend and allocators, so that a
  // build or a machine without that device fails here rather than at the
  // first step. Nothing to do for the CPU.
  absl::Status OpenDevice(const PluginSettings& plugin);

  // At Init: the merged specs, which of them is the host's first frame (or
  // -1), and how many players' frames follow it from there. With several
  // players, each player's reward over the step follows them as
  // "1.REWARD", ..., "n.REWARD" (doubles, shape {1}), as Lab2D's players'
  // are, then each one's part of the episode as "1.STATUS", ...,
  // "n.STATUS" (bytes, shape {1}: 0 running, 1 terminated, 2 truncated);
  // InvalidArgument when the level declared one of those names.
  absl::Status SetSpecs(ObservationSpecs merged, int frame_index, int players);
  const std::vector<ObservationSpec>& specs() const { return specs_; }
  int frame_index() const { return frame_index_; }

  // A new step: drops the previous step's frame and values, so that the
  // pools can recycle the buffers nobody kept; revokes a frame lent over
  // the frame target, which the next frame overwrites.
  void BeginStep();

  // The buffer the step's frame is drawn in, kept as the step's frame: the
  // frame target, lent until the next BeginStep, or else a fresh pool (or
  // page-locked) buffer. Empty without a frame observation. With n > 1
  // players, one buffer of all n frames (n x height x width x 3): each
  // player's frame observation is a view of it, so none is copied.
  absl::StatusOr<tensor::Tensor> NewFrame();

  // The three reads (above). OutOfRange for an index not in specs().
  absl::StatusOr<ObservationValue> Read(int index, Sources& sources);
  absl::StatusOr<ObservationValue> Steady(int index, Sources& sources);
  absl::StatusOr<ObservationValue> Retain(int index, Sources& sources);

  // Engine::SetFrameTarget: `host` names the host in errors.
  absl::Status SetFrameTarget(std::uint8_t* pixels, std::size_t bytes, absl::string_view host);

  // How many buffers the pools ever allocated (engine.frameBuffersAllocated).
  int buffers_allocated() const;

  // ObservationBuffers: a host's observations come from the host pool.
  absl::StatusOr<tensor::Tensor> Acquire(tensor::DType dtype,
                                         absl::Span<const std::int64_t> shape) override {
    return pool_.Acquire(dtype, shape);
  }

 private:
  // The step's value of observation `index`, computed on first request.
  absl::StatusOr<const LevelObservation*> Slot(int index, Sources& sources);
  absl::StatusOr<LevelObservation> Compute(int index, Sources& sources);
  // The frame as handed out: its buffer, or its copy on the device (made
  // once a step); with several players, player `player`'s view of it.
  absl::StatusOr<tensor::Tensor> FrameValue(int player);
  // The frame buffer's shape: the frame's, with the players first when
  // there are several.
  std::vector<std::int64_t> FramesShape() const;
  // A copy of `value` that nothing else holds.
  absl::StatusOr<ObservationValue> CopyOf(const ObservationValue& value);

  std::vector<ObservationSpec> specs_;
  std::vector<bool> from_level_;  // per spec (observation_specs.h)
  int frame_index_ = -1;
  int players_ = 1;
  int reward_index_ = -1;  // "1.REWARD", with several players; "1.STATUS" follows "n.REWARD"
  tensor::Device device_;  // observationDevice

  ObservationPool pool_;
  // With a device observationDevice: its backend, the device buffers the
  // frame is uploaded into, and with pinnedStaging the page-locked buffers
  // frames are rendered into. Pools, like `pool_`, so a device frame a
  // caller keeps is never overwritten, and a step that keeps nothing
  // allocates nothing.
  const tensor::DeviceOps* device_ops_ = nullptr;
  std::optional<ObservationPool> device_pool_;
  std::optional<ObservationPool> staging_pool_;

  tensor::Tensor frame_;
  std::optional<tensor::Tensor> uploaded_;  // the step's frame on the device, once asked for
  // SetFrameTarget's memory, or null for pool buffers. While it is set,
  // `frame_` is lent over it under `target_loan_`, which ends with the step.
  std::uint8_t* frame_target_ = nullptr;
  std::shared_ptr<tensor::Loan> target_loan_;
  std::vector<std::optional<LevelObservation>> values_;  // the step's, per spec
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_OBSERVATIONS_H_
