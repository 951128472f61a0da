// EventLog: the events a level raised in the current step, and the event
// types it registered, as the engine keeps them for its host.
//
// It is the engine's EventSink (events_module.h), and it bounds what a
// level can make it hold: a step's events (names and values) may take
// `bytes_per_step` in all (the engine gives the level's tensor memory
// limit), checked before anything is copied; a name at most
// kMaxEventNameBytes; and since types are registered for the engine's
// life, at most kMaxEventTypes of them.
//
// Example:
//   EventLog log(16 << 20);
//   RegisterEventsModule(L, &log);
//   ...                      // the level's events:add calls
//   for (const Event& event : log.events()) Use(log.type_names()[event.type]);
//   log.NewStep();
#ifndef ENGINE_PLUGIN_EVENT_LOG_H_
#define ENGINE_PLUGIN_EVENT_LOG_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/events_module.h"
#include "engine_plugin/observation.h"

namespace engine_plugin {

struct Event {
  int type;  // index into the type names
  std::vector<ObservationValue> values;
};

class EventLog final : public EventSink {
 public:
  static constexpr std::size_t kMaxEventNameBytes = 1024;
  static constexpr std::size_t kMaxEventTypes = 4096;

  explicit EventLog(std::size_t bytes_per_step = 0) : bytes_per_step_(bytes_per_step) {}

  void set_bytes_per_step(std::size_t bytes) { bytes_per_step_ = bytes; }

  // Drops the step's events; their budget is whole again.
  void NewStep();

  const std::vector<std::string>& type_names() const { return type_names_; }
  const std::vector<Event>& events() const { return events_; }

  // EventSink
  absl::Status ReserveEvent(absl::string_view name, std::size_t bytes) override;
  void AddEvent(std::string name, std::vector<ObservationValue> values) override;

 private:
  std::size_t bytes_per_step_;
  std::size_t bytes_ = 0;  // this step's
  std::vector<std::string> type_names_;
  absl::flat_hash_map<std::string, int> types_;  // name -> index in type_names_
  std::vector<Event> events_;
};

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_EVENT_LOG_H_
