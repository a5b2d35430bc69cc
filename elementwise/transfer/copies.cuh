// elementwise/transfer/copies.cuh — h2d and d2h: one copy of n floats across the host link, from
// or to each kind of host memory (pageable, pinned, write-combined; CUDA C++ Programming Guide,
// "Page-Locked Host Memory").
// Technique: cudaMemcpyAsync on the stream; the host memory's kind is the only change per rung.
// Remains (bottleneck): the link itself (PCIe or NVLink-C2C), which pinned memory reaches and
// pageable memory, staged through a driver buffer by the CPU, does not.
#pragma once

#include "common/registry.h"

namespace ladder::elementwise::transfer::copies {

inline constexpr VersionDoc kPageable = {
    0, "v00_pageable", "From / to pageable memory (malloc)",
    /*technique*/
    "cudaMemcpyAsync with ordinary malloc'd memory. The copy engine can only read page-locked "
    "memory, so the driver copies through a pinned staging buffer of its own, chunk by chunk, "
    "with the CPU doing a memcpy for each: the call returns only when the data has passed.",
    /*changes*/ "The starting point: what a program gets without asking.",
    /*remains*/
    "The extra CPU copy through the staging buffer, and no overlap with anything else: the "
    "call waits on the host (this rung's time includes the host's part).",
    /*source*/
    "CUDA C++ Best Practices Guide, 'Pinned Memory'; anonymous, 'A review of CUDA basics' "
    "(Chinese; pageable and pinned host memory)"};

inline constexpr VersionDoc kPinned = {
    1, "v01_pinned", "From / to pinned memory (cudaMallocHost)",
    /*technique*/
    "The host buffer is page-locked (cudaMallocHost): the copy engine reads or writes it "
    "directly by DMA, the call is asynchronous and can overlap kernels and other copies.",
    /*changes*/ "v00's malloc becomes cudaMallocHost: no staging copy.",
    /*remains*/ "The link's bandwidth: this is the speed of light for a host-to-GPU transfer.",
    /*source*/ "CUDA C++ Programming Guide, 'Page-Locked Host Memory' (cudaMallocHost)"};

inline constexpr VersionDoc kWriteCombined = {
    2, "v02_write_combined", "From / to write-combined pinned memory",
    /*technique*/
    "cudaHostAlloc with cudaHostAllocWriteCombined: pinned memory the CPU does not cache. "
    "Transfers across the link need not snoop the CPU's caches; the CPU writes it through "
    "write-combining buffers and reads it very slowly.",
    /*changes*/ "v01's cudaMallocHost becomes cudaHostAlloc(WriteCombined).",
    /*remains*/
    "The link, as v01; the gain, if any, is in H2D, and the price is every CPU read of the "
    "buffer (the check of d2h reads it back once).",
    /*source*/ "CUDA C++ Programming Guide, 'Write-Combining Memory'"};

inline constexpr VersionDoc kMemcpy = {
    -1, "cuda_memcpy", "cudaMemcpy (synchronous) with pinned memory, the library baseline",
    /*technique*/
    "The CUDA runtime's plain, synchronous copy between pinned host memory and the GPU: what a "
    "first program writes.",
    /*changes*/ "Not a rung: the reference the copies are compared with.",
    /*remains*/ "The link, and the host waiting for it.",
    /*source*/ "CUDA runtime, cudaMemcpy"};

}  // namespace ladder::elementwise::transfer::copies
