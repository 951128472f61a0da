#include "hosts/mujoco/mjcf_scan.h"

#include <algorithm>
#include <cctype>
#include <cstdint>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace hosts::mujoco {
namespace {

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' ||
         c == ':' || static_cast<unsigned char>(c) >= 0x80;
}

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Appends code point `code` as UTF-8.
bool AppendCodePoint(std::uint32_t code, std::string* out) {
  if (code == 0 || code > 0x10FFFF) return false;
  if (code < 0x80) {
    out->push_back(static_cast<char>(code));
  } else if (code < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (code >> 6)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else if (code < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (code >> 12)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (code >> 18)));
    out->push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (code & 0x3F)));
  }
  return true;
}

// `raw` with its entity references decoded, or false.
bool DecodeEntities(absl::string_view raw, std::string* out) {
  out->clear();
  while (!raw.empty()) {
    const std::size_t amp = raw.find('&');
    const absl::string_view text = raw.substr(0, amp);
    out->append(text.data(), text.size());
    if (amp == absl::string_view::npos) return true;
    raw.remove_prefix(amp + 1);
    const std::size_t semicolon = raw.find(';');
    if (semicolon == absl::string_view::npos) return false;
    const absl::string_view entity = raw.substr(0, semicolon);
    raw.remove_prefix(semicolon + 1);
    if (entity == "lt") {
      out->push_back('<');
    } else if (entity == "gt") {
      out->push_back('>');
    } else if (entity == "amp") {
      out->push_back('&');
    } else if (entity == "quot") {
      out->push_back('"');
    } else if (entity == "apos") {
      out->push_back('\'');
    } else if (absl::StartsWith(entity, "#x") || absl::StartsWith(entity, "#X")) {
      std::uint32_t code = 0;
      if (entity.size() > 10 || !absl::SimpleHexAtoi(entity.substr(2), &code) ||
          !AppendCodePoint(code, out)) {
        return false;
      }
    } else if (absl::StartsWith(entity, "#")) {
      std::uint32_t code = 0;
      if (entity.size() > 10 || !absl::SimpleAtoi(entity.substr(1), &code) ||
          !AppendCodePoint(code, out)) {
        return false;
      }
    } else {
      return false;
    }
  }
  return true;
}

class Scanner {
 public:
  explicit Scanner(absl::string_view xml) : xml_(xml) {}

  absl::Status Run(absl::FunctionRef<absl::Status(const MjcfElement&)> visit) {
    while (true) {
      const std::size_t open = xml_.find('<', at_);
      if (open == absl::string_view::npos) return absl::OkStatus();
      Advance(open);
      const absl::string_view rest = xml_.substr(at_);
      if (absl::StartsWith(rest, "<!--")) {
        if (!SkipPast("-->")) return Error("a comment that never ends");
      } else if (absl::StartsWith(rest, "<![CDATA[")) {
        if (!SkipPast("]]>")) return Error("a CDATA section that never ends");
      } else if (absl::StartsWith(rest, "<?")) {
        if (!SkipPast("?>")) return Error("a processing instruction that never ends");
      } else if (absl::StartsWith(rest, "<!")) {
        return Error("a DOCTYPE or other declaration, which MJCF has no use for");
      } else if (absl::StartsWith(rest, "</")) {
        if (!SkipPast(">")) return Error("an end tag that never ends");
      } else {
        MjcfElement element;
        if (absl::Status read = ReadStartTag(&element); !read.ok()) return read;
        if (absl::Status visited = visit(element); !visited.ok()) return visited;
      }
    }
  }

 private:
  absl::Status Error(absl::string_view what) const {
    return absl::InvalidArgumentError(absl::StrCat("line ", line_, ": ", what));
  }

  // Moves to `position`, counting lines.
  void Advance(std::size_t position) {
    line_ += static_cast<int>(std::count(xml_.begin() + at_, xml_.begin() + position, '\n'));
    at_ = position;
  }

  bool SkipPast(absl::string_view end) {
    const std::size_t found = xml_.find(end, at_);
    if (found == absl::string_view::npos) return false;
    Advance(found + end.size());
    return true;
  }

  void SkipSpace() {
    std::size_t position = at_;
    while (position < xml_.size() && IsSpace(xml_[position])) ++position;
    Advance(position);
  }

  absl::string_view ReadName() {
    const std::size_t start = at_;
    while (at_ < xml_.size() && IsNameChar(xml_[at_])) ++at_;
    return xml_.substr(start, at_ - start);
  }

  absl::Status ReadStartTag(MjcfElement* element) {
    element->line = line_;
    ++at_;  // '<'
    element->name = std::string(ReadName());
    if (element->name.empty()) return Error("a '<' that starts no tag");
    while (true) {
      SkipSpace();
      if (at_ >= xml_.size()) return Error(absl::StrCat("<", element->name, "> never ends"));
      if (xml_[at_] == '>') {
        ++at_;
        return absl::OkStatus();
      }
      if (xml_.substr(at_, 2) == "/>") {
        at_ += 2;
        return absl::OkStatus();
      }
      std::string name(ReadName());
      if (name.empty()) {
        return Error(absl::StrCat("<", element->name, ">: an attribute name expected"));
      }
      SkipSpace();
      if (at_ >= xml_.size() || xml_[at_] != '=') {
        return Error(absl::StrCat("<", element->name, "> attribute '", name, "': '=' expected"));
      }
      ++at_;
      SkipSpace();
      if (at_ >= xml_.size() || (xml_[at_] != '"' && xml_[at_] != '\'')) {
        return Error(
            absl::StrCat("<", element->name, "> attribute '", name, "': a quoted value expected"));
      }
      const char quote = xml_[at_];
      const std::size_t end = xml_.find(quote, at_ + 1);
      if (end == absl::string_view::npos) {
        return Error(absl::StrCat("<", element->name, "> attribute '", name, "' never ends"));
      }
      std::string value;
      if (!DecodeEntities(xml_.substr(at_ + 1, end - at_ - 1), &value)) {
        return Error(absl::StrCat("<", element->name, "> attribute '", name,
                                  "': an entity reference MJCF does not know"));
      }
      Advance(end + 1);
      element->attributes.emplace_back(std::move(name), std::move(value));
    }
  }

  absl::string_view xml_;
  std::size_t at_ = 0;
  int line_ = 1;
};

}  // namespace

absl::Status ScanMjcf(absl::string_view xml,
                      absl::FunctionRef<absl::Status(const MjcfElement&)> visit) {
  return Scanner(xml).Run(visit);
}

}  // namespace hosts::mujoco
