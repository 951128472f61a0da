// Indexing by index tensors: index (select entries along a dimension),
// indexCopy, indexAdd, indexFill, gather and scatter, as in Torch7.
//
// Index tensors are int64. Their values count from `index_base`: 0 from
// C++, 1 for the Lua module (Torch7's convention); messages quote indices
// and positions in that base. Dimensions are 0-based.
//
// Every check runs before the first write, so a failed call leaves every
// tensor as it was: dtypes, ranks and shapes, and every index value, which
// is read in full first. So an index tensor that shares memory with the
// destination is safe: the writes cannot change indices already checked.
// A source that shares memory with the destination is read in full before
// anything is written. With repeated indices, writes happen in index order
// (the last one wins), and indexAdd adds every one.
//
// Example:
//   // rows 3 and 1 of m (0-based: 2 and 0), as a new 2 x n tensor
//   absl::StatusOr<Tensor> rows = IndexSelect(m, 0, *MakeTensor<int64_t>({2}, {3, 1}), 1);
//   IndexFill(m, 1, columns, /*index_base=*/0, -1.0);
#ifndef TENSOR_INDEX_H_
#define TENSOR_INDEX_H_

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace tensor {

// A new row-major tensor of `source`'s dtype and shape, except that
// dimension `dim` has one entry per index: entry k is source's entry
// indices[k] along `dim`. `indices` is a vector (rank 1).
absl::StatusOr<Tensor> IndexSelect(const Tensor& source, int dim, const Tensor& indices,
                                   Index index_base, Allocator& allocator = CpuAllocator());

// tensor's entry indices[k] along `dim` = source's entry k, for each k.
// `source` has tensor's dtype, and tensor's shape but for one entry per
// index along `dim`.
absl::Status IndexCopy(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                       const Tensor& source);

// As IndexCopy, but adds source's entry k to tensor's entry indices[k].
// Integer sums wrap around, as elementwise.h's do.
absl::Status IndexAdd(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                      const Tensor& source);

// Sets tensor's entries indices[k] along `dim` to `value`, which must be a
// value of tensor's dtype.
absl::Status IndexFill(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                       double value);

// A new row-major tensor of indices' shape: for dim = 1 (0-based) of a
// rank-3 source, result[i][j][k] = source[i][indices[i][j][k]][k].
// `indices` has source's rank, and source's extents in every dimension
// but `dim`.
absl::StatusOr<Tensor> Gather(const Tensor& source, int dim, const Tensor& indices,
                              Index index_base, Allocator& allocator = CpuAllocator());

// The reverse of Gather: for dim = 1 of rank 3,
// tensor[i][indices[i][j][k]][k] = source[i][j][k]. `indices` and `source`
// have tensor's rank and tensor's extents in every dimension but `dim`;
// along `dim`, source has at least as many entries as indices.
absl::Status Scatter(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                     const Tensor& source);

// Scatter of one value: tensor[i][indices[i][j][k]][k] = value.
absl::Status ScatterFill(const Tensor& tensor, int dim, const Tensor& indices, Index index_base,
                         double value);

}  // namespace tensor

#endif  // TENSOR_INDEX_H_
