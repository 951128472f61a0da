// Storage: one block of bytes, shared by every tensor view of it.
//
// Storage is either
//  - owned: allocated here, freed with its last reference, never invalid; or
//  - lent: someone else's memory, valid only while its Loan is.
// The only way to the bytes is data(), which checks validity first.
//
// Example:
//   absl::StatusOr<std::shared_ptr<Storage>> owned = Storage::Allocate(64);
//   ScopedLoan loan("frame buffer");
//   absl::StatusOr<std::shared_ptr<Storage>> lent = Storage::Lend(pixels, 64, loan.token());
//   absl::StatusOr<std::byte*> bytes = (*lent)->data();  // error once revoked
#ifndef TENSOR_STORAGE_H_
#define TENSOR_STORAGE_H_

#include <cstddef>
#include <memory>

#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/device.h"
#include "tensor/loan.h"

namespace tensor {

class Storage {
 public:
  // Owned storage of `bytes` bytes from `allocator`, zero-filled if `zeroed`.
  static absl::StatusOr<std::shared_ptr<Storage>> Allocate(
      std::size_t bytes, Allocator& allocator = CpuAllocator(), bool zeroed = true);

  // Lent storage over `data`, valid while `loan` is. Fails if `loan` is
  // null or `data` is null with `bytes` > 0.
  // REQUIRES: `data` holds `bytes` bytes on `device` until the loan ends.
  static absl::StatusOr<std::shared_ptr<Storage>> Lend(void* data, std::size_t bytes,
                                                       std::shared_ptr<Loan> loan,
                                                       Device device = Device::Cpu());

  ~Storage();
  Storage(const Storage&) = delete;
  Storage& operator=(const Storage&) = delete;

  bool owned() const { return loan_ == nullptr; }
  std::size_t bytes() const { return bytes_; }
  Device device() const { return device_; }
  // The loan of lent storage; null for owned storage.
  const std::shared_ptr<Loan>& loan() const { return loan_; }

  // OK for owned storage and valid loans; the loan's error otherwise.
  absl::Status CheckValid() const {
    if (loan_ == nullptr) [[likely]] {
      return absl::OkStatus();
    }
    return loan_->Check();
  }

  // The first byte, after the validity check.
  absl::StatusOr<std::byte*> data() const {
    if (absl::Status valid = CheckValid(); !valid.ok()) [[unlikely]] {
      return valid;
    }
    return data_;
  }

 private:
  // Only Allocate and Lend make storage; the key lets them do it through
  // std::make_shared, one allocation for the storage and its count.
  struct Key {
    explicit Key() = default;
  };

 public:
  Storage(Key, std::byte* data, std::size_t bytes, Device device, Allocator* allocator,
          std::shared_ptr<Loan> loan)
      : data_(data),
        bytes_(bytes),
        device_(device),
        allocator_(allocator),
        loan_(std::move(loan)) {}

 private:
  std::byte* const data_;
  const std::size_t bytes_;
  const Device device_;
  Allocator* const allocator_;  // owned storage only
  const std::shared_ptr<Loan> loan_;  // lent storage only
};

}  // namespace tensor

#endif  // TENSOR_STORAGE_H_
