#include "ClockSampler.h"

#include <cmath>
#include <dlfcn.h>

namespace gemmc::bench {
namespace {
// The few NVML entry points used, with NVML's C signatures (nvml.h).
using NvmlInit = int (*)();
using NvmlHandleByIndex = int (*)(unsigned, void **);
using NvmlClockInfo = int (*)(void *, int, unsigned *);
using NvmlPowerUsage = int (*)(void *, unsigned *);
using NvmlReasons = int (*)(void *, unsigned long long *);
constexpr int kNvmlClockSm = 1, kNvmlClockMem = 2;
} // namespace

ClockSampler::ClockSampler(int periodMs) : start_(std::chrono::steady_clock::now()) {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    why_ = "libnvidia-ml.so.1 not found";
    return;
  }
  auto init = reinterpret_cast<NvmlInit>(dlsym(lib_, "nvmlInit_v2"));
  auto handle = reinterpret_cast<NvmlHandleByIndex>(dlsym(lib_, "nvmlDeviceGetHandleByIndex_v2"));
  clockFn_ = dlsym(lib_, "nvmlDeviceGetClockInfo");
  powerFn_ = dlsym(lib_, "nvmlDeviceGetPowerUsage");
  reasonsFn_ = dlsym(lib_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasonsFn_)
    reasonsFn_ = dlsym(lib_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (!init || !handle || !clockFn_ || !powerFn_ || init() != 0 || handle(0, &device_) != 0) {
    why_ = "NVML did not initialise";
    return;
  }
  available_ = true;
  thread_ = std::thread([this, periodMs] { loop(periodMs); });
}

ClockSampler::~ClockSampler() {
  stop_ = true;
  if (thread_.joinable())
    thread_.join();
  if (available_)
    if (auto shutdown = reinterpret_cast<NvmlInit>(dlsym(lib_, "nvmlShutdown")))
      shutdown();
}

double ClockSampler::now() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
}

void ClockSampler::loop(int periodMs) {
  while (!stop_) {
    Sample s{now(), 0, 0, 0, 0};
    unsigned mw = 0;
    reinterpret_cast<NvmlClockInfo>(clockFn_)(device_, kNvmlClockSm, &s.smMhz);
    reinterpret_cast<NvmlClockInfo>(clockFn_)(device_, kNvmlClockMem, &s.memMhz);
    if (reinterpret_cast<NvmlPowerUsage>(powerFn_)(device_, &mw) == 0)
      s.watts = mw / 1000.0;
    if (reasonsFn_)
      reinterpret_cast<NvmlReasons>(reasonsFn_)(device_, &s.reasons);
    {
      std::lock_guard<std::mutex> g(mu_);
      samples_.push_back(s);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(periodMs));
  }
}

ClockSampler::Summary ClockSampler::between(double t0, double t1) const {
  Summary out;
  std::lock_guard<std::mutex> g(mu_);
  for (const Sample &s : samples_) {
    if (s.t < t0 || s.t > t1)
      continue;
    ++out.samples;
    out.smMhz += s.smMhz;
    out.watts += s.watts;
    out.reasons |= s.reasons;
  }
  if (out.samples) {
    out.smMhz /= out.samples;
    out.watts /= out.samples;
  }
  return out;
}

void ClockSampler::Summary::merge(const Summary &other) {
  int total = samples + other.samples;
  if (total) {
    smMhz = (smMhz * samples + other.smMhz * other.samples) / total;
    watts = (watts * samples + other.watts * other.samples) / total;
  }
  samples = total;
  reasons |= other.reasons;
}

double ClockSampler::Summary::mhz() const { return samples ? smMhz : NAN; }
double ClockSampler::Summary::power() const { return samples ? watts : NAN; }

std::string ClockSampler::reasonNames(unsigned long long mask) {
  // NVML's clocks-event reason bits (nvml.h, nvmlClocksEventReason*).
  static const std::pair<unsigned long long, const char *> names[] = {
      {0x1ull, "idle"},          {0x2ull, "app-clocks"},    {0x4ull, "sw-power-cap"},
      {0x8ull, "hw-slowdown"},   {0x10ull, "sync-boost"},   {0x20ull, "sw-thermal"},
      {0x40ull, "hw-thermal"},   {0x80ull, "hw-power-brake"}, {0x100ull, "display-clocks"}};
  std::string out;
  for (const auto &[bit, name] : names)
    if (mask & bit)
      out += (out.empty() ? "" : "+") + std::string(name);
  return out.empty() ? "none" : out;
}

} // namespace gemmc::bench
