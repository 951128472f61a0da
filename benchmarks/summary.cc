// The tensor core against its performance targets, measured in one run
// (bazel run -c opt //benchmarks:summary).
//
// Each row times the core and its baseline over identical data, after
// checking that both give the same result. The two run in alternating
// rounds, so drift on a noisy machine hits both alike, and the best round
// of each counts. A plain loop's baseline is timed at every vector width
// this processor runs (baselines.h) and the fastest counts, so the core's
// own choice of width is judged, never borrowed. STREAM's loops run in
// the same rounds as the 16M cases they are set against. Speeds are
// relative to the baseline: higher is better.
//
// It reports and never asserts: on a slow machine a row says MISSED. The
// exit status is 1 only if the core returned an error or a wrong result.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "benchmarks/baselines.h"
#include "benchmarks/cases.h"

namespace benchmarks {
namespace {

using Clock = std::chrono::steady_clock;

// A batch of calls lasts at least this long, so the clock's resolution and
// the cost of reading it do not matter.
constexpr double kMinBatchSeconds = 0.005;
constexpr int kMinRounds = 3;
constexpr int kMaxRounds = 50;

constexpr double kElementSpeedGoal = 0.9;   // x raw loop throughput
constexpr double kSumSpeedGoal = 1.5;       // x naive scalar loop
constexpr double kTransposedCopyGoalNs = 0.8;  // ns per element
constexpr double kMatMulSpeedGoal = 0.9;    // x raw cblas GFLOP/s
constexpr double kStreamShareGoal = 0.85;   // x STREAM's best bytes/s, at 16M

// Best seconds per call of each side, and the raw width of the best
// baseline.
struct Timing {
  double ours = std::numeric_limits<double>::infinity();
  double baseline = std::numeric_limits<double>::infinity();
  RawWidth width = RawWidth::kSse2;
};

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Verifies `made`, then times both sides for about `budget` seconds: the
// baseline at each of `widths` and ours, in alternating rounds, with
// `between` (another yardstick, or nothing) run once a round after them.
template <typename Case>
absl::StatusOr<Timing> Measure(absl::StatusOr<std::unique_ptr<Case>> made, double budget,
                               const std::vector<RawWidth>& widths = {CurrentRawWidth()},
                               const std::function<void()>& between = [] {}) {
  if (!made.ok()) return made.status();
  Case& c = **made;
  const RawWidth width_before = CurrentRawWidth();
  for (RawWidth width : widths) {
    SetRawWidth(width);
    if (absl::Status status = c.Verify(); !status.ok()) return status;
  }

  // One call of each warms caches and sizes the batches.
  Clock::time_point start = Clock::now();
  c.RunBaseline();
  const double baseline_call = SecondsSince(start);
  if (absl::Status status = c.RunOurs(); !status.ok()) return status;
  const int batch =
      std::max(1, static_cast<int>(std::ceil(kMinBatchSeconds / std::max(baseline_call, 1e-9))));

  Timing best;
  start = Clock::now();
  for (int round = 0; round < kMaxRounds && (round < kMinRounds || SecondsSince(start) < budget);
       ++round) {
    for (RawWidth width : widths) {
      SetRawWidth(width);
      const Clock::time_point batch_start = Clock::now();
      for (int i = 0; i < batch; ++i) c.RunBaseline();
      const double seconds = SecondsSince(batch_start) / batch;
      if (seconds < best.baseline) best = {best.ours, seconds, width};
    }
    const Clock::time_point batch_start = Clock::now();
    for (int i = 0; i < batch; ++i) {
      if (absl::Status status = c.RunOurs(); !status.ok()) return status;
    }
    best.ours = std::min(best.ours, SecondsSince(batch_start) / batch);
    between();
  }
  SetRawWidth(width_before);
  return best;
}

// Bytes per element that a loop moves between memory and the processor:
// each array read or written once, plus the read for ownership of a store
// to an array the loop does not read (without it, STREAM's convention, an
// in-place a += b would seem to beat STREAM's c = a + b by half). The
// core copies with memmove, whose stores at 128 MB are non-temporal
// (glibc's, above a share of the last-level cache): no read for ownership.
double TrafficPerElement(ElementKind kind) {
  switch (kind) {
    case ElementKind::kFill: return 16;       // write a, and read it for ownership
    case ElementKind::kAddScalar: return 16;  // read and write a
    case ElementKind::kCAdd: return 24;       // read a and b, write a
    case ElementKind::kCMul: return 24;
    case ElementKind::kCopy: return 16;       // read b, write a (non-temporal)
    case ElementKind::kSum: return 8;
  }
  return 0;
}

// The best bytes per second of STREAM's four loops over n doubles (traffic
// counted as above), and which loop gave it.
struct StreamFigure {
  double bytes_per_second = 0;
  std::string loop;
};

// STREAM's best figures: all traffic, and reads alone (each array read,
// and each destination read for ownership). A loop that only reads (sum)
// cannot use the write traffic that memory carries beside the reads.
struct StreamFigures {
  StreamFigure all;
  StreamFigure reads;
};

// STREAM's four loops over n doubles, run a round at a time between the
// rounds of the cases they are the yardstick of, each round at the next
// raw width; the best of every round counts.
class Stream {
 public:
  explicit Stream(Index n) : n_(n), a_(n), b_(n), c_(n), widths_(RawWidths()) {
    FillPattern(a_.data(), n, 7);
    FillPattern(b_.data(), n, 5);
    FillPattern(c_.data(), n, 3);
  }

  void Round() {
    struct Traffic {
      double all;
      double reads;
    };
    const double q = 3;
    double* a = a_.data();
    double* b = b_.data();
    double* c = c_.data();
    const Index n = n_;
    const std::pair<const char*, std::function<Traffic()>> loops[] = {
        {"copy", [&] { StreamCopy(c, a, n); return Traffic{24, 16}; }},
        {"scale", [&] { StreamScale(b, c, q, n); return Traffic{24, 16}; }},
        {"add", [&] { StreamAdd(c, a, b, n); return Traffic{32, 24}; }},
        {"triad", [&] { StreamTriad(a, b, c, q, n); return Traffic{32, 24}; }},
    };
    const RawWidth before = CurrentRawWidth();
    const RawWidth width = widths_[rounds_++ % widths_.size()];
    SetRawWidth(width);
    for (const auto& [name, loop] : loops) {
      const Clock::time_point loop_start = Clock::now();
      const Traffic traffic = loop();
      const double seconds = SecondsSince(loop_start);
      const double elements = static_cast<double>(n);
      const std::string at = absl::StrCat(name, " (", RawWidthName(width), ")");
      if (traffic.all * elements / seconds > best_.all.bytes_per_second) {
        best_.all = {traffic.all * elements / seconds, at};
      }
      if (traffic.reads * elements / seconds > best_.reads.bytes_per_second) {
        best_.reads = {traffic.reads * elements / seconds, absl::StrCat(at, "'s reads")};
      }
    }
    SetRawWidth(before);
  }

  const StreamFigures& best() const { return best_; }

 private:
  Index n_;
  AlignedBuffer<double> a_, b_, c_;
  std::vector<RawWidth> widths_;
  std::size_t rounds_ = 0;
  StreamFigures best_;
};

std::string SizeName(Index n) {
  return n >= (Index{1} << 20) ? absl::StrCat(n >> 20, "M") : absl::StrCat(n >> 10, "K");
}

class Table {
 public:
  // A row whose goal is a speed relative to the baseline; `show` prints
  // one side's seconds per call in the row's unit.
  void AddSpeed(std::string target, std::string baseline_name,
                const absl::StatusOr<Timing>& timing, std::function<std::string(double)> show,
                double goal, bool show_width = false) {
    Row row{std::move(target)};
    row.goal = absl::StrFormat(">= %.2fx", goal);
    if (!Fill(row, timing)) return;
    const double speed = timing->baseline / timing->ours;
    row.ours = show(timing->ours);
    if (show_width) absl::StrAppend(&baseline_name, " (", RawWidthName(timing->width), ")");
    row.baseline = absl::StrCat(baseline_name, " ", show(timing->baseline));
    row.measured = absl::StrFormat("%.2fx", speed);
    Judge(row, speed >= goal);
  }

  // A row whose goal is a share of STREAM's bandwidth.
  void AddBandwidth(std::string target, double bytes_per_second, const StreamFigure& stream,
                    double goal) {
    Row row{std::move(target)};
    row.goal = absl::StrFormat(">= %.2fx", goal);
    const double share = bytes_per_second / stream.bytes_per_second;
    row.ours = absl::StrFormat("%.1f GB/s", bytes_per_second / 1e9);
    row.baseline = absl::StrFormat("STREAM %s %.1f GB/s", stream.loop, stream.bytes_per_second / 1e9);
    row.measured = absl::StrFormat("%.2fx", share);
    Judge(row, share >= goal);
  }

  // A row whose goal is an absolute time per element.
  void AddNsPerElement(std::string target, std::string baseline_name,
                       const absl::StatusOr<Timing>& timing, Index elements, double goal_ns) {
    Row row{std::move(target)};
    row.goal = absl::StrFormat("<= %.2f ns/el", goal_ns);
    if (!Fill(row, timing)) return;
    const double ours_ns = timing->ours * 1e9 / elements;
    row.ours = absl::StrFormat("%.3f ns/el", ours_ns);
    row.baseline = absl::StrFormat("%s %.3f ns/el (%.2fx)", baseline_name,
                                   timing->baseline * 1e9 / elements,
                                   timing->baseline / timing->ours);
    row.measured = absl::StrFormat("%.3f ns/el", ours_ns);
    Judge(row, ours_ns <= goal_ns);
  }

  void Print() const {
    std::vector<Row> all = {{"target", "ours", "baseline (same run)", "measured", "goal", ""}};
    all.insert(all.end(), rows_.begin(), rows_.end());
    size_t width[5] = {};
    for (const Row& row : all) {
      const std::string* cells[5] = {&row.target, &row.ours, &row.baseline, &row.measured,
                                     &row.goal};
      for (int i = 0; i < 5; ++i) width[i] = std::max(width[i], cells[i]->size());
    }
    for (const Row& row : all) {
      std::printf("%-*s  %*s  %-*s  %*s  %-*s  %s\n", static_cast<int>(width[0]),
                  row.target.c_str(), static_cast<int>(width[1]), row.ours.c_str(),
                  static_cast<int>(width[2]), row.baseline.c_str(), static_cast<int>(width[3]),
                  row.measured.c_str(), static_cast<int>(width[4]), row.goal.c_str(),
                  row.verdict.c_str());
      if (!row.error.empty()) std::printf("    %s\n", row.error.c_str());
    }
    std::printf("\n%d of %zu targets met", met_, rows_.size());
    if (failed_ > 0) std::printf("; the core failed %d", failed_);
    std::printf(".\n");
  }

  bool core_failed() const { return failed_ > 0; }

 private:
  struct Row {
    std::string target, ours, baseline, measured, goal, verdict, error;
  };

  // False, after recording the failure, unless `timing` holds a result.
  bool Fill(Row& row, const absl::StatusOr<Timing>& timing) {
    if (timing.ok()) return true;
    row.verdict = "FAILED";
    row.error = timing.status().ToString();
    ++failed_;
    rows_.push_back(std::move(row));
    return false;
  }

  void Judge(Row& row, bool met) {
    row.verdict = met ? "ok" : "MISSED";
    met_ += met;
    rows_.push_back(std::move(row));
  }

  std::vector<Row> rows_;
  int met_ = 0;
  int failed_ = 0;
};

std::function<std::string(double)> NsPerElement(Index elements) {
  return [elements](double seconds) {
    return absl::StrFormat("%.3f ns/el", seconds * 1e9 / elements);
  };
}

std::function<std::string(double)> GflopPerSecond(double flops) {
  return [flops](double seconds) { return absl::StrFormat("%.1f GFLOP/s", flops / seconds / 1e9); };
}

int Run() {
  std::printf(
      "tensor core vs. baselines in the same process (best of alternating rounds)\n"
      "speed = baseline time / our time: higher is better. OpenBLAS threads: %d.\n"
      "raw_loop: a plain C loop built as the core's kernels are (-O3, vectorised), timed at\n"
      "every vector width and the fastest kept; naive_loop: a scalar s += a[i].\n"
      "mmul: ours is MatMul including allocating its result; cblas writes a preallocated one.\n\n",
      BlasThreads());
  std::fflush(stdout);
  Table table;

  constexpr Index kLarge = Index{1} << 24;
  // At 16M doubles every case streams memory: each is set against the
  // bandwidth STREAM's loops get in the same rounds, both counted as
  // memory traffic.
  Stream stream_rounds(kLarge);
  std::vector<std::pair<ElementKind, absl::StatusOr<Timing>>> large;
  for (Index n : {Index{1} << 20, kLarge}) {
    const double budget = n > (Index{1} << 20) ? 1.5 : 0.6;
    for (ElementKind kind : kAllElementKinds) {
      const double goal = kind == ElementKind::kSum ? kSumSpeedGoal : kElementSpeedGoal;
      // memcpy and the naive sum are one loop whatever the width.
      const bool widths = kind != ElementKind::kCopy && kind != ElementKind::kSum;
      absl::StatusOr<Timing> timing = Measure(
          ElementCase::Contiguous(kind, n), budget,
          widths ? RawWidths() : std::vector<RawWidth>{CurrentRawWidth()},
          n == kLarge ? std::function<void()>([&] { stream_rounds.Round(); })
                      : std::function<void()>([] {}));
      table.AddSpeed(absl::StrCat(ElementKindName(kind), " ", SizeName(n)),
                     BaselineName(kind, false), timing, NsPerElement(n), goal, widths);
      if (n == kLarge) large.emplace_back(kind, std::move(timing));
    }
  }
  const StreamFigures& stream = stream_rounds.best();
  for (const auto& [kind, timing] : large) {
    if (!timing.ok()) continue;
    const double bytes = TrafficPerElement(kind) * static_cast<double>(kLarge);
    table.AddBandwidth(absl::StrCat(ElementKindName(kind), " ", SizeName(kLarge), " bandwidth"),
                       bytes / timing->ours, stream.all, kStreamShareGoal);
    // A sum's traffic is all reads: against STREAM's reads as well.
    if (kind == ElementKind::kSum) {
      table.AddBandwidth(absl::StrCat("sum ", SizeName(kLarge), " reads"), bytes / timing->ours,
                         stream.reads, kStreamShareGoal);
    }
  }

  constexpr Index kSide = 1000;
  table.AddNsPerElement(
      "copy transposed 1000x1000", BaselineName(ElementKind::kCopy, true),
      Measure(ElementCase::Transposed(ElementKind::kCopy, kSide), 1.0), kSide * kSide,
      kTransposedCopyGoalNs);

  constexpr Index kMatMulSize = 1024;
  const double flops = 2.0 * kMatMulSize * kMatMulSize * kMatMulSize;
  table.AddSpeed("mmul 1024 float", "cblas", Measure(MatMulCase<float>::Create(kMatMulSize), 1.5),
                 GflopPerSecond(flops), kMatMulSpeedGoal);
  table.AddSpeed("mmul 1024 double", "cblas",
                 Measure(MatMulCase<double>::Create(kMatMulSize), 1.5), GflopPerSecond(flops),
                 kMatMulSpeedGoal);

  table.Print();
  return table.core_failed() ? 1 : 0;
}

}  // namespace
}  // namespace benchmarks

int main() { return benchmarks::Run(); }
