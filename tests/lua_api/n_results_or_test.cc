#include "lua_api/lua/n_results_or.h"

#include <string>

#include "gtest/gtest.h"

namespace lua_api {
namespace {

TEST(NResultsOrTest, ACountIsOk) {
  NResultsOr result = 2;
  EXPECT_TRUE(result.ok());
  EXPECT_EQ(result.n_results(), 2);
  EXPECT_EQ(result.error(), "");
}

TEST(NResultsOrTest, ZeroResultsIsOk) {
  NResultsOr result = 0;
  EXPECT_TRUE(result.ok());
  EXPECT_EQ(result.n_results(), 0);
}

TEST(NResultsOrTest, AStringIsAnError) {
  NResultsOr result = std::string("bad argument #1 to 'f' (integer expected, got nil)");
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error(), "bad argument #1 to 'f' (integer expected, got nil)");
}

TEST(NResultsOrTest, AStringLiteralIsAnError) {
  NResultsOr result = "boom";
  EXPECT_FALSE(result.ok());
  EXPECT_EQ(result.error(), "boom");
}

// The point of the type: a function can return either from any branch.
NResultsOr Halve(int n) {
  if (n % 2 != 0) return "odd";
  return n / 2;
}

TEST(NResultsOrTest, BothKindsFromOneFunction) {
  EXPECT_EQ(Halve(4).n_results(), 2);
  EXPECT_EQ(Halve(3).error(), "odd");
}

}  // namespace
}  // namespace lua_api
