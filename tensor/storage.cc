#include "tensor/storage.h"

#include <memory>
#include <string>

#include "absl/status/status.h"

namespace tensor {

absl::StatusOr<std::shared_ptr<Storage>> Storage::Allocate(std::size_t bytes,
                                                            Allocator& allocator, bool zeroed) {
  absl::StatusOr<void*> data = allocator.Allocate(bytes, zeroed);
  if (!data.ok()) return data.status();
  return std::make_shared<Storage>(Key(), static_cast<std::byte*>(*data), bytes, allocator.device(),
                                   &allocator, nullptr);
}

absl::StatusOr<std::shared_ptr<Storage>> Storage::Lend(void* data, std::size_t bytes,
                                                        std::shared_ptr<Loan> loan, Device device) {
  if (loan == nullptr) {
    return absl::InvalidArgumentError("lent storage needs a loan that its lender can revoke");
  }
  if (data == nullptr && bytes > 0) {
    return absl::InvalidArgumentError("lent storage of " + std::to_string(bytes) +
                                      " bytes has a null pointer");
  }
  return std::make_shared<Storage>(Key(), static_cast<std::byte*>(data), bytes, device, nullptr,
                                   std::move(loan));
}

Storage::~Storage() {
  if (allocator_ != nullptr) allocator_->Deallocate(data_, bytes_);
}

}  // namespace tensor
