#include "hosts/dmlab/console_commands.h"

#include <cctype>
#include <string>
#include <vector>

#include "absl/strings/escaping.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace hosts::dmlab {
namespace {

constexpr char kAllowed[] =
    "set or seta of a cg_ cvar, or the cvar's name and value, weapon <n>, weapnext, weapprev";

bool IsDigits(absl::string_view word) {
  if (word.empty() || word.size() > 2) return false;
  for (char c : word) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

}  // namespace

std::string CheckConsoleCommand(const std::string& command) {
  if (command.size() > kMaxConsoleCommandBytes) {
    return absl::StrCat("a command of ", command.size(), " bytes; at most ",
                        kMaxConsoleCommandBytes);
  }
  // One command of plain words: the engine would split ';' and newlines
  // into more, and quotes and comments change how it reads the words.
  for (char c : command) {
    if (c < 0x20 || c > 0x7e || c == ';' || c == '"' || c == '/' || c == '$') {
      return absl::StrCat("'", absl::CEscape(command),
                          "' has a character a level's command may not have (one command of "
                          "plain words)");
    }
  }
  const std::vector<absl::string_view> words =
      absl::StrSplit(command, ' ', absl::SkipEmpty());
  const absl::string_view name = words.empty() ? "" : words[0];
  bool allowed = false;
  if (name == "set" || name == "seta") {
    allowed = words.size() >= 3 && absl::StartsWith(words[1], "cg_");
  } else if (name == "weapon") {
    allowed = words.size() == 2 && IsDigits(words[1]);
  } else if (name == "weapnext" || name == "weapprev") {
    allowed = words.size() == 1;
  } else if (absl::StartsWith(name, "cg_")) {
    allowed = words.size() == 2;  // the engine's short form of set
  }
  if (allowed) return "";
  return absl::StrCat("'", command, "' is not a command a level may give (it may give: ",
                      kAllowed, ")");
}

}  // namespace hosts::dmlab
