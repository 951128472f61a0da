// StateLending: MuJoCo's mjData and mjModel arrays, lent to one level
// callback as tensors, without a copy.
//
// Each callback gets a fresh `state` table. Reading a field
// (state.qpos) lends that array as a DoubleTensor over mjData's own
// memory, under one loan for the whole call: writes go straight into the
// simulation, and whatever the level keeps (the table or a tensor) is an
// error naming the lender, "mujoco state", once the call returns. Fields
// are lent on first read and cached in the table, so a callback pays for
// the arrays it reads and nothing else.
//
// Fields (shape in MuJoCo's sizes), the state a level may write: qpos
// (nq), qvel, qfrc_applied (nv), act (na), ctrl (nu), xfrc_applied
// (nbody x 6), mocap_pos (nmocap x 3), mocap_quat (nmocap x 4). What
// MuJoCo computes from it, read-only: qacc (nv), actuator_force (nu),
// sensordata (nsensordata), xpos, subtree_com (nbody x 3), xquat (nbody
// x 4), xmat (nbody x 9), cvel (nbody x 6), site_xpos (nsite x 3),
// site_xmat (nsite x 9), geom_xpos (ngeom x 3), geom_xmat (ngeom x 9).
// And time, a number; and model, a table of mjModel's arrays by name
// (state.model.body_mass), read-only, in their own element types.
//
// Read-only means the level never touches the real array: it is lent a
// copy, taken on first read in each call (a second read of the same array
// in the call lends the same copy). A write lands in the copy, has no
// effect on the simulation, the model, or the lookups of
// dmlab.system.mujoco made in the same call, and makes the callback's
// result an error naming the array (the tensor core has no read-only
// storage, so the copies are compared with the arrays when the call
// returns). The copies' buffers are kept from call to call, so a steady
// step allocates nothing; each is charged to the level's tensor memory
// when first made (lua_api::ChargeTensorMemory), and there is one per
// array, so reading an array again and again costs no more memory.
//
// Example:
//   StateLending lending;
//   lending.Call(level, model, data, "afterStep", 2, read_reward);
#ifndef HOSTS_MUJOCO_STATE_LENDING_H_
#define HOSTS_MUJOCO_STATE_LENDING_H_

#include <mujoco/mujoco.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/node_hash_map.h"
#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "engine_plugin/host.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/layout.h"
#include "tensor/loan.h"

namespace hosts::mujoco {

inline constexpr char kStateLender[] = "mujoco state";
// How many mjData fields a state lends (state_lending.cc).
inline constexpr std::size_t kFieldCount = 20;

class StateLending {
 public:
  // Calls api:<name>(state), with `data`'s and `model`'s arrays lent for
  // the call; as engine_plugin::Level::Call otherwise. A write into a
  // read-only array's copy makes the result an error.
  absl::StatusOr<bool> Call(engine_plugin::Level& level, mjModel* model, mjData* data,
                            const char* name, int num_results,
                            absl::FunctionRef<absl::Status(lua_State* L, int first)> read_results);

 private:
  // state.<key> and state.model.<key>: lend on first read.
  static lua_api::NResultsOr Index(lua_State* L);
  static lua_api::NResultsOr ModelIndex(lua_State* L);
  // "" if the table at index 1 is the current call's `table`, else why not.
  std::string CheckCurrent(lua_State* L, const void* table, const char* key) const;
  // Pushes the tensor over `data` and caches it in the table at index 1.
  std::string Lend(lua_State* L, tensor::DType dtype, const tensor::Layout& layout, void* data,
                   std::size_t bytes);
  void PushTable(lua_State* L, const char* metatable_key, lua_CFunction index);
  // The copy of the read-only array <prefix><key> (the prefix is a
  // literal) at `data` that this call lends: taken on the call's first
  // read, or an error (its charge refused).
  absl::StatusOr<void*> ReadOnlyCopy(lua_State* L, const char* prefix, absl::string_view key,
                                     const void* data, std::size_t bytes);
  // An error naming the first read-only array whose copy was written.
  absl::Status CheckUnwritten(const char* callback);

  struct Copy {
    std::string name;   // state.xpos, state.model.body_mass
    const void* array;  // the real one
    std::vector<std::byte> bytes;
    lua_api::TensorMemoryCharge charge;
    std::uint64_t call = 0;  // the call that last took it
  };

  // While a call is on: what its state lends, and its tables.
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  const tensor::ScopedLoan* loan_ = nullptr;
  const void* state_table_ = nullptr;
  const void* model_table_ = nullptr;
  // Each mjData field's layout, made on its first loan (the model is fixed).
  std::array<std::optional<tensor::Layout>, kFieldCount> field_layouts_;
  std::uint64_t call_ = 0;  // counts calls
  // By <prefix><key>; node-based, so a copy stays put while lent.
  absl::node_hash_map<std::string, Copy> copies_;
  std::vector<Copy*> lent_;  // this call's copies, in the order read
};

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_STATE_LENDING_H_
