// ScanMjcf: the elements and attributes of MJCF text, read before MuJoCo
// reads it, so that the host can check what a model would make MuJoCo
// open or allocate (model_files.h).
//
// Reads XML the way TinyXML-2 (MuJoCo's parser) reads a document: tags,
// attributes in single or double quotes, the five named entities and
// numeric character references, comments, CDATA and processing
// instructions. A DOCTYPE is refused (it could declare entities), as is
// anything that does not tokenise, with the line it is on.
//
// Example:
//   absl::Status status = ScanMjcf(xml, [](const MjcfElement& element) {
//     for (const auto& [name, value] : element.attributes) ...
//     return absl::OkStatus();
//   });
#ifndef HOSTS_MUJOCO_MJCF_SCAN_H_
#define HOSTS_MUJOCO_MJCF_SCAN_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace hosts::mujoco {

struct MjcfElement {
  std::string name;
  // In document order, values with their entities decoded.
  std::vector<std::pair<std::string, std::string>> attributes;
  int line = 0;  // 1-based, of the '<'
};

// Calls `visit` for each start tag (and empty-element tag) in document
// order; stops at the first error, its own or visit's.
absl::Status ScanMjcf(absl::string_view xml,
                      absl::FunctionRef<absl::Status(const MjcfElement&)> visit);

}  // namespace hosts::mujoco

#endif  // HOSTS_MUJOCO_MJCF_SCAN_H_
