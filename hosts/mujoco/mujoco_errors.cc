#include "hosts/mujoco/mujoco_errors.h"

#include <mujoco/mujoco.h>

#include <mutex>
#include <stdexcept>

#include "absl/strings/str_cat.h"

namespace hosts::mujoco {
namespace {

// Thrown by the error hook, caught by Guarded on the same thread.
class MujocoFatalError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

thread_local std::string last_warning;

void OnError(const char* message) { throw MujocoFatalError(message); }

void OnWarning(const char* message) { last_warning = message; }

}  // namespace

void InstallMujocoHooks() {
  static std::once_flag installed;
  std::call_once(installed, [] {
    mju_user_error = &OnError;
    mju_user_warning = &OnWarning;
  });
}

absl::Status Guarded(const char* what, absl::FunctionRef<void()> call) {
  InstallMujocoHooks();
  try {
    call();
  } catch (const MujocoFatalError& error) {
    return absl::InternalError(absl::StrCat(what, ": MuJoCo: ", error.what()));
  }
  return absl::OkStatus();
}

std::string TakeMujocoWarning() {
  std::string warning;
  warning.swap(last_warning);
  return warning;
}

}  // namespace hosts::mujoco
