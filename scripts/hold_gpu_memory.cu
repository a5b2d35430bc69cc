// scripts/hold_gpu_memory.cu — holds all but N GiB of a GPU's memory until killed, to run
// cuda-ladder as if on a card with less memory (or one shared with another process).
//   nvcc -o hold_gpu_memory scripts/hold_gpu_memory.cu
//   ./hold_gpu_memory 6 &   # leaves 6 GiB free; prints "holding ..." once it does
//   ./build/cuda-ladder --quick; kill %1
// Allocates in 1 GiB pieces (then smaller ones) until the free memory is down to N GiB.
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

int main(int argc, char** argv) {
  if (argc != 2 || std::atof(argv[1]) < 0) {
    std::fprintf(stderr, "usage: hold_gpu_memory GIB_TO_LEAVE_FREE\n");
    return 2;
  }
  const size_t leave = static_cast<size_t>(std::atof(argv[1]) * double(1 << 30));
  std::vector<void*> held;
  size_t free = 0, total = 0, piece = size_t(1) << 30;
  if (cudaMemGetInfo(&free, &total) != cudaSuccess) {
    std::fprintf(stderr, "hold_gpu_memory: no CUDA device\n");
    return 1;
  }
  while (free > leave && piece >= (size_t(2) << 20)) {
    const size_t want = std::min(piece, free - leave);
    void* p = nullptr;
    if (want < (size_t(2) << 20) || cudaMalloc(&p, want) != cudaSuccess) {
      cudaGetLastError();
      piece /= 2;
    } else {
      held.push_back(p);
    }
    cudaMemGetInfo(&free, &total);
  }
  std::printf("holding %.1f GiB; %.1f GiB of %.1f GiB free\n",
              double(total - free) / double(1 << 30), double(free) / double(1 << 30),
              double(total) / double(1 << 30));
  std::fflush(stdout);
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(60));
}
