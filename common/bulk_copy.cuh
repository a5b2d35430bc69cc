// common/bulk_copy.cuh — one-dimensional bulk copies (the Hopper TMA's plain form) into shared
// memory, completing on an mbarrier.
//
// cp.async.bulk moves a contiguous run of bytes from global to shared memory without passing
// through registers: one thread issues it, the copy engine does the rest, and the threads that
// wait on the barrier see the bytes when its phase completes. A block that stages its tile this
// way holds the tile in shared memory instead of registers, so the register file no longer
// limits how many tiles an SM has in flight. Needs sm_90 (PTX ISA 8.0); the source and the
// destination are 16-byte aligned and the size is a multiple of 16 bytes (PTX ISA,
// "cp.async.bulk"). Used by scan v14 and v15, copy_if v06 and v07 and elementwise v08. The
// terms (TMA, mbarrier, the async proxy) are explained in common/GLOSSARY.md.
//
// 16 bytes is what the copy accepts; 128 is what it runs fast into. On an H200, stages that start
// 64 bytes past a 128-byte boundary of shared memory made copy_if v06 5% slower at 2^28, and 16
// bytes past one 8% (copy_if/lab/LAB_NOTES.md, "Where the stages start"). A dynamic
// shared-memory array starts after the block's static shared variables, so a kernel that stages
// tiles declares it __align__(kStageAlign) and spaces its stages stage_stride() int4 apart.
// CUB's DeviceTransform does the same for its bulk-copy kernel (`bulk_copy_alignment = 128` in
// cub/device/dispatch/tuning/tuning_transform.cuh, the alignment of its dynamic shared memory).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

// 1 where the device code being compiled can use bulk copies (sm_90 and later, and the host
// pass); 0 for older targets, whose callers take their element-wise path instead and must never
// call load() or wait().
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
#define LADDER_HAS_BULK_COPY 0
#else
#define LADDER_HAS_BULK_COPY 1
#endif

namespace ladder::bulk {

// The shared-memory alignment, in bytes, of every stage a bulk copy fills (see the header).
inline constexpr unsigned kStageAlign = 128;

// The distance, in int4, from one stage to the next for stages of `vecs` int4: vecs rounded up
// to a multiple of kStageAlign bytes, so that each stage starts where the first one does, on a
// 128-byte boundary.
__host__ __device__ constexpr unsigned stage_stride(unsigned vecs) {
  constexpr unsigned kPer = kStageAlign / 16;
  return (vecs + kPer - 1) / kPer * kPer;
}

__device__ __forceinline__ unsigned smem_addr(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// One thread initialises the barrier for one arrival, then __syncthreads() before anyone waits.
__device__ __forceinline__ void barrier_init(unsigned long long* bar) {
#if LADDER_HAS_BULK_COPY
  asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(smem_addr(bar)) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  __trap();
#endif
}

// One thread initialises a barrier whose phase completes after `count` plain arrivals (the
// producer/consumer barriers of scan v15), then __syncthreads() before anyone uses it.
__device__ __forceinline__ void barrier_init(unsigned long long* bar, unsigned count) {
#if LADDER_HAS_BULK_COPY
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(smem_addr(bar)), "r"(count)
               : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#else
  (void)bar;
  (void)count;
  __trap();
#endif
}

// One arrival on `bar`, with release semantics at CTA scope: the caller's earlier shared- and
// global-memory accesses happen before any thread's wait on the phase this arrival completes.
__device__ __forceinline__ void arrive(unsigned long long* bar) {
#if LADDER_HAS_BULK_COPY
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem_addr(bar)) : "memory");
#else
  (void)bar;
  __trap();
#endif
}

// The issuing thread: expect `bytes` and copy them from global `src` to shared `dst`.
// Preconditions: src and dst 16-byte aligned, bytes a multiple of 16 and below 2^20.
__device__ __forceinline__ void load(void* dst, const void* src, unsigned bytes,
                                     unsigned long long* bar) {
#if LADDER_HAS_BULK_COPY
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(smem_addr(bar)),
               "r"(bytes)
               : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::
          "r"(smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(smem_addr(bar))
      : "memory");
#else
  __trap();
#endif
}

// Every thread that reads the staged bytes: wait until phase `parity` of the barrier completes.
__device__ __forceinline__ void wait(unsigned long long* bar, unsigned parity) {
#if LADDER_HAS_BULK_COPY
  unsigned done = 0;
  while (!done)
    asm volatile(
        "{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, "
        "0, p; }"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
#else
  (void)bar;
  (void)parity;
  __trap();
#endif
}

// Whether phase `parity` of the barrier has completed, without waiting (mbarrier.test_wait): the
// calling thread may then read what the arrivals published, as after wait(). A false answer says
// nothing lasting; ask again or call wait(). Used by copy_if/lab/batched_lookahead.cuh.
__device__ __forceinline__ bool ready(unsigned long long* bar, unsigned parity) {
#if LADDER_HAS_BULK_COPY
  unsigned done = 0;
  asm volatile(
      "{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, "
      "p; }"
      : "=r"(done)
      : "r"(smem_addr(bar)), "r"(parity)
      : "memory");
  return done != 0;
#else
  (void)bar;
  (void)parity;
  __trap();
  return false;
#endif
}

// Orders this thread's earlier generic-proxy accesses to shared memory (ordinary loads and
// stores) before later async-proxy accesses (a bulk copy into the same bytes). The mbarrier
// hand-over orders accesses within one proxy; across proxies the PTX memory model asks for a
// proxy fence (PTX ISA, "Memory Consistency Model: Proxies" and "membar/fence":
// fence.proxy.async). Used where threads *wrote* a stage that a bulk copy refills later
// (write after write across proxies): each writing thread fences before it arrives on the
// barrier that frees the stage. A stage that threads only read needs no fence before its
// refill: the mbarrier orders the reads, as in CUTLASS's TMA pipelines (consumer_release is a
// plain arrive). No-op below sm_90, which has no async proxy.
__device__ __forceinline__ void fence_proxy_async_shared() {
#if LADDER_HAS_BULK_COPY && defined(__CUDA_ARCH__)
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#endif
}

// Input that is not 16-byte aligned (an int32 view starting 1 to 3 elements past a 16-byte
// boundary): a bulk copy needs a 16-byte-aligned source, so a tile is copied from the boundary
// at or below its first element, 16 bytes more than the tile, and its elements are read at an
// offset of `shift` elements in the stage. shift_of(in) is that offset, 0 for aligned input: how
// many 4-byte elements (int32 or float) `in` starts past a 16-byte boundary. Host and device.
__host__ __device__ __forceinline__ unsigned shift_of(const void* in) {
  return static_cast<unsigned>(reinterpret_cast<uintptr_t>(in) % 16) / 4;
}

// int4 number q of a staged tile whose first element sits `shift` elements into the stage: the
// tile's elements 4q .. 4q + 3, in order. Aligned input (SHIFTED false, shift 0): one 16-byte
// load. Otherwise two aligned 16-byte loads, int4 q and q + 1 of the stage (the stage holds one
// int4 more than the tile), and the four words picked from them: consecutive lanes still read
// consecutive 16-byte words, so no bank conflict (four 4-byte loads at 4q + shift + c would
// put lanes 16 bytes apart: a 4-way conflict on each).
template <bool SHIFTED>
__device__ __forceinline__ int4 staged_int4(const int4* stage, unsigned shift, unsigned q) {
  if constexpr (!SHIFTED) {
    return stage[q];
  } else {
    const int4 a = stage[q], b = stage[q + 1];
    if (shift == 1) return make_int4(a.y, a.z, a.w, b.x);
    if (shift == 2) return make_int4(a.z, a.w, b.x, b.y);
    return make_int4(a.w, b.x, b.y, b.z);
  }
}

// For a warp whose lane `lane` reads int4 q (q - lane the same for the whole warp): four of the
// 128 elements 4 (q - lane) .. 4 (q - lane) + 127 of the tile, where only the warp's sum or
// count of them matters, not their order. Aligned input: int4 q, as staged_int4. Otherwise the
// words at that chunk + shift + lane + 32 c (c = 0..3): one 4-byte load per word, consecutive
// lanes on consecutive words, no bank conflict, one shared-memory wavefront each.
template <bool SHIFTED>
__device__ __forceinline__ int4 staged_chunk_words(const int4* stage, unsigned shift, unsigned q,
                                                   unsigned lane) {
  if constexpr (!SHIFTED) {
    return stage[q];
  } else {
    const int32_t* p = reinterpret_cast<const int32_t*>(stage) + 4 * (q - lane) + shift + lane;
    return make_int4(p[0], p[32], p[64], p[96]);
  }
}

}  // namespace ladder::bulk
