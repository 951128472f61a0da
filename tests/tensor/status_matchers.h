// gMock matchers for absl::Status and absl::StatusOr, which Debian's absl
// does not ship.
//
// Example:
//   EXPECT_THAT(layout.Select(5, 0), StatusIs(absl::StatusCode::kOutOfRange));
//   EXPECT_THAT(Loan::Create("x")->Check(), IsOk());
#ifndef TESTS_TENSOR_STATUS_MATCHERS_H_
#define TESTS_TENSOR_STATUS_MATCHERS_H_

#include <ostream>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tensor_testing {

inline const absl::Status& GetStatus(const absl::Status& status) { return status; }

template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

MATCHER(IsOk, negation ? "is not OK" : "is OK") {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "whose status is " << status.ToString();
  return status.ok();
}

MATCHER_P(StatusIs, code,
          std::string(negation ? "does not have" : "has") + " status code " +
              absl::StatusCodeToString(code)) {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "whose status is " << status.ToString();
  return status.code() == code;
}

// Matches a status with `code` whose message matches `message_matcher`.
MATCHER_P2(StatusIs, code, message_matcher,
           std::string(negation ? "does not have" : "has") + " status code " +
               absl::StatusCodeToString(code) + " and a message that " +
               ::testing::DescribeMatcher<std::string>(message_matcher)) {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "whose status is " << status.ToString();
  if (status.code() != code) return false;
  return ::testing::ExplainMatchResult(message_matcher, std::string(status.message()),
                                       result_listener);
}

}  // namespace tensor_testing

namespace absl {

// Debian's absl cannot print a StatusOr; without this gtest dumps its bytes.
template <typename T>
void PrintTo(const StatusOr<T>& status_or, std::ostream* os) {
  *os << "StatusOr holding " << (status_or.ok() ? "a value" : status_or.status().ToString());
}

}  // namespace absl

#endif  // TESTS_TENSOR_STATUS_MATCHERS_H_
