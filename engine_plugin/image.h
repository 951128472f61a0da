// Images as uint8 tensors of shape {rows, columns, channels} (1 to 4
// channels, row-major, top row first): decoding PNG, scaling, setting the
// hue, and overlaying a coloured pattern. The operations behind the level
// module dmlab.system.image (image_module.h), with DeepMind Lab's
// semantics; they know nothing of Lua.
//
// Every result is allocated from the allocator the caller passes (a
// level's tensor budget), after its size is known and before any pixel is
// decoded, and each operation charges the pixels it visits to the
// thread's work meter (tensor/work_meter.h). Nothing here aborts or
// throws: bad input is an error status, and the image it names is left as
// it was.
//
// Example:
//   absl::StatusOr<tensor::Tensor> image = DecodePng(bytes, allocator);
//   absl::StatusOr<tensor::Tensor> small = ScaleImage(*image, 32, 32,
//                                                     ScaleMode::kBilinear, allocator);
#ifndef ENGINE_PLUGIN_IMAGE_H_
#define ENGINE_PLUGIN_IMAGE_H_

#include <array>
#include <cstdint>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tensor/allocator.h"
#include "tensor/tensor.h"

namespace engine_plugin {

// A PNG of 8-bit channels (grey, grey and alpha, RGB, RGBA; a paletted one
// becomes RGB, or RGBA where it has transparency) as a {rows, columns,
// channels} uint8 tensor. 16-bit PNGs are refused.
absl::StatusOr<tensor::Tensor> DecodePng(absl::string_view bytes, tensor::Allocator& allocator);

enum class ScaleMode { kBilinear, kNearest };

// `image` (contiguous uint8, rank 3, at most 4 channels) scaled to
// {rows, columns, channels}: rows first, then columns. A dimension that
// grows is interpolated (bilinear: linearly, first and last pixels kept;
// nearest: each source pixel repeated over its share); one that shrinks
// averages the source pixels each target pixel covers, split pixels
// weighted by their share; one of a single pixel repeats it.
absl::StatusOr<tensor::Tensor> ScaleImage(const tensor::Tensor& image, tensor::Index rows,
                                          tensor::Index columns, ScaleMode mode,
                                          tensor::Allocator& allocator);

// Sets the hue of every pixel of `image` (contiguous uint8, 3 or 4
// channels in the last dimension) to `hue_degrees`, keeping its
// saturation and lightness (HSL), in place. Alpha is left alone.
absl::Status SetHue(const tensor::Tensor& image, double hue_degrees);

using Rgb = std::array<std::uint8_t, 3>;

// Overlays a pattern on `image` ({rows, columns, 4}, contiguous uint8)
// through its alpha channel, in place: the pattern's colour at a pixel
// runs from `color2` (pattern 0) to `color1` (pattern 255) by the first
// channel of `pattern` (contiguous uint8 of `image`'s rows and columns);
// each pixel then runs from its own colour (alpha 0) to that colour
// (alpha 255), and its alpha becomes 255. Rounded to nearest.
absl::Status SetMaskedPattern(const tensor::Tensor& image, const tensor::Tensor& pattern,
                              const Rgb& color1, const Rgb& color2);

}  // namespace engine_plugin

#endif  // ENGINE_PLUGIN_IMAGE_H_
