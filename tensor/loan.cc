#include "tensor/loan.h"

#include <memory>
#include <string>

#include "absl/strings/str_cat.h"

namespace tensor {

std::shared_ptr<Loan> Loan::Create(std::string lender) {
  return std::shared_ptr<Loan>(new Loan(std::move(lender)));
}

absl::Status Loan::RevokedError() const {
  return absl::FailedPreconditionError(absl::StrCat(
      "invalid tensor: its memory was lent by ", lender_,
      " and that loan has ended; clone the tensor while it is valid to keep the data"));
}

}  // namespace tensor
