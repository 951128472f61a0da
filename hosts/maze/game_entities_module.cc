#include "hosts/maze/game_entities_module.h"

#include <cstddef>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "engine_plugin/module_support.h"
#include "hosts/maze/world.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/work_meter.h"

namespace hosts::maze {
namespace {

using engine_plugin::CheckModuleSelf;
using engine_plugin::HostOf;
using lua_api::ArgumentError;
using lua_api::NResultsOr;

constexpr char kModule[] = "game_entities";

// What a name of the filter takes in its set besides its bytes.
constexpr std::size_t kBytesPerFilterName = 64;

// The class names listed at stack `index` (a list of strings, read raw),
// or the argument error. Each is charged to the level's tensor memory in
// `charge`, and its reading to the watchdog, before it is copied: the set
// is C++ memory, which a list of millions of names would fill uncounted.
std::string ReadClassNames(lua_State* L, int index, absl::flat_hash_set<std::string>* names,
                           lua_api::TensorMemoryCharge* charge) {
  if (!lua_istable(L, index)) {
    return ArgumentError("entities", 1, lua_api::Expected(L, index, "list of class names"));
  }
  const int count = static_cast<int>(lua_objlen(L, index));
  if (absl::Status charged = tensor::ChargeWork(count); !charged.ok()) {
    return absl::StrCat("'", kModule, ":entities': ", charged.message());
  }
  for (int i = 1; i <= count; ++i) {
    lua_rawgeti(L, index, i);
    std::string name;
    std::string why = lua_api::ReadString(L, -1, &name);
    lua_pop(L, 1);
    if (!why.empty()) return ArgumentError("entities", 1, absl::StrCat("entry ", i, ": ", why));
    if (absl::Status added = charge->Add(L, name.size() + kBytesPerFilterName); !added.ok()) {
      return absl::StrCat("'", kModule, ":entities': the filter's names: ", added.message());
    }
    names->insert(std::move(name));
  }
  return {};
}

// [-0, +1, e]
NResultsOr Entities(lua_State* L) {
  if (std::string e = CheckModuleSelf(L, kModule, "entities"); !e.empty()) return e;
  // A set: each pickup is one lookup, however many names (a list of 200k
  // names was searched once per pickup).
  absl::flat_hash_set<std::string> filter;
  lua_api::TensorMemoryCharge filter_charge;
  if (!lua_isnoneornil(L, 2)) {
    if (std::string e = ReadClassNames(L, 2, &filter, &filter_charge); !e.empty()) return e;
  }
  const World* world = HostOf<GameHost>(L)->world();
  if (world == nullptr) {
    return absl::StrCat("'", kModule, ":entities': no map is loaded yet (call it after start)");
  }
  if (std::string e = CheckPickupTables(L, world->pickups().size(), kEntitiesTableBytes,
                                        "game_entities:entities");
      !e.empty()) {
    return e;
  }
  lua_newtable(L);
  int row = 0;
  for (const Pickup& pickup : world->pickups()) {
    const std::string& class_name = pickup.class_name;
    if (!filter.empty() && !filter.contains(class_name)) {
      continue;
    }
    PushPickup(L, pickup);  // id, type, classname, quantity, position {x, y}
    lua_pushinteger(L, pickup.id + 1);
    lua_setfield(L, -2, "entityId");
    lua_pushinteger(L, pickup.spawn_id);
    lua_setfield(L, -2, "id");
    lua_pushboolean(L, pickup.active);
    lua_setfield(L, -2, "visible");
    lua_getfield(L, -1, "position");
    lua_pushnumber(L, 0);
    lua_rawseti(L, -2, 3);  // z: the maze is flat
    lua_pop(L, 1);
    lua_rawseti(L, -2, ++row);
  }
  return 1;
}

constexpr lua_api::MethodEntry kFunctions[] = {
    {"entities", &lua_api::Raising<&Entities>},
};

// [-0, +1, m] The loader in package.preload.
int Open(lua_State* L) {
  engine_plugin::PushModuleTable(L, lua_touserdata(L, lua_upvalueindex(1)), kFunctions);
  return 1;
}

}  // namespace

void RegisterGameEntitiesModule(lua_State* L, GameHost* host) {
  lua_api::SetPreload(L, "dmlab.system.game_entities", &Open, host);
}

}  // namespace hosts::maze
