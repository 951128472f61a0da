// dmlab.system.events: events a level raises for the host.
//
// Lua API (`local events = require 'dmlab.system.events'`):
//   events:add(name, ...)   each value a string or a tensor. A ByteTensor
//                           arrives as bytes, any other tensor as doubles;
//                           both are copied, so the script may go on
//                           changing its tensors.
// The host reads them through the engine (Engine::events) or the C ABI:
// an event type is registered on first use of its name.
//
// Example:
//   events:add('reached goal', 'lap ' .. lap, tensor.DoubleTensor{x, y})
#ifndef ENGINE_PLUGIN_EVENTS_MODULE_H_
#define ENGINE_PLUGIN_EVENTS_MODULE_H_

#include <string>
#include <vector>

#include "engine_plugin/observation.h"
#include "lua_api/lua.h"

namespace engine_plugin {

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void AddEvent(std::string name, std::vector<ObservationValue> values) = 0;
};

// [-0, +0, m] Makes `require 'dmlab.system.events'` return a module bound
// to `sink`, which must outlive L.
void RegisterEventsModule(lua_State* L, EventSink* sink);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_EVENTS_MODULE_H_
