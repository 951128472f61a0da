// Properties: string key-value pairs a host reads, writes and lists
// (engine.h), answered by the engine or the level script.
#ifndef ENGINE_PLUGIN_PROPERTY_H_
#define ENGINE_PLUGIN_PROPERTY_H_

namespace engine_plugin {

enum class PropertyResult { kSuccess, kNotFound, kPermissionDenied, kInvalidArgument };

// A listed key's attributes, or-ed together.
enum PropertyAttribute : int { kReadable = 1, kWritable = 2, kListable = 4 };

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_PROPERTY_H_
