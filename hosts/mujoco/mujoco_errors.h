// MujocoErrors: MuJoCo's fatal errors and warnings, per thread, as
// statuses.
//
// MuJoCo reports a fatal error (an mjData stack overflow, a failed
// allocation, a bad argument) by calling the process-wide hook
// mju_user_error, and without one it prints, waits for Enter and exits the
// process. If the hook returns, MuJoCo carries on after the error with
// its state broken (a stack overflow then writes past the arena). So the
// hook installed here never returns: it throws, and Guarded() catches the
// throw around each MuJoCo call, on the thread that made it, and turns it
// into an Internal status carrying MuJoCo's message. Throwing through
// MuJoCo's C frames is what MuJoCo's own Python bindings do; x86-64 and
// AArch64 Linux build C with unwind tables, and MuJoCo's C frames hold
// no resources that unwinding could leak beyond the mjData, which the
// caller then treats as broken until mj_resetData.
//
// Warnings (bad accelerations, contact buffers full) do not stop MuJoCo:
// the hook records the latest one for the thread, and the host reads it
// with TakeMujocoWarning() to say why an episode ended.
//
// The hooks are process-wide globals: InstallMujocoHooks() sets them once
// for every thread, and each thread's state is its own, so instances on
// different threads never see each other's errors.
//
// Example:
//   absl::Status status = Guarded("mj_step", [&] { mj_step(model, data); });
#ifndef HOSTS_MUJOCO_MUJOCO_ERRORS_H_
#define HOSTS_MUJOCO_MUJOCO_ERRORS_H_

#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"

namespace hosts::mujoco {

// Sets mju_user_error and mju_user_warning, once per process.
void InstallMujocoHooks();

// Runs `call` (MuJoCo calls, nothing that allocates in C++ between them);
// a MuJoCo fatal error inside it is an Internal status "<what>: MuJoCo:
// <message>".
absl::Status Guarded(const char* what, absl::FunctionRef<void()> call);

// The last warning MuJoCo raised on this thread since the last call, or "".
std::string TakeMujocoWarning();

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_MUJOCO_ERRORS_H_
