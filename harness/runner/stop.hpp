#pragma once
// How a run's executor is stopped early: every supervisor watches one flag (an atomic int). A
// signal stores its number; the health watch stores kStoppedUnhealthy when it takes the GPU out.
namespace cuconform {

constexpr int kStoppedUnhealthy = -1;

enum class StopKind { none, signal, gpu_down };

inline StopKind stop_kind_of(int flag) {
  return flag == 0 ? StopKind::none : flag == kStoppedUnhealthy ? StopKind::gpu_down : StopKind::signal;
}

inline const char* to_string(StopKind k) {
  switch (k) {
    case StopKind::signal: return "signal";
    case StopKind::gpu_down: return "gpu-down";
    default: return "none";
  }
}

}  // namespace cuconform
