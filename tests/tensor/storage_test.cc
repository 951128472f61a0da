// Tests for tensor/loan.h, tensor/allocator.h (with tensor/device.h) and
// tensor/storage.h: who owns the bytes, and when they stop being valid.
#include "tensor/storage.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tensor/allocator.h"
#include "tensor/device.h"
#include "tensor/loan.h"
#include "tests/tensor/status_matchers.h"

namespace tensor {
namespace {

using ::tensor_testing::IsOk;
using ::tensor_testing::StatusIs;
using ::testing::AllOf;
using ::testing::Each;
using ::testing::HasSubstr;

constexpr absl::StatusCode kFailedPrecondition = absl::StatusCode::kFailedPrecondition;
constexpr absl::StatusCode kInvalidArgument = absl::StatusCode::kInvalidArgument;
constexpr absl::StatusCode kResourceExhausted = absl::StatusCode::kResourceExhausted;

static_assert(!std::is_copy_constructible_v<Loan>);
static_assert(!std::is_copy_constructible_v<ScopedLoan>);
static_assert(!std::is_copy_assignable_v<ScopedLoan>);
static_assert(!std::is_copy_constructible_v<Storage>);

bool IsAligned(const void* p, std::size_t alignment) {
  return reinterpret_cast<std::uintptr_t>(p) % alignment == 0;
}

// Records every call, and can be told to fail.
class RecordingAllocator final : public Allocator {
 public:
  explicit RecordingAllocator(Device device = Device::Cpu(), bool fail = false)
      : device_(device), fail_(fail) {}

  Device device() const override { return device_; }

  absl::StatusOr<void*> Allocate(std::size_t bytes, bool zeroed) override {
    ++allocations;
    last_zeroed = zeroed;
    if (fail_) return absl::ResourceExhaustedError("recording allocator told to fail");
    blocks.push_back(std::make_unique<std::byte[]>(bytes == 0 ? 1 : bytes));
    // Fill with a pattern so that a missing zero-fill shows.
    for (std::size_t i = 0; i < bytes; ++i) blocks.back()[i] = std::byte{0xab};
    if (zeroed) {
      for (std::size_t i = 0; i < bytes; ++i) blocks.back()[i] = std::byte{0};
    }
    return static_cast<void*>(blocks.back().get());
  }

  void Deallocate(void* data, std::size_t bytes) override {
    deallocated.push_back({data, bytes});
  }

  int allocations = 0;
  bool last_zeroed = false;
  std::vector<std::unique_ptr<std::byte[]>> blocks;
  std::vector<std::pair<void*, std::size_t>> deallocated;

 private:
  Device device_;
  bool fail_;
};

// --- Device ----------------------------------------------------------------

TEST(DeviceTest, DefaultIsTheCpu) {
  EXPECT_TRUE(Device().is_cpu());
  EXPECT_EQ(Device(), Device::Cpu());
  EXPECT_EQ(Device::Cpu().ToString(), "cpu");
}

TEST(DeviceTest, CudaDevicesAreNumberedAndDistinct) {
  EXPECT_FALSE(Device::Cuda(0).is_cpu());
  EXPECT_EQ(Device::Cuda(0).ToString(), "cuda:0");
  EXPECT_EQ(Device::Cuda(3).ToString(), "cuda:3");
  EXPECT_EQ(Device::Cuda(1), Device::Cuda(1));
  EXPECT_NE(Device::Cuda(0), Device::Cuda(1));
  EXPECT_NE(Device::Cuda(0), Device::Cpu());
}

// --- Loan ------------------------------------------------------------------

TEST(LoanTest, ANewLoanIsValidAndNamesItsLender) {
  const std::shared_ptr<Loan> loan = Loan::Create("frame buffer");
  ASSERT_NE(loan, nullptr);
  EXPECT_TRUE(loan->valid());
  EXPECT_EQ(loan->lender(), "frame buffer");
  EXPECT_THAT(loan->Check(), IsOk());
}

TEST(LoanTest, RevokeMakesCheckFailNamingTheLender) {
  const std::shared_ptr<Loan> loan = Loan::Create("observation 'RGB'");
  loan->Revoke();
  EXPECT_FALSE(loan->valid());
  EXPECT_THAT(loan->Check(), StatusIs(kFailedPrecondition,
                                      AllOf(HasSubstr("invalid"), HasSubstr("observation 'RGB'"))));
}

TEST(LoanTest, RevokeIsIdempotent) {
  const std::shared_ptr<Loan> loan = Loan::Create("engine");
  loan->Revoke();
  loan->Revoke();
  EXPECT_FALSE(loan->valid());
  EXPECT_THAT(loan->Check(), StatusIs(kFailedPrecondition, HasSubstr("engine")));
}

TEST(LoanTest, RenewLendsTheSameMemoryAgainToEveryHolder) {
  const std::shared_ptr<Loan> loan = Loan::Create("mujoco state");
  std::byte bytes[8] = {};
  absl::StatusOr<std::shared_ptr<Storage>> lent = Storage::Lend(bytes, sizeof(bytes), loan);
  ASSERT_THAT(lent.status(), IsOk());
  loan->Revoke();
  EXPECT_THAT((*lent)->data().status(), StatusIs(kFailedPrecondition, HasSubstr("mujoco state")));
  loan->Renew();
  ASSERT_THAT((*lent)->data().status(), IsOk());
  EXPECT_EQ(*(*lent)->data(), bytes);
  loan->Revoke();
  EXPECT_FALSE((*lent)->CheckValid().ok());
}

TEST(LoanTest, EveryHolderOfTheTokenSeesTheRevocation) {
  const std::shared_ptr<Loan> loan = Loan::Create("engine");
  const std::shared_ptr<Loan> copy = loan;
  loan->Revoke();
  EXPECT_FALSE(copy->valid());
}

TEST(LoanTest, ARevocationOnAnotherThreadIsSeenAfterJoining) {
  const std::shared_ptr<Loan> loan = Loan::Create("engine thread");
  std::thread revoker([&] { loan->Revoke(); });
  revoker.join();
  EXPECT_FALSE(loan->valid());
}

TEST(ScopedLoanTest, ValidInsideTheScopeAndRevokedOnNormalExit) {
  std::shared_ptr<Loan> kept;
  {
    ScopedLoan loan("callback");
    kept = loan.token();
    EXPECT_TRUE(kept->valid());
    EXPECT_EQ(kept->lender(), "callback");
  }
  ASSERT_NE(kept, nullptr);
  EXPECT_FALSE(kept->valid());
  EXPECT_THAT(kept->Check(), StatusIs(kFailedPrecondition, HasSubstr("callback")));
}

TEST(ScopedLoanTest, RevokedWhenAnExceptionLeavesTheScope) {
  std::shared_ptr<Loan> kept;
  try {
    ScopedLoan loan("throwing callback");
    kept = loan.token();
    throw std::runtime_error("level script error");
  } catch (const std::runtime_error&) {
  }
  ASSERT_NE(kept, nullptr);
  EXPECT_FALSE(kept->valid());
}

std::shared_ptr<Loan> LendAndReturnEarly(bool early) {
  ScopedLoan loan("early return");
  std::shared_ptr<Loan> kept = loan.token();
  if (early) return kept;
  kept = nullptr;
  return kept;
}

TEST(ScopedLoanTest, RevokedWhenAnEarlyReturnLeavesTheScope) {
  const std::shared_ptr<Loan> kept = LendAndReturnEarly(true);
  ASSERT_NE(kept, nullptr);
  EXPECT_FALSE(kept->valid());
}

TEST(ScopedLoanTest, EachScopeLendsItsOwnToken) {
  ScopedLoan first("first");
  std::shared_ptr<Loan> second_token;
  {
    ScopedLoan second("second");
    second_token = second.token();
    EXPECT_NE(first.token(), second.token());
  }
  EXPECT_FALSE(second_token->valid());
  EXPECT_TRUE(first.token()->valid());
}

// --- Allocator -------------------------------------------------------------

TEST(CpuAllocatorTest, IsOneProcessWideCpuAllocator) {
  EXPECT_EQ(&CpuAllocator(), &CpuAllocator());
  EXPECT_EQ(CpuAllocator().device(), Device::Cpu());
  EXPECT_EQ(kCpuAlignment, 64u);
}

TEST(CpuAllocatorTest, BlocksAreAlignedAndZeroFilledWhenAsked) {
  for (std::size_t bytes : {1u, 7u, 63u, 64u, 65u, 1000u, 4103u}) {
    absl::StatusOr<void*> block = CpuAllocator().Allocate(bytes, /*zeroed=*/true);
    ASSERT_THAT(block, IsOk()) << bytes;
    ASSERT_NE(*block, nullptr);
    EXPECT_TRUE(IsAligned(*block, kCpuAlignment)) << bytes;
    const auto* p = static_cast<const unsigned char*>(*block);
    EXPECT_THAT(std::vector<unsigned char>(p, p + bytes), Each(0)) << bytes;
    CpuAllocator().Deallocate(*block, bytes);
  }
}

TEST(CpuAllocatorTest, UnzeroedBlocksAreAlignedAndWritable) {
  absl::StatusOr<void*> block = CpuAllocator().Allocate(100, /*zeroed=*/false);
  ASSERT_THAT(block, IsOk());
  EXPECT_TRUE(IsAligned(*block, kCpuAlignment));
  static_cast<unsigned char*>(*block)[99] = 1;
  CpuAllocator().Deallocate(*block, 100);
}

TEST(CpuAllocatorTest, ZeroBytesStillGiveDistinctValidPointers) {
  absl::StatusOr<void*> a = CpuAllocator().Allocate(0, true);
  absl::StatusOr<void*> b = CpuAllocator().Allocate(0, true);
  ASSERT_THAT(a, IsOk());
  ASSERT_THAT(b, IsOk());
  EXPECT_NE(*a, nullptr);
  EXPECT_NE(*a, *b);
  EXPECT_TRUE(IsAligned(*a, kCpuAlignment));
  CpuAllocator().Deallocate(*a, 0);
  CpuAllocator().Deallocate(*b, 0);
}

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif

// Freed blocks of tensor size are kept and handed out again for the same
// size (never another), except under ASan, which must see reads of freed
// storage.
TEST(CpuAllocatorTest, FreedBlocksOfTheSameSizeAreReused) {
  constexpr std::size_t kBytes = 100'000;
  absl::StatusOr<void*> first = CpuAllocator().Allocate(kBytes, /*zeroed=*/false);
  ASSERT_THAT(first, IsOk());
  CpuAllocator().Deallocate(*first, kBytes);
  absl::StatusOr<void*> other_size = CpuAllocator().Allocate(2 * kBytes, /*zeroed=*/false);
  ASSERT_THAT(other_size, IsOk());
  EXPECT_NE(*other_size, *first);
  absl::StatusOr<void*> again = CpuAllocator().Allocate(kBytes, /*zeroed=*/false);
  ASSERT_THAT(again, IsOk());
  EXPECT_EQ(*again == *first, !kAddressSanitizer);
  CpuAllocator().Deallocate(*again, kBytes);
  CpuAllocator().Deallocate(*other_size, 2 * kBytes);
}

TEST(CpuAllocatorTest, AReusedBlockIsZeroFilledWhenAsked) {
  for (std::size_t bytes : {std::size_t{20'000}, std::size_t{3} << 20}) {
    absl::StatusOr<void*> dirty = CpuAllocator().Allocate(bytes, /*zeroed=*/false);
    ASSERT_THAT(dirty, IsOk());
    std::memset(*dirty, 0xAB, bytes);
    CpuAllocator().Deallocate(*dirty, bytes);
    absl::StatusOr<void*> block = CpuAllocator().Allocate(bytes, /*zeroed=*/true);
    ASSERT_THAT(block, IsOk());
    EXPECT_TRUE(IsAligned(*block, bytes >= (std::size_t{2} << 20) ? 2 << 20 : kCpuAlignment));
    const auto* p = static_cast<const unsigned char*>(*block);
    EXPECT_THAT(std::vector<unsigned char>(p, p + bytes), Each(0)) << bytes;
    CpuAllocator().Deallocate(*block, bytes);
  }
}

TEST(CpuAllocatorTest, SizesWhoseRoundingOverflowsAreResourceExhausted) {
  constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();
  for (std::size_t bytes : {kMax, kMax - 1, kMax - 62}) {
    EXPECT_THAT(CpuAllocator().Allocate(bytes, true),
                StatusIs(kResourceExhausted, HasSubstr("cannot allocate")))
        << bytes;
  }
}

TEST(CpuAllocatorTest, ConcurrentAllocationsAreDistinct) {
  constexpr int kThreads = 8, kPerThread = 100;
  std::vector<std::vector<void*>> blocks(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kPerThread; ++i) {
        absl::StatusOr<void*> block = CpuAllocator().Allocate(32, true);
        blocks[t].push_back(block.ok() ? *block : nullptr);
      }
    });
  }
  for (std::thread& thread : threads) thread.join();
  std::set<void*> unique;
  for (const auto& list : blocks) {
    for (void* block : list) {
      EXPECT_NE(block, nullptr);
      unique.insert(block);
    }
  }
  EXPECT_EQ(unique.size(), static_cast<std::size_t>(kThreads * kPerThread));
  for (void* block : unique) CpuAllocator().Deallocate(block, 32);
}

// --- Storage: owned --------------------------------------------------------

TEST(StorageTest, AllocatedStorageIsOwnedAlignedAndZeroFilled) {
  absl::StatusOr<std::shared_ptr<Storage>> storage = Storage::Allocate(200);
  ASSERT_THAT(storage, IsOk());
  const Storage& s = **storage;
  EXPECT_TRUE(s.owned());
  EXPECT_EQ(s.loan(), nullptr);
  EXPECT_EQ(s.bytes(), 200u);
  EXPECT_EQ(s.device(), Device::Cpu());
  EXPECT_THAT(s.CheckValid(), IsOk());
  absl::StatusOr<std::byte*> data = s.data();
  ASSERT_THAT(data, IsOk());
  EXPECT_TRUE(IsAligned(*data, 64));
  const auto* p = reinterpret_cast<const unsigned char*>(*data);
  EXPECT_THAT(std::vector<unsigned char>(p, p + 200), Each(0));
}

TEST(StorageTest, ZeroByteStorageHasAUsablePointer) {
  absl::StatusOr<std::shared_ptr<Storage>> storage = Storage::Allocate(0);
  ASSERT_THAT(storage, IsOk());
  EXPECT_EQ((*storage)->bytes(), 0u);
  EXPECT_THAT((*storage)->data(), IsOk());
}

TEST(StorageTest, AllocatePassesZeroedAndDeviceThroughTheAllocator) {
  RecordingAllocator allocator(Device::Cuda(2));
  absl::StatusOr<std::shared_ptr<Storage>> zeroed = Storage::Allocate(16, allocator);
  ASSERT_THAT(zeroed, IsOk());
  EXPECT_TRUE(allocator.last_zeroed);
  EXPECT_EQ((*zeroed)->device(), Device::Cuda(2));
  absl::StatusOr<std::shared_ptr<Storage>> raw = Storage::Allocate(16, allocator, false);
  ASSERT_THAT(raw, IsOk());
  EXPECT_FALSE(allocator.last_zeroed);
  EXPECT_EQ(allocator.allocations, 2);
}

TEST(StorageTest, AnAllocatorFailureIsReturned) {
  RecordingAllocator failing(Device::Cpu(), /*fail=*/true);
  EXPECT_THAT(Storage::Allocate(16, failing),
              StatusIs(kResourceExhausted, HasSubstr("told to fail")));
  EXPECT_THAT(Storage::Allocate(std::numeric_limits<std::size_t>::max()),
              StatusIs(kResourceExhausted));
}

TEST(StorageTest, TheLastReferenceReturnsTheBlockWithItsSize) {
  RecordingAllocator allocator;
  absl::StatusOr<std::shared_ptr<Storage>> storage = Storage::Allocate(48, allocator);
  ASSERT_THAT(storage, IsOk());
  void* const block = *(*storage)->data();
  std::shared_ptr<Storage> view = *storage;
  storage->reset();
  EXPECT_TRUE(allocator.deallocated.empty()) << "freed while a reference remained";
  view.reset();
  ASSERT_EQ(allocator.deallocated.size(), 1u);
  EXPECT_EQ(allocator.deallocated[0].first, block);
  EXPECT_EQ(allocator.deallocated[0].second, 48u);
}

// --- Storage: lent ---------------------------------------------------------

TEST(StorageTest, LendWithoutALoanFails) {
  unsigned char buffer[8] = {};
  EXPECT_THAT(Storage::Lend(buffer, sizeof(buffer), nullptr),
              StatusIs(kInvalidArgument, HasSubstr("loan")));
}

TEST(StorageTest, LendOfANullPointerWithBytesFails) {
  ScopedLoan loan("engine");
  EXPECT_THAT(Storage::Lend(nullptr, 16, loan.token()),
              StatusIs(kInvalidArgument, HasSubstr("null")));
}

TEST(StorageTest, LendOfANullPointerWithoutBytesIsAllowed) {
  ScopedLoan loan("engine");
  absl::StatusOr<std::shared_ptr<Storage>> storage = Storage::Lend(nullptr, 0, loan.token());
  ASSERT_THAT(storage, IsOk());
  EXPECT_EQ((*storage)->bytes(), 0u);
}

TEST(StorageTest, LentStorageIsNotOwnedAndGivesTheLentPointer) {
  unsigned char buffer[32] = {1, 2, 3};
  ScopedLoan loan("frame buffer");
  absl::StatusOr<std::shared_ptr<Storage>> storage =
      Storage::Lend(buffer, sizeof(buffer), loan.token());
  ASSERT_THAT(storage, IsOk());
  EXPECT_FALSE((*storage)->owned());
  EXPECT_EQ((*storage)->loan(), loan.token());
  EXPECT_EQ((*storage)->bytes(), 32u);
  EXPECT_EQ((*storage)->device(), Device::Cpu());
  absl::StatusOr<std::byte*> data = (*storage)->data();
  ASSERT_THAT(data, IsOk());
  EXPECT_EQ(static_cast<void*>(*data), static_cast<void*>(buffer));
}

TEST(StorageTest, LentStorageRecordsItsDevice) {
  unsigned char buffer[4] = {};
  ScopedLoan loan("gpu frame");
  absl::StatusOr<std::shared_ptr<Storage>> storage =
      Storage::Lend(buffer, sizeof(buffer), loan.token(), Device::Cuda(1));
  ASSERT_THAT(storage, IsOk());
  EXPECT_EQ((*storage)->device(), Device::Cuda(1));
}

TEST(StorageTest, RevocationMakesDataFailWithTheInvalidErrorNamingTheLender) {
  unsigned char buffer[16] = {};
  const std::shared_ptr<Loan> loan = Loan::Create("observation 'DEPTH'");
  absl::StatusOr<std::shared_ptr<Storage>> storage =
      Storage::Lend(buffer, sizeof(buffer), loan);
  ASSERT_THAT(storage, IsOk());
  ASSERT_THAT((*storage)->data(), IsOk());
  loan->Revoke();
  const auto invalid = StatusIs(kFailedPrecondition,
                                AllOf(HasSubstr("invalid"), HasSubstr("observation 'DEPTH'")));
  EXPECT_THAT((*storage)->data(), invalid);
  EXPECT_THAT((*storage)->CheckValid(), invalid);
}

TEST(StorageTest, LentStorageIsRevokedWhenItsScopedLoanEnds) {
  std::vector<unsigned char> buffer(64, 7);
  std::shared_ptr<Storage> kept;
  {
    ScopedLoan loan("callback");
    absl::StatusOr<std::shared_ptr<Storage>> storage =
        Storage::Lend(buffer.data(), buffer.size(), loan.token());
    ASSERT_THAT(storage, IsOk());
    kept = *storage;
    ASSERT_THAT(kept->data(), IsOk());
  }
  // The storage outlives the ScopedLoan; its token must keep answering.
  EXPECT_THAT(kept->data(), StatusIs(kFailedPrecondition, HasSubstr("callback")));
}

TEST(StorageTest, DestroyingLentStorageLeavesTheLendersMemoryAlone) {
  // A heap block that the lender frees itself: if Storage freed it too,
  // ASan would report a double free, and without ASan the allocator would
  // usually abort.
  auto* block = new unsigned char[24]{};
  {
    ScopedLoan loan("heap lender");
    absl::StatusOr<std::shared_ptr<Storage>> storage = Storage::Lend(block, 24, loan.token());
    ASSERT_THAT(storage, IsOk());
  }
  block[0] = 5;
  EXPECT_EQ(block[0], 5);
  delete[] block;
}

}  // namespace
}  // namespace tensor
