#include "engine_plugin/observations.h"

#include <cstring>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "tensor/device_transfer.h"

namespace engine_plugin {
namespace {

constexpr char kTargetLender[] = "host frame target";

absl::Status Annotate(const absl::Status& status, absl::string_view context) {
  return absl::Status(status.code(), absl::StrCat(context, ": ", status.message()));
}

}  // namespace

absl::Status Observations::OpenDevice(const PluginSettings& plugin) {
  device_ = plugin.observation_device;
  device_ops_ = nullptr;
  device_pool_.reset();
  staging_pool_.reset();
  if (device_.is_cpu()) return absl::OkStatus();
  const std::string setting =
      absl::StrCat("setting 'observationDevice' is '", device_.ToString(), "'");
  absl::StatusOr<const tensor::DeviceOps*> ops = tensor::DeviceOpsFor(device_, "observationDevice");
  if (!ops.ok()) {
    return absl::FailedPreconditionError(absl::StrCat(
        setting, ", but this build has no backend for that device (build with --config=cuda)"));
  }
  if ((*ops)->allocator == nullptr || (*ops)->copy == nullptr) {
    return absl::UnimplementedError(
        absl::StrCat(setting, ", but its backend cannot allocate and copy tensors"));
  }
  absl::StatusOr<tensor::Allocator*> allocator = (*ops)->allocator(device_.index);
  if (!allocator.ok()) return Annotate(allocator.status(), setting);
  if (plugin.pinned_staging) {
    if ((*ops)->pinned_host_allocator == nullptr) {
      return absl::UnimplementedError(
          absl::StrCat("setting 'pinnedStaging' is 'true', but the backend of ",
                       device_.ToString(), " has no page-locked host memory"));
    }
    absl::StatusOr<tensor::Allocator*> pinned = (*ops)->pinned_host_allocator();
    if (!pinned.ok()) return Annotate(pinned.status(), "setting 'pinnedStaging' is 'true'");
    staging_pool_.emplace(**pinned);
  }
  device_ops_ = *ops;
  device_pool_.emplace(**allocator);
  return absl::OkStatus();
}

absl::Status Observations::SetSpecs(ObservationSpecs merged, int frame_index, int players) {
  reward_index_ = players > 1 ? static_cast<int>(merged.specs.size()) : -1;
  struct PerPlayer {
    const char* name;
    const char* what;
    ObservationType type;
  };
  constexpr PerPlayer kPerPlayer[] = {{"REWARD", "a player's reward", ObservationType::kDoubles},
                                      {"STATUS", "a player's status", ObservationType::kBytes}};
  for (const PerPlayer& each : kPerPlayer) {
    for (int player = 1; player <= players && players > 1; ++player) {
      std::string name = absl::StrCat(player, ".", each.name);
      for (const ObservationSpec& spec : merged.specs) {
        if (spec.name == name) {
          return absl::InvalidArgumentError(absl::StrCat(
              "observation '", name, "' is the plugin's (", each.what, "); name yours otherwise"));
        }
      }
      merged.specs.push_back({std::move(name), each.type, {1}});
      merged.from_level.push_back(false);
    }
  }
  specs_ = std::move(merged.specs);
  from_level_ = std::move(merged.from_level);
  frame_index_ = frame_index;
  players_ = players;
  return absl::OkStatus();
}

std::vector<std::int64_t> Observations::FramesShape() const {
  std::vector<std::int64_t> shape = specs_[frame_index_].shape;
  if (players_ > 1) shape.insert(shape.begin(), players_);
  return shape;
}

void Observations::BeginStep() {
  frame_ = tensor::Tensor();
  uploaded_.reset();
  // The next frame overwrites the target: whatever a caller kept of this
  // one becomes an error instead of silently changing.
  if (target_loan_ != nullptr) target_loan_->Revoke();
  target_loan_ = nullptr;
  values_.assign(specs_.size(), std::nullopt);
}

absl::StatusOr<tensor::Tensor> Observations::NewFrame() {
  if (frame_index_ < 0) return tensor::Tensor();
  const std::vector<std::int64_t> shape = FramesShape();
  absl::StatusOr<tensor::Tensor> buffer;
  if (frame_target_ == nullptr) {
    buffer = (staging_pool_ ? *staging_pool_ : pool_).Acquire(tensor::DType::kUInt8, shape);
  } else {
    absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
    if (!layout.ok()) return layout.status();
    target_loan_ = tensor::Loan::Create(kTargetLender);
    const auto bytes = static_cast<std::size_t>(layout->num_elements());
    buffer = tensor::Tensor::Lend(tensor::DType::kUInt8, *std::move(layout), frame_target_, bytes,
                                  target_loan_);
  }
  if (!buffer.ok()) return buffer.status();
  frame_ = *std::move(buffer);
  return frame_;
}

absl::StatusOr<tensor::Tensor> Observations::FrameValue(int player) {
  if (device_pool_ && !uploaded_) {
    absl::StatusOr<tensor::Tensor> uploaded =
        device_pool_->Acquire(tensor::DType::kUInt8, FramesShape());
    if (!uploaded.ok()) return uploaded.status();
    // Synchronous: the device holds the frame before the caller sees it.
    if (absl::Status s = device_ops_->copy(*uploaded, frame_); !s.ok()) {
      return Annotate(s, absl::StrCat("uploading the frame to ", device_.ToString()));
    }
    uploaded_ = *std::move(uploaded);
  }
  const tensor::Tensor& frames = device_pool_ ? *uploaded_ : frame_;
  if (players_ == 1) return frames;
  return frames.Select(0, player);
}

absl::StatusOr<LevelObservation> Observations::Compute(int index, Sources& sources) {
  if (from_level_[index]) return sources.FromLevel(specs_[index]);
  LevelObservation result;
  if (reward_index_ >= 0 && index >= reward_index_) {
    // "<n>.REWARD", then "<n>.STATUS".
    const int player = (index - reward_index_) % players_;
    const bool reward = index - reward_index_ < players_;
    absl::StatusOr<tensor::Tensor> value = pool_.Acquire(
        reward ? tensor::DType::kFloat64 : tensor::DType::kUInt8, {1});
    if (!value.ok()) return value.status();
    if (reward) {
      const double scored = sources.PlayerReward(player);
      std::memcpy(*value->data(), &scored, sizeof(scored));
    } else {
      *reinterpret_cast<std::uint8_t*>(*value->data()) =
          static_cast<std::uint8_t>(sources.player_status(player));
    }
    result.value = {reward ? ObservationType::kDoubles : ObservationType::kBytes,
                    *std::move(value), {}};
    return result;
  }
  if (frame_index_ >= 0 && index >= frame_index_ && index < frame_index_ + players_) {
    result.value.type = ObservationType::kBytes;
    absl::StatusOr<tensor::Tensor> tensor = FrameValue(index - frame_index_);
    if (!tensor.ok()) return tensor.status();
    result.value.tensor = *std::move(tensor);
    return result;
  }
  absl::StatusOr<ObservationValue> value = sources.FromHost(index, *this);
  if (!value.ok()) return value.status();
  result.value = *std::move(value);
  return result;
}

absl::StatusOr<const LevelObservation*> Observations::Slot(int index, Sources& sources) {
  if (index < 0 || index >= static_cast<int>(specs_.size())) {
    return absl::OutOfRangeError(
        absl::StrCat("observation index ", index, " is not in [0, ", specs_.size(), ")"));
  }
  if (!values_[index]) {
    absl::StatusOr<LevelObservation> computed = Compute(index, sources);
    if (!computed.ok()) return computed.status();
    // A read from inside the level's customObservation (reentry) may have
    // filled the slot first: that value is the step's.
    if (!values_[index]) values_[index] = *std::move(computed);
  }
  return &*values_[index];
}

absl::StatusOr<ObservationValue> Observations::Read(int index, Sources& sources) {
  absl::StatusOr<const LevelObservation*> slot = Slot(index, sources);
  if (!slot.ok()) return slot.status();
  return (*slot)->value;
}

absl::StatusOr<ObservationValue> Observations::Steady(int index, Sources& sources) {
  absl::StatusOr<const LevelObservation*> slot = Slot(index, sources);
  if (!slot.ok()) return slot.status();
  if (!(*slot)->shares_script_storage) return (*slot)->value;
  return CopyOf((*slot)->value);
}

absl::StatusOr<ObservationValue> Observations::Retain(int index, Sources& sources) {
  absl::StatusOr<const LevelObservation*> slot = Slot(index, sources);
  if (!slot.ok()) return slot.status();
  const LevelObservation& observation = **slot;
  if (!observation.shares_script_storage && observation.value.tensor.owns_storage()) {
    return observation.value;
  }
  // The script may write into its tensor after this step, and the next
  // frame overwrites a frame target: hold a copy.
  return CopyOf(observation.value);
}

absl::StatusOr<ObservationValue> Observations::CopyOf(const ObservationValue& value) {
  // A level's tensor on a GPU is copied there (a device RGB_INTERLEAVED is
  // pool storage, never copied); on the CPU the copy comes from the pool.
  const tensor::Tensor& source = value.tensor;
  if (!source.device().is_cpu()) {
    absl::StatusOr<tensor::Tensor> copy = tensor::ToDevice(source, source.device());
    if (!copy.ok()) return copy.status();
    return ObservationValue{value.type, *std::move(copy), {}};
  }
  absl::StatusOr<tensor::Tensor> copy = pool_.Acquire(source.dtype(), source.layout().shape());
  if (!copy.ok()) return copy.status();
  std::memcpy(*copy->data(), *source.data(),
              static_cast<std::size_t>(source.layout().num_elements()) * source.item_size());
  return ObservationValue{value.type, *std::move(copy), {}};
}

absl::Status Observations::SetFrameTarget(std::uint8_t* pixels, std::size_t bytes,
                                          absl::string_view host) {
  if (frame_index_ < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("SetFrameTarget: the host '", host, "' renders no frame"));
  }
  const std::vector<std::int64_t>& shape = specs_[frame_index_].shape;
  const std::size_t frame_bytes =
      static_cast<std::size_t>(players_ * shape[0] * shape[1] * shape[2]);
  if (pixels != nullptr && bytes != frame_bytes) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SetFrameTarget: ", bytes, " bytes given, ",
        players_ == 1 ? "a " : absl::StrCat(players_, " players' "), shape[0], "x", shape[1],
        "x3 ", players_ == 1 ? "frame needs " : "frames need ", frame_bytes));
  }
  frame_target_ = pixels;
  return absl::OkStatus();
}

int Observations::buffers_allocated() const {
  return pool_.allocations() + (device_pool_ ? device_pool_->allocations() : 0) +
         (staging_pool_ ? staging_pool_->allocations() : 0);
}

}  // namespace engine_plugin
