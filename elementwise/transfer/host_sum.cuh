// elementwise/transfer/host_sum.cuh — host_sum: a kernel whose input lives in host memory
// (zero-copy mapped memory, managed memory, prefetching; CUDA C++ Programming Guide).
// Technique: the same sum (reduce's top rung) over the data where it is: copied first, read in
// place over the link, or migrated on demand by page faults.
// Remains (bottleneck): the link, which every variant must cross once; page faults for managed
// memory without a prefetch.
#pragma once

#include "common/registry.h"

namespace ladder::elementwise::transfer::host_sum {

inline constexpr VersionDoc kCopyThenReduce = {
    0, "v00_copy_then_reduce", "Copy to the GPU (pinned, async), then reduce",
    /*technique*/
    "The classic: cudaMemcpyAsync from pinned memory into a device buffer, then reduce v12 on "
    "it, both on the stream.",
    /*changes*/ "The starting point.",
    /*remains*/
    "The copy and the kernel run one after the other, and the data lands in a "
    "device buffer nobody needed.",
    /*source*/ "CUDA C++ Programming Guide, 'Asynchronous Concurrent Execution' (cudaMemcpyAsync)"};

inline constexpr VersionDoc kZeroCopy = {
    1, "v01_zero_copy", "Zero-copy: the kernel reads mapped pinned memory over the link",
    /*technique*/
    "cudaHostAlloc(Mapped): pinned memory with a device address (the same pointer, under "
    "unified virtual addressing). Reduce v12 reads it directly; each load crosses the link.",
    /*changes*/ "No copy, no device buffer: one kernel that reads the host's memory.",
    /*remains*/
    "The link's bandwidth under a kernel's access pattern, and every re-read crosses it again "
    "(fine for data read once, as here).",
    /*source*/
    "CUDA C++ Programming Guide, 'Mapped Memory'; anonymous, 'A review of CUDA basics' "
    "(Chinese; zero-copy memory)"};

inline constexpr VersionDoc kManaged = {
    2, "v02_managed", "Managed memory, no prefetch: pages fault over on demand",
    /*technique*/
    "cudaMallocManaged: the kernel touches pages that live on the host, each first touch "
    "faults, and the driver migrates the page to the GPU. Before every timed launch the data "
    "is moved back to the host (outside the timing).",
    /*changes*/ "v01's mapped memory becomes managed memory.",
    /*remains*/
    "Page faults: a fault stalls the warps that touch the page while the driver "
    "migrates it, so the link is far from busy.",
    /*source*/
    "CUDA C++ Programming Guide, 'Unified Memory Programming'; anonymous, 'A review of CUDA "
    "basics' (Chinese; unified and managed memory)"};

inline constexpr VersionDoc kManagedPrefetch = {
    3, "v03_managed_prefetch", "Managed memory with cudaMemPrefetchAsync before the kernel",
    /*technique*/
    "The same managed buffer, but the stream first prefetches it to the GPU "
    "(cudaMemPrefetchAsync): bulk migration at the link's speed, then a kernel on resident "
    "pages.",
    /*changes*/ "v02 plus a prefetch on the stream before the kernel.",
    /*remains*/ "The migration and the kernel still run one after the other.",
    /*source*/ "CUDA C++ Programming Guide, 'Unified Memory Programming' (cudaMemPrefetchAsync)"};

inline constexpr VersionDoc kCub = {
    -1,
    "cub",
    "Pinned copy, then cub::DeviceReduce::Sum (the library baseline)",
    /*technique*/ "v00 with CUB's reduction instead of reduce v12.",
    /*changes*/ "Not a rung: the reference the host sums are compared with.",
    /*remains*/ "As v00.",
    /*source*/ "CUB, cub::DeviceReduce::Sum"};

}  // namespace ladder::elementwise::transfer::host_sum
