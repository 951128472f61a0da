#include "engine_plugin/event_log.h"

#include <algorithm>
#include <utility>

#include "absl/strings/str_cat.h"

namespace engine_plugin {

void EventLog::NewStep() {
  events_.clear();
  bytes_ = 0;
}

absl::Status EventLog::ReserveEvent(absl::string_view name, std::size_t bytes) {
  if (name.size() > kMaxEventNameBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("the event name has ", name.size(), " bytes; at most ", kMaxEventNameBytes));
  }
  if (type_names_.size() >= kMaxEventTypes &&
      std::find(type_names_.begin(), type_names_.end(), name) == type_names_.end()) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the level already has ", kMaxEventTypes, " event types, the most an engine keeps"));
  }
  if (bytes > bytes_per_step_ - bytes_) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the events of one step may hold ", bytes_per_step_ >> 20,
        " MiB (setting tensorMemoryLimitMegabytes); this one needs ", bytes, " bytes and ",
        bytes_per_step_ - bytes_, " are left"));
  }
  bytes_ += bytes;
  return absl::OkStatus();
}

void EventLog::AddEvent(std::string name, std::vector<ObservationValue> values) {
  auto known = std::find(type_names_.begin(), type_names_.end(), name);
  const int type = static_cast<int>(known - type_names_.begin());
  if (known == type_names_.end()) type_names_.push_back(std::move(name));
  events_.push_back(Event{type, std::move(values)});
}

}  // namespace engine_plugin
