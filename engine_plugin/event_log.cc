#include "engine_plugin/event_log.h"

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
  if (type_names_.size() >= kMaxEventTypes && !types_.contains(name)) {
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
  const auto [known, added] = types_.try_emplace(name, static_cast<int>(type_names_.size()));
  if (added) type_names_.push_back(std::move(name));
  events_.push_back(Event{known->second, std::move(values)});
}

}  // namespace engine_plugin
