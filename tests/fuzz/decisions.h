// Decisions and Text: what the structure-aware fuzz targets (lua_program,
// level_program) build their programs from.
//
// The input bytes are decisions: each picks the next statement, operand or
// constant. Past the end of the input every decision reads 0, so each
// program ends. Text is built with <<, whose operands C++17 evaluates left
// to right: decisions are read in the same order under every compiler, so
// gcc's replay of a corpus file runs the program that clang's fuzzer ran.
// (Function arguments, as in absl::StrCat(Integer(), Integer()), have no
// such order.)
#ifndef TESTS_FUZZ_DECISIONS_H_
#define TESTS_FUZZ_DECISIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"

namespace fuzz {

class Decisions {
 public:
  Decisions(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  bool done() const { return at_ >= size_; }
  // In [0, n); 0 once the input is used up.
  int Pick(int n) { return done() ? 0 : data_[at_++] % n; }
  int Byte() { return Pick(256); }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

template <std::size_t N>
const char* PickFrom(Decisions& in, const char* const (&options)[N]) {
  return options[in.Pick(static_cast<int>(N))];
}

class Text {
 public:
  Text& operator<<(absl::string_view piece) {
    text_.append(piece.data(), piece.size());
    return *this;
  }
  Text& operator<<(int value) {
    absl::StrAppend(&text_, value);
    return *this;
  }
  operator absl::string_view() const { return text_; }
  std::string str() const { return text_; }

 private:
  std::string text_;
};

}  // namespace fuzz

#endif  // TESTS_FUZZ_DECISIONS_H_
