// dmlab.system.tensor: the module table and its constructors.
//
// Every constructor gives a new owning, row-major tensor:
//   tensor.DoubleTensor(3, 2)                          zero-filled
//   tensor.DoubleTensor{{1, 2}, {3, 4}}                shape implied
//   tensor.Int32Tensor{range = {from, to, step}}       rank 1
//   tensor.ByteTensor{file = {name = 'x.bin', byteOffset = 0, numElements = 4}}
//   tensor.DoubleTensor() or tensor.DoubleTensor{}     empty, shape {}
//
// Tables are read with raw access only (lua_rawget, lua_next), so no
// metamethod can raise a Lua error while C++ objects are alive.
#include "lua_api/tensor/tensor_module.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "lua_api/lua/class.h"
#include "lua_api/lua/n_results_or.h"
#include "lua_api/lua/preload.h"
#include "lua_api/lua/read.h"
#include "lua_api/tensor/lua_tensor.h"
#include "lua_api/tensor/tensor_limits.h"
#include "lua_api/tensor/tensor_methods.h"
#include "tensor/dtype.h"
#include "tensor/tensor.h"
#include "tensor/work_meter.h"

namespace lua_api {
namespace {

using tensor::DType;
using tensor::Index;

// Deeper nesting is taken for a cycle (t[1] = t) rather than a tensor.
constexpr int kMaxTableRank = 64;

std::string NumberString(double value) {
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.17g", value);
  return buffer;
}

// [-0, +1, m] The tensor, or the error for constructor `name`.
NResultsOr PushNew(lua_State* L, const char* name, absl::StatusOr<tensor::Tensor> tensor) {
  if (!tensor.ok()) return StatusError(name, tensor.status());
  LuaTensor::Push(L, *std::move(tensor));
  return 1;
}

// [-0, +0, -] How many keys the table at `index` has.
Index CountKeys(lua_State* L, int index) {
  Index count = 0;
  lua_pushnil(L);
  while (lua_next(L, index) != 0) {
    lua_pop(L, 1);
    ++count;
  }
  return count;
}

// [-0, +1, -] t[field] of the table at `index`, without metamethods.
void RawField(lua_State* L, int index, const char* field) {
  lua_pushstring(L, field);
  lua_rawget(L, index < 0 ? index - 1 : index);
}

// [-0, +1, e] (d1, ..., dk): zero-filled.
NResultsOr FromExtents(lua_State* L, DType dtype, const char* name) {
  std::vector<Index> shape(lua_gettop(L));
  for (int i = 1; i <= lua_gettop(L); ++i) {
    std::int64_t extent;
    if (std::string why = ReadInteger(L, i, &extent); !why.empty()) {
      return ArgumentError(name, i, why);
    }
    if (extent < 1) {
      return ArgumentError(name, i, absl::StrCat("extent must be at least 1, got ", extent));
    }
    shape[i - 1] = extent;
  }
  return PushNew(L, name, tensor::Tensor::Zeros(dtype, shape, TensorAllocator(L)));
}

// The shape a nested table at stack 1 implies, following first entries;
// ReadTableInto then checks every other entry against it.
std::string ImpliedShape(lua_State* L, std::vector<Index>* shape) {
  const int top = lua_gettop(L);
  std::string error;
  std::string path = "the table";
  lua_pushvalue(L, 1);
  while (lua_type(L, -1) == LUA_TTABLE) {
    const auto length = static_cast<Index>(lua_objlen(L, -1));
    if (length == 0) {
      error = absl::StrCat("ragged table: ", path, " is empty; every extent must be at least 1");
      break;
    }
    if (shape->size() == kMaxTableRank) {
      error = absl::StrCat("table nested deeper than ", kMaxTableRank, " levels (a cycle?)");
      break;
    }
    shape->push_back(length);
    lua_rawgeti(L, -1, 1);
    path = absl::StrCat(shape->size() == 1 ? "" : path, "[1]");
  }
  lua_settop(L, top);
  return error;
}

// [-0, +1, e] {{...}, ...}: the shape is implied.
NResultsOr FromNestedTable(lua_State* L, DType dtype, const char* name) {
  std::vector<Index> shape;
  if (std::string why = ImpliedShape(L, &shape); !why.empty()) return ArgumentError(name, 1, why);
  absl::StatusOr<tensor::Tensor> result = tensor::Tensor::Uninitialized(dtype, shape, TensorAllocator(L));
  if (!result.ok()) return StatusError(name, result.status());
  if (std::string why = ReadTableInto(L, 1, *result, "ragged table: "); !why.empty()) {
    return ArgumentError(name, 1, why);
  }
  return PushNew(L, name, *std::move(result));
}

std::string EmptyRange(const char* name, const double bounds[3]) {
  return ArgumentError(
      name, 1,
      absl::StrCat("Invalid Tensor range. The range from ", NumberString(bounds[0]), " to ",
                   NumberString(bounds[1]), " with step ", NumberString(bounds[2]), " is empty"));
}

// Writes from, from + step, ... into the rank-1 `out`; its callers charge
// the elements as work (work_meter.h).
template <typename Value>
void FillRange(const tensor::Tensor& out, Value from, Value step) {
  tensor::DispatchDType(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = reinterpret_cast<T*>(*out.data());
    for (Index i = 0; i < out.num_elements(); ++i) {
      const Value value = from + static_cast<Value>(i) * step;
      if constexpr (std::is_same_v<T, tensor::Float16> || std::is_same_v<T, tensor::BFloat16>) {
        data[i] = T(static_cast<float>(value));
      } else {
        data[i] = static_cast<T>(value);
      }
    }
  });
}

// [-0, +1, e] Integer types count in integers, so that every element is exact and
// the bounds are checked against the type's range before anything is
// written.
NResultsOr IntegerRange(lua_State* L, DType dtype, const char* name, const double bounds[3]) {
  using Wide = __int128;
  const auto from = static_cast<Wide>(bounds[0]), to = static_cast<Wide>(bounds[1]),
             step = static_cast<Wide>(bounds[2]);
  Wide quotient = (to - from) / step;  // floor, where C++ truncates
  if ((to - from) % step != 0 && ((to - from) < 0) != (step < 0)) --quotient;
  const Wide count = quotient + 1;
  if (count < 1) return EmptyRange(name, bounds);
  const Wide last = from + (count - 1) * step;
  for (const Wide end : {from, last}) {
    // Both lie between the bounds, within +-2^53: exact in double.
    if (std::string why = CheckValue(static_cast<double>(end), dtype); !why.empty()) {
      return ArgumentError(name, 1, absl::StrCat("range: ", why));
    }
  }
  if (absl::Status charged = tensor::ChargeWork(static_cast<Index>(count)); !charged.ok()) {
    return StatusError(name, charged);
  }
  absl::StatusOr<tensor::Tensor> result =
      tensor::Tensor::Uninitialized(dtype, {static_cast<Index>(count)}, TensorAllocator(L));
  if (!result.ok()) return StatusError(name, result.status());
  FillRange<std::int64_t>(*result, static_cast<std::int64_t>(from),
                          static_cast<std::int64_t>(step));
  return PushNew(L, name, *std::move(result));
}

// [-0, +1, e]
NResultsOr FloatingRange(lua_State* L, DType dtype, const char* name, const double bounds[3]) {
  const double count = std::floor((bounds[1] - bounds[0]) / bounds[2]) + 1;
  if (!(count >= 1)) return EmptyRange(name, bounds);
  // Beyond 2^53 the count itself is no longer exact.
  if (count > 0x1p53) {
    return ArgumentError(name, 1,
                         absl::StrCat("range has too many elements (", NumberString(count), ")"));
  }
  if (absl::Status charged = tensor::ChargeWork(static_cast<Index>(count)); !charged.ok()) {
    return StatusError(name, charged);
  }
  absl::StatusOr<tensor::Tensor> result =
      tensor::Tensor::Uninitialized(dtype, {static_cast<Index>(count)}, TensorAllocator(L));
  if (!result.ok()) return StatusError(name, result.status());
  FillRange<double>(*result, bounds[0], bounds[2]);
  return PushNew(L, name, *std::move(result));
}

// [-0, +1, m] {range = {to}}, {range = {from, to}}, {range = {from, to, step}}: the
// range table is on top of the stack.
NResultsOr FromRange(lua_State* L, DType dtype, const char* name) {
  const int range = lua_gettop(L);
  if (lua_type(L, range) != LUA_TTABLE) {
    return ArgumentError(name, 1, absl::StrCat("range: ", Expected(L, range, "table")));
  }
  const auto length = static_cast<int>(lua_objlen(L, range));
  if (length < 1 || length > 3 || CountKeys(L, range) != length) {
    return ArgumentError(name, 1, "range must be {to}, {from, to} or {from, to, step}");
  }
  const bool integers = !tensor::IsFloating(dtype);
  double bounds[3] = {1, 0, 1};  // from, to, step
  const char* const kNames[3] = {"from", "to", "step"};
  for (int i = 1; i <= length; ++i) {
    const int field = length == 1 ? 1 : i - 1;
    lua_rawgeti(L, range, i);
    std::string why;
    if (integers) {
      std::int64_t value;
      why = ReadInteger(L, -1, &value);
      // Bounds of 2^53 and beyond may already have been rounded by Lua.
      if (why.empty() && (value > (std::int64_t{1} << 53) || value < -(std::int64_t{1} << 53))) {
        why = absl::StrCat("integer within +-2^53 expected, got ", value);
      }
      bounds[field] = static_cast<double>(value);
    } else {
      why = ReadNumber(L, -1, &bounds[field]);
      if (why.empty() && !std::isfinite(bounds[field])) why = Expected(L, -1, "finite number");
    }
    lua_pop(L, 1);
    if (!why.empty()) {
      return ArgumentError(name, 1, absl::StrCat("range ", kNames[field], ": ", why));
    }
  }
  if (bounds[2] == 0) return ArgumentError(name, 1, "range: Step size must not be zero");
  return integers ? IntegerRange(L, dtype, name, bounds) : FloatingRange(L, dtype, name, bounds);
}

// Closes a file descriptor however the read ends.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

struct FileRequest {
  std::string name;
  std::int64_t byte_offset = 0;
  std::int64_t num_elements = -1;  // all that remain
};

// The fields of the file table on top of the stack.
std::string ReadFileRequest(lua_State* L, FileRequest* request) {
  const int file = lua_gettop(L);
  if (lua_type(L, file) != LUA_TTABLE) return absl::StrCat("file: ", Expected(L, file, "table"));
  Index known = 0;
  RawField(L, file, "name");
  std::string why = ReadString(L, -1, &request->name);
  known += !lua_isnil(L, -1);
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat("file name: ", why);
  if (request->name.find('\0') != std::string::npos) return "file name: contains a NUL byte";
  const std::string file_name = absl::StrCat("file '", request->name, "': ");
  RawField(L, file, "byteOffset");
  if (!lua_isnil(L, -1)) {
    ++known;
    why = ReadInteger(L, -1, &request->byte_offset);
    if (why.empty() && request->byte_offset < 0) {
      why = absl::StrCat("must be at least 0, got ", request->byte_offset);
    }
  }
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat(file_name, "byteOffset: ", why);
  RawField(L, file, "numElements");
  if (!lua_isnil(L, -1)) {
    ++known;
    why = ReadInteger(L, -1, &request->num_elements);
    if (why.empty() && request->num_elements < 1) {
      why = absl::StrCat("must be at least 1, got ", request->num_elements);
    }
  }
  lua_pop(L, 1);
  if (!why.empty()) return absl::StrCat(file_name, "numElements: ", why);
  // A misspelt field would otherwise be silently ignored.
  if (CountKeys(L, file) != known) {
    return absl::StrCat(file_name, "only the fields name, byteOffset and numElements are known");
  }
  return {};
}

// [-0, +1, e] {file = {name = ..., byteOffset = 0, numElements = all}}: raw
// native-endian elements; the file table is on top of the stack.
NResultsOr FromFile(lua_State* L, DType dtype, const char* name) {
  // The engine's sandbox forbids it: the name may be any path.
  if (!GetTensorLimits(L).file_access) {
    return ArgumentError(name, 1, "file: reading files is not allowed in this Lua state");
  }
  FileRequest request;
  if (std::string why = ReadFileRequest(L, &request); !why.empty()) {
    return ArgumentError(name, 1, why);
  }
  const std::string file_name = absl::StrCat("file '", request.name, "': ");
  auto failed = [&](absl::string_view why) {
    return ArgumentError(name, 1, absl::StrCat(file_name, why));
  };
  FileDescriptor fd(open(request.name.c_str(), O_RDONLY | O_CLOEXEC));
  if (fd.get() < 0) return failed(absl::StrCat("cannot open: ", std::strerror(errno)));
  struct stat info;
  if (fstat(fd.get(), &info) != 0) return failed(std::strerror(errno));
  if (!S_ISREG(info.st_mode)) return failed("not a regular file");
  const std::int64_t size = info.st_size;
  if (request.byte_offset >= size) {
    return failed(absl::StrCat("byteOffset ", request.byte_offset,
                               " is at or past the end of the file (", size, " bytes)"));
  }
  const auto item = static_cast<std::int64_t>(tensor::DTypeSize(dtype));
  const std::int64_t remaining = size - request.byte_offset;
  std::int64_t count = request.num_elements;
  if (count < 0) {
    if (remaining % item != 0) {
      return failed(absl::StrCat("the ", remaining, " bytes after byteOffset ", request.byte_offset,
                                 " are not a whole number of ", item,
                                 "-byte elements; give numElements"));
    }
    count = remaining / item;
  } else if (count > remaining / item) {
    return failed(absl::StrCat("numElements ", count, " (", item,
                               " bytes each) needs more than the ", remaining,
                               " bytes after byteOffset ", request.byte_offset));
  }
  absl::StatusOr<tensor::Tensor> result = tensor::Tensor::Uninitialized(dtype, {count}, TensorAllocator(L));
  if (!result.ok()) return StatusError(name, result.status());
  std::byte* data = *result->data();
  const std::int64_t bytes = count * item;
  for (std::int64_t done = 0; done < bytes;) {
    const ssize_t got = pread(fd.get(), data + done, bytes - done, request.byte_offset + done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return failed(absl::StrCat("read failed: ", std::strerror(errno)));
    // The file shrank since fstat.
    if (got == 0) return failed(absl::StrCat("read only ", done, " of ", bytes, " bytes"));
    done += got;
  }
  return PushNew(L, name, *std::move(result));
}

// [-0, +1, e] {...} at stack 1: a range, a file, nested numbers or empty.
NResultsOr FromTable(lua_State* L, DType dtype, const char* name) {
  RawField(L, 1, "range");
  const bool range = !lua_isnil(L, -1);
  lua_pop(L, 1);
  RawField(L, 1, "file");
  const bool file = !lua_isnil(L, -1);
  lua_pop(L, 1);
  if (range || file) {
    if (CountKeys(L, 1) != 1) {
      return ArgumentError(name, 1, "{range = ...} and {file = ...} take no other fields");
    }
    RawField(L, 1, range ? "range" : "file");
    return range ? FromRange(L, dtype, name) : FromFile(L, dtype, name);
  }
  if (lua_objlen(L, 1) == 0) {
    if (CountKeys(L, 1) == 0) return PushNew(L, name, tensor::Tensor::Zeros(dtype, {}, TensorAllocator(L)));
    return ArgumentError(name, 1,
                         "nested tables of numbers, {range = ...} or {file = ...} expected, "
                         "got a table with other keys");
  }
  return FromNestedTable(L, dtype, name);
}

// [-k, +1, -] The constructor of the dtype in upvalue 1.
NResultsOr Construct(lua_State* L) {
  const auto dtype = static_cast<DType>(lua_tointeger(L, lua_upvalueindex(1)));
  const char* name = tensor::DTypeTensorName(dtype);
  switch (lua_type(L, 1)) {
    case LUA_TNONE: return PushNew(L, name, tensor::Tensor::Zeros(dtype, {}, TensorAllocator(L)));
    case LUA_TNUMBER: return FromExtents(L, dtype, name);
    case LUA_TTABLE:
      if (lua_gettop(L) > 1) return ArgumentError(name, 2, Expected(L, 2, "no value"));
      return FromTable(L, dtype, name);
    default: return ArgumentError(name, 1, Expected(L, 1, "number or table"));
  }
}

}  // namespace

// [-0, +0, m]
void RegisterTensorModule(lua_State* L) {
  // Keeps limits the host set before; makes the defaults otherwise.
  SetTensorLimits(L, GetTensorLimits(L));
  SetPreload(L, "dmlab.system.tensor", &luaopen_dmlab_system_tensor);
}

}  // namespace lua_api

// [-0, +1, m]
extern "C" int luaopen_dmlab_system_tensor(lua_State* L) {
  using lua_api::Class;
  using lua_api::LuaTensor;
  // For hosts that open the module without RegisterTensorModule.
  lua_api::SetTensorLimits(L, lua_api::GetTensorLimits(L));
  const char* family = LuaTensor::kFamily;
  Class<LuaTensor>::Register(L, family, {});
  lua_api::RegisterViewMethods(L, family);
  lua_api::RegisterMathMethods(L, family);
  lua_api::RegisterWholeScalarMethods(L, lua_api::kWholeScalarMethods);
  lua_api::RegisterFunctionalMethods(L, family);
  lua_api::RegisterMetadataMethods(L, family);
  lua_api::RegisterShapeMethods(L, family);
  lua_api::RegisterRandomMethods(L, family);
  lua_api::RegisterElementwiseMethods(L, family);
  lua_api::RegisterCompareMethods(L, family);
  lua_api::RegisterIndexMethods(L, family);
  lua_api::RegisterMapMethods(L, family);
  lua_api::RegisterLapackMethods(L, family);
  lua_api::RegisterReduceMethods(L, family);
  lua_api::RegisterBlasMethods(L, family);
  lua_api::RegisterDeviceMethods(L, family);
  // Every type has its metatable, with __gc, though the module makes only
  // kLuaDTypes: a method of dmlab.system.torch's HalfTensor returns half
  // tensors through LuaTensor::Push, and a userdata without a metatable
  // would never free its tensor.
  for (tensor::DType dtype : tensor::kAllDTypes) {
    Class<LuaTensor>::Share(L, family, LuaTensor::TypeName(dtype));
  }
  lua_api::RegisterFfiFastPaths(L, family);
  lua_createtable(L, 0, 8);
  for (tensor::DType dtype : lua_api::kLuaDTypes) {
    lua_pushinteger(L, static_cast<lua_Integer>(dtype));
    lua_pushcclosure(L, &lua_api::Raising<&lua_api::Construct>, 1);
    lua_setfield(L, -2, tensor::DTypeTensorName(dtype));
  }
  // The same function, so errors name 'DoubleTensor'.
  lua_getfield(L, -1, "DoubleTensor");
  lua_setfield(L, -2, "Tensor");
  lua_api::RegisterMathFunctions(L, lua_gettop(L));
  lua_api::RegisterMetadataFunctions(L, lua_gettop(L));
  lua_api::RegisterShapeFunctions(L, lua_gettop(L));
  lua_api::RegisterCreateFunctions(L, lua_gettop(L));
  lua_api::RegisterElementwiseFunctions(L, lua_gettop(L));
  lua_api::RegisterCompareFunctions(L, lua_gettop(L));
  lua_api::RegisterIndexFunctions(L, lua_gettop(L));
  lua_api::RegisterLapackFunctions(L, lua_gettop(L));
  lua_api::RegisterReduceFunctions(L, lua_gettop(L));
  lua_api::RegisterBlasFunctions(L, lua_gettop(L));
  return 1;
}
