#include "hosts/maze/maze_tools.h"

#include <cmath>
#include <iterator>
#include <random>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hosts/maze/raycaster.h"

namespace hosts::maze {
namespace {

// Look speed for turning agents: 20 pixels * 0.1 degrees per pixel is
// 2 degrees a frame, 120 degrees a second at 60 fps.
constexpr int kTurn = 20;

// Writes DeepMind Lab's seven actions; the level's own stay 0.
void WriteMove(int look, int strafe, int move, absl::Span<int> discrete) {
  std::fill(discrete.begin(), discrete.end(), 0);
  if (discrete.size() < kActionCount) return;
  discrete[kLookLeftRight] = look;
  discrete[kStrafeLeftRight] = strafe;
  discrete[kMoveBackForward] = move;
}

// A few moves that make sense in a maze, forward favoured so that it gets
// somewhere. Each is held for a random 4 to 20 frames: switching every
// frame would only jitter in place.
class RandomAgent final : public engine_plugin::HostAgent {
 public:
  explicit RandomAgent(std::uint64_t seed) : random_(seed) {}

  void NextActions(absl::Span<int> discrete) override {
    static constexpr int kMoves[][3] = {
        // look, strafe, move
        {0, 0, 1},     {0, 0, 1},  {-kTurn, 0, 1}, {kTurn, 0, 1}, {-kTurn, 0, 0},
        {kTurn, 0, 0}, {0, -1, 0}, {0, 1, 0},      {0, 0, -1},
    };
    if (hold_ == 0) {
      std::uniform_int_distribution<int> pick(0, std::size(kMoves) - 1);
      move_ = kMoves[pick(random_)];
      hold_ = std::uniform_int_distribution<int>(4, 20)(random_);
    }
    --hold_;
    WriteMove(move_[0], move_[1], move_[2], discrete);
  }

 private:
  std::mt19937_64 random_;
  const int* move_ = nullptr;
  int hold_ = 0;
};

// Runs forward; when a wall stops it, turns 90 degrees, left or right at
// random.
class ForwardAgent final : public engine_plugin::HostAgent {
 public:
  ForwardAgent(const GameHost& host, int fps, std::uint64_t seed)
      : host_(host), frame_distance_(World::kMoveSpeed / fps), random_(seed) {}

  void NextActions(absl::Span<int> discrete) override {
    const World* world = host_.world();
    const Pose pose = world != nullptr ? world->pose() : Pose{};
    // Only a frame spent moving forward tells whether a wall is ahead.
    if (turning_ == 0 && went_forward_) {
      const double moved =
          std::hypot(pose.position.x - last_.position.x, pose.position.y - last_.position.y);
      // Sliding along a wall still moves a little; a quarter of a free
      // step means it is mostly blocked.
      if (moved < 0.25 * frame_distance_) {
        turning_ = 90 / 2;  // frames of kTurn pixels, 2 degrees each
        turn_ = std::bernoulli_distribution(0.5)(random_) ? kTurn : -kTurn;
      }
    }
    last_ = pose;
    went_forward_ = turning_ == 0;
    if (turning_ > 0) {
      --turning_;
      WriteMove(turn_, 0, 0, discrete);
    } else {
      WriteMove(0, 0, 1, discrete);
    }
  }

 private:
  const GameHost& host_;
  double frame_distance_;
  std::mt19937_64 random_;
  Pose last_;
  bool went_forward_ = false;
  int turning_ = 0;
  int turn_ = kTurn;
};

}  // namespace

std::vector<std::string> MazeTools::AgentNames() const { return {"random", "forward"}; }

absl::StatusOr<std::unique_ptr<engine_plugin::HostAgent>> MazeTools::MakeAgent(
    absl::string_view name, std::uint64_t seed) {
  if (name == "random") return std::make_unique<RandomAgent>(seed);
  if (name == "forward") return std::make_unique<ForwardAgent>(host_, fps_, seed);
  return absl::InvalidArgumentError(absl::StrCat(
      "the maze has no agent '", name, "' (it has ", absl::StrJoin(AgentNames(), ", "), ")"));
}

void MazeTools::RecordPath() {
  if (const World* world = host_.world()) path_.push_back(world->pose().position);
}

std::vector<std::uint8_t> MazeTools::Overview(int size) const {
  std::vector<std::uint8_t> pixels(static_cast<std::size_t>(size) * size * 3);
  const World* world = host_.world();
  if (world == nullptr) return pixels;
  const Frame frame{pixels.data(), nullptr, size, size};
  RenderTopDown(world->map(), world->pickups(), {world->pose()}, frame);
  DrawTopDownPath(world->map(), path_, frame);
  return pixels;
}

}  // namespace hosts::maze
