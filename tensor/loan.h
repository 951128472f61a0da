// Loan: the validity token of memory that the library does not own.
//
// A lender (the engine) lends a buffer for a while and revokes the loan
// when the buffer goes away. Every storage, and so every view, made from
// lent memory shares its Loan, and checks it before each access; a revoked
// loan turns every access into an error that names the lender.
//
// A lender that lends the same memory call after call may Renew the loan
// for each call instead of making a new one (lua_api's LentTensorSlot
// does): whatever was made under it is usable again exactly while the
// memory is lent again. Memory lent elsewhere, or freed, needs a new loan;
// the old one stays revoked.
//
// NB: revoking is an atomic flag, not a lock. The lender must revoke only
// when no access is in progress: for the engine that is the end of the
// callback that received the buffer, on the same thread.
//
// Example:
//   {
//     ScopedLoan loan("observation 'RGB'");
//     absl::StatusOr<Tensor> frame = Tensor::Lend(..., loan.token());
//     level.OnFrame(*frame);   // may keep `frame`; it cannot outlive the loan
//   }                          // revoked here, on every exit path
#ifndef TENSOR_LOAN_H_
#define TENSOR_LOAN_H_

#include <atomic>
#include <memory>
#include <string>

#include "absl/status/status.h"

namespace tensor {

class Loan {
 public:
  // `lender` names who lent the memory, for error messages.
  static std::shared_ptr<Loan> Create(std::string lender);

  const std::string& lender() const { return lender_; }
  bool valid() const { return valid_.load(std::memory_order_acquire); }

  // Ends the loan. Idempotent.
  void Revoke() { valid_.store(false, std::memory_order_release); }
  // Lends the same memory again, after a Revoke. REQUIRES: the memory is
  // where it was, as large, and the lender's until the next Revoke.
  void Renew() { valid_.store(true, std::memory_order_release); }

  // OK while valid; FailedPrecondition naming the lender once revoked.
  absl::Status Check() const {
    if (valid()) [[likely]] {
      return absl::OkStatus();
    }
    return RevokedError();
  }

  Loan(const Loan&) = delete;
  Loan& operator=(const Loan&) = delete;

 private:
  explicit Loan(std::string lender) : lender_(std::move(lender)) {}
  absl::Status RevokedError() const;

  const std::string lender_;
  std::atomic<bool> valid_{true};
};

// Lends for exactly one scope: revokes on destruction, whichever way the
// scope is left.
class ScopedLoan {
 public:
  explicit ScopedLoan(std::string lender) : loan_(Loan::Create(std::move(lender))) {}
  ~ScopedLoan() { loan_->Revoke(); }

  ScopedLoan(const ScopedLoan&) = delete;
  ScopedLoan& operator=(const ScopedLoan&) = delete;

  const std::shared_ptr<Loan>& token() const { return loan_; }

 private:
  std::shared_ptr<Loan> loan_;
};

}  // namespace tensor

#endif  // TENSOR_LOAN_H_
