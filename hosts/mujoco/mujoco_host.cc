#include "hosts/mujoco/mujoco_host.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/host_registry.h"
#include "hosts/mujoco/mujoco_errors.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/tensor_limits.h"

namespace hosts::mujoco {
namespace {

using engine_plugin::Level;
using engine_plugin::ObservationSpec;
using engine_plugin::ObservationType;
using engine_plugin::ObservationValue;

enum Observation { kRgb, kDepth, kQpos, kQvel, kSensordata };

constexpr int kMaxFrameExtent = 4096;
constexpr int kMaxFrameSkip = 1000;
// The warnings that mean the state is no longer physics (MuJoCo resets
// mjData on each of them and goes on as if nothing happened).
constexpr mjtWarning kDivergenceWarnings[] = {mjWARN_BADQPOS, mjWARN_BADQVEL, mjWARN_BADQACC,
                                              mjWARN_BADCTRL};

absl::StatusOr<int> ParseBounded(absl::string_view key, absl::string_view value, int highest) {
  int parsed = 0;
  if (!absl::SimpleAtoi(value, &parsed) || parsed < 1 || parsed > highest) {
    return absl::InvalidArgumentError(absl::StrCat(
        "setting '", key, "': an integer in [1, ", highest, "] expected, got '", value, "'"));
  }
  return parsed;
}

int DivergenceCount(const mjData& data) {
  int count = 0;
  for (mjtWarning warning : kDivergenceWarnings) count += data.warning[warning].number;
  return count;
}

// Reads model()'s table at `index`.
absl::Status ReadModelTable(lua_State* L, int index, ModelRequest* request,
                            std::optional<int>* frame_skip, std::string* camera) {
  if (!lua_istable(L, index)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "must return a table {file = ...} or {xml = ...}, not ", lua_api::TypeNameAt(L, index)));
  }
  for (const auto& [key, out] : {std::pair{"file", &request->file}, std::pair{"xml", &request->xml},
                                 std::pair{"camera", camera}}) {
    lua_api::PushRawField(L, index, key);
    std::string why;
    if (!lua_isnil(L, -1)) why = lua_api::ReadString(L, -1, out);
    lua_pop(L, 1);
    if (!why.empty()) return absl::InvalidArgumentError(absl::StrCat("field '", key, "': ", why));
  }
  if (request->file.empty() == request->xml.empty()) {
    return absl::InvalidArgumentError("must return a table with one of 'file' and 'xml'");
  }
  lua_api::PushRawField(L, index, "frameSkip");
  std::string why;
  if (!lua_isnil(L, -1)) {
    std::int64_t skip = 0;
    why = lua_api::ReadInteger(L, -1, &skip);
    if (why.empty() && (skip < 1 || skip > kMaxFrameSkip)) {
      why = absl::StrCat("an integer in [1, ", kMaxFrameSkip, "] expected, got ", skip);
    }
    *frame_skip = static_cast<int>(skip);
  }
  lua_pop(L, 1);
  if (!why.empty()) return absl::InvalidArgumentError(absl::StrCat("field 'frameSkip': ", why));
  return absl::OkStatus();
}

// afterStep's results: a reward (nil: 0) and nil, 'terminated' or
// 'truncated'.
absl::Status ReadStepResults(lua_State* L, int first, double* reward,
                             std::optional<engine_plugin::EpisodeEnd>* end) {
  if (!lua_isnil(L, first)) {
    if (std::string why = lua_api::ReadNumber(L, first, reward); !why.empty()) {
      return absl::InvalidArgumentError(absl::StrCat("returned a reward: ", why));
    }
    if (!std::isfinite(*reward)) {
      return absl::InvalidArgumentError(absl::StrCat("returned the reward ", *reward,
                                                     ": a finite number expected"));
    }
  }
  if (lua_isnil(L, first + 1)) return absl::OkStatus();
  std::string word;
  const bool is_string = lua_api::ReadString(L, first + 1, &word).empty();
  if (word == "terminated") {
    *end = engine_plugin::EpisodeEnd::kTerminated;
  } else if (word == "truncated") {
    *end = engine_plugin::EpisodeEnd::kTruncated;
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "returned ", is_string ? absl::StrCat("'", word, "'") : lua_api::TypeNameAt(L, first + 1),
        " as its second result: nil, 'terminated' or 'truncated' expected"));
  }
  return absl::OkStatus();
}

const bool kRegistered = engine_plugin::RegisterHost(
    "mujoco", [] { return std::unique_ptr<engine_plugin::Host>(new MujocoHost); });

}  // namespace

absl::StatusOr<bool> MujocoHost::SetSetting(absl::string_view key, absl::string_view value) {
  if (key == "width" || key == "height") {
    absl::StatusOr<int> extent = ParseBounded(key, value, kMaxFrameExtent);
    if (!extent.ok()) return extent.status();
    (key == "width" ? width_ : height_) = *extent;
    return true;
  }
  if (key == "frameSkip") {
    absl::StatusOr<int> skip = ParseBounded(key, value, kMaxFrameSkip);
    if (!skip.ok()) return skip.status();
    frame_skip_setting_ = *skip;
    return true;
  }
  if (key == "camera") {
    camera_setting_ = std::string(value);
    return true;
  }
  return false;
}

void MujocoHost::RegisterModules(lua_State* L, Level&) {
  level_state_ = L;
  RegisterMujocoModule(L, this);
}

absl::StatusOr<MujocoHost::ModelChoice> MujocoHost::CallModel(Level& level) {
  ModelChoice choice;
  absl::StatusOr<bool> called = level.Call(
      "model", 1, [](lua_State*) { return 0; },
      [&](lua_State* L, int first) {
        const std::size_t limit = lua_api::GetTensorLimits(L).memory_bytes;
        const std::size_t used = lua_api::TensorMemoryInUse(L);
        choice.memory_bytes = limit > used ? limit - used : 0;
        return ReadModelTable(L, first, &choice.request, &choice.frame_skip, &choice.camera);
      });
  if (!called.ok()) return called.status();
  if (!*called) {
    return absl::InvalidArgumentError(
        "a MuJoCo level needs a model() callback that names its model ({file = ...} or "
        "{xml = ...})");
  }
  return choice;
}

absl::Status MujocoHost::ResolveCamera(const std::string& camera) {
  camera_name_ = camera.empty() ? "-1" : camera;
  if (camera.empty() || camera == "-1") {
    camera_ = -1;
    return absl::OkStatus();
  }
  camera_ = mj_name2id(loaded_.model.get(), mjOBJ_CAMERA, camera.c_str());
  if (camera_ < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("camera '", camera, "': the model has no camera of that name (-1 is the "
                     "free camera)"));
  }
  return absl::OkStatus();
}

absl::Status MujocoHost::Init(Level& level) {
  absl::StatusOr<ModelChoice> choice = CallModel(level);
  if (!choice.ok()) return choice.status();
  absl::StatusOr<LoadedModel> loaded =
      LoadModel(choice->request, level.directory(), choice->memory_bytes);
  if (!loaded.ok()) {
    return absl::Status(loaded.status().code(),
                        absl::StrCat("level callback 'model': ", loaded.status().message()));
  }
  absl::StatusOr<lua_api::TensorMemoryCharge> charge =
      lua_api::ChargeTensorMemory(level_state_, loaded->bytes);
  if (!charge.ok()) {
    return absl::Status(charge.status().code(),
                        absl::StrCat("level callback 'model': ", charge.status().message()));
  }
  memory_charge_ = *std::move(charge);
  loaded_ = *std::move(loaded);
  frame_skip_ = frame_skip_setting_.value_or(choice->frame_skip.value_or(1));
  if (absl::Status camera = ResolveCamera(camera_setting_.value_or(choice->camera));
      !camera.ok()) {
    return camera;
  }
  const mjModel& m = *loaded_.model;
  specs_ = {
      {"RGB_INTERLEAVED", ObservationType::kBytes, {height_, width_, 3}},
      {"DEPTH", ObservationType::kFloats, {height_, width_}},
      {"QPOS", ObservationType::kDoubles, {m.nq}},
      {"QVEL", ObservationType::kDoubles, {m.nv}},
  };
  if (m.nsensordata > 0) {
    specs_.push_back({"SENSORDATA", ObservationType::kDoubles, {m.nsensordata}});
  }
  action_.assign(m.nu, 0.0);
  return absl::OkStatus();
}

std::vector<ObservationSpec> MujocoHost::ObservationSpecs() const { return specs_; }

std::vector<engine_plugin::ContinuousActionSpec> MujocoHost::ContinuousActions() const {
  std::vector<engine_plugin::ContinuousActionSpec> specs;
  if (loaded_.model == nullptr) return specs;
  const mjModel& m = *loaded_.model;
  for (int i = 0; i < m.nu; ++i) {
    const char* name = mj_id2name(&m, mjOBJ_ACTUATOR, i);
    engine_plugin::ContinuousActionSpec spec;
    spec.name = name != nullptr ? name : absl::StrCat("actuator_", i);
    spec.min = -std::numeric_limits<double>::infinity();
    spec.max = std::numeric_limits<double>::infinity();
    if (m.actuator_ctrllimited[i]) {
      spec.min = m.actuator_ctrlrange[2 * i];
      spec.max = m.actuator_ctrlrange[2 * i + 1];
    }
    specs.push_back(std::move(spec));
  }
  return specs;
}

int MujocoHost::fps() const {
  if (loaded_.model == nullptr) return 1;
  const double rate = 1 / (loaded_.model->opt.timestep * frame_skip_);
  // A timestep MuJoCo accepts is positive; rounded, the rate is at least 1.
  if (!(rate >= 1)) return 1;
  return static_cast<int>(std::lround(std::min(rate, 1e6)));
}

absl::Status MujocoHost::CheckDiverged(absl::string_view when) {
  const mjData& d = *loaded_.data;
  if (DivergenceCount(d) == 0) return absl::OkStatus();
  broken_ = true;
  std::string warning = TakeMujocoWarning();
  return absl::InternalError(absl::StrCat(
      "the physics diverged ", when.empty() ? absl::StrCat("at t = ", d.time) : when,
      " (MuJoCo: ", warning.empty() ? "bad state" : warning,
      "); the episode is over: start a new one"));
}

absl::Status MujocoHost::Start(Level& level, std::uint64_t) {
  mjModel* m = loaded_.model.get();
  mjData* d = loaded_.data.get();
  if (absl::Status reset = Guarded("mj_resetData", [&] { mj_resetData(m, d); }); !reset.ok()) {
    return reset;
  }
  broken_ = false;
  TakeMujocoWarning();
  absl::StatusOr<bool> called = lending_.Call(level, m, d, "reset", 0,
                                              [](lua_State*, int) { return absl::OkStatus(); });
  if (!called.ok()) return called.status();
  absl::Status forward = Guarded("mj_forward", [&] { mj_forward(m, d); });
  if (!forward.ok()) {
    broken_ = true;
    return forward;
  }
  return CheckDiverged("from the state reset() set");
}

void MujocoHost::Act(absl::Span<const int>, absl::Span<const double> continuous) {
  std::copy_n(continuous.begin(), std::min(continuous.size(), action_.size()), action_.begin());
}

absl::Status MujocoHost::StepPhysics() {
  const mjModel* m = loaded_.model.get();
  mjData* d = loaded_.data.get();
  for (int i = 0; i < frame_skip_; ++i) {
    if (absl::Status stepped = Guarded("mj_step", [&] { mj_step(m, d); }); !stepped.ok()) {
      broken_ = true;
      return stepped;
    }
    if (absl::Status diverged = CheckDiverged(""); !diverged.ok()) return diverged;
  }
  return absl::OkStatus();
}

absl::Status MujocoHost::Step(Level& level) {
  if (broken_) {
    return absl::FailedPreconditionError(
        "the simulation stopped with an error in this episode: start a new one");
  }
  mjModel* m = loaded_.model.get();
  mjData* d = loaded_.data.get();
  std::copy(action_.begin(), action_.end(), d->ctrl);
  absl::StatusOr<bool> before = lending_.Call(level, m, d, "beforeStep", 0,
                                              [](lua_State*, int) { return absl::OkStatus(); });
  if (!before.ok()) return before.status();
  if (absl::Status stepped = StepPhysics(); !stepped.ok()) return stepped;
  double reward = 0;
  std::optional<engine_plugin::EpisodeEnd> end;
  absl::StatusOr<bool> after =
      lending_.Call(level, m, d, "afterStep", 2, [&](lua_State* L, int first) {
        return ReadStepResults(L, first, &reward, &end);
      });
  if (!after.ok()) return after.status();
  level.AddReward(0, reward);
  if (end) level.EndEpisode(*end);
  return absl::OkStatus();
}

absl::StatusOr<tensor::Tensor> MujocoHost::RenderImage(
    bool rgb, engine_plugin::ObservationBuffers& buffers) {
  if (renderer_ == nullptr) {
    absl::StatusOr<std::unique_ptr<Renderer>> made =
        Renderer::Create(loaded_.model.get(), width_, height_);
    if (!made.ok()) return made.status();
    renderer_ = *std::move(made);
  }
  const ObservationSpec& spec = specs_[rgb ? kRgb : kDepth];
  absl::StatusOr<tensor::Tensor> image =
      buffers.Acquire(rgb ? tensor::DType::kUInt8 : tensor::DType::kFloat32, spec.shape);
  if (!image.ok()) return image.status();
  void* pixels = *image->data();
  absl::Status drawn = renderer_->Render(
      loaded_.model.get(), loaded_.data.get(), camera_,
      rgb ? static_cast<std::uint8_t*>(pixels) : nullptr,
      rgb ? nullptr : static_cast<float*>(pixels));
  if (!drawn.ok()) return drawn;
  return image;
}

absl::StatusOr<ObservationValue> MujocoHost::Observe(int index,
                                                     engine_plugin::ObservationBuffers& buffers) {
  if (broken_) {
    return absl::FailedPreconditionError(
        "the simulation stopped with an error in this episode: start a new one");
  }
  const ObservationSpec& spec = specs_[index];
  ObservationValue value;
  value.type = spec.type;
  if (index == kRgb || index == kDepth) {
    absl::StatusOr<tensor::Tensor> image = RenderImage(index == kRgb, buffers);
    if (!image.ok()) return image.status();
    value.tensor = *std::move(image);
    return value;
  }
  const mjData& d = *loaded_.data;
  const mjtNum* source = index == kQpos ? d.qpos : index == kQvel ? d.qvel : d.sensordata;
  absl::StatusOr<tensor::Tensor> out = buffers.Acquire(tensor::DType::kFloat64, spec.shape);
  if (!out.ok()) return out.status();
  std::memcpy(*out->data(), source, static_cast<std::size_t>(spec.shape[0]) * sizeof(mjtNum));
  value.tensor = *std::move(out);
  return value;
}

void MujocoHost::ListProperties(
    absl::FunctionRef<void(absl::string_view, const std::string&)> visit) const {
  visit("frameSkip", absl::StrCat(frame_skip_));
  visit("timestep", absl::StrCat(loaded_.model ? loaded_.model->opt.timestep : 0));
  visit("controlTimestep",
        absl::StrCat(loaded_.model ? loaded_.model->opt.timestep * frame_skip_ : 0));
  visit("width", absl::StrCat(width_));
  visit("height", absl::StrCat(height_));
  visit("camera", camera_name_);
  visit("modelBytes", absl::StrCat(memory_charge_.bytes()));
}

}  // namespace hosts::mujoco
