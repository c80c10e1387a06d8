// ClockSampler: the SM clock and board power while a kernel runs, read from
// NVML (opened with dlopen, so that gemmc-bench needs no NVML at link time)
// by a background thread. gemmc-bench --sustain uses it to say whether two
// kernels ran at the same clock: on an H200 a bf16 GEMM runs at the board's
// power limit, so a kernel that draws more power per FLOP runs slower for a
// reason that a per-cycle profile does not show.
#pragma once

#include <atomic>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace gemmc::bench {

class ClockSampler {
public:
  struct Sample {
    double t;             // seconds since the sampler started
    unsigned smMhz, memMhz;
    double watts;
    unsigned long long reasons; // NVML clock-event reasons (bit mask)
  };
  struct Summary {
    int samples = 0;
    double smMhz = 0, watts = 0;    // means over the samples
    unsigned long long reasons = 0; // OR over the window
    /// The means over this window and `other` together.
    void merge(const Summary &other);
    /// The means, NaN without samples.
    double mhz() const;
    double power() const;
  };

  /// Starts sampling every `periodMs`; available() is false (and summaries
  /// empty) where NVML cannot be opened.
  explicit ClockSampler(int periodMs = 10);
  ~ClockSampler();
  bool available() const { return available_; }
  const std::string &why() const { return why_; }
  /// Seconds since start, on the sampler's clock.
  double now() const;
  /// Mean over the samples taken in [t0, t1].
  Summary between(double t0, double t1) const;
  /// "power cap", "thermal", ... for a reasons mask.
  static std::string reasonNames(unsigned long long mask);

private:
  void loop(int periodMs);
  bool available_ = false;
  std::string why_;
  void *lib_ = nullptr, *device_ = nullptr;
  void *clockFn_ = nullptr, *powerFn_ = nullptr, *reasonsFn_ = nullptr;
  std::chrono::steady_clock::time_point start_;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<Sample> samples_;
  std::thread thread_;
};

} // namespace gemmc::bench
