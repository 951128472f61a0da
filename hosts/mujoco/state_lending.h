// StateLending: MuJoCo's mjData and mjModel arrays, lent to level
// callbacks as tensors, without a copy.
//
// Each callback gets the instance's `state`, an object (a userdata: its
// fields cannot be assigned, nor hidden by rawset). Reading a field
// (state.qpos) lends that array as a DoubleTensor over mjData's own
// memory until the call returns: writes go straight into the simulation.
// The state and each field's tensor are made once and lent again in every
// call (lua_api/tensor/lent_tensor_slot.h), so a steady step makes no
// garbage. What the level keeps is an error naming the lender, "mujoco
// state", outside a callback; a kept tensor is usable again once its
// field is read again in a later callback (it is then the very tensor
// that read returns), and a kept state is the state of the call it is
// used in. A callback pays for the arrays it reads and nothing else.
//
// Fields (shape in MuJoCo's sizes), the state a level may write: qpos
// (nq), qvel, qfrc_applied (nv), act (na), ctrl (nu), xfrc_applied
// (nbody x 6), mocap_pos (nmocap x 3), mocap_quat (nmocap x 4). What
// MuJoCo computes from it, read-only: qacc (nv), actuator_force (nu),
// sensordata (nsensordata), xpos, subtree_com (nbody x 3), xquat (nbody
// x 4), xmat (nbody x 9), cvel (nbody x 6), site_xpos (nsite x 3),
// site_xmat (nsite x 9), geom_xpos (ngeom x 3), geom_xmat (ngeom x 9).
// And time, a number; and model, an object of mjModel's arrays by name
// (state.model.body_mass), read-only, in their own element types.
//
// Read-only means the level never touches the real array: it is lent a
// copy, taken on the first read in each call (a second read of the same
// array in the call lends the same copy). A write lands in the copy, has
// no effect on the simulation, the model, or the lookups of
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
#include "lua_api/tensor/lent_tensor_slot.h"
#include "lua_api/tensor/tensor_limits.h"
#include "tensor/layout.h"
#include "tensor/loan.h"

namespace hosts::mujoco {

inline constexpr char kStateLender[] = "mujoco state";
// How many mjData fields a state lends (state_lending.cc).
inline constexpr std::size_t kFieldCount = 20;

class StateLending {
 public:
  StateLending();

  // Calls api:<name>(state), with `data`'s and `model`'s arrays lent for
  // the call; as engine_plugin::Level::Call otherwise. A write into a
  // read-only array's copy makes the result an error.
  absl::StatusOr<bool> Call(engine_plugin::Level& level, mjModel* model, mjData* data,
                            const char* name, int num_results,
                            absl::FunctionRef<absl::Status(lua_State* L, int first)> read_results);

 private:
  // A read-only array's copy, lent in its stead.
  struct Copy {
    std::string name;   // state.xpos, state.model.body_mass
    const void* array = nullptr;  // the real one
    std::vector<std::byte> bytes;
    lua_api::TensorMemoryCharge charge;
    std::uint64_t call = 0;  // the call that last took it
    lua_api::LentTensorSlot slot{kStateLender};
  };

  // state.<key> and state.model.<key>: lend.
  static lua_api::NResultsOr Index(lua_State* L);
  static lua_api::NResultsOr ModelIndex(lua_State* L);
  // "" while a call is on, else why `key` cannot be read.
  std::string CheckCurrent(const char* key) const;
  // [-0, +1, m] The state, with its writable fields lent again, or an
  // error (nothing pushed); its model. Each is made once per Lua state.
  absl::Status PushState(lua_State* L);
  void PushModel(lua_State* L);
  // Field f's layout in the model's sizes, made on first use.
  absl::StatusOr<const tensor::Layout*> FieldLayout(std::size_t f);
  // Writable field f's slot.
  lua_api::LentTensorSlot& WritableSlot(std::size_t f);
  // The copy of a read-only array at `data` that this call lends: taken
  // on the call's first read, or an error (its charge refused).
  absl::StatusOr<void*> ReadOnlyCopy(lua_State* L, Copy& copy, const void* data,
                                     std::size_t bytes);
  // Ends the call's lends; an error naming the first read-only array whose
  // copy was written.
  absl::Status EndCall(const char* callback);

  // While a call is on: what its state lends.
  mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  bool calling_ = false;
  std::uint64_t call_ = 0;  // counts calls
  // The state and its model, in the registry of the Lua state they were
  // made in.
  const void* registry_ = nullptr;
  int state_ = LUA_NOREF;
  int fields_ = LUA_NOREF;  // the writable fields' tensors, by name
  int model_object_ = LUA_NOREF;
  // Each mjData field's layout, made on first use (the model is fixed),
  // and where it is lent: a writable field's slot, or a computed field's
  // copy.
  std::array<std::optional<tensor::Layout>, kFieldCount> field_layouts_;
  std::array<std::optional<lua_api::LentTensorSlot>, kFieldCount> field_slots_;
  std::array<Copy, kFieldCount> field_copies_;
  // The model's arrays' copies by name; node-based, so a copy stays put
  // while lent.
  absl::node_hash_map<std::string, Copy> model_copies_;
  std::vector<Copy*> lent_;  // this call's copies, in the order read
};

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_STATE_LENDING_H_
