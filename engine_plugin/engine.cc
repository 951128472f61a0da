#include "engine_plugin/engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <optional>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/host_registry.h"
#include "engine_plugin/level_paths.h"
#include "engine_plugin/level_script.h"
#include "engine_plugin/level_source.h"
#include "engine_plugin/observation_pool.h"
#include "engine_plugin/observation_specs.h"
#include "engine_plugin/plugin_settings.h"
#include "engine_plugin/sandbox.h"
#include "tensor/device_ops.h"
#include "tensor/device_transfer.h"
#include "tensor/loan.h"

namespace engine_plugin {
namespace {

constexpr char kTargetLender[] = "host frame target";

absl::Status Annotate(const absl::Status& status, absl::string_view context) {
  return absl::Status(status.code(), absl::StrCat(context, ": ", status.message()));
}

}  // namespace

struct Engine::State final : Level, ObservationBuffers {
  // Configuration, fixed by Init.
  LevelSource level;
  std::unique_ptr<Host> host;
  Settings settings;
  PluginSettings plugin;
  std::int64_t episode_length_frames = 0;  // episodeLengthSeconds in steps
  std::vector<ObservationSpec> specs;  // the host's, then the level's
  std::vector<bool> from_level;        // per spec (observation_specs.h)
  int frame_index = -1;                // the host's frame observation
  std::vector<DiscreteActionSpec> discrete_specs;
  std::vector<ContinuousActionSpec> continuous_specs;

  // The episode.
  bool started = false;
  bool episode_over = false;
  std::vector<int> discrete;
  std::vector<double> continuous;
  std::int64_t episode_frames = 0;
  std::int64_t steps = 0;
  double pending_reward = 0;
  std::optional<EpisodeEnd> ended_by_host;  // EndEpisode, in this step
  std::int64_t clamped_actions = 0;

  // The current frame's buffers and observations.
  ObservationPool pool;
  // With a device observationDevice (from Init): its backend, the device
  // buffers the frame is uploaded into, and with pinnedStaging the
  // page-locked buffers frames are rendered into. Pools, like `pool`, so a
  // device frame a host keeps is never overwritten, and a step that keeps
  // nothing allocates nothing.
  const tensor::DeviceOps* device_ops = nullptr;
  std::optional<ObservationPool> device_pool;
  std::optional<ObservationPool> staging_pool;
  tensor::Tensor frame;
  // SetFrameTarget's memory, or null for pool buffers. While it is set,
  // `frame` is lent over it under `target_loan`, which ends with the frame.
  std::uint8_t* frame_target = nullptr;
  std::shared_ptr<tensor::Loan> target_loan;
  std::vector<std::optional<LevelObservation>> observations;
  // A step's events may hold as much as the level's tensors (from Init).
  EventLog event_log;

  // Last, so it is destroyed first: its Lua VM refers to this State and
  // to the host.
  std::unique_ptr<LevelScript> script;

  // Level
  absl::StatusOr<bool> Call(
      const char* name, int num_results, absl::FunctionRef<int(lua_State*)> push_arguments,
      absl::FunctionRef<absl::Status(lua_State*, int)> read_results) override {
    return script->Call(name, num_results, push_arguments, read_results);
  }
  bool Defines(const char* name) override { return script->Defines(name); }
  absl::StatusOr<bool> CallLending(const char* name,
                                   absl::Span<const LentBuffer> buffers) override {
    return script->CallLending(name, buffers);
  }
  void AddReward(double reward) override { pending_reward += reward; }
  void EndEpisode(EpisodeEnd end) override { ended_by_host = end; }
  double EpisodeTimeSeconds() const override {
    return static_cast<double>(episode_frames) / host->fps();
  }
  const std::string& directory() const override { return level.directory; }
  absl::StatusOr<std::string> ReadFile(const std::string& name) const override {
    return ReadNamedLevelFile(paths(), name);
  }
  LevelPaths paths() const { return {level.directory, plugin.game_scripts_directory}; }

  // ObservationBuffers
  absl::StatusOr<tensor::Tensor> Acquire(tensor::DType dtype,
                                         absl::Span<const std::int64_t> shape) override {
    return pool.Acquire(dtype, shape);
  }

  // Drops the previous frame's buffers, so the pool can recycle those that
  // nobody retained.
  void BeginStep() {
    frame = tensor::Tensor();
    // The next frame overwrites the target: whatever a host kept of this
    // one becomes an error instead of silently changing.
    if (target_loan != nullptr) target_loan->Revoke();
    target_loan = nullptr;
    observations.assign(specs.size(), std::nullopt);
    event_log.NewStep();
  }

  // The buffer the next frame is rendered into: the caller's target, lent
  // until the next BeginStep, or else a fresh pool buffer.
  absl::StatusOr<tensor::Tensor> FrameBuffer() {
    const std::vector<std::int64_t>& shape = specs[frame_index].shape;
    if (frame_target == nullptr) {
      return (staging_pool ? *staging_pool : pool).Acquire(tensor::DType::kUInt8, shape);
    }
    absl::StatusOr<tensor::Layout> layout = tensor::Layout::Contiguous(shape);
    if (!layout.ok()) return layout.status();
    target_loan = tensor::Loan::Create(kTargetLender);
    const auto bytes = static_cast<std::size_t>(layout->num_elements());
    return tensor::Tensor::Lend(tensor::DType::kUInt8, *std::move(layout), frame_target, bytes,
                                target_loan);
  }

  absl::Status RenderFrame() {
    if (frame_index >= 0) {
      absl::StatusOr<tensor::Tensor> buffer = FrameBuffer();
      if (!buffer.ok()) return buffer.status();
      frame = *std::move(buffer);
    }
    return host->Render(*this, frame);
  }

  // The frame as handed out: the buffer it was drawn in, or its copy on
  // the observationDevice.
  absl::StatusOr<tensor::Tensor> FrameObservation() {
    if (!device_pool) return frame;
    absl::StatusOr<tensor::Tensor> uploaded =
        device_pool->Acquire(tensor::DType::kUInt8, specs[frame_index].shape);
    if (!uploaded.ok()) return uploaded.status();
    // Synchronous: the device holds the frame before the host sees it.
    if (absl::Status s = device_ops->copy(*uploaded, frame); !s.ok()) {
      return Annotate(
          s, absl::StrCat("uploading the frame to ", plugin.observation_device.ToString()));
    }
    return *std::move(uploaded);
  }

  absl::StatusOr<LevelObservation> Compute(int index) {
    if (from_level[index]) return script->CustomObservation(specs[index]);
    LevelObservation result;
    if (index == frame_index) {
      result.value.type = ObservationType::kBytes;
      absl::StatusOr<tensor::Tensor> tensor = FrameObservation();
      if (!tensor.ok()) return tensor.status();
      result.value.tensor = *std::move(tensor);
      return result;
    }
    absl::StatusOr<ObservationValue> value = host->Observe(index, *this);
    if (!value.ok()) return value.status();
    result.value = *std::move(value);
    return result;
  }

  // A copy of `value` that nothing else holds.
  absl::StatusOr<ObservationValue> CopyOf(const ObservationValue& value);

  absl::StatusOr<const LevelObservation*> Observe(int index) {
    if (!started) return absl::FailedPreconditionError("no observations before start");
    if (index < 0 || index >= static_cast<int>(specs.size())) {
      return absl::OutOfRangeError(absl::StrCat("observation index ", index, " is not in [0, ",
                                                specs.size(), ")"));
    }
    if (!observations[index]) {
      absl::StatusOr<LevelObservation> computed = Compute(index);
      if (!computed.ok()) return computed.status();
      // A host call from inside the level's customObservation may have
      // filled the slot first: that value is the step's.
      if (!observations[index]) observations[index] = *std::move(computed);
    }
    return &*observations[index];
  }

  // Finds observationDevice's backend and allocators, so that a build or a
  // machine without that device fails here rather than at the first step.
  absl::Status OpenObservationDevice() {
    device_ops = nullptr;
    device_pool.reset();
    staging_pool.reset();
    if (plugin.observation_device.is_cpu()) return absl::OkStatus();
    const std::string setting =
        absl::StrCat("setting 'observationDevice' is '", plugin.observation_device.ToString(), "'");
    absl::StatusOr<const tensor::DeviceOps*> ops =
        tensor::DeviceOpsFor(plugin.observation_device, "observationDevice");
    if (!ops.ok()) {
      return absl::FailedPreconditionError(absl::StrCat(
          setting, ", but this build has no backend for that device (build with --config=cuda)"));
    }
    if ((*ops)->allocator == nullptr || (*ops)->copy == nullptr) {
      return absl::UnimplementedError(
          absl::StrCat(setting, ", but its backend cannot allocate and copy tensors"));
    }
    absl::StatusOr<tensor::Allocator*> allocator =
        (*ops)->allocator(plugin.observation_device.index);
    if (!allocator.ok()) return Annotate(allocator.status(), setting);
    if (plugin.pinned_staging) {
      if ((*ops)->pinned_host_allocator == nullptr) {
        return absl::UnimplementedError(absl::StrCat(
            "setting 'pinnedStaging' is 'true', but the backend of ",
            plugin.observation_device.ToString(), " has no page-locked host memory"));
      }
      absl::StatusOr<tensor::Allocator*> pinned = (*ops)->pinned_host_allocator();
      if (!pinned.ok()) return Annotate(pinned.status(), "setting 'pinnedStaging' is 'true'");
      staging_pool.emplace(**pinned);
    }
    device_ops = *ops;
    device_pool.emplace(**allocator);
    return absl::OkStatus();
  }
};

Engine::Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}
Engine::~Engine() = default;

absl::StatusOr<std::unique_ptr<Engine>> Engine::Create(std::string level) {
  absl::StatusOr<LevelSource> source = FindLevel(level);
  if (!source.ok()) return source.status();
  absl::StatusOr<std::unique_ptr<Host>> host = CreateHost(source->host);
  if (!host.ok()) return Annotate(host.status(), absl::StrCat("level '", level, "'"));
  auto state = std::make_unique<State>();
  state->level = *std::move(source);
  state->host = *std::move(host);
  // Hosts whose actions do not depend on the level have them before Init.
  state->discrete_specs = state->host->DiscreteActions();
  state->continuous_specs = state->host->ContinuousActions();
  return std::unique_ptr<Engine>(new Engine(std::move(state)));
}

absl::Status Engine::SetSetting(absl::string_view key, absl::string_view value) {
  State& s = *state_;
  if (s.script != nullptr) {
    return absl::FailedPreconditionError(
        absl::StrCat("setting '", key, "' after init: settings must come before init"));
  }
  absl::StatusOr<bool> applied = ApplyPluginSetting(key, value, &s.plugin);
  if (!applied.ok()) return applied.status();
  if (!*applied) applied = s.host->SetSetting(key, value);
  if (!applied.ok()) return applied.status();
  // The engine's own settings stay with it, as in DeepMind Lab, whose
  // levels refuse keys they do not know. episodeLengthSeconds is also a
  // level's own parameter there (its factories read it), so it reaches
  // init too.
  if (*applied && key != "episodeLengthSeconds") return absl::OkStatus();
  auto existing = std::find_if(s.settings.begin(), s.settings.end(),
                               [&](const auto& setting) { return setting.first == key; });
  if (existing != s.settings.end()) {
    existing->second = std::string(value);
  } else {
    s.settings.emplace_back(std::string(key), std::string(value));
  }
  return absl::OkStatus();
}

absl::Status Engine::Init() {
  State& s = *state_;
  if (s.script != nullptr) return absl::FailedPreconditionError("init was already called");
  if (absl::Status status = s.OpenObservationDevice(); !status.ok()) return status;
  const LevelLimits limits =
      ResolveLimits(s.plugin.limits, /*from_path=*/!s.level.builtin);
  s.event_log.set_bytes_per_step(limits.tensors.memory_bytes);
  absl::StatusOr<std::unique_ptr<LevelScript>> script = LevelScript::Load(
      s.level.source, s.level.chunk_name, s.paths(), limits,
      [&](lua_State* L) { s.host->RegisterModules(L, s); }, &s.event_log);
  if (!script.ok()) return script.status();
  // The host calls the level through `s` from here on.
  s.script = *std::move(script);
  absl::Status ready = [&] {
    if (absl::Status status = s.script->Init(s.settings); !status.ok()) return status;
    if (absl::Status status = s.host->Init(s); !status.ok()) return status;
    absl::StatusOr<std::vector<ObservationSpec>> custom = s.script->CustomObservationSpecs();
    if (!custom.ok()) return custom.status();
    s.frame_index = s.host->frame_observation();
    absl::StatusOr<ObservationSpecs> merged =
        ObservationSpecs::Merge(s.host->ObservationSpecs(), s.frame_index, *custom);
    if (!merged.ok()) return merged.status();
    s.specs = std::move(merged->specs);
    s.from_level = std::move(merged->from_level);
    s.discrete_specs = s.host->DiscreteActions();
    s.continuous_specs = s.host->ContinuousActions();
    s.discrete.assign(s.discrete_specs.size(), 0);
    s.continuous.assign(s.continuous_specs.size(), 0.0);
    // The setting wins over the level's own length.
    double length_seconds = s.plugin.episode_length_seconds;
    if (length_seconds == 0) {
      absl::StatusOr<double> level_length = s.script->EpisodeLengthSeconds();
      if (!level_length.ok()) return level_length.status();
      length_seconds = *level_length;
    }
    // The last step that starts within the limit ends the episode.
    s.episode_length_frames =
        static_cast<std::int64_t>(std::ceil(length_seconds * s.host->fps() - 1e-9));
    return absl::OkStatus();
  }();
  if (!ready.ok()) s.script = nullptr;
  return ready;
}
// Start and Advance reload maps and step the world under the level's
// feet: never from inside one of its callbacks.
absl::Status Engine::CheckCanStep(const char* what) const {
  const LevelScript* script = state_->script.get();
  if (script == nullptr || !script->in_callback()) return absl::OkStatus();
  return absl::FailedPreconditionError(absl::StrCat(
      what, " was called from inside a level callback (listProperty's visitor?); call it after "
            "the callback returns"));
}

absl::Status Engine::Start(int episode, std::uint64_t seed) {
  State& s = *state_;
  if (s.script == nullptr) return absl::FailedPreconditionError("call init before start");
  if (absl::Status nested = CheckCanStep("start"); !nested.ok()) return nested;
  s.started = false;
  s.BeginStep();
  std::fill(s.discrete.begin(), s.discrete.end(), 0);
  std::fill(s.continuous.begin(), s.continuous.end(), 0.0);
  s.episode_frames = 0;
  s.pending_reward = 0;
  s.ended_by_host.reset();
  if (absl::Status status = s.script->Start(episode, seed); !status.ok()) return status;
  if (absl::Status status = s.host->Start(s, seed); !status.ok()) return status;
  s.host->Act(s.discrete, s.continuous);
  if (absl::Status status = s.RenderFrame(); !status.ok()) return status;
  s.started = true;
  s.episode_over = false;
  return absl::OkStatus();
}

const std::vector<ObservationSpec>& Engine::observation_specs() const { return state_->specs; }

absl::StatusOr<ObservationValue> Engine::Observation(int index) {
  absl::StatusOr<const LevelObservation*> observed = state_->Observe(index);
  if (!observed.ok()) return observed.status();
  return (*observed)->value;
}

absl::StatusOr<ObservationValue> Engine::SteadyObservation(int index) {
  absl::StatusOr<const LevelObservation*> observed = state_->Observe(index);
  if (!observed.ok()) return observed.status();
  if (!(*observed)->shares_script_storage) return (*observed)->value;
  return state_->CopyOf((*observed)->value);
}

absl::StatusOr<ObservationValue> Engine::RetainObservation(int index) {
  absl::StatusOr<const LevelObservation*> observed = state_->Observe(index);
  if (!observed.ok()) return observed.status();
  const LevelObservation& observation = **observed;
  if (!observation.shares_script_storage && observation.value.tensor.owns_storage()) {
    return observation.value;
  }
  // The script may write into its tensor after this step, and the next
  // frame overwrites a host's frame target: hold a copy.
  return state_->CopyOf(observation.value);
}

absl::StatusOr<ObservationValue> Engine::State::CopyOf(const ObservationValue& value) {
  // A level's tensor on a GPU is copied there (a device RGB_INTERLEAVED is
  // pool storage, never copied); on the CPU the copy comes from the pool.
  const tensor::Tensor& source = value.tensor;
  if (!source.device().is_cpu()) {
    absl::StatusOr<tensor::Tensor> copy = tensor::ToDevice(source, source.device());
    if (!copy.ok()) return copy.status();
    return ObservationValue{value.type, *std::move(copy), {}};
  }
  absl::StatusOr<tensor::Tensor> copy =
      pool.Acquire(source.dtype(), source.layout().shape());
  if (!copy.ok()) return copy.status();
  std::memcpy(*copy->data(), *source.data(),
              static_cast<std::size_t>(source.layout().num_elements()) * source.item_size());
  return ObservationValue{value.type, *std::move(copy), {}};
}

const std::vector<DiscreteActionSpec>& Engine::discrete_actions() const {
  return state_->discrete_specs;
}
const std::vector<ContinuousActionSpec>& Engine::continuous_actions() const {
  return state_->continuous_specs;
}

void Engine::Act(absl::Span<const int> discrete) {
  State& s = *state_;
  for (std::size_t i = 0; i < s.discrete.size(); ++i) {
    const int value = i < discrete.size() ? discrete[i] : 0;
    s.discrete[i] = std::clamp(value, s.discrete_specs[i].min, s.discrete_specs[i].max);
  }
  s.host->Act(s.discrete, s.continuous);
}

absl::Status Engine::ActContinuous(absl::Span<const double> continuous) {
  State& s = *state_;
  for (std::size_t i = 0; i < continuous.size() && i < s.continuous.size(); ++i) {
    if (!std::isfinite(continuous[i])) {
      return absl::InvalidArgumentError(absl::StrCat("continuous action ", i, " ('",
                                                     s.continuous_specs[i].name, "') is ",
                                                     continuous[i], ", not a finite number"));
    }
  }
  for (std::size_t i = 0; i < s.continuous.size(); ++i) {
    const double value = i < continuous.size() ? continuous[i] : 0.0;
    s.continuous[i] = std::clamp(value, s.continuous_specs[i].min, s.continuous_specs[i].max);
    if (s.continuous[i] != value) ++s.clamped_actions;
  }
  s.host->Act(s.discrete, s.continuous);
  return absl::OkStatus();
}

absl::StatusOr<EpisodeStatus> Engine::Advance(int num_steps, double* reward) {
  State& s = *state_;
  if (absl::Status nested = CheckCanStep("advance"); !nested.ok()) return nested;
  if (!s.started) return absl::FailedPreconditionError("call start before advance");
  if (s.episode_over) {
    return absl::FailedPreconditionError("the episode has ended: call start for a new one");
  }
  if (num_steps < 1) {
    return absl::InvalidArgumentError(absl::StrCat("advance: num_steps ", num_steps, " < 1"));
  }
  s.BeginStep();
  // After an error the episode cannot go on; the next Start recovers.
  s.started = false;
  EpisodeStatus status = EpisodeStatus::kRunning;
  for (int step = 0; step < num_steps && status == EpisodeStatus::kRunning; ++step) {
    if (absl::Status stepped = s.host->Step(s); !stepped.ok()) return stepped;
    ++s.episode_frames;
    ++s.steps;
    absl::StatusOr<std::optional<EpisodeEnd>> finished =
        s.script->HasEpisodeFinished(s.EpisodeTimeSeconds());
    if (!finished.ok()) return finished.status();
    // Everything the callbacks of this frame scored is its reward.
    *reward += s.pending_reward;
    s.pending_reward = 0;
    // The host's end first, then the level's, then the time limit.
    const std::optional<EpisodeEnd> end = s.ended_by_host ? s.ended_by_host : *finished;
    s.ended_by_host.reset();
    if (end) {
      status = *end == EpisodeEnd::kTerminated ? EpisodeStatus::kTerminated
                                               : EpisodeStatus::kInterrupted;
    } else if (s.episode_length_frames > 0 && s.episode_frames >= s.episode_length_frames) {
      status = EpisodeStatus::kInterrupted;
    }
  }
  if (absl::Status rendered = s.RenderFrame(); !rendered.ok()) return rendered;
  *reward += s.pending_reward;  // scored while rendering (observeFrame)
  s.pending_reward = 0;
  s.started = true;
  s.episode_over = status != EpisodeStatus::kRunning;
  return status;
}

const std::vector<std::string>& Engine::event_type_names() const {
  return state_->event_log.type_names();
}
const std::vector<Event>& Engine::events() const { return state_->event_log.events(); }

namespace {

// The engine's read-only properties: the plugin's, then the host's.
void ListEngineProperties(const Engine& engine, std::int64_t steps, int buffers,
                          absl::FunctionRef<void(absl::string_view, const std::string&)> visit) {
  visit("engine.host", engine.host_name());
  visit("engine.episodeTimeSeconds", absl::StrCat(engine.episode_time_seconds()));
  visit("engine.steps", absl::StrCat(steps));
  visit("engine.frameBuffersAllocated", absl::StrCat(buffers));
  visit("engine.clampedActions", absl::StrCat(engine.clamped_actions()));
  engine.host().ListProperties([&](absl::string_view key, const std::string& value) {
    visit(absl::StrCat("engine.", key), value);
  });
}

std::optional<std::string> EngineProperty(const Engine& engine, absl::string_view key,
                                          std::int64_t steps) {
  std::optional<std::string> found;
  ListEngineProperties(engine, steps, engine.frame_buffers_allocated(),
                       [&](absl::string_view name, const std::string& value) {
                         if (name == key) found = value;
                       });
  return found;
}

bool IsEngineKey(absl::string_view key) {
  return key == "engine" || absl::StartsWith(key, "engine.");
}

}  // namespace

absl::StatusOr<PropertyResult> Engine::ReadProperty(absl::string_view key, std::string* value) {
  const State& s = *state_;
  if (IsEngineKey(key)) {
    std::optional<std::string> found = EngineProperty(*this, key, s.steps);
    if (!found) return PropertyResult::kNotFound;
    *value = *std::move(found);
    return PropertyResult::kSuccess;
  }
  if (s.script == nullptr) return PropertyResult::kNotFound;
  absl::StatusOr<std::optional<std::string>> found = s.script->ReadProperty(key);
  if (!found.ok()) return found.status();
  if (!*found) return PropertyResult::kNotFound;
  *value = **std::move(found);
  return PropertyResult::kSuccess;
}

absl::StatusOr<PropertyResult> Engine::WriteProperty(absl::string_view key,
                                                     absl::string_view value) {
  const State& s = *state_;
  if (IsEngineKey(key)) {
    return EngineProperty(*this, key, s.steps) ? PropertyResult::kPermissionDenied
                                                                  : PropertyResult::kNotFound;
  }
  if (s.script == nullptr) return PropertyResult::kNotFound;
  absl::StatusOr<std::optional<bool>> written = s.script->WriteProperty(key, value);
  if (!written.ok()) return written.status();
  return written->value_or(false) ? PropertyResult::kSuccess : PropertyResult::kNotFound;
}

absl::StatusOr<PropertyResult> Engine::ListProperty(
    absl::string_view key, absl::FunctionRef<void(absl::string_view, int)> visit) {
  const State& s = *state_;
  if (key == "engine") {
    ListEngineProperties(*this, s.steps, frame_buffers_allocated(),
                         [&](absl::string_view name, const std::string&) {
                           visit(name, kReadable);
                         });
    return PropertyResult::kSuccess;
  }
  if (IsEngineKey(key)) return PropertyResult::kNotFound;
  if (key.empty()) visit("engine", kListable);
  bool listed = key.empty();
  if (s.script != nullptr) {
    absl::StatusOr<bool> level_listed = s.script->ListProperty(key, visit);
    if (!level_listed.ok()) return level_listed.status();
    listed = listed || *level_listed;
  }
  return listed ? PropertyResult::kSuccess : PropertyResult::kNotFound;
}

int Engine::fps() const { return state_->host->fps(); }
double Engine::episode_time_seconds() const { return state_->EpisodeTimeSeconds(); }
const Host& Engine::host() const { return *state_->host; }
HostTools* Engine::host_tools() { return state_->host->tools(); }
const std::string& Engine::host_name() const { return state_->level.host; }
std::int64_t Engine::clamped_actions() const { return state_->clamped_actions; }

int Engine::frame_buffers_allocated() const {
  const State& s = *state_;
  return s.pool.allocations() + (s.device_pool ? s.device_pool->allocations() : 0) +
         (s.staging_pool ? s.staging_pool->allocations() : 0);
}

absl::Status Engine::SetFrameTarget(std::uint8_t* pixels, std::size_t bytes) {
  State& s = *state_;
  if (s.script == nullptr) return absl::FailedPreconditionError("call init before SetFrameTarget");
  if (s.frame_index < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("SetFrameTarget: the host '", s.level.host, "' renders no frame"));
  }
  const std::vector<std::int64_t>& shape = s.specs[s.frame_index].shape;
  const std::size_t frame_bytes = static_cast<std::size_t>(shape[0] * shape[1] * shape[2]);
  if (pixels != nullptr && bytes != frame_bytes) {
    return absl::InvalidArgumentError(absl::StrCat("SetFrameTarget: ", bytes,
                                                   " bytes given, a ", shape[0], "x", shape[1],
                                                   "x3 frame needs ", frame_bytes));
  }
  s.frame_target = pixels;
  return absl::OkStatus();
}

}  // namespace engine_plugin
