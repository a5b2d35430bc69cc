// sort/lab/probe_common.cuh — what the standalone sort probes share: a device hash to draw
// keys from, common/probe_timer.cuh's kernel that counts where two arrays differ, and the PTX of
// thread block clusters' distributed shared memory. Not part of the binary.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/probe_timer.cuh"

namespace ladder::sort::tuning {

// splitmix64's finalizer: a well-mixed 32-bit value from any 64-bit input.
__device__ __forceinline__ uint32_t mix(uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return static_cast<uint32_t>(x ^ (x >> 31));
}

// The pairs probes' input: key i a hash of i (uniform), value i = i.
__global__ void fill_pairs(uint32_t* k, uint32_t* v, size_t n) {
  for (size_t i = blockIdx.x * size_t(blockDim.x) + threadIdx.x; i < n;
       i += size_t(gridDim.x) * blockDim.x) {
    k[i] = mix((i + 1) * 0x9e3779b97f4a7c15ull);
    v[i] = static_cast<uint32_t>(i);
  }
}

// Thread block clusters (sm_90): this block's rank in its cluster; a shared-memory pointer as a
// 32-bit shared address; that address in block `rank`'s shared memory (mapa); a store and a load
// there (st/ld.shared::cluster); and a barrier of the whole cluster that orders the shared-memory
// accesses before it against those after it in every block (barrier.cluster with release and
// acquire; it compiles to the same SASS as cooperative_groups' cluster.sync, a MEMBAR.ALL.GPU
// first). Source: the PTX ISA (mapa, ld/st.shared::cluster, barrier.cluster).
__device__ __forceinline__ unsigned ctarank() {
  unsigned r;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
__device__ __forceinline__ unsigned remote(unsigned local_addr, unsigned rank) {
  unsigned r;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(r) : "r"(local_addr), "r"(rank));
  return r;
}
__device__ __forceinline__ void st_cluster(unsigned addr, uint32_t v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(addr), "r"(v) : "memory");
}
__device__ __forceinline__ uint32_t ld_cluster(unsigned addr) {
  uint32_t v;
  asm volatile("ld.shared::cluster.u32 %0, [%1];" : "=r"(v) : "r"(addr) : "memory");
  return v;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;" ::
                   : "memory");
}

// count_mismatches: common/probe_timer.cuh's, under the name the sort probes use.
using probe_timing::count_mismatches;

}  // namespace ladder::sort::tuning
