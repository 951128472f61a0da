// Engine::SetFrameTarget and the C ABI's set_frame_target: frames rendered
// straight into a host's buffer (what labenv.VectorLab batches on).
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "engine_plugin/engine.h"
#include "engine_plugin/env_c_api.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/engine_plugin/engine_test_support.h"

namespace engine_plugin {
namespace {

using ::testing::HasSubstr;

constexpr int kWidth = 32;
constexpr int kHeight = 24;
constexpr std::size_t kFrameBytes = kWidth * kHeight * 3;

std::unique_ptr<Engine> DemoMaze() {
  return InitEngine("demo_maze",
                    {{"width", std::to_string(kWidth)}, {"height", std::to_string(kHeight)}});
}

std::vector<std::uint8_t> Copy(const ObservationValue& value) {
  const std::uint8_t* bytes = Bytes(value);
  return std::vector<std::uint8_t>(bytes, bytes + value.tensor.layout().num_elements());
}

TEST(FrameTargetTest, FramesAreRenderedIntoTheTargetExactlyAsIntoPoolBuffers) {
  std::unique_ptr<Engine> pooled = DemoMaze();
  std::unique_ptr<Engine> targeted = DemoMaze();
  ASSERT_NE(pooled, nullptr);
  ASSERT_NE(targeted, nullptr);
  std::vector<std::uint8_t> target(kFrameBytes, 0);
  ASSERT_TRUE(targeted->SetFrameTarget(target.data(), target.size()).ok());
  const int gray = ObservationIndex(*pooled, "GRAY_HALF");
  ASSERT_GE(gray, 0);

  ASSERT_TRUE(pooled->Start(0, 7).ok());
  ASSERT_TRUE(targeted->Start(0, 7).ok());
  for (int step = 0; step < 30; ++step) {
    SCOPED_TRACE(step);
    absl::StatusOr<ObservationValue> expected = pooled->Observation(0);
    absl::StatusOr<ObservationValue> rgb = targeted->Observation(0);
    ASSERT_TRUE(expected.ok() && rgb.ok());
    EXPECT_EQ(Bytes(*rgb), target.data());
    EXPECT_EQ(target, Copy(*expected));
    // demo_maze computes GRAY_HALF in observeFrame from the lent frame:
    // the level saw the target's pixels.
    absl::StatusOr<ObservationValue> gray_pooled = pooled->Observation(gray);
    absl::StatusOr<ObservationValue> gray_targeted = targeted->Observation(gray);
    ASSERT_TRUE(gray_pooled.ok() && gray_targeted.ok());
    EXPECT_EQ(0, std::memcmp(Doubles(*gray_pooled), Doubles(*gray_targeted),
                             gray_pooled->tensor.layout().num_elements() * sizeof(double)));
    const Actions turn = {step % 3 == 0 ? 30 : 0, 0, 0, 1, 0, 0, 0};
    pooled->Act(turn);
    targeted->Act(turn);
    double reward = 0;
    ASSERT_TRUE(pooled->Advance(1, &reward).ok());
    ASSERT_TRUE(targeted->Advance(1, &reward).ok());
  }
  // Every frame went to the target: the pool never gave out a frame.
  EXPECT_GE(pooled->frame_buffers_allocated(), 1);
  EXPECT_EQ(targeted->frame_buffers_allocated(), 0);
}

TEST(FrameTargetTest, AKeptFrameValueIsRevokedByTheNextStep) {
  std::unique_ptr<Engine> engine = DemoMaze();
  ASSERT_NE(engine, nullptr);
  std::vector<std::uint8_t> target(kFrameBytes);
  ASSERT_TRUE(engine->SetFrameTarget(target.data(), target.size()).ok());
  ASSERT_TRUE(engine->Start(0, 1).ok());
  absl::StatusOr<ObservationValue> kept = engine->Observation(0);
  ASSERT_TRUE(kept.ok());
  ASSERT_TRUE(kept->tensor.data().ok());
  double reward = 0;
  ASSERT_TRUE(engine->Advance(1, &reward).ok());
  absl::StatusOr<std::byte*> data = kept->tensor.data();
  ASSERT_FALSE(data.ok());
  EXPECT_THAT(data.status().message(), HasSubstr("host frame target"));
}

TEST(FrameTargetTest, RetainingTheFrameCopiesItOutOfTheTarget) {
  std::unique_ptr<Engine> engine = DemoMaze();
  ASSERT_NE(engine, nullptr);
  std::vector<std::uint8_t> target(kFrameBytes);
  ASSERT_TRUE(engine->SetFrameTarget(target.data(), target.size()).ok());
  ASSERT_TRUE(engine->Start(0, 1).ok());
  absl::StatusOr<ObservationValue> retained = engine->RetainObservation(0);
  ASSERT_TRUE(retained.ok());
  EXPECT_NE(Bytes(*retained), target.data());
  const std::vector<std::uint8_t> first = target;
  EXPECT_EQ(Copy(*retained), first);
  engine->Act({60, 0, 0, 1, 0, 0, 0});
  double reward = 0;
  for (int step = 0; step < 20; ++step) ASSERT_TRUE(engine->Advance(1, &reward).ok());
  EXPECT_NE(target, first);  // the view moved on...
  EXPECT_EQ(Copy(*retained), first);  // ...and the retained copy did not
}

TEST(FrameTargetTest, ClearingTheTargetGoesBackToPoolBuffers) {
  std::unique_ptr<Engine> engine = DemoMaze();
  ASSERT_NE(engine, nullptr);
  std::vector<std::uint8_t> target(kFrameBytes);
  ASSERT_TRUE(engine->SetFrameTarget(target.data(), target.size()).ok());
  ASSERT_TRUE(engine->Start(0, 1).ok());
  ASSERT_TRUE(engine->SetFrameTarget(nullptr, 0).ok());
  // The current frame stays where it was rendered; the next goes elsewhere.
  EXPECT_EQ(Bytes(*engine->Observation(0)), target.data());
  const std::vector<std::uint8_t> before = target;
  engine->Act({60, 0, 0, 0, 0, 0, 0});
  double reward = 0;
  ASSERT_TRUE(engine->Advance(5, &reward).ok());
  EXPECT_NE(Bytes(*engine->Observation(0)), target.data());
  EXPECT_EQ(target, before);
}

TEST(FrameTargetTest, RefusesATargetBeforeInitOrOfTheWrongSize) {
  absl::StatusOr<std::unique_ptr<Engine>> created = Engine::Create("demo_maze");
  ASSERT_TRUE(created.ok());
  std::vector<std::uint8_t> target(84 * 84 * 3);
  absl::Status early = (*created)->SetFrameTarget(target.data(), target.size());
  EXPECT_EQ(early.code(), absl::StatusCode::kFailedPrecondition);
  ASSERT_TRUE((*created)->Init().ok());
  absl::Status small = (*created)->SetFrameTarget(target.data(), target.size() - 1);
  EXPECT_EQ(small.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(small.message(), HasSubstr("84x84x3"));
  EXPECT_TRUE((*created)->SetFrameTarget(target.data(), target.size()).ok());
}

TEST(FrameTargetCApiTest, ObservationPointsIntoTheTargetAndRetainCopies) {
  EnvCApi api;
  void* context = nullptr;
  char error[256];
  ASSERT_EQ(env_connect("demo_maze", &api, &context, error, sizeof(error)), 0) << error;
  std::vector<std::uint8_t> target(kFrameBytes);
  EXPECT_NE(api.set_frame_target(context, target.data(), target.size()), 0);
  EXPECT_THAT(api.error_message(context), HasSubstr("set_frame_target: call init first"));
  ASSERT_EQ(api.setting(context, "width", std::to_string(kWidth).c_str()), 0);
  ASSERT_EQ(api.setting(context, "height", std::to_string(kHeight).c_str()), 0);
  ASSERT_EQ(api.init(context), 0);
  EXPECT_NE(api.set_frame_target(context, target.data(), 3), 0);
  EXPECT_THAT(api.error_message(context), HasSubstr("set_frame_target: SetFrameTarget: 3 bytes"));
  ASSERT_EQ(api.set_frame_target(context, target.data(), target.size()), 0);
  ASSERT_EQ(api.start(context, 0, 3), 0);

  EnvCApi_Observation rgb;
  ASSERT_EQ(api.observation(context, 0, &rgb), 0);
  EXPECT_EQ(rgb.payload.bytes, target.data());
  EnvCApi_Observation held;
  EnvCApi_RetainedObservation* handle = nullptr;
  ASSERT_EQ(api.retain_observation(context, 0, &held, &handle), 0);
  EXPECT_NE(held.payload.bytes, target.data());
  const std::vector<std::uint8_t> first = target;
  EXPECT_EQ(0, std::memcmp(held.payload.bytes, first.data(), kFrameBytes));

  const int turn[7] = {60, 0, 0, 0, 0, 0, 0};
  ASSERT_EQ(api.act_discrete(context, turn), 0);
  double reward = 0;
  ASSERT_EQ(api.advance(context, 10, &reward), EnvCApi_EnvironmentStatus_Running);
  EXPECT_NE(target, first);
  EXPECT_EQ(0, std::memcmp(held.payload.bytes, first.data(), kFrameBytes));
  api.release_context(context);
  env_release_observation(handle);
}

}  // namespace
}  // namespace engine_plugin
