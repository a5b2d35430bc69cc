// common/arch.cuh — facts about the architecture being compiled that kernels' declarations need.
//
// nvcc compiles device code once per architecture in CMAKE_CUDA_ARCHITECTURES (__CUDA_ARCH__ is
// 800, 860, 890, 900, 1000, 1200, ...). A __launch_bounds__ minimum-blocks hint that cannot be
// met on one of them is ignored there with a ptxas warning, which CI treats as an error; these
// helpers keep such hints within what each architecture holds.
#pragma once

namespace ladder::arch {

// Resident threads per SM of the architecture being compiled (CUDA C++ Programming Guide,
// "Compute Capabilities", thread block and warp limits): 2048 on sm_80, sm_90, sm_100 and
// sm_103; 1536 on the others cuda-ladder builds for (sm_86, sm_87, sm_89, sm_120, ...). The
// host pass has no __CUDA_ARCH__ and sees 2048; an architecture not listed gets the smaller
// figure, which only loosens a hint.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ == 800 || __CUDA_ARCH__ == 900 || \
    __CUDA_ARCH__ == 1000 || __CUDA_ARCH__ == 1030
inline constexpr unsigned kMaxThreadsPerSm = 2048;
#else
inline constexpr unsigned kMaxThreadsPerSm = 1536;
#endif

// `wanted` resident blocks of `threads` threads, or as many as fit on an SM of this
// architecture: the second argument of __launch_bounds__.
constexpr unsigned min_blocks(unsigned threads, unsigned wanted) {
  return wanted * threads <= kMaxThreadsPerSm ? wanted : kMaxThreadsPerSm / threads;
}

}  // namespace ladder::arch
