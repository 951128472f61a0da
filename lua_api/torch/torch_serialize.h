// The byte-level half of Torch7's serialisation in dmlab.system.torch
// (torch/serialize.lua): numbers and tensors' elements in its binary format
// (little-endian, raw) and its ascii one (text, as Torch7's DiskFile in
// ascii mode writes and reads it).
//
//   internal.pack('i', n)          4 bytes, int32    'l': 8 bytes, int64
//   internal.pack('d', x)          8 bytes, double
//   internal.unpack('i', s, pos)   the number at byte pos (1-based), pos after
//   internal.elementBytes(t)       a contiguous tensor's elements as bytes
//   internal.readElements(t, s, pos)  fills contiguous t from s at pos; pos after
//   internal.format('i', n)        Torch7's ascii text for n ('l', 'd' too)
//   internal.scan('i', s, pos)     the number at or after pos, pos after it
//                                  and its newline
//   internal.elementText(t)        a contiguous tensor's elements as text
//   internal.readElementText(t, s, pos)  fills t from the text; pos after
//   internal.storageKey(t)         a light userdata naming t's storage
// Every read is bounds-checked: a short or damaged string is an error.
#ifndef LUA_API_TORCH_TORCH_SERIALIZE_H_
#define LUA_API_TORCH_TORCH_SERIALIZE_H_

#include "lua_api/lua/lua.h"

namespace lua_api {

// [-0, +0, m] Adds the functions above to the table on top of the stack.
void PushTorchSerializeInternals(lua_State* L);

}  // namespace lua_api

#endif  // LUA_API_TORCH_TORCH_SERIALIZE_H_
