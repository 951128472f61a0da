// The main of a fuzz target built without libFuzzer (gcc, the default
// build): replays inputs through LLVMFuzzerTestOneInput as GoogleTest
// cases, one per file, so ./lab test counts and names them.
//
//   <target>_corpus_test DIR_OR_FILE...   every file, directories recursively
//
// A replayed input passes when LLVMFuzzerTestOneInput returns; a crash or
// a sanitizer report fails the test binary, naming the case it was in.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "gtest/gtest.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

class ReplayTest : public testing::Test {
 public:
  explicit ReplayTest(std::filesystem::path path) : path_(std::move(path)) {}

  void TestBody() override {
    std::ifstream file(path_, std::ios::binary);
    ASSERT_TRUE(file) << "cannot read " << path_;
    const std::vector<char> bytes((std::istreambuf_iterator<char>(file)),
                                  std::istreambuf_iterator<char>());
    SCOPED_TRACE(path_.string());
    EXPECT_EQ(LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                     bytes.size()),
              0);
  }

 private:
  std::filesystem::path path_;
};

std::vector<std::filesystem::path> Inputs(int argc, char** argv) {
  std::vector<std::filesystem::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path path = argv[i];
    if (!std::filesystem::is_directory(path)) {
      inputs.push_back(path);
      continue;
    }
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);  // Removes the --gtest_* flags.
  const std::vector<std::filesystem::path> inputs = Inputs(argc, argv);
  if (inputs.empty()) {
    std::fprintf(stderr, "replay: no inputs; usage: %s DIR_OR_FILE...\n", argv[0]);
    return 1;
  }
  for (const std::filesystem::path& input : inputs) {
    const std::string suite = input.parent_path().filename().string();
    testing::RegisterTest(suite.c_str(), input.filename().string().c_str(), nullptr, nullptr,
                          __FILE__, __LINE__, [input]() -> testing::Test* {
                            return new ReplayTest(input);
                          });
  }
  return RUN_ALL_TESTS();
}
