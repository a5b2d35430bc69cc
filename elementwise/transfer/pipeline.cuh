// elementwise/transfer/pipeline.cuh — pipeline_gelu: GELU over a host array, copy in, compute,
// copy out, serially and overlapped across streams (streams, events, cudaStreamWaitEvent; CUDA
// C++ Programming Guide, "Asynchronous Concurrent Execution").
// Technique: the array cut into chunks dealt round-robin to k streams; each chunk's copy in,
// kernel and copy out are ordered on its stream, and chunks of different streams overlap (the
// GPU has separate copy engines for each direction). Events fork the streams from the caller's
// stream and join them back.
// Remains (bottleneck): the slower link direction (or the two together where the link is
// shared), plus the first chunk's copy in and the last chunk's copy out.
#pragma once

#include "common/registry.h"

namespace ladder::elementwise::transfer::pipeline {

inline constexpr VersionDoc kOneStream = {
    0, "v00_one_stream", "Copy in, compute, copy out, one after the other",
    /*technique*/
    "Three calls on one stream: the whole array in, GELU (elementwise v05), the "
    "whole array out.",
    /*changes*/ "The starting point.",
    /*remains*/ "Nothing overlaps: the time is the sum of the two copies and the kernel.",
    /*source*/ "CUDA C++ Programming Guide (the host-device workflow: copy in, launch, copy out)"};

inline constexpr VersionDoc kTwoStreams = {
    1, "v01_two_streams", "Chunks over 2 streams: copies and kernels overlap",
    /*technique*/
    "The array in 8 chunks, dealt round-robin to 2 streams; each stream does copy in, GELU, "
    "copy out for its chunks. An event recorded on the caller's stream makes both wait for "
    "what came before (cudaStreamWaitEvent), and an event per stream makes the caller's "
    "stream wait for them at the end.",
    /*changes*/ "v00's three whole-array steps become per-chunk steps on two streams.",
    /*remains*/ "With two streams, one direction's copy often waits for the other's chunk.",
    /*source*/
    "CUDA C++ Best Practices Guide, 'Overlapping Transfers with Computation'; anonymous, "
    "'A review of CUDA basics' (Chinese; streams, events, cudaStreamWaitEvent)"};

inline constexpr VersionDoc kFourStreams = {
    2,
    "v02_four_streams",
    "Chunks over 4 streams",
    /*technique*/ "v01 with 4 streams and 16 chunks.",
    /*changes*/ "More streams, smaller chunks: the copy engines stay busier.",
    /*remains*/ "The link's direction that is slower, plus one chunk in and one chunk out.",
    /*source*/ "CUDA C++ Best Practices Guide, 'Overlapping Transfers with Computation'"};

inline constexpr VersionDoc kEightStreams = {
    3,
    "v03_eight_streams",
    "Chunks over 8 streams",
    /*technique*/ "v01 with 8 streams and 32 chunks.",
    /*changes*/ "Smaller chunks again: less fill and drain, more launches.",
    /*remains*/ "As v02; past some count, per-chunk overheads outweigh the shorter fill.",
    /*source*/ "CUDA C++ Best Practices Guide, 'Overlapping Transfers with Computation'"};

inline constexpr VersionDoc kCub = {
    -1, "cub", "One stream with cub::DeviceTransform for the GELU (the library baseline)",
    /*technique*/ "v00 with CUB's transform (the elementwise chapter's gelu_f32 baseline).",
    /*changes*/
    "Not a rung: the reference the pipelines are compared with. It is v00's one-stream job "
    "with CUB's kernel, so a stream rung's ratio to it measures the overlap of the copies, not "
    "the kernel (which is a small part of the job).",
    /*remains*/ "As v00.",
    /*source*/ "CUB, cub::DeviceTransform::Transform"};

}  // namespace ladder::elementwise::transfer::pipeline
