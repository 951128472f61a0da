#include "engine_plugin/image.h"

#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "absl/strings/str_cat.h"
#include "tensor/dtype.h"
#include "tensor/work_meter.h"

namespace engine_plugin {
namespace {

using tensor::Index;
using tensor::Tensor;

// Past this many bytes no image is decoded or made, whatever the budget:
// it also keeps rows * columns * channels far from overflowing.
constexpr double kMaxImageBytes = double{1} * (Index{1} << 40);

// The bytes of `image`, if it is a valid contiguous uint8 CPU tensor.
absl::StatusOr<std::uint8_t*> PixelsOf(const Tensor& image, const char* what) {
  if (image.dtype() != tensor::DType::kUInt8) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " must be a ByteTensor, not ", tensor::DTypeName(image.dtype())));
  }
  if (!image.device().is_cpu()) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be on the CPU"));
  }
  if (!image.layout().IsContiguous()) {
    return absl::InvalidArgumentError(absl::StrCat(what, " must be contiguous"));
  }
  absl::StatusOr<std::byte*> data = image.data();
  if (!data.ok()) return data.status();
  return reinterpret_cast<std::uint8_t*>(*data);
}

absl::StatusOr<Tensor> NewImage(Index rows, Index columns, Index channels,
                                tensor::Allocator& allocator) {
  if (static_cast<double>(rows) * static_cast<double>(columns) * static_cast<double>(channels) >
      kMaxImageBytes) {
    return absl::InvalidArgumentError(
        absl::StrCat("an image of ", rows, "x", columns, "x", channels, " is too large"));
  }
  // The memory first: an image too large for the level's budget is that
  // budget's error, which a script can catch, not the watchdog's (whose
  // error pcall cannot catch) for the work of filling it.
  absl::StatusOr<Tensor> image =
      Tensor::Uninitialized(tensor::DType::kUInt8, {rows, columns, channels}, allocator);
  if (!image.ok()) return image.status();
  if (absl::Status charged = tensor::ChargeWork(rows * columns * channels); !charged.ok()) {
    return charged;
  }
  return image;
}

// Values of one line of pixels: pixel i's channel c at base[i * step + c].
template <typename T>
struct Line {
  T* base;
  Index step;
  T& at(Index i, int c) const { return base[i * step + c]; }
};

// Stores an interpolated value: as is in double, truncated in uint8 (the
// value is within [0, 255] up to rounding).
inline void Store(double* out, double v) { *out = v; }
inline void Store(std::uint8_t* out, double v) {
  *out = static_cast<std::uint8_t>(std::clamp(v, 0.0, 255.0));
}

// Grows `source` (len > 1) to `target` (len > source's) by linear
// interpolation between source pixels placed evenly from the first target
// pixel to the last.
template <typename In, typename Out>
void MagnifyLinear(int channels, Line<const In> source, Index source_len, Line<Out> target,
                   Index target_len) {
  const double stride = static_cast<double>(target_len - 1) / static_cast<double>(source_len - 1);
  double top_position = 0;
  Index top = 0;
  for (Index i = 1; i < source_len; ++i) {
    const Index low = top;
    top_position += stride;
    top = std::min(static_cast<Index>(top_position + 0.5), target_len - 1);
    const double reciprocal = 1.0 / static_cast<double>(top - low);
    for (Index j = low; j < top; ++j) {
      const double low_weight = static_cast<double>(top - j) * reciprocal;
      for (int c = 0; c < channels; ++c) {
        Store(&target.at(j, c), low_weight * static_cast<double>(source.at(i - 1, c)) +
                                    (1.0 - low_weight) * static_cast<double>(source.at(i, c)));
      }
    }
  }
  for (int c = 0; c < channels; ++c) {
    Store(&target.at(target_len - 1, c), static_cast<double>(source.at(source_len - 1, c)));
  }
}

// Grows `source` to `target` by repeating each source pixel over its share
// of the target, rounded to the nearest pixel.
template <typename In, typename Out>
void MagnifyNearest(int channels, Line<const In> source, Index source_len, Line<Out> target,
                    Index target_len) {
  const double stride = static_cast<double>(target_len) / static_cast<double>(source_len);
  double top_position = 0;
  Index top = 0;
  for (Index i = 0; i < source_len; ++i) {
    const Index low = top;
    top_position += stride;
    top = std::min(static_cast<Index>(top_position + 0.5), target_len);
    for (Index j = low; j < top; ++j) {
      for (int c = 0; c < channels; ++c) Store(&target.at(j, c), source.at(i, c));
    }
  }
}

// Shrinks `source` to `target` (len <= source's): each target pixel is the
// mean of the source pixels it covers, a pixel split between two target
// pixels counted by the share each covers.
template <typename In, typename Out>
void Minify(int channels, Line<const In> source, Index source_len, Line<Out> target,
            Index target_len) {
  const double stride = static_cast<double>(source_len) / static_cast<double>(target_len);
  double top_position = 0;
  Index top = 0;
  for (Index i = 0; i < target_len; ++i) {
    const double low_position = top_position;
    const Index low = top;
    top_position += stride;
    top = static_cast<Index>(top_position);
    const double low_weight = 1.0 - (low_position - static_cast<double>(low));
    const double top_weight = top_position - static_cast<double>(top);
    const Index last = std::min(top, source_len - 1);
    for (int c = 0; c < channels; ++c) {
      double sum = low_weight * static_cast<double>(source.at(low, c));
      for (Index j = low + 1; j < top; ++j) sum += static_cast<double>(source.at(j, c));
      if (top_weight > 0) sum += top_weight * static_cast<double>(source.at(last, c));
      Store(&target.at(i, c), sum / stride);
    }
  }
}

template <typename In, typename Out>
void ScaleLine(int channels, Line<const In> source, Index source_len, Line<Out> target,
               Index target_len, ScaleMode mode) {
  if (source_len == 1) {
    for (Index j = 0; j < target_len; ++j) {
      for (int c = 0; c < channels; ++c) Store(&target.at(j, c), source.at(0, c));
    }
  } else if (source_len < target_len) {
    if (mode == ScaleMode::kBilinear) {
      MagnifyLinear(channels, source, source_len, target, target_len);
    } else {
      MagnifyNearest(channels, source, source_len, target, target_len);
    }
  } else if (target_len > 0) {
    Minify(channels, source, source_len, target, target_len);
  }
}

// DeepMind Lab's HSL: saturation and lightness of an RGB pixel.
void SaturationAndLightness(const std::uint8_t* rgb, double* saturation, double* lightness) {
  const auto [lowest, highest] = std::minmax({rgb[0], rgb[1], rgb[2]});
  const double half_low = (0.5 / 255.0) * lowest, half_high = (0.5 / 255.0) * highest;
  *lightness = half_high + half_low;
  const double half_range = half_high - half_low;
  if (lowest == highest) {
    *saturation = 0;
  } else if (*lightness > 0.5) {
    *saturation = half_range / (1.0 - *lightness);
  } else {
    *saturation = half_range / *lightness;
  }
}

}  // namespace

absl::StatusOr<Tensor> DecodePng(absl::string_view bytes, tensor::Allocator& allocator) {
  png_image png{};
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_memory(&png, bytes.data(), bytes.size())) {
    return absl::InvalidArgumentError(
        absl::StrCat("not a PNG image libpng can read: ", png.message));
  }
  // Frees libpng's read state on every path below.
  struct Release {
    png_image* png;
    ~Release() { png_image_free(png); }
  } release{&png};
  if ((png.format & PNG_FORMAT_FLAG_LINEAR) != 0) {
    return absl::InvalidArgumentError("the PNG image has 16-bit channels; only 8-bit are read");
  }
  png.format &= PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA;  // a palette is expanded
  const Index channels = PNG_IMAGE_PIXEL_CHANNELS(png.format);
  absl::StatusOr<Tensor> image = NewImage(png.height, png.width, channels, allocator);
  if (!image.ok()) return image.status();
  if (!png_image_finish_read(&png, /*background=*/nullptr, *image->data(), /*row_stride=*/0,
                             /*colormap=*/nullptr)) {
    return absl::InvalidArgumentError(absl::StrCat("the PNG image is corrupt: ", png.message));
  }
  return image;
}

absl::StatusOr<Tensor> ScaleImage(const Tensor& image, Index rows, Index columns, ScaleMode mode,
                                  tensor::Allocator& allocator) {
  absl::StatusOr<std::uint8_t*> pixels = PixelsOf(image, "the source image");
  if (!pixels.ok()) return pixels.status();
  if (image.rank() != 3 || image.shape()[2] > 4 || image.shape()[2] < 1) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the source image must have shape {rows, columns, channels} with 1 to 4 channels, not ",
        image.layout().ShapeString()));
  }
  if (rows < 0 || columns < 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("the size ", rows, "x", columns, " is negative"));
  }
  const Index source_rows = image.shape()[0], source_columns = image.shape()[1];
  const int channels = static_cast<int>(image.shape()[2]);
  if (source_rows == 0 || source_columns == 0) {
    return absl::InvalidArgumentError("the source image is empty");
  }
  absl::StatusOr<Tensor> scaled = NewImage(rows, columns, channels, allocator);
  if (!scaled.ok()) return scaled.status();
  if (rows == 0 || columns == 0) return scaled;
  // The intermediate (source rows, scaled columns) stays in double, as
  // DeepMind Lab's does: only the result is truncated to bytes.
  // From the same allocator as the result: a budget counts it too. As in
  // NewImage, the memory is charged before the work.
  absl::StatusOr<Tensor> intermediate =
      Tensor::Uninitialized(tensor::DType::kFloat64, {source_rows, columns, channels}, allocator);
  if (!intermediate.ok()) return intermediate.status();
  if (absl::Status charged = tensor::ChargeWork(source_rows * columns * channels); !charged.ok()) {
    return charged;
  }
  auto* widened = reinterpret_cast<double*>(*intermediate->data());
  for (Index r = 0; r < source_rows; ++r) {
    ScaleLine<std::uint8_t, double>(channels, {*pixels + r * source_columns * channels, channels},
                                    source_columns, {widened + r * columns * channels, channels},
                                    columns, mode);
  }
  auto* out = reinterpret_cast<std::uint8_t*>(*scaled->data());
  for (Index c = 0; c < columns; ++c) {
    ScaleLine<double, std::uint8_t>(channels, {widened + c * channels, columns * channels},
                                    source_rows, {out + c * channels, columns * channels}, rows,
                                    mode);
  }
  return scaled;
}

absl::Status SetHue(const Tensor& image, double hue_degrees) {
  absl::StatusOr<std::uint8_t*> pixels = PixelsOf(image, "the image");
  if (!pixels.ok()) return pixels.status();
  if (image.rank() == 0 || (image.shape().back() != 3 && image.shape().back() != 4)) {
    return absl::InvalidArgumentError(
        absl::StrCat("the image must have 3 or 4 channels in its last dimension, not shape ",
                     image.layout().ShapeString()));
  }
  if (!std::isfinite(hue_degrees)) {
    return absl::InvalidArgumentError(absl::StrCat("the hue ", hue_degrees, " is not finite"));
  }
  const Index count = image.num_elements();
  if (absl::Status charged = tensor::ChargeWork(count); !charged.ok()) return charged;
  // The hue's sector (0 to 5) and its fraction, once for every pixel.
  double sector_position = hue_degrees / 60.0;
  sector_position -= 6.0 * std::floor(sector_position / 6.0);
  const double within_two = sector_position - 2.0 * std::floor(sector_position / 2.0);
  const double partial = 1.0 - std::abs(within_two - 1.0);
  int sector = static_cast<int>(sector_position);
  if (sector > 5) sector = 0;  // 6 only by rounding a hue just below 0
  const Index step = image.shape().back();
  for (Index i = 0; i < count; i += step) {
    std::uint8_t* rgb = *pixels + i;
    double saturation, lightness;
    SaturationAndLightness(rgb, &saturation, &lightness);
    const double chroma = saturation * (1.0 - std::abs(2.0 * lightness - 1.0));
    const double base = lightness - 0.5 * chroma;
    const auto high = static_cast<std::uint8_t>(255.0 * (chroma + base));
    const auto middle = static_cast<std::uint8_t>(255.0 * (chroma * partial + base));
    const auto low = static_cast<std::uint8_t>(255.0 * base);
    // Which of red, green and blue take the high, middle and low values.
    static constexpr int kRoles[6][3] = {{0, 1, 2}, {1, 0, 2}, {2, 0, 1},
                                         {2, 1, 0}, {1, 2, 0}, {0, 2, 1}};
    const std::uint8_t values[3] = {high, middle, low};
    for (int channel = 0; channel < 3; ++channel) rgb[channel] = values[kRoles[sector][channel]];
  }
  return absl::OkStatus();
}

absl::Status SetMaskedPattern(const Tensor& image, const Tensor& pattern, const Rgb& color1,
                              const Rgb& color2) {
  absl::StatusOr<std::uint8_t*> pixels = PixelsOf(image, "the image");
  if (!pixels.ok()) return pixels.status();
  absl::StatusOr<std::uint8_t*> mask = PixelsOf(pattern, "the pattern");
  if (!mask.ok()) return mask.status();
  if (image.rank() != 3 || image.shape()[2] != 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "the image must have shape {rows, columns, 4}, not ", image.layout().ShapeString()));
  }
  if (pattern.rank() != 3 || pattern.shape()[0] != image.shape()[0] ||
      pattern.shape()[1] != image.shape()[1] || pattern.shape()[2] < 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("the pattern must have the image's rows and columns, {", image.shape()[0],
                     ", ", image.shape()[1], ", channels}, not ", pattern.layout().ShapeString()));
  }
  const Index count = image.shape()[0] * image.shape()[1];
  if (absl::Status charged = tensor::ChargeWork(count * 4); !charged.ok()) return charged;
  const Index pattern_step = pattern.shape()[2];
  for (Index i = 0; i < count; ++i) {
    std::uint8_t* pixel = *pixels + i * 4;
    const int weight1 = (*mask)[i * pattern_step], weight2 = 255 - weight1;
    const int opacity = pixel[3], transparency = 255 - opacity;
    for (int c = 0; c < 3; ++c) {
      const int colour = (weight1 * color1[c] + weight2 * color2[c] + 127) / 255;
      pixel[c] =
          static_cast<std::uint8_t>((opacity * colour + transparency * pixel[c] + 127) / 255);
    }
    pixel[3] = 255;
  }
  return absl::OkStatus();
}

}  // namespace engine_plugin
