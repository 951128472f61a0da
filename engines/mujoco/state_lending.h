// StateLending: MuJoCo's mjData arrays, lent to one level callback as
// tensors, without a copy.
//
// Each callback gets a fresh `state` table. Reading a field
// (state.qpos) lends that array as a DoubleTensor over mjData's own
// memory, under one loan for the whole call: writes go straight into the
// simulation, and whatever the level keeps (the table or a tensor) is an
// error naming the lender, "mujoco state", once the call returns. Fields
// are lent on first read and cached in the table, so a callback pays for
// the arrays it reads and nothing else.
//
// Fields (shape in MuJoCo's sizes): qpos (nq), qvel, qacc, qfrc_applied
// (nv), act (na), ctrl, actuator_force (nu), sensordata (nsensordata),
// xpos, subtree_com (nbody x 3), xquat (nbody x 4), xmat (nbody x 9),
// xfrc_applied, cvel (nbody x 6), site_xpos (nsite x 3), site_xmat
// (nsite x 9), geom_xpos (ngeom x 3), geom_xmat (ngeom x 9), mocap_pos
// (nmocap x 3), mocap_quat (nmocap x 4); and time, a number.
//
// Example:
//   StateLending lending;
//   lending.Call(level, model, data, "afterStep", 2, read_reward);
#ifndef ENGINES_MUJOCO_STATE_LENDING_H_
#define ENGINES_MUJOCO_STATE_LENDING_H_

#include <mujoco/mujoco.h>

#include <memory>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "engine_plugin/host.h"
#include "lua_api/n_results_or.h"
#include "tensor/loan.h"

namespace mujoco_host {

inline constexpr char kStateLender[] = "mujoco state";

class StateLending {
 public:
  // Calls api:<name>(state), with `data`'s arrays lent for the call; as
  // engine_plugin::Level::Call otherwise.
  absl::StatusOr<bool> Call(engine_plugin::Level& level, const mjModel* model, mjData* data,
                            const char* name, int num_results,
                            absl::FunctionRef<absl::Status(lua_State* L, int first)> read_results);

 private:
  // state.<key>: lends the field on first read.
  static lua_api::NResultsOr Index(lua_State* L);
  void PushState(lua_State* L);

  // While a call is on: what its state lends, and the table it was given.
  const mjModel* model_ = nullptr;
  mjData* data_ = nullptr;
  const tensor::ScopedLoan* loan_ = nullptr;
  const void* table_ = nullptr;
};

}  // namespace mujoco_host

#endif  // ENGINES_MUJOCO_STATE_LENDING_H_
