// dmlab.system.events: events a level raises for the host.
//
// Lua API (`local events = require 'dmlab.system.events'`):
//   events:add(name, ...)   each value a string or a tensor. A ByteTensor
//                           arrives as bytes, any other tensor as doubles;
//                           both are copied, so the script may go on
//                           changing its tensors. The host may refuse an
//                           event (a name too long, a step's events over
//                           its budget) before anything is copied.
// The host reads them through the engine (Engine::events) or the C ABI:
// an event type is registered on first use of its name.
//
// Example:
//   events:add('reached goal', 'lap ' .. lap, tensor.DoubleTensor{x, y})
#ifndef ENGINE_PLUGIN_EVENTS_MODULE_H_
#define ENGINE_PLUGIN_EVENTS_MODULE_H_

#include <cstddef>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/observation.h"
#include "lua_api/lua/lua.h"

namespace engine_plugin {

class EventSink {
 public:
  virtual ~EventSink() = default;
  // Before the module copies an event's values: whether the host takes an
  // event called `name` whose values hold `bytes` (its rules and budget;
  // an error is raised in the script), counting them if it does.
  virtual absl::Status ReserveEvent(absl::string_view name, std::size_t bytes) = 0;
  virtual void AddEvent(std::string name, std::vector<ObservationValue> values) = 0;
};

// [-0, +0, m] Makes `require 'dmlab.system.events'` return a module bound
// to `sink`, which must outlive L.
void RegisterEventsModule(lua_State* L, EventSink* sink);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_EVENTS_MODULE_H_
