// BlockPool: freed blocks of one size, kept by each thread for its next
// allocation of that size.
//
// Level callbacks make small objects per call (tensor views, clones of a
// few numbers) and the collector frees them in bursts, which overflow
// malloc's per-thread cache; 64-byte-aligned blocks bypass that cache
// altogether. A clone of four doubles spent two thirds of its time in
// malloc and free. So a freed block waits in its thread's pool (at most
// kCapacity of them) for the next one. A block freed on another thread
// than the one that allocated it is fine: both ends are Allocate and Free.
// Under AddressSanitizer a pooled block is poisoned, so a use after free
// is still reported.
//
// The pool is trivially destructible, so it stays usable to the very end
// of its thread: memory freed by a later destructor (a Lua state closed
// by another thread_local, or a static one on the main thread) still goes
// through it. A closer empties it at thread exit; from then on blocks go
// straight back to Free.
//
// Example:
//   void* NewBlock() { return ::operator new(160); }
//   void DeleteBlock(void* block) { ::operator delete(block); }
//   using Pool = BlockPool<160, 256, &NewBlock, &DeleteBlock>;
//   void* block = Pool::Take();   // a kept block, or NewBlock()
//   Pool::Give(block);
#ifndef TENSOR_BLOCK_POOL_H_
#define TENSOR_BLOCK_POOL_H_

#include <cstddef>

#include <sanitizer/asan_interface.h>

namespace tensor {

template <std::size_t kBlockBytes, int kCapacity, void* (*Allocate)(), void (*Free)(void*)>
class BlockPool {
 public:
  // A kept block of kBlockBytes bytes, or Allocate()'s.
  static void* Take() {
    Pool& pool = local_;
    if (pool.size == 0) return Allocate();
    void* block = pool.blocks[--pool.size];
    ASAN_UNPOISON_MEMORY_REGION(block, kBlockBytes);
    return block;
  }

  // Keeps `block`, from Take, for a later Take; or frees it.
  static void Give(void* block) {
    Pool& pool = local_;
    if (pool.closed || pool.size == kCapacity) {
      Free(block);
      return;
    }
    if (!pool.closer_armed) {
      // A thread_local with a destructor is constructed, and its
      // destructor registered, at its first use on the thread: this one.
      static_cast<void>(&closer_);
      pool.closer_armed = true;
    }
    ASAN_POISON_MEMORY_REGION(block, kBlockBytes);
    pool.blocks[pool.size++] = block;
  }

 private:
  struct Pool {
    void* blocks[kCapacity];
    int size;
    bool closed;
    bool closer_armed;
  };

  struct Closer {
    ~Closer() {
      Pool& pool = local_;
      pool.closed = true;
      while (pool.size > 0) Free(Take());
    }
  };

  static constinit thread_local Pool local_;
  static thread_local Closer closer_;
};

template <std::size_t kBlockBytes, int kCapacity, void* (*Allocate)(), void (*Free)(void*)>
constinit thread_local typename BlockPool<kBlockBytes, kCapacity, Allocate, Free>::Pool
    BlockPool<kBlockBytes, kCapacity, Allocate, Free>::local_ = {};

template <std::size_t kBlockBytes, int kCapacity, void* (*Allocate)(), void (*Free)(void*)>
thread_local typename BlockPool<kBlockBytes, kCapacity, Allocate, Free>::Closer
    BlockPool<kBlockBytes, kCapacity, Allocate, Free>::closer_;

}  // namespace tensor

#endif  // TENSOR_BLOCK_POOL_H_
