// scan/lab/cluster.cuh — what the lab probes that run in thread-block clusters share
// (scan/lab/probe_v15_stores.cu, copy_if/lab/probe_v06_stores.cu). Not part of the binary; sm_90.
// This CTA's rank in its cluster, and stores, st.async and mbarrier arrivals into the shared memory
// of a CTA of the cluster (PTX ISA: mapa, st.shared::cluster, st.async, mbarrier.arrive.release
// .cluster, mbarrier.test_wait(.acquire.cluster), barrier.cluster). Addresses are of this CTA's
// shared variables; `rank` names the CTA of the cluster whose copy of them is meant.
#pragma once

#include <cstdint>

#include "common/bulk_copy.cuh"

namespace ladder::lab {

__device__ __forceinline__ unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
__device__ __forceinline__ unsigned remote_addr(const void* p, unsigned rank) {
  unsigned a;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;"
               : "=r"(a)
               : "r"(bulk::smem_addr(p)), "r"(rank));
  return a;
}
__device__ __forceinline__ void store_remote(const void* p, unsigned rank, uint32_t v) {
  asm volatile("st.shared::cluster.u32 [%0], %1;" ::"r"(remote_addr(p, rank)), "r"(v) : "memory");
}
__device__ __forceinline__ void arrive_remote(unsigned long long* bar, unsigned rank) {
  asm volatile(
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(remote_addr(bar, rank))
      : "memory");
}
__device__ __forceinline__ bool test_cluster(unsigned long long* bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; "
      "selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(bulk::smem_addr(bar)), "r"(parity)
      : "memory");
  return done != 0;
}
__device__ __forceinline__ void wait_cluster(unsigned long long* bar, unsigned parity) {
  while (!test_cluster(bar, parity)) {
  }
}
// st.async: v into the word at p in CTA `rank`, completing 4 bytes of transaction on that CTA's
// mbarrier `bar` (which its owner armed with expect_tx 4).
__device__ __forceinline__ void send_async(const void* p, unsigned long long* bar, unsigned rank,
                                           uint32_t v) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%0], %1, [%2];" ::"r"(
                   remote_addr(p, rank)),
               "r"(v), "r"(remote_addr(bar, rank))
               : "memory");
}
__device__ __forceinline__ void arm4(unsigned long long* bar) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], 4;" ::"r"(bulk::smem_addr(bar))
               : "memory");
}
__device__ __forceinline__ bool test_local(unsigned long long* bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; "
      "selp.u32 %0, 1, 0, p; }"
      : "=r"(done)
      : "r"(bulk::smem_addr(bar)), "r"(parity)
      : "memory");
  return done != 0;
}
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;" ::: "memory");
}

}  // namespace ladder::lab
