// sort/lab/probe_pairs_shape.cu — a standalone probe for the shape of sort_pairs' one-sweep
// passes. sort_pairs v10 runs v06's registered tile, 256 threads x 24
// pairs, with registers capped for 2 resident blocks per SM (kMinBlocksPairs), one block fewer
// than the keys' passes get: a thread holds, from the keys' write-out to the values', where each
// of its 24 staged positions went. The option v06::kPackedDigits keeps their digits instead, a
// byte each (6 registers), so the pairs' pass may fit the keys' 80-register cap. CUB's sm90 tuning
// for 4-byte pairs with a 64-bit count is 384 x 17 (tuning_radix_sort.cuh). This probe times v10's
// pairs sort (v08::launch_passes, 32-bit look-back words, v09's histogram) at several shapes,
// resident-block hints and with or without the option, against CUB's SortPairs, at 2^28 and 25.6M
// uniform keys (values 0, 1, 2, ...); and tile shapes of the keys-only sort against CUB's
// SortKeys. Each at three placements of the workspace (0, 192 and 640 MiB into one allocation),
// every shape's buffers at the same addresses within a placement (see shift below), CUB's
// temporary storage at the same start. Each sort is timed as the benchmark times it
// (common/probe_timer.cuh: blocking kernel, L2 flushed, median of 11); every output (keys and
// values) is compared with CUB's after a run into poisoned buffers. Not part of the binary.
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. sort/lab/probe_pairs_shape.cu common/device.cu \
//     -o probe_pairs_shape && ./probe_pairs_shape
// `./probe_pairs_shape cross N1 N2 ...` times only v10's shapes and sort v12's large ones at the
// sizes given, one placement: where one overtakes the other. `./probe_pairs_shape ranks16` times
// the pairs' pass with kRanks16 (each rank in 16 bits, two to a register, as sort v13's keys)
// at three blocks per SM against v12's pairs shape, and v13's keys shape against v12's, at 2^28
// and 25.6M, three placements: whether the values' pass gains from more warps as the keys' did.
// The modes "warps", "tiles", "barrier", "wide", "window", "ahead" and "layouts" time other shapes
// and options the same way (their comments in main say which).
#include <cub/device/device_radix_sort.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <string>
#include <vector>

#include "common/device.h"
#include "common/probe_timer.cuh"
#include "sort/lab/probe_common.cuh"
#include "sort/lab/probe_options.cuh"
#include "sort/v10_narrow_status.cuh"

using namespace ladder;
using namespace ladder::sort;
using namespace ladder::sort::tuning;

// The workspace starts with the look-back words, whose size depends on the tile, and the key and
// value buffers follow them. On the H100 a pass's time depends on where the buffer it scatters
// into lies (sort/lab/probe_placement.cu), so a shape's workspace is shifted by what its
// look-back words are smaller than the smallest tile's: every shape's buffers then lie at the
// same addresses, and a difference between shapes is not one of placement.
constexpr unsigned kSmallestItems = 24;
template <unsigned THREADS, unsigned ITEMS>
size_t shift(size_t n) {
  return v06::round256(v06::zeroed_bytes<256, kSmallestItems>(n)) -
         v06::round256(v06::zeroed_bytes<THREADS, ITEMS>(n));
}

template <bool PAIRS, unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned OPT,
          unsigned WINDOW>
cudaError_t sort_shape(const uint32_t* kin, const uint32_t* vin, uint32_t* kout, uint32_t* vout,
                       size_t n, void* ws, cudaStream_t s) {
  static_assert(THREADS * ITEMS >= 256 * kSmallestItems, "no smaller tile than the shift's");
  return probe_passes<PAIRS, v10::NarrowStatus, OPT, THREADS, ITEMS, MIN_BLOCKS, WINDOW>(
      kin, vin, kout, vout, n, static_cast<char*>(ws) + shift<THREADS, ITEMS>(n), s,
      v09::striped_histogram);
}

// v12's pairs with the values' ping-pong buffer SKEW bytes further from the keys' ("pairskew").
template <size_t SKEW>
cudaError_t sort_pairs_skewed(const uint32_t* kin, const uint32_t* vin, uint32_t* kout,
                              uint32_t* vout, size_t n, void* ws, cudaStream_t s) {
  return probe_passes<true, v10::NarrowStatus, v06::kPackedDigits, 256, 40, 2>(
      kin, vin, kout, vout, n, static_cast<char*>(ws) + shift<256, 40>(n), s,
      v09::striped_histogram, SKEW);
}

// A keys shape with its ping-pong buffer moved within its 2 MiB page ("keyskew"): EXTRA bytes past
// a 2 MiB boundary (ALIGN), or EXTRA bytes past where the shipped layout puts it (!ALIGN).
template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned OPT, bool ALIGN,
          size_t EXTRA>
cudaError_t sort_keys_skewed(const uint32_t* kin, const uint32_t* vin, uint32_t* kout,
                             uint32_t* vout, size_t n, void* ws, cudaStream_t s) {
  char* w = static_cast<char*>(ws) + shift<THREADS, ITEMS>(n);
  const size_t natural = v06::round256(v06::zeroed_bytes<THREADS, ITEMS>(n)) +
                         v06::round256(v06::kPasses * v06::kDigits * 4 + v06::kPasses * 4);
  const size_t page = size_t(2) << 20;
  const size_t at = reinterpret_cast<uintptr_t>(w + natural) % page;
  const size_t skew = (ALIGN ? (page - at) % page : 0) + EXTRA;
  return probe_passes<false, v10::NarrowStatus, OPT, THREADS, ITEMS, MIN_BLOCKS>(
      kin, vin, kout, vout, n, w, s, v09::striped_histogram, 0, skew);
}

// Registers, local memory (spills) and resident blocks per SM of a shape's pass kernel.
template <bool PAIRS, unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned OPT,
          unsigned WINDOW>
void describe(char* buf, size_t len) {
  const auto k = probe_kernel<THREADS, ITEMS, WINDOW, PAIRS, MIN_BLOCKS, v08::kScWindow,
                              v10::NarrowStatus, OPT>;
  cudaFuncAttributes a{};
  cudaFuncGetAttributes(&a, k);
  int blocks = 0;
  const size_t dynamic = v06::pass_storage_dynamic<THREADS, ITEMS, v06::kSeparate<OPT>>()
                             ? sizeof(v06::PassStorage<THREADS, ITEMS, v06::kSeparate<OPT>>)
                             : 0;
  cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(dynamic));
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, k, THREADS, dynamic);
  char window[32] = "";
  if (WINDOW != v06::kWindow) snprintf(window, sizeof window, ", window %u", WINDOW);
  if (kPrefetchAhead<OPT>)
    snprintf(window + strlen(window), sizeof window - strlen(window), ", ahead %u/16",
             kPrefetchAhead<OPT>);
  snprintf(buf, len, "%s %u x %2u, min %u%s%s%s%s: %3d regs, %3zu B local, %d blocks/SM",
           PAIRS ? "pairs" : "keys ", THREADS, ITEMS, MIN_BLOCKS,
           OPT & v06::kPackedDigits ? ", packed" : "", OPT & kRanks16 ? ", ranks16" : "",
           OPT & v06::kSeparateStaging ? ", separate" : "", window, a.numRegs, a.localSizeBytes,
           blocks);
}

struct Variant {
  bool pairs;
  cudaError_t (*launch)(const uint32_t*, const uint32_t*, uint32_t*, uint32_t*, size_t, void*,
                        cudaStream_t);
  void (*describe)(char*, size_t);
};

template <size_t SKEW>
void describe_skewed(char* buf, size_t len) {
  describe<true, 256, 40, 2, v06::kPackedDigits, v06::kWindow>(buf, len);
  snprintf(buf + strlen(buf), len - strlen(buf), ", values' buffer +%zu B", SKEW);
}

template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned OPT, bool ALIGN,
          size_t EXTRA>
void describe_keys_skewed(char* buf, size_t len) {
  describe<false, THREADS, ITEMS, MIN_BLOCKS, OPT, v06::kWindow>(buf, len);
  snprintf(buf + strlen(buf), len - strlen(buf), ", buffer %s + %zu KiB",
           ALIGN ? "at a 2 MiB boundary" : "as shipped", EXTRA >> 10);
}

template <unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned OPT, bool ALIGN,
          size_t EXTRA>
constexpr Variant keys_skewed() {
  return {false, sort_keys_skewed<THREADS, ITEMS, MIN_BLOCKS, OPT, ALIGN, EXTRA>,
          describe_keys_skewed<THREADS, ITEMS, MIN_BLOCKS, OPT, ALIGN, EXTRA>};
}

template <size_t SKEW>
constexpr Variant skewed() {
  return {true, sort_pairs_skewed<SKEW>, describe_skewed<SKEW>};
}

template <bool PAIRS, unsigned THREADS, unsigned ITEMS, unsigned MIN_BLOCKS, unsigned OPT = 0,
          unsigned WINDOW = v06::kWindow>
constexpr Variant variant() {
  return {PAIRS, sort_shape<PAIRS, THREADS, ITEMS, MIN_BLOCKS, OPT, WINDOW>,
          describe<PAIRS, THREADS, ITEMS, MIN_BLOCKS, OPT, WINDOW>};
}

int main(int argc, char** argv) {
  constexpr unsigned P = v06::kPackedDigits;
  // Earlier runs (results/PROVENANCE.md): 256 x 24 at 3 blocks, 256 x 20, 256 x 16, 384 x 16,
  // 384 x 17 and 512 x 12, packed or not, were all slower than the shipped shape; from 256 x 28
  // on, the larger the tile the faster (pairs on both GPUs, keys on the H200 from 256 x 36).
  const std::vector<Variant> shapes = {
      variant<true, 256, 24, 2>(),  // as shipped
      variant<true, 256, 40, 2, P>(), variant<true, 256, 44, 2, P>(),
      variant<true, 256, 46, 2, P>(), variant<true, 384, 28, 1, P>(),
      variant<true, 384, 30, 1, P>(), variant<true, 512, 20, 1, P>(),
      variant<true, 512, 22, 1, P>(), variant<false, 256, 24, 3>(),  // as shipped
      variant<false, 256, 40, 2>(),   variant<false, 256, 44, 2>(),
      variant<false, 256, 46, 2>(),   variant<false, 384, 28, 1>(),
      variant<false, 384, 30, 1>(),   variant<false, 512, 20, 1>(),
      variant<false, 512, 22, 1>(),
  };
  // "cross N1 N2 ...": only v10's shapes and v12's, at the sizes given (the crossover between
  // them); one placement.
  const bool cross = argc > 1 && std::string(argv[1]) == "cross";
  // "ranks16": v12's large shapes against 16-bit ranks at three blocks per SM (keys: v13's).
  constexpr unsigned R = kRanks16;
  const bool ranks16 = argc > 1 && std::string(argv[1]) == "ranks16";
  // "warps": 16-bit ranks at 24 and 32 warps per SM and larger tiles than v13's.
  const bool warps = argc > 1 && std::string(argv[1]) == "warps";
  // "tiles": one block an SM over tiles of 16,384 to 22,528 keys (twice v12's), their storage in
  // dynamic shared memory: longer runs for each digit's stores, at 16 to 32 warps an SM.
  const bool tiles = argc > 1 && std::string(argv[1]) == "tiles";
  // "barrier": v12's and v13's shapes (and 32 warps at 512 x 22) with and without
  // v06::kSeparateStaging, one barrier a tile fewer for a staging buffer of its own.
  constexpr unsigned S = v06::kSeparateStaging;
  const bool barrier = argc > 1 && std::string(argv[1]) == "barrier";
  // "wide": 32 and 24 warps an SM over tiles larger than v12's (12,288 to 14,336 keys, their
  // storage in dynamic shared memory), two blocks an SM.
  const bool wide = argc > 1 && std::string(argv[1]) == "wide";
  // "window": v12's and v13's shapes with 1 to 16 look-back words (4 as shipped) loaded a step.
  // Nsight Compute's source counters had v13's pass at 2^28 take 2.8 steps of 4 words a tile on
  // average (v12's 2.0), each an L2 round trip that the whole tile waits on.
  const bool window = argc > 1 && std::string(argv[1]) == "window";
  // "ahead": v12's and v13's shapes with each block prefetching into L2 the keys of a later tile,
  // F/16 of the resident blocks ahead (v06's kPrefetchAheadShift; "ahead F/16" below): the
  // source counters had v13's warps waiting on their tile's first key for 9% of their time at
  // 2^28. Pairs prefetch the tile's values as well as its keys.
  const bool ahead = argc > 1 && std::string(argv[1]) == "ahead";
  // "layouts": v12's and v13's keys shapes with and without that prefetch, at twelve layouts of
  // the output and the workspace (each moved by a pseudo-random multiple of 2 MiB up to 1 GiB):
  // in the benchmark the prefetch's gain over v13 changed sign with the process's allocations.
  // "layouts N1 N2 ...": at those sizes instead of 2^28 and 25.6M.
  // "pairlayouts N1 N2 ...": v12's pairs shape, with and without the prefetch of later tiles'
  // keys, at the same twelve layouts: the H100's top-only sweep at 9cd5c7c had sort_pairs v12 at
  // 2^27 1.041x CUB, where earlier sweeps had it at 0.92x.
  // "pairskew N1 N2 ...": v12's pairs at the same layouts with the values' ping-pong buffer moved
  // further from the keys' (v08::launch_passes's values_skew): for n = 2^27 and 2^28 the two
  // buffers otherwise start exactly 2^29 or 2^30 bytes apart.
  const bool pairskew = argc > 1 && std::string(argv[1]) == "pairskew";
  // "keyskew N1 N2 ...": v12's, v13's and v14's keys passes with their ping-pong buffer as shipped
  // (its offset in a 2 MiB page depends on n through the look-back words before it), at a 2 MiB
  // boundary, and 512 KiB and 1 MiB past one, at the twelve layouts (which move whole 2 MiB pages):
  // whether the buffer's place against the caller's explains v13's bad sizes.
  const bool keyskew = argc > 1 && std::string(argv[1]) == "keyskew";
  const bool pairlayouts = pairskew || (argc > 1 && std::string(argv[1]) == "pairlayouts");
  const bool layouts = pairlayouts || keyskew || (argc > 1 && std::string(argv[1]) == "layouts");
  constexpr unsigned A = kPrefetchAheadShift;
  const std::vector<Variant> variants =
      cross      ? std::vector<Variant>{variant<true, 256, 24, 2>(), variant<true, 256, 40, 2, P>(),
                                        variant<false, 256, 24, 3>(), variant<false, 256, 44, 2>()}
      : ranks16  ? std::vector<Variant>{variant<true, 256, 40, 2, P>(),  // v12's pairs
                                        variant<true, 256, 32, 3, P | R>(),
                                        variant<true, 256, 28, 3, P | R>(),
                                        variant<true, 256, 24, 3, P | R>(),
                                        variant<true, 256, 32, 3, R>(),
                                        variant<true, 256, 44, 2, P | R>(),
                                        variant<false, 256, 44, 2>(),     // v12's keys
                                        variant<false, 256, 32, 3, R>()}  // v13's keys
      : warps    ? std::vector<Variant>{variant<false, 256, 44, 2>(),     // v12's keys
                                        variant<false, 256, 32, 3, R>(),  // v13's keys
                                        variant<false, 384, 28, 2, R>(),
                                        variant<false, 384, 29, 2, R>(),
                                        variant<false, 512, 20, 2, R>(),
                                        variant<false, 512, 22, 2, R>(),
                                        variant<false, 256, 24, 4, R>(),
                                        variant<false, 256, 28, 4, R>(),
                                        variant<true, 256, 40, 2, P>(),  // v12's pairs
                                        variant<true, 384, 28, 2, P | R>(),
                                        variant<true, 512, 20, 2, P | R>(),
                                        variant<true, 512, 22, 2, P | R>()}
      : tiles    ? std::vector<Variant>{variant<false, 256, 44, 2>(),     // v12's keys
                                        variant<false, 256, 32, 3, R>(),  // v13's keys
                                        variant<false, 512, 44, 1>(),
                                        variant<false, 512, 44, 1, R>(),
                                        variant<false, 512, 32, 1, R>(),
                                        variant<false, 768, 28, 1, R>(),
                                        variant<false, 768, 24, 1, R>(),
                                        variant<false, 1024, 22, 1, R>(),
                                        variant<false, 1024, 16, 1, R>(),
                                        variant<true, 256, 40, 2, P>(),  // v12's pairs
                                        variant<true, 512, 40, 1, P | R>(),
                                        variant<true, 512, 44, 1, P | R>(),
                                        variant<true, 768, 28, 1, P | R>()}
      : barrier  ? std::vector<Variant>{variant<false, 256, 44, 2>(),  // v12's keys
                                        variant<false, 256, 44, 2, S>(),
                                        variant<false, 256, 32, 3, R>(),  // v13's keys
                                        variant<false, 256, 32, 3, R | S>(),
                                        variant<false, 512, 22, 2, R>(),
                                        variant<false, 512, 22, 2, R | S>(),
                                        variant<true, 256, 40, 2, P>(),  // v12's pairs
                                        variant<true, 256, 40, 2, P | S>()}
      : keyskew  ? std::vector<Variant>{keys_skewed<256, 44, 2, 0, false, 0>(),  // v12's keys
                                        keys_skewed<256, 44, 2, 0, true, 0>(),
                                        keys_skewed<256, 44, 2, 0, true, 512 << 10>(),
                                        keys_skewed<256, 44, 2, 0, true, 1 << 20>(),
                                        keys_skewed<256, 32, 3, R, false, 0>(),  // v13's keys
                                        keys_skewed<256, 32, 3, R, true, 0>(),
                                        keys_skewed<256, 32, 3, R, true, 512 << 10>(),
                                        keys_skewed<256, 32, 3, R, true, 1 << 20>(),
                                        keys_skewed<256, 44, 2, 2u << A, false, 0>(),  // v14's keys
                                        keys_skewed<256, 44, 2, 2u << A, true, 0>(),
                                        keys_skewed<256, 44, 2, 2u << A, true, 1 << 20>()}
      : pairskew ? std::vector<Variant>{skewed<0>(),       skewed<4096>(),   skewed<65792>(),
                                        skewed<262144>(),  skewed<524288>(), skewed<1048576>(),
                                        skewed<1056768>(), skewed<1572864>()}
      : pairlayouts ? std::vector<Variant>{variant<true, 256, 40, 2, P>(),  // v12's pairs
                                           variant<true, 256, 24, 2>(),     // v10's pairs
                                           variant<true, 256, 40, 2, P | (2u << A)>()}
      : layouts     ? std::vector<Variant>{variant<false, 256, 44, 2>(),  // v12's keys
                                           variant<false, 256, 44, 2, 2u << A>(),
                                           variant<false, 256, 44, 2, 4u << A>(),
                                           variant<false, 256, 32, 3, R>(),  // v13's keys
                                           variant<false, 256, 32, 3, R | (2u << A)>(),
                                           variant<false, 256, 32, 3, R | (4u << A)>()}
      : ahead       ? std::vector<Variant>{variant<false, 256, 44, 2>(),  // v12's keys
                                           variant<false, 256, 44, 2, 2u << A>(),
                                           variant<false, 256, 44, 2, 4u << A>(),
                                           variant<false, 256, 32, 3, R>(),  // v13's keys
                                           variant<false, 256, 32, 3, R | (1u << A)>(),
                                           variant<false, 256, 32, 3, R | (2u << A)>(),
                                           variant<false, 256, 32, 3, R | (3u << A)>(),
                                           variant<false, 256, 32, 3, R | (4u << A)>(),
                                           variant<false, 256, 32, 3, R | (6u << A)>(),
                                           variant<false, 256, 32, 3, R | (8u << A)>(),
                                           variant<true, 256, 40, 2, P>(),  // v12's pairs
                                           variant<true, 256, 40, 2, P | (1u << A)>(),
                                           variant<true, 256, 40, 2, P | (2u << A)>(),
                                           variant<true, 256, 40, 2, P | (4u << A)>()}
      : window      ? std::vector<Variant>{variant<false, 256, 44, 2>(),  // v12's keys
                                           variant<false, 256, 44, 2, 0, 2>(),
                                           variant<false, 256, 44, 2, 0, 8>(),
                                           variant<false, 256, 44, 2, 0, 16>(),
                                           variant<false, 256, 32, 3, R>(),  // v13's keys
                                           variant<false, 256, 32, 3, R, 1>(),
                                           variant<false, 256, 32, 3, R, 2>(),
                                           variant<false, 256, 32, 3, R, 3>(),
                                           variant<false, 256, 32, 3, R, 6>(),
                                           variant<false, 256, 32, 3, R, 8>(),
                                           variant<false, 256, 32, 3, R, 12>(),
                                           variant<false, 256, 32, 3, R, 16>(),
                                           variant<true, 256, 40, 2, P>(),  // v12's pairs
                                           variant<true, 256, 40, 2, P, 8>(),
                                           variant<true, 256, 40, 2, P, 16>()}
      : wide
          ? std::vector<Variant>{variant<false, 256, 44, 2>(),     // v12's keys
                                 variant<false, 256, 32, 3, R>(),  // v13's keys
                                 variant<false, 512, 22, 2, R>(), variant<false, 512, 24, 2, R>(),
                                 variant<false, 512, 26, 2, R>(), variant<false, 512, 28, 2, R>(),
                                 variant<false, 384, 32, 2, R>(), variant<false, 384, 36, 2, R>()}
          : shapes;
  std::vector<size_t> sizes;
  for (int i = 2; (cross || layouts) && i < argc; ++i) sizes.push_back(std::stoull(argv[i]));
  if (sizes.empty()) sizes = {size_t(1) << 28, 25600000};
  // A placement moves the workspace (and, in "layouts", the output) by this many bytes.
  struct Place {
    size_t ws, out;
  };
  std::vector<Place> placements = {{0, 0}, {size_t(192) << 20, 0}, {size_t(640) << 20, 0}};
  if (cross) placements.resize(1);
  const size_t kMaxShift = size_t(1) << 30;
  if (layouts) {
    placements.clear();
    uint64_t x = 0x9e3779b97f4a7c15ull;  // a fixed sequence: every run draws the same layouts
    // PROBE_LAYOUTS: how many (default 12), each the same for a given index in every run.
    const int count = std::getenv("PROBE_LAYOUTS") ? std::atoi(std::getenv("PROBE_LAYOUTS")) : 12;
    for (int i = 0; i < count; ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      const size_t ws = (x >> 33) % 512 * (size_t(2) << 20);
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      placements.push_back({ws, (x >> 33) % 512 * (size_t(2) << 20)});
    }
  }
  // PROBE_REPS: timed runs per median (default 11; 1 under compute-sanitizer).
  const int reps = std::getenv("PROBE_REPS") ? std::atoi(std::getenv("PROBE_REPS")) : 11;
  const size_t cap = size_t(1) << 28;
  uint32_t *kin, *vin, *kout0, *vout, *kwant, *vwant;
  for (uint32_t** p : {&kin, &vin, &vout, &kwant, &vwant}) cudaMalloc(p, cap * 4);
  cudaMalloc(&kout0, cap * 4 + (layouts ? kMaxShift : 0));
  unsigned long long* bad;
  cudaMalloc(&bad, 8);
  size_t cub_bytes = 0;
  cub::DeviceRadixSort::SortPairs(nullptr, cub_bytes, kin, kout0, vin, vout, cap);
  // The smallest tile has the most look-back words; each placement moves the whole workspace.
  const size_t ws_bytes =
      std::max(cub_bytes, v08::workspace_bytes_for<256, kSmallestItems>(cap, true)) + kMaxShift;
  void* ws0;
  if (cudaMalloc(&ws0, ws_bytes) != cudaSuccess) {
    printf("out of memory\n");
    return 1;
  }
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  probe_timing::Timer timer(stream);
  fill_pairs<<<1024, 256>>>(kin, vin, cap);
  cudaDeviceSynchronize();
  printf("%s\n", query_device(0).name.c_str());
  for (const Variant& v : variants) {
    char d[128];
    v.describe(d, sizeof d);
    printf("%s\n", d);
  }
  for (const bool pairs : {true, false}) {
    if (layouts && pairs != pairlayouts) continue;
    for (size_t n : sizes) {
      void* ws = ws0;
      auto cub_sort = [&](uint32_t* ko, uint32_t* vo) {
        size_t bb = cub_bytes;
        const long long count = static_cast<long long>(n);
        if (pairs)
          cub::DeviceRadixSort::SortPairs(ws, bb, kin, ko, vin, vo, count, 0, 32, stream);
        else
          cub::DeviceRadixSort::SortKeys(ws, bb, kin, ko, count, 0, 32, stream);
      };
      cub_sort(kwant, vwant);
      const char* what = pairs ? "pairs" : "keys ";
      for (const Place& place : placements) {
        ws = static_cast<char*>(ws0) + place.ws;
        uint32_t* kout = kout0 + place.out / 4;
        char where[48];
        if (place.out)
          snprintf(where, sizeof where, "ws+%zu out+%zu MiB", place.ws >> 20, place.out >> 20);
        else
          snprintf(where, sizeof where, "ws+%zu MiB", place.ws >> 20);
        const float cub_us = timer.median_us([&] { cub_sort(kout, vout); }, reps);
        printf("%s %s n=%9zu  cub %8.1f us\n", where, what, n, cub_us);
        for (const Variant& v : variants) {
          if (v.pairs != pairs) continue;
          cudaError_t err = cudaSuccess;
          auto run = [&] {
            const cudaError_t e = v.launch(kin, vin, kout, vout, n, ws, stream);
            if (e != cudaSuccess) err = e;
          };
          const float us = timer.median_us(run, reps);
          cudaMemsetAsync(kout, 0xa5, n * 4, stream);
          cudaMemsetAsync(vout, 0xa5, n * 4, stream);
          run();
          unsigned long long wrong = probe_timing::mismatches(kout, kwant, n, bad, stream);
          if (pairs) wrong += probe_timing::mismatches(vout, vwant, n, bad, stream);
          char d[128];
          v.describe(d, sizeof d);
          printf("%s n=%9zu  %-64s %8.1f us  %.3fx cub  mismatches %llu  %s\n", where, n, d, us,
                 us / cub_us, wrong, cudaGetErrorString(err));
        }
      }
    }
  }
  return 0;
}
