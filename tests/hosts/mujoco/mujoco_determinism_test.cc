// Same seed, same episode: byte-identical observations (images included)
// and rewards, whether the instances run one after another or on four
// threads at once, each with its own GL context.
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "engine_plugin/engine.h"
#include "gtest/gtest.h"
#include "tests/hosts/mujoco/mujoco_test_support.h"

namespace hosts::mujoco {
namespace {

using engine_plugin::Engine;

// Everything an episode showed: each step's reward and observations'
// bytes, concatenated.
struct Trace {
  std::vector<double> rewards;
  std::vector<std::uint8_t> bytes;
  std::string error;
  bool operator==(const Trace& other) const {
    return rewards == other.rewards && bytes == other.bytes && error == other.error;
  }
};

Trace RunEpisode(const std::string& level, std::uint64_t seed, int steps) {
  Trace trace;
  absl::StatusOr<std::unique_ptr<Engine>> engine = Engine::Create(level);
  if (!engine.ok()) return {{}, {}, std::string(engine.status().message())};
  if (absl::Status init = (*engine)->Init(); !init.ok()) return {{}, {}, std::string(init.message())};
  if (absl::Status start = (*engine)->Start(0, seed); !start.ok()) {
    return {{}, {}, std::string(start.message())};
  }
  const int count = static_cast<int>((*engine)->observation_specs().size());
  for (int step = 0; step < steps; ++step) {
    // A fixed, varied action sequence.
    const double action = ((step * 37) % 21 - 10) / 10.0;
    std::vector<double> actions((*engine)->continuous_actions().size(), action);
    if (absl::Status acted = (*engine)->ActContinuous(actions); !acted.ok()) break;
    double reward = 0;
    absl::StatusOr<engine_plugin::EpisodeStatus> status = (*engine)->Advance(1, &reward);
    if (!status.ok()) {
      trace.error = std::string(status.status().message());
      break;
    }
    trace.rewards.push_back(reward);
    for (int i = 0; i < count; ++i) {
      absl::StatusOr<engine_plugin::ObservationValue> value = (*engine)->Observation(i);
      if (!value.ok()) {
        trace.error = std::string(value.status().message());
        return trace;
      }
      const auto* data = reinterpret_cast<const std::uint8_t*>(*value->tensor.data());
      trace.bytes.insert(trace.bytes.end(), data,
                         data + value->tensor.layout().num_elements() *
                                    tensor::DTypeSize(value->tensor.dtype()));
    }
    if (*status != engine_plugin::EpisodeStatus::kRunning) break;
  }
  return trace;
}

TEST(MujocoDeterminismTest, TheSameSeedGivesTheSameBytes) {
  for (const char* level : {"cartpole_swingup", "reacher_easy", "point_mass_easy"}) {
    const Trace first = RunEpisode(level, 7, 60);
    ASSERT_EQ(first.error, "") << level;
    ASSERT_EQ(first.rewards.size(), 60u);
    EXPECT_TRUE(first == RunEpisode(level, 7, 60)) << level;
    EXPECT_FALSE(first == RunEpisode(level, 8, 60)) << level << ": the seed makes no difference";
  }
}

TEST(MujocoDeterminismTest, FourThreadsEqualOne) {
  const std::vector<std::string> levels = {"cartpole_swingup", "pendulum_swingup",
                                           "point_mass_easy", "reacher_easy"};
  std::vector<Trace> sequential;
  for (const std::string& level : levels) sequential.push_back(RunEpisode(level, 3, 40));
  std::vector<Trace> parallel(levels.size());
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    threads.emplace_back([&, i] { parallel[i] = RunEpisode(levels[i], 3, 40); });
  }
  for (std::thread& thread : threads) thread.join();
  for (std::size_t i = 0; i < levels.size(); ++i) {
    ASSERT_EQ(sequential[i].error, "") << levels[i];
    EXPECT_TRUE(sequential[i] == parallel[i]) << levels[i];
  }
}

}  // namespace
}  // namespace hosts::mujoco
