// scan/lab/probe_v15_stores.cu — the H200's copy ceiling, items 1-5 of the lab notes' "Next to
// try" list: is the gap in how v15 moves data, and do its stores, its tile schedule or an L2 hint
// on its loads close it? Not part of the binary. At n = 2^28 int32 (aligned), times, interleaved
// over three rounds (each a median of 31 launches, timed as the benchmark times: L2 flushed,
// stream held, common/probe_timer.cuh):
//   cudaMemcpy of the bytes, int4 copy kernels (2 to 16 loads a thread; plain, __ldg, or
//   load_once + __stcs), CUB's
//   InclusiveSum, shipped v15 (scan/v15_warp_specialized.cuh), and this file's copy of v15's
//   kernel with one MODE bit or more set:
//     kPlain   plain 16-byte stores instead of __stcs;
//     kBulk    the scan-store squad writes the scanned tile back into its stage and one thread
//              bulk-stores it (cp.async.bulk.global.shared::cta, waiting for the read before the
//              stage is freed), as CCCL's warp-specialized scan stores its tiles;
//     kStatic  block b takes tiles b, b + grid, ... (no atomic claim; one resident wave);
//     kEvict   the tile loads carry an L2 evict_first policy (createpolicy + .L2::cache_hint);
//     kCopy    no scan: the pipeline copies its input (reduce and look-ahead warps only hand over),
//              a copy shaped like v15;
//     kAlign   the stages start on a 128-byte boundary of shared memory (the dynamic array
//              declared __align__(128)); without it they start where v15's do, 32 bytes past one
//              (the 1 KiB the system reserves a block, then 1,056 bytes of static shared memory).
// Every scan's whole output is compared with CUB's, every copy's with its input (mismatch counts).
// `./p small` times instead the kernel's shapes with less in flight an SM: tiles of 4, 8 or 16 KB
// (fewer 128-element chunks than lanes below 16 KB), 3 to 12 stages, and a cap on blocks an SM
// (launch's per_sm).
// `./p align` times the kAlign bit against v15 as shipped, alone and with the other bits;
// `./p align-shapes` the shapes of `small` again, aligned and with plain stores (blocks an SM: what
// fits, as labelled).
// The modes of 2026-11-30 (nineteenth session) add the MODE bits kPieces to kDuo and the
// template parameters THR (bulk copies in flight a block), SLEEP and K (tiles a claim), each
// described where it is declared, and time them:
//   `./p throttle`  THR, whole-tile copies;   `./p pieces`  THR in quarter tiles (kPieces);
//   `./p parts`     the scan's parts removed one by one (timing only where marked);
//   `./p look`      cheaper look-aheads: kLate, kGroup, kPrepub (timing only), kHold;
//   `./p wait`      polling back-off, kTwo, status words 32 or 128 bytes apart, kHold;
//   `./p claims`    K = 2 (a status word a claim of two tiles);
//   `./p duo`       kDuo: one block an SM, two pipelines sharing one look-ahead.
// The modes of the twentieth session add the template parameter C (thread-block clusters of C
// blocks sharing rank 0's look-ahead) and the MODE bits kStAsync to kTrace:
//   `./p cluster`   clusters of 2, 4 and 8; handovers by store and release.cluster arrive, or by
//                   st.async (kStAsync);
//   `./p stream`    kStream: the cluster's look-ahead reads one window for every waiting claim;
//                   with the tile held (kHold) or the claims handed over once reduced (kHandLate);
//   `./p late`      kStream with kHandLate: a back-off sleep (SLEEP ns after a window that stops
//                   short), six quarters in flight, windows of 16 x 32;
//   `./p reps`      kRep4, kRep16: each status published in 4 or 16 copies, each block's
//                   look-ahead reading one of them;
//   `./p first`     kStoreFirst (timing only): a tile's stores wait for the previous tile's
//                   prefix, not their own;
//   `./p nowait`    kNoWait (timing only): the look-ahead's code runs unchanged, nothing waits for
//                   it;
//   `./p trace`     kTrace: per block, when the look-ahead and the scan-store end, and the
//                   look-ahead's round trips a claim and their time.
// The twenty-first session's MODE bits kSeq, kSeqBlocked, kSeqIlp, kLdCg to kLdNa and kGroup2
// (MODE is 64 bits wide from kGroup2 on):
//   `./p seq`, `seq2`   kSeq: one warp (the first block's to take a ticket) reads the statuses in
//                       order and overwrites each with the tile's exclusive prefix; each look-ahead
//                       polls its own tile's status once the tile is reduced; windows of 8 to 32,
//                       and with nothing waiting (kNoWait);
//   `./p seq3`          kSeqBlocked: the sequencer's lanes read runs of WIN statuses;
//   `./p seqilp`        kSeqIlp: independent ballots and scans for its windows (traced);
//   `./p seqtrace`      kTrace with kSeq, beside v15's look-ahead with nothing waiting;
//   `./p loads`         the look-ahead's statuses read as .cg, .volatile or .L1::no_allocate
//                       (timing; the last, a weak load, never ended: a weak load need not see
//                       a store);
//   `./p big`           32 KB tiles, three stages (two blocks an SM);
//   `./p group2`        kGroup2: group words read with the statuses in one round trip
//                       (advance_grouped2), from the claim or late (kLate);
//   `./p seqhold`       kSeq with kHold (its look-ahead then polls from the claim) or kTwo, and
//                       kSeqEarly (the same polls without kHold).
// The twenty-second session's MODE bits kStat32 to kClusterOnly, each described where declared:
//   `./p stat32`        v15's look-ahead and the cluster's streaming one on 4-byte statuses; then
//                       every checked scan once more on an input where every seventh tile's
//                       aggregate is the empty word itself (the escape path), checked;
//   `./p stat32 lazy`   the same with kEscLazy (the escape words read only for a status that stays
//                       empty); as run in session 22 the cluster's form read no escape word (the
//                       escape_step call in its look-ahead came later);
//   `./p poll`          kPollShared, kPollPrivate, kPollMove: the pipeline's copy beside a look-
//                       ahead warp that only polls (one window for all, the block's own, or near
//                       the front); kRepSkew: the statuses' copies a skewed stride apart;
//   `./p pollw`         kPollWrite: the same copies with each tile's status written (0), as the
//                       scan writes them, so the polls near the front read lines being written;
//   `./p probe`         kPollDirty and kPollFar (private polls of lines written once first, or far
//                       from the statuses being written); kProbeLast, kProbeNap: the look-ahead
//                       polls status t - 1 alone until it is published, then reads the run;
//   `./p sep`           kPollSep: the same polls by one more warp that no handover waits for;
//                       kPubAfter: the status published after the `reduced` arrive;
//   `./p sep2`          kPollSelfMid, kPollNextMid: a far private window written once
//                       mid-kernel by the polling SM itself, or by the previous block's poller;
//   `./p c4`            kClusterOnly: the plain pipeline launched in clusters of 2 or
//                       4 (248 blocks), beside the cluster forms sharing a look-ahead.
// The twenty-third session's MODE bits kPollMany to kPubWarp, each described where declared:
//   `./p sep3`          kPollMany, kPollTrickle: the far window written in 256 one-word stores, or
//                       a word each time the writing block claims a tile;
//   `./p bulkpoll`      kPollBulk: the separate poller's round trips as one 2 KiB bulk copy;
//   `./p partner`       kPartnerSame, kPartnerNear, kPartnerFar, kPartnerNext: the far window
//                       written a word a claim by a block chosen by the SM it runs on;
//   `./p latered`       kLateRed: the scan's look-ahead started once its own tile is reduced;
//   `./p pubwarp`       kPubWarp: the statuses published by one more warp, from a ring.
// The twenty-fourth session's MODE bits kMirror to kMirrorBare:
//   `./p mirror`        kMirror: the look-ahead reads a mirror of the statuses whose lines each
//                       take one burst from one block; kMirrorIdle: the mirror warp alone;
//   `./p mirror2`       kMirrorLate, kMirrorNap: the mirror warp polls a group once its last tile
//                       is reduced, or sleeps 100 ns between polls;
//   `./p mirror3`       kMirrorBare: the mirror warp's waits in shared memory alone; template
//                       parameter MX: its polls alone (1) or its stores alone (2); its polls of
//                       all but its own tile's status (3), of that alone (4), of the first line
//                       alone (5);
//   `./p mirror4`       MX 6 to 8: the one poll of the tile's own status, every other group, or
//                       500 or 2,000 ns after the reduce;
//   `./p delay`         template parameter DLY: the look-ahead starts DLY ns after its own tile
//                       is reduced (kLateRed), so that the statuses it reads are older;
//   `./p delay2`        DLY_FROM_REDUCE: DLY ns from when the tile was reduced, not from when
//                       the look-ahead got to it;
//   `./p delay3`        DLY 2,000 to 6,000 ns from the reduce, on quarter tiles and whole tiles;
//                       PROBE_LOG2N=k runs any mode at n = 2^k (20 <= k <= 28).
// PROBE_CHECK_ONLY=1 skips the timed rounds (for `./p stat32 [lazy]`'s escape check alone).
// PROBE_ONLY=NAME keeps the first case and the one named NAME, one round (for Nsight Compute).
//   nvcc -O3 -std=c++17 -arch=sm_90 -I. scan/lab/probe_v15_stores.cu common/device.cu -o p && ./p
// Run on an H200 on 2026-11-29: results/logs/h200-probes-32f22b4-2026-11-29/
// (scan/lab/LAB_NOTES.md, "The list, run"); the modes of 2026-11-30:
// results/logs/h200-session19-2026-11-30/ (the lab notes, "A data path at 98% of the copy"); those
// of 2026-11-30's twentieth session: results/logs/h200-session20-2026-11-30/ ("Sharing one
// look-ahead"); those of the twenty-first: results/logs/h200-session21-2026-11-30/ ("One reader for
// every status: a sequencer"); those of the twenty-second: results/logs/h200-session22-2026-11-30/
// ("What the look-ahead's polls cost: lines that other blocks write"); those of the twenty-third:
// results/logs/h200-session23-2026-11-30/ ("Who writes a polled line"); those of the
// twenty-fourth: results/logs/h200-session24-2026-11-30/ ("A look-ahead that waits for its
// statuses to age").
#include <cub/device/device_scan.cuh>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "common/bulk_copy.cuh"
#include "common/device.h"
#include "common/globaltimer.cuh"
#include "common/load.cuh"
#include "common/probe_timer.cuh"
#include "scan/lab/cluster.cuh"
#include "scan/lookback.cuh"
#include "scan/v09_ptx_predicated.cuh"
#include "scan/v15_warp_specialized.cuh"

using namespace ladder;
using namespace ladder::scan;

namespace probe {

// kPlain ... kAlign: the top of this header.
enum : unsigned long long {
  kPlain = 1,
  kBulk = 2,
  kStatic = 4,
  kEvict = 8,
  kCopy = 16,
  kAlign = 32,
  kPieces = 64,     // each tile four quarter-tile bulk copies (aligned stages; see kernel)
  kNoReduce = 128,  // timing only: the reduce warps publish 0 and leave the chunk prefixes unset
  kNoScan = 256,    // timing only: the scan-store adds the prefixes without the warp scan
  kNoLook = 512,    // timing only: no look-ahead, every tile's prefix 0
  kLate = 1024,     // the look-ahead starts once its own tile has landed, not when claimed
  kGroup = 2048,    // group words of 32 tiles besides the statuses (advance_grouped)
  kPrepub = 4096,   // timing only: every status reads as published (0x01 bytes), so nothing waits
  kHold = 8192,    // scan-store: scan the tile into registers, free the stage, then wait the prefix
  kTwo = 16384,    // two scan-store squads, taking alternate tiles
  kPad4 = 32768,   // tile t's status at status[4 t]: one status a 32-byte sector
  kPad16 = 65536,  // tile t's status at status[16 t]: one status a 128-byte line
  kDuo = 131072,   // two pipelines a block sharing one look-ahead: two reduce and two scan-store
                   // squads on alternate tiles, one producer claiming two tiles an atomic
  kStAsync = 262144,      // C > 1: hand claims and prefixes over by st.async (complete_tx on the
                          // receiver's mbarrier, which the receiver arms) instead of a store and a
                          // release.cluster arrive
  kStream = 524288,       // with kStAsync: each round trip of the cluster's look-ahead reads one
                          // window of statuses (at most WIN x 32) up to the highest of the members'
                          // oldest unanswered claims and answers each of those it reaches
  kHandLate = 1048576,    // with kStream: the reduce squad hands each claim over once it has
                          // published the tile's aggregate (the producer does otherwise)
  kRep4 = 2097152,        // each status published in 4 copies, tiles apart; block b's look-ahead
                          // reads copy b % 4 (a quarter of the readers a status word)
  kRep16 = 4194304,       // the same with 16 copies
  kStoreFirst = 8388608,  // timing only: the scan-store stores with prefix 0 at once, and waits for
                          // the look-ahead's prefix only before it frees the stage (C == 1), so
                          // the next tile's stores wait for it
  kNoWait = 16777216,     // timing only: the scan-store neither waits for the prefix (adds 0) nor
                       // holds the stage for it; the look-ahead runs as usual, a ring of 256 claims
  kTrace =
      33554432,  // records per block (g_trace): start, the look-ahead's and the scan-store's end
                 // (%globaltimer), the look-ahead's claims, round trips and time in them
  kSeqBlocked = 134217728,  // with kSeq: the sequencer's lane l reads statuses l WIN to l WIN + WIN
                            // - 1 of its round trip, so it takes one ballot and one warp scan a
                            // round trip (otherwise one of each for every 32 statuses)
  kLdCg = 268435456,        // the look-ahead reads the statuses with ld.global.cg (peek_as)
  kLdVol = 536870912,       // ... with ld.volatile.global
  kLdNa = 1073741824,       // ... with ld.global.L1::no_allocate
  kSeqIlp = 2147483648u,    // with kSeq: the sequencer's windows take independent ballots and scans
  kGroup2 = 1ull << 32,     // kGroup's group words, read by advance_grouped2: one round trip loads
                            // the statuses to the next group boundary, up to 32 whole groups' words
                            // and the statuses of the last, partial group, together
  kSeqEarly = 1ull << 33,   // with kSeq: each look-ahead polls from the claim (SLEEP ns apart), not
                            // once its tile is reduced, as kHold's must
  kStat32 = 1ull << 34,     // 4-byte statuses (C == 1 or kStream): each a tile's aggregate, the
                            // empty word kEmpty32 until published; an aggregate equal to kEmpty32
                            // flips the tile's bit in an escape bitmap instead (window32)
  kPollShared = 1ull << 35,  // with kCopy: the look-ahead warp polls, until its next claim has come
                             // and at least once a claim, WIN x 32 statuses that every block reads
                             // (statuses 0 to 32 WIN - 1, never written): a synthetic look-ahead
  kPollPrivate = 1ull << 36,  // ... the block's own WIN x 32 statuses (neighbouring windows share
                              // their first and last lines: the statuses start 16 bytes past one)
  kPollMove = 1ull << 37,     // ... the WIN x 32 from the block's last claim, as the look-ahead
                              // reads (every block near the same moving front of lines)
  kRepSkew = 1ull << 38,      // kRep4, kRep16: the copies (tiles + 37 x 16) words apart, not tiles,
                              // so that a copy's lines do not fall in the first copy's L2 slices
                              // if the slice is chosen by address bits a 512 KiB stride leaves
  kEscLazy = 1ull << 39,      // with kStat32: the escape words read only for a status that has
                              // stayed empty for 4 round trips (escape_step), not every round trip
  kPollWrite = 1ull << 40,    // with kCopy: the reduce squad publishes each tile's status (0) as
                              // the scan does, so kPollMove's polls read lines being written
  kPollDirty = 1ull << 41,    // with kPollPrivate: the block writes its own lines once, before it
                              // polls them (lines written, but not while polled)
  kPollFar = 1ull << 42,      // with kPollPrivate: the block's lines 8 MiB past the statuses (never
                              // a status; with kPollWrite the statuses are written elsewhere)
  kProbeLast = 1ull << 43,    // the look-ahead polls status t - 1 alone (one word) until it is
                              // published, then reads [counted, t) as before
  kProbeNap = 1ull << 44,     // kProbeLast with __nanosleep(100) between its polls
  kPollSep = 1ull << 45,      // kPollShared/Private/Move polled by one more warp that gates nothing
                              // (no handover waits for it), until the producer has ended
  kPubAfter = 1ull << 46,     // the reduce squad publishes a tile's status after it has arrived on
                              // the stage's `reduced` barrier, not before (C == 1, K == 1)
  kPollSelfMid = 1ull << 47,  // with kPollSep, kPollPrivate and kPollFar: the poller writes its own
                              // window once, when its block's last claim passes tile 256 b (when
                              // the front would pass its statuses); the lines written mid-kernel
                              // by the polling SM itself
  kPollNextMid = 1ull << 48,  // ... the poller writes the next block's window instead, when its
                              // last claim passes tile 256 (b + 1): written mid-kernel, once, by
                              // one other SM
  kClusterOnly = 1ull << 49,  // C > 1: launched in clusters of C blocks, but each block runs the
                              // plain pipeline with its own look-ahead (what the cluster launch
                              // alone costs: 248 blocks for clusters of 4)
  kPollMany = 1ull << 50,     // with kPollSelfMid or kPollNextMid: the window written as 256
                              // one-word stores from lane 0 (16 write requests a line, as the
                              // statuses get), not 8 coalesced stores of the warp (one a line)
  kPollTrickle = 1ull << 51,  // ... the window written one word each time its block's last claim
                              // moves, cycling through its 256 words (spread over the kernel)
  kPollBulk = 1ull << 52,     // with kPollSep: each poll one 2 KiB bulk copy of the window
                              // (cp.async.bulk, the TMA's path to L2) into shared memory,
                              // read from there, instead of the warp's 8 loads of 8 bytes a lane
  // with kPollNextMid and kPollTrickle: who writes the window a poller reads, by where the blocks
  // run (%smid). Each poller records its SM in a table cleared before the launch and waits for
  // every block's entry (every block is resident); an SM's rank is its place among the SMs in use,
  // a block's slot 0 or 1 among the two blocks on its SM. The window of block b is written by:
  kPartnerSame = 1ull << 53,  // the other block on b's SM
  kPartnerNear = 1ull << 54,  // the block of b's slot on the SM of rank r ^ 1 (r: b's SM's rank)
  kPartnerFar = 1ull << 55,   // the block of b's slot on the SM of rank (r + SMs / 2) % SMs
  kPartnerNext = 1ull << 56,  // block b - 1, as kPollNextMid alone (the table's cost, for fairness)
  kLateRed = 1ull << 57,      // with kLate: the look-ahead starts once its own tile is reduced (its
                              // aggregate published), not once it has landed: by then most of the
                              // statuses below it are published, and fewer polls meet lines being
                              // written
  kPubWarp = 1ull << 58,      // the statuses published by one more warp, from a ring in shared
                              // memory that the reduce squad fills (tile, aggregate), so that no
                              // warp the pipeline waits on stores to a line being polled (C == 1,
                              // K == 1, the plain forms; with kCopy and kPollWrite too)
  kMirror = 1ull << 59,  // a mirror of the statuses that every line takes in one burst from one
                         // block: one more warp a block takes each group of 16 tiles [16 g,
                         // 16 g + 16) whose last tile its block claimed, polls the group's 16
                         // statuses until all are published, then stores them to the mirror's
                         // line g in one warp store (16 lanes, 8 bytes each, one 128-byte line);
                         // the look-ahead reads the mirror instead of the statuses (C == 1, K == 1,
                         // the plain forms)
  kMirrorIdle = 1ull << 60,  // with kMirror: the mirror warp runs, the look-ahead reads the
                             // statuses as usual (what the mirror warp costs by itself)
  kMirrorLate = 1ull << 61,  // with kMirror: the mirror warp starts polling a group once its own
                             // tile (the group's last) is reduced, not when claimed
  kMirrorNap = 1ull << 62,   // with kMirror: __nanosleep(100) between the mirror warp's polls
  kMirrorBare = 1ull << 63,  // with kMirror and kMirrorIdle: the mirror warp takes its ring's
                             // entries (and with kMirrorLate waits for each tile's reduce) but
                             // neither polls nor stores: what its waits in shared memory cost
  kSeq = 67108864  // a sequencer: one more warp a block; the first to arrive (an atomic) reads
                   // the statuses in order, WIN x 32 a round trip from the first it has not
                   // handled (again those not yet published), and overwrites each aggregate with
                   // the tile's exclusive prefix (flag kPrefix, which lookback.cuh uses for an
                   // inclusive one); each block's look-ahead waits until its tile is reduced
                   // (with kNoWait: from the claim), then polls its own tile's status alone
                   // (SLEEP ns apart)
};

// Copies of each status (kRep4, kRep16): copy r of tile t's status at status[r * tiles + t].
template <unsigned long long MODE>
inline constexpr unsigned kReps = MODE& kRep16  ? 16
                                  : MODE& kRep4 ? 4
                                                : 1;

// Words between the copies of the statuses (kRep4, kRep16; kRepSkew).
template <unsigned long long MODE>
__host__ __device__ inline size_t rep_stride(size_t tiles) {
  return tiles + ((MODE & kRepSkew) ? 37 * 16 : 0);
}

template <unsigned long long MODE>
inline constexpr unsigned kStride = MODE& kPad16  ? 16
                                    : MODE& kPad4 ? 4
                                                  : 1;

// kMirror: the mirror's tile t at mirror_of(status, tiles)[t]. The statuses start 16 bytes past a
// 128-byte line (lookback::tile_status), so 14 words more than a multiple of 16 puts the mirror's
// word 16 g at the start of a line; the launch clears it with the statuses.
__host__ __device__ inline size_t mirror_offset(size_t tiles) {
  return (tiles + 15) / 16 * 16 + 14;
}
__host__ __device__ inline lookback::Status* mirror_of(lookback::Status* status, size_t tiles) {
  return status + mirror_offset(tiles);
}

// Block size: reduce squad, one or two scan-store squads, producer and look-ahead warps.
template <unsigned W, unsigned long long MODE>
inline constexpr unsigned kThreads = ((MODE & kDuo   ? 4
                                       : MODE & kTwo ? 3
                                                     : 2) *
                                          W +
                                      2 + (MODE & (kSeq | kPollSep) ? 1 : 0) +
                                      (MODE & kPubWarp ? 1 : 0) + (MODE & kMirror ? 1 : 0)) *
                                     32;

// A status read: LD 0 ld.relaxed.gpu (lookback::peek); 1 ld.global.cg (weak, cached in L2 only);
// 2 ld.volatile.global; 3 ld.global.L1::no_allocate (weak). Only 0 is a strong load that the PTX
// memory model lets a polling loop rely on; the others are for timing (kLdCg, kLdVol, kLdNa).
template <unsigned LD>
__device__ __forceinline__ lookback::Status peek_as(const lookback::Status* p) {
  if constexpr (LD == 0) return lookback::peek(p);
  lookback::Status w;
  if constexpr (LD == 1)
    asm volatile("ld.global.cg.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  else if constexpr (LD == 2)
    asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  else
    asm volatile("ld.global.L1::no_allocate.u64 %0, [%1];" : "=l"(w) : "l"(p) : "memory");
  return w;
}

// lookback::advance_to, sleeping SLEEP ns after every round trip that leaves tiles unpublished;
// counting its round trips in *trips when given (kTrace); reading the statuses as peek_as<LD>.
template <unsigned WIN, unsigned SLEEP, unsigned STRIDE = 1, unsigned LD = 0>
__device__ __forceinline__ void advance_sleep(const lookback::Status* status, size_t tile,
                                              size_t& counted, int32_t& sum,
                                              unsigned long long* trips = nullptr) {
  const unsigned lane = threadIdx.x % 32;
  while (counted < tile) {
    if (trips) ++*trips;
    lookback::Status word[WIN];
#pragma unroll
    for (unsigned j = 0; j < WIN; ++j) {
      const size_t k = counted + 32 * j + lane;
      word[j] = k < tile ? peek_as<LD>(status + k * STRIDE) : 0;
    }
#pragma unroll
    for (unsigned j = 0; j < WIN; ++j) {
      const unsigned ready = __ballot_sync(0xffffffffu, (word[j] >> 32) != lookback::kInvalid);
      const unsigned run = ~ready ? __ffs(~ready) - 1 : 32;
      const uint32_t v = lane < run ? static_cast<uint32_t>(word[j]) : 0u;
      sum += static_cast<int32_t>(__reduce_add_sync(0xffffffffu, v));
      counted += run;
      if (run < 32) break;
    }
    if (SLEEP > 0 && counted < tile) __nanosleep(SLEEP);
  }
}

// kStat32's statuses. The launch fills the workspace with 0x80 bytes: the tile counter starts at
// kEmpty32 (the producer subtracts it), every 4-byte status reads kEmpty32, and every escape word
// reads kEmpty32 too, so a tile's escape bit is set when it differs from kEmpty32's. A tile
// publishes its aggregate with one 4-byte store, or, when the aggregate is kEmpty32 itself, by
// flipping its escape bit (an atomicXor; its status word already holds the value). A status word
// other than kEmpty32 is therefore published; kEmpty32 is published when its escape bit is set.
// A reader that sees the word before the bit, or the bit before nothing, only waits longer: no
// order between the two loads is needed. Half the bytes of lookback::Status, plus one escape
// word (32 tiles) a lane read once a round trip.
inline constexpr uint32_t kEmpty32 = 0x80808080u;
__device__ __forceinline__ uint32_t peek32(const uint32_t* p) {
  uint32_t w;
  asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(w) : "l"(p) : "memory");
  return w;
}
__device__ __forceinline__ void publish32(uint32_t* s32, uint32_t* esc, size_t t, uint32_t v) {
  if (v == kEmpty32)
    atomicXor(esc + t / 32, 1u << (t % 32));
  else
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(s32 + t), "r"(v) : "memory");
}
// One round trip over statuses [from, min(to, from + 32 WIN)): lane l's word[j] is status
// from + 32 j + l, and ready[j] the ballot of those published (0 at and past `to`). ESC: read the
// escape words in the same round trip (lanes 0 to WIN, words from / 32 on); otherwise a word that
// reads kEmpty32 counts as not yet published, and escape_step settles it.
template <unsigned WIN, bool ESC>
__device__ __forceinline__ void window32(const uint32_t* s32, const uint32_t* esc, size_t from,
                                         size_t to, uint32_t (&word)[WIN], unsigned (&ready)[WIN]) {
  static_assert(WIN < 32, "an escape word a lane");
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned j = 0; j < WIN; ++j) {
    const size_t k = from + 32 * j + lane;
    word[j] = k < to ? peek32(s32 + k) : kEmpty32;
  }
  const size_t b0 = from / 32;  // the escape words of [from, from + 32 WIN): b0 ... b0 + WIN
  uint32_t bits = 0;
  if constexpr (ESC)
    bits = lane <= WIN && (b0 + lane) * 32 < to ? peek32(esc + b0 + lane) ^ kEmpty32 : 0u;
  const unsigned pos = unsigned(from % 32) + lane;  // status from + 32 j + lane: bit pos of word j
#pragma unroll
  for (unsigned j = 0; j < WIN; ++j) {
    bool escaped = false;
    if constexpr (ESC) {
      const uint32_t lo = __shfl_sync(0xffffffffu, bits, j),
                     hi = __shfl_sync(0xffffffffu, bits, j + 1);
      escaped = ((pos < 32 ? lo >> pos : hi >> (pos - 32)) & 1u) != 0;
    }
    const size_t k = from + 32 * j + lane;
    ready[j] = __ballot_sync(0xffffffffu, k < to && (word[j] != kEmpty32 || escaped));
  }
}
// Without ESC: a run that stopped at status `counted` (below `to`) ESCN round trips running reads
// that status's escape bit (all lanes, one word); if it is set, the status is published with the
// value kEmpty32, and the run goes on past it. So the escape words, which every block would
// otherwise read at the front each round trip, are read only when a status stays empty.
template <unsigned ESCN>
__device__ __forceinline__ void escape_step(const uint32_t* esc, size_t& counted, size_t to,
                                            size_t& stuck_at, unsigned& stuck, int32_t& sum) {
  if (counted >= to) return;
  if (counted != stuck_at) {
    stuck_at = counted;
    stuck = 1;
    return;
  }
  if (++stuck < ESCN) return;
  stuck = 0;
  if (((peek32(esc + counted / 32) ^ kEmpty32) >> (counted % 32)) & 1u) {
    sum += static_cast<int32_t>(kEmpty32);
    ++counted;
  }
}
// lookback::advance_to on kStat32's statuses.
template <unsigned WIN, bool ESC>
__device__ __forceinline__ void advance32(const uint32_t* s32, const uint32_t* esc, size_t tile,
                                          size_t& counted, int32_t& sum) {
  const unsigned lane = threadIdx.x % 32;
  size_t stuck_at = ~size_t(0);
  unsigned stuck = 0;
  while (counted < tile) {
    uint32_t word[WIN];
    unsigned ready[WIN];
    window32<WIN, ESC>(s32, esc, counted, tile, word, ready);
#pragma unroll
    for (unsigned j = 0; j < WIN; ++j) {
      const unsigned run = ~ready[j] ? __ffs(~ready[j]) - 1 : 32;
      sum += static_cast<int32_t>(__reduce_add_sync(0xffffffffu, lane < run ? word[j] : 0u));
      counted += run;
      if (run < 32) break;
    }
    if constexpr (!ESC) escape_step<4>(esc, counted, tile, stuck_at, stuck, sum);
  }
}

// The last, partial tile's stores: the elements of x that lie below n, from element e on.
__device__ __forceinline__ void store_tail(int32_t* out, size_t n, size_t e, int4 x) {
  if (e + 0 < n) out[e + 0] = x.x;
  if (e + 1 < n) out[e + 1] = x.y;
  if (e + 2 < n) out[e + 2] = x.z;
  if (e + 3 < n) out[e + 3] = x.w;
}

// Grouped statuses (kGroup): besides its own status, each tile adds (1 << 40) + its aggregate (as
// uint32) to the word of its group of G tiles, so a group word holds the group's count of published
// tiles above bit 40 and their sum modulo 2^32 in its low half. The look-ahead takes whole groups
// below `tile` 32 group words a round trip, and the tiles of a group that is not complete one by
// one, as lookback::advance_to does. Same contract as advance_to.
template <unsigned G>
__device__ __forceinline__ void advance_grouped(const lookback::Status* status,
                                                const lookback::Status* group, size_t tile,
                                                size_t& counted, int32_t& sum) {
  const unsigned lane = threadIdx.x % 32;
  while (counted < tile) {
    if (counted % G == 0 && counted + G <= tile) {
      const size_t gend = tile / G, k = counted / G + lane;
      const lookback::Status w = k < gend ? lookback::peek(group + k) : 0;
      const unsigned ready = __ballot_sync(0xffffffffu, k < gend && (w >> 40) == G);
      const unsigned run = ~ready ? __ffs(~ready) - 1 : 32;
      if (run > 0) {
        sum += int32_t(__reduce_add_sync(0xffffffffu, lane < run ? uint32_t(w) : 0u));
        counted += size_t(run) * G;
        continue;
      }
    }
    const size_t end = (counted / G + 1) * G, lim = end < tile ? end : tile, k = counted + lane;
    const lookback::Status w = k < lim ? lookback::peek(status + k) : 0;
    const unsigned ready =
        __ballot_sync(0xffffffffu, k < lim && uint32_t(w >> 32) != lookback::kInvalid);
    const unsigned run = ~ready ? __ffs(~ready) - 1 : 32;
    sum += int32_t(__reduce_add_sync(0xffffffffu, lane < run ? uint32_t(w) : 0u));
    counted += run;
  }
}

// kGroup2's reader, with kGroup's words (groups of 32 tiles). One round trip issues three loads a
// lane together: P1, the statuses from `counted` to the next group boundary (a whole group when
// `counted` is on one); P2, the words of up to 32 whole groups after that, below `tile`; P3, the
// statuses of the partial group that ends at `tile`. It takes P1's run of published statuses; if
// that reaches the boundary, P2's run of complete groups (a word whose count above bit 40 is 32);
// if that reaches P3, P3's run. A part that stops short ends the round trip, and the next starts
// where it stopped (an incomplete group is then read as P1, status by status). Same contract as
// lookback::advance_to.
__device__ __forceinline__ void advance_grouped2(const lookback::Status* status,
                                                 const lookback::Status* group, size_t tile,
                                                 size_t& counted, int32_t& sum) {
  const unsigned lane = threadIdx.x % 32;
  while (counted < tile) {
    const size_t b1 = (counted / 32 + 1) * 32;  // P1: [counted, min(b1, tile))
    const size_t e1 = b1 < tile ? b1 : tile;
    const size_t g0 = b1 / 32, gt = tile / 32;  // whole groups below tile: [g0, gt)
    const size_t g1 = gt < g0 + 32 ? gt : g0 + 32;
    const size_t p3 = gt * 32 > b1 ? gt * 32 : b1;  // P3: [p3, tile), only if g1 == gt
    const size_t k1 = counted + lane, kg = g0 + lane, k3 = p3 + lane;
    const lookback::Status w1 = k1 < e1 ? lookback::peek(status + k1) : 0;
    const lookback::Status wg = kg < g1 ? lookback::peek(group + kg) : 0;
    const lookback::Status w3 = g1 == gt && k3 < tile ? lookback::peek(status + k3) : 0;
    unsigned ready = __ballot_sync(0xffffffffu, k1 < e1 && (w1 >> 32) != lookback::kInvalid);
    unsigned run = ~ready ? __ffs(~ready) - 1 : 32;
    sum += int32_t(__reduce_add_sync(0xffffffffu, lane < run ? uint32_t(w1) : 0u));
    counted += run;
    if (counted < e1 || counted == tile) continue;
    ready = __ballot_sync(0xffffffffu, kg < g1 && (wg >> 40) == 32);
    run = ~ready ? __ffs(~ready) - 1 : 32;
    sum += int32_t(__reduce_add_sync(0xffffffffu, lane < run ? uint32_t(wg) : 0u));
    counted += size_t(run) * 32;
    if (counted < g1 * 32 || g1 != gt || counted != p3) continue;
    ready = __ballot_sync(0xffffffffu, k3 < tile && (w3 >> 32) != lookback::kInvalid);
    run = ~ready ? __ffs(~ready) - 1 : 32;
    sum += int32_t(__reduce_add_sync(0xffffffffu, lane < run ? uint32_t(w3) : 0u));
    counted += run;
  }
}

__device__ __forceinline__ unsigned long long evict_first_policy() {
  unsigned long long p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}

__device__ __forceinline__ void load_hinted(void* dst, const void* src, unsigned bytes,
                                            unsigned long long* bar, unsigned long long policy) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bulk::smem_addr(bar)),
               "r"(bytes)
               : "memory");
  asm volatile(
      "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], "
      "[%1], %2, [%3], %4;" ::"r"(bulk::smem_addr(dst)),
      "l"(src), "r"(bytes), "r"(bulk::smem_addr(bar)), "l"(policy)
      : "memory");
}

__device__ __forceinline__ void store_bulk(void* dst, const void* src, unsigned bytes) {
  asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst),
               "r"(bulk::smem_addr(src)), "r"(bytes)
               : "memory");
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
  asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
}

// kTrace: per block, [0] start, [1] look-ahead end, [2] scan-store end (ns, %globaltimer), [3] the
// look-ahead's status round trips, [4] its claims, [5] ns spent in its round trips.
__device__ unsigned long long g_trace[2048][8];

// Thread-block clusters (the kernel's C > 1): scan/lab/cluster.cuh.
using namespace ladder::lab;

// v15's specialized_kernel (aligned input only), with the MODE bits above.
// THR > 0: the producer claims and loads a tile only once the load THR tiles back has landed, so a
// block keeps at most THR bulk copies in flight while all NS stages still hold landed tiles. With
// kPieces (aligned input) each tile is four bulk copies of a quarter tile, each on its own
// mbarrier, and THR counts quarters: the producer issues a quarter once the quarter THR back has
// landed, a sliding window of THR quarters in flight a block.
// K > 1: one claim takes K consecutive tiles (K consecutive stages), and the statuses and the
// look-ahead are per claim: tile t's status is status[t / K], the claim's aggregate, so the
// look-ahead reads a K-th of the statuses. The reduce warps keep each tile's exclusive sum within
// its claim (tile_excl), which the scan-store adds to the claim's prefix. tiles % K == 0.
// C > 1: the grid runs in clusters of C blocks sharing one look-ahead, rank 0's: each block's
// producer hands its claimed tile numbers to rank 0 (a ring a block in rank 0's shared memory),
// and rank 0's look-ahead warp takes them smallest first, reading every status once for the
// cluster, and writes each prefix into the claiming block's shared memory. A tile below the
// statuses already counted (claimed by another member before, handed over after) takes the
// running sum less the statuses from it to there. So C blocks' look-aheads read the statuses once.
template <unsigned W, unsigned V, unsigned NS, unsigned WIN, unsigned long long MODE,
          unsigned THR = 0, unsigned SLEEP = 0, unsigned K = 1, unsigned CL = 1, unsigned MX = 0,
          unsigned DLY = 0, unsigned DLY_FROM_REDUCE = 0>
__global__ void __launch_bounds__(kThreads<W, MODE>, (MODE & kSeq) ? 2 : 1)
    kernel(const int32_t* __restrict__ in, int32_t* __restrict__ out, size_t n, unsigned tiles,
           unsigned* counter, lookback::Status* status) {
  // CL: the launch's cluster size; C: the blocks sharing a look-ahead (1 with kClusterOnly)
  constexpr unsigned C = (MODE & kClusterOnly) ? 1 : CL;
  constexpr unsigned T = W * 32;
  constexpr unsigned kVecs = T * V;
  constexpr size_t kTileElems = size_t(kVecs) * 4;
  constexpr unsigned kChunks = V * W;
  static_assert(kChunks % 32 == 0 || 32 % kChunks == 0, "chunks a lane, or lanes a chunk");
  constexpr unsigned kPerLane = kChunks >= 32 ? kChunks / 32 : 1;
  extern __shared__ int4 stage_data16[];
  extern __shared__ __align__(128) int4 stage_data128[];
  int4* const stage_data = (MODE & kAlign) ? stage_data128 : stage_data16;
  // kHold: the prefixes hand over through a ring of 2 NS (a freed stage may be claimed again
  // before its tile's prefix is read; the look-ahead stays fewer than 2 NS tiles ahead)
  constexpr unsigned NP = (MODE & kNoWait) ? 256 : (MODE & kHold) ? 2 * NS : NS;
  __shared__ alignas(8) unsigned long long full[NS], claimed[NP], reduced[NS], prefixed[NP],
      empty[NS], piece[NS][4];
  __shared__ unsigned poll_done, poll_last;  // kPollSep: the producer has ended; its last claim
  // kMirror: the producer's ring to the mirror warp, the claimed tiles that end a group of 16 (or
  // the last tile), then the end mark (tiles); written and read count of the ring
  // mir_i: the claim's index; red_done: claims reduced (published), a count the reduce squad keeps
  __shared__ unsigned mir_t[64], mir_i[64], mir_w, mir_r, red_done;
  __shared__ unsigned long long red_time[NS];  // DLY_FROM_REDUCE: when the stage's tile was reduced
  // kPollBulk: the window's bulk copy lands here, on `poll_bar`
  __shared__ alignas(128) lookback::Status poll_buf[(MODE & kPollBulk) ? 32 * WIN : 1];
  __shared__ alignas(8) unsigned long long poll_bar;
  // kPubWarp: the ring from the reduce squad to the publishing warp, a slot a stage: the tile, its
  // aggregate, the slot's sequence (tile index i + 1 once posted) and the publisher's receipt
  __shared__ unsigned pub_t[NS], pub_seq[NS], pub_ack[NS];
  __shared__ int32_t pub_v[NS];
  // kPartner*: the SM of every block
  __shared__ unsigned
      sm_of[(MODE & (kPartnerSame | kPartnerNear | kPartnerFar | kPartnerNext)) ? 1024 : 1];
  __shared__ unsigned tile_of[NS], look_tile[NP];  // look_tile: the look-ahead's, a ring of NP
  __shared__ int32_t chunk_prefix[NS][kChunks];
  __shared__ int32_t tile_prefix[NP];
  __shared__ int32_t tile_excl[NS];  // K > 1: the tile's exclusive sum within its claim
  // C > 1, used in rank 0: member m's claimed tiles, a ring of NP, and their barriers
  __shared__ unsigned look_c[C][NP];
  __shared__ alignas(8) unsigned long long claimed_c[C][NP];
  static_assert(C == 1 || (K == 1 && !(MODE & (kLate | kGroup | kStatic | kTwo | kDuo | kPrepub))),
                "C > 1 with the plain forms only");
  static_assert(C == 1 || NP == NS || (MODE & kStream), "C > 1 with kHold: kStream only");
  static_assert(!(MODE & kHandLate) || (MODE & kStream), "kHandLate: kStream only");
  static_assert(NS % K == 0, "a claim's stages");
  static_assert(!(MODE & kSeq) ||
                    (C == 1 && K == 1 &&
                     !(MODE & (kDuo | kGroup | kLate | kPrepub | kRep4 | kRep16 | kPad4 | kPad16))),
                "kSeq with the plain forms only");
  static_assert(K == 1 || !(MODE & (kHold | kLate | kGroup | kStatic | kNoReduce | kTwo)),
                "K > 1 with the plain forms only");
  static_assert(
      !(MODE & kStat32) || (K == 1 && kReps<MODE> == 1 && kStride<MODE> == 1 &&
                            !(MODE & (kSeq | kGroup | kGroup2 | kPrepub | kTrace | kNoReduce)) &&
                            (C == 1 || (MODE & kStream)) && SLEEP == 0),
      "kStat32 with the plain forms and kStream only");
  // kStat32: the 4-byte statuses, then the escape words from the next multiple of 32 tiles
  uint32_t* const s32 = reinterpret_cast<uint32_t*>(status);
  uint32_t* const esc = s32 + ((size_t(tiles) + 31) / 32) * 32;
  constexpr unsigned NC = NP / K;  // the claims' ring (look_tile, claimed, prefixed, tile_prefix)
  const unsigned claims = tiles / K;
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  // reduce squads, scan-store squads (each takes alternate tiles when there are two)
  constexpr unsigned kRed = MODE & kDuo ? 2 : 1, kSquads = MODE & (kTwo | kDuo) ? 2 : 1;
  constexpr unsigned kProducer = (kRed + kSquads) * W;
  constexpr unsigned KC = MODE & kDuo ? 2 : K;  // tiles an atomic claim
  static_assert(!(MODE & kDuo) || K == 1, "kDuo keeps a status a tile");
  if (threadIdx.x == 0) {
    poll_done = 0;
    poll_last = 0;
    mir_w = mir_r = red_done = 0;
    if (MODE & kPollBulk) bulk::barrier_init(&poll_bar, 1);
    for (unsigned s = 0; s < NS; ++s) pub_seq[s] = pub_ack[s] = 0;
    for (unsigned s = 0; s < NS; ++s) {
      for (unsigned q = 0; q < 4; ++q) bulk::barrier_init(&piece[s][q], 1);
      bulk::barrier_init(&full[s], 32);
      bulk::barrier_init(&claimed[s], 1);
      bulk::barrier_init(&reduced[s], 32);
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&empty[s], T);
    }
    for (unsigned s = NS; s < NP; ++s) {
      bulk::barrier_init(&prefixed[s], 1);
      bulk::barrier_init(&claimed[s], 1);
    }
    if (C > 1)
      for (unsigned m = 0; m < C; ++m)
        for (unsigned s = 0; s < NP; ++s) {
          bulk::barrier_init(&claimed_c[m][s], 1);
          if (MODE & kStAsync) arm4(&claimed_c[m][s]);  // the first claim of each slot
        }
  }
  __syncthreads();
  if constexpr (C > 1) cluster_sync();  // every member's barriers initialized
  if ((MODE & kTrace) && threadIdx.x == 0) g_trace[blockIdx.x][0] = globaltimer_ns();
  const unsigned rank = C > 1 ? cluster_rank() : 0;
  if (warp == kProducer) {
    unsigned long long policy = 0;
    if constexpr (MODE & kEvict) policy = evict_first_policy();
    unsigned claim = 0;
    for (unsigned i = 0;; ++i) {
      const unsigned s = i % NS, round = i / NS;
      if (round > 0) bulk::wait(&empty[s], (round - 1) & 1);
      if constexpr (THR > 0 && !(MODE & kPieces)) {
        if (i >= THR) bulk::wait(&full[(i - THR) % NS], ((i - THR) / NS) & 1);
      }
      unsigned t = 0;
      if constexpr (MODE & kStatic) {
        t = blockIdx.x + i * gridDim.x;
      } else {
        if (i % KC == 0) {
          if (lane == 0) claim = atomicAdd(counter, 1u) - ((MODE & kStat32) ? kEmpty32 : 0u);
          claim = __shfl_sync(0xffffffffu, claim, 0);
        }
        t = claim * KC + i % KC >= tiles ? tiles : claim * KC + i % KC;
      }
      if (C > 1 && lane == 0) {
        tile_of[s] = t;
        if constexpr (MODE & kHandLate) {
          // the reduce squad hands the claim over
        } else if constexpr (MODE & kStAsync) {
          if (t < tiles) arm4(&prefixed[i % NP]);  // the prefix the look-ahead will send
          send_async(&look_c[rank][i % NP], &claimed_c[rank][i % NP], 0, t);
        } else {
          store_remote(&look_c[rank][s], 0, t);
          arrive_remote(&claimed_c[rank][s], 0);
        }
      } else if (lane == 0) {
        tile_of[s] = t;
        if (MODE & kPollSep) *static_cast<volatile unsigned*>(&poll_last) = t;
        if ((MODE & kMirror) && (t >= tiles || t % 16 == 15 || t == tiles - 1)) {
          const unsigned w = *static_cast<volatile unsigned*>(&mir_w);
          while (w - *static_cast<volatile unsigned*>(&mir_r) >= 64) {
          }
          *static_cast<volatile unsigned*>(&mir_t[w % 64]) = t;
          *static_cast<volatile unsigned*>(&mir_i[w % 64]) = i;
          __threadfence_block();
          *static_cast<volatile unsigned*>(&mir_w) = w + 1;
        }
        if (i % K == 0) {
          look_tile[(i / K) % NC] = K == 1 ? t : claim;
          bulk::arrive(&claimed[(i / K) % NC]);
        }
      }
      if (t >= tiles) {
        if ((MODE & kPollSep) && lane == 0) *static_cast<volatile unsigned*>(&poll_done) = 1;
        bulk::arrive(&full[s]);
        if constexpr (MODE & (kTwo | kDuo)) {  // a second end marker, for the other squads
          const unsigned s2 = (i + 1) % NS, r2 = (i + 1) / NS;
          if (r2 > 0) bulk::wait(&empty[s2], (r2 - 1) & 1);
          if (lane == 0) {
            tile_of[s2] = tiles;
            look_tile[(i + 1) % NP] = tiles;
            bulk::arrive(&claimed[(i + 1) % NP]);
          }
          bulk::arrive(&full[s2]);
        }
        break;
      }
      const size_t base = size_t(t) * kTileElems;
      int4* dst = stage_data + size_t(s) * kVecs;
      if constexpr (MODE & kPieces) {
        if (base + kTileElems <= n) {
          for (unsigned q = 0; q < 4; ++q) {
            if constexpr (THR > 0) {
              const unsigned g = 4 * i + q;
              if (g >= THR) {
                const unsigned h = g - THR;
                bulk::wait(&piece[(h / 4) % NS][h % 4], ((h / 4) / NS) & 1);
              }
            }
            if (lane == 0)
              bulk::load(dst + q * (kVecs / 4), in + base + q * (kTileElems / 4),
                         unsigned(kVecs * 4), &piece[s][q]);
          }
        } else {
          int32_t* d = reinterpret_cast<int32_t*>(dst);
          for (size_t k = lane; k < kTileElems; k += 32) d[k] = base + k < n ? in[base + k] : 0;
          bulk::fence_proxy_async_shared();
          if (lane < 4) bulk::arrive(&piece[s][lane]);
        }
        bulk::arrive(&full[s]);
      } else if (base + kTileElems <= n) {
        if (lane == 0) {
          if constexpr (MODE & kEvict)
            load_hinted(dst, in + base, unsigned(kVecs * 16), &full[s], policy);
          else
            bulk::load(dst, in + base, unsigned(kVecs * 16), &full[s]);
        } else {
          bulk::arrive(&full[s]);
        }
      } else {
        int32_t* d = reinterpret_cast<int32_t*>(dst);
        for (size_t k = lane; k < kTileElems; k += 32) d[k] = base + k < n ? in[base + k] : 0;
        bulk::fence_proxy_async_shared();
        bulk::arrive(&full[s]);
      }
    }
  } else if (warp == kProducer + 1 && C > 1 && (MODE & kStream)) {
    static_assert(!(MODE & kStream) || (MODE & kStAsync), "kStream hands over by st.async");
    if (rank == 0) {  // the cluster's look-ahead: a round trip serves every member's waiting claim
      unsigned next[C] = {};
      unsigned live = (1u << C) - 1;
      size_t counted = 0;
      int32_t sum = 0;
      [[maybe_unused]] size_t stuck_at = ~size_t(0);  // kEscLazy: escape_step's
      [[maybe_unused]] unsigned stuck = 0;
      while (live) {
        // each member's oldest unanswered claim (lane m tests member m): its tile, ~0u if none yet
        unsigned h = ~0u;
#pragma unroll
        for (unsigned m = 0; m < C; ++m)
          if (lane == m && ((live >> m) & 1) &&
              test_local(&claimed_c[m][next[m] % NP], (next[m] / NP) & 1))
            h = *static_cast<volatile unsigned*>(&look_c[m][next[m] % NP]);
        unsigned head[C];
        bool any = false;
        size_t hi = 0;
#pragma unroll
        for (unsigned m = 0; m < C; ++m) {
          head[m] = __shfl_sync(0xffffffffu, h, m);
          if (head[m] == ~0u) continue;
          if (head[m] >= tiles || head[m] < counted) {  // an end marker, or a tile already passed
            if (head[m] < tiles) {  // every status in [head, counted) is published
              uint32_t back = 0;
              for (size_t k = head[m] + lane; k < counted; k += 32)
                back += (MODE & kStat32) ? peek32(s32 + k) : uint32_t(lookback::peek(status + k));
              const int32_t p = sum - int32_t(__reduce_add_sync(0xffffffffu, back));
              if (lane == 0) {
                arm4(&claimed_c[m][next[m] % NP]);
                send_async(&tile_prefix[next[m] % NP], &prefixed[next[m] % NP], m, uint32_t(p));
              }
            } else {
              live &= ~(1u << m);
            }
            ++next[m];
            head[m] = ~0u;
            continue;
          }
          any = true;
          hi = hi > head[m] ? hi : size_t(head[m]);
        }
        if (!any) continue;
        // one round trip: the statuses from `counted` up to the highest waiting claim
        uint32_t word[WIN];
        unsigned rdy[WIN];
        if constexpr (MODE & kStat32) {
          window32<WIN, !(MODE & kEscLazy)>(s32, esc, counted, hi, word, rdy);
        } else {
          lookback::Status w64[WIN];
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j) {
            const size_t k = counted + 32 * j + lane;
            w64[j] = k < hi ? lookback::peek(status + k) : 0;
          }
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j) {
            word[j] = uint32_t(w64[j]);
            rdy[j] = __ballot_sync(0xffffffffu, uint32_t(w64[j] >> 32) != lookback::kInvalid);
          }
        }
        unsigned len = 0;  // statuses published without a gap from `counted`
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) {
          const unsigned ready = rdy[j];
          const unsigned run = ~ready ? __ffs(~ready) - 1 : 32;
          len += run;
          if (run < 32) break;
        }
#pragma unroll
        for (unsigned m = 0; m < C; ++m) {  // answer each claim the run reaches
          if (head[m] == ~0u || head[m] > counted + len) continue;
          const unsigned below = unsigned(head[m] - counted);
          uint32_t part = 0;
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j)
            if (32 * j + lane < below) part += uint32_t(word[j]);
          const int32_t p = sum + int32_t(__reduce_add_sync(0xffffffffu, part));
          if (lane == 0) {
            arm4(&claimed_c[m][next[m] % NP]);
            send_async(&tile_prefix[next[m] % NP], &prefixed[next[m] % NP], m, uint32_t(p));
          }
          ++next[m];
        }
        uint32_t all = 0;
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j)
          if (32 * j + lane < len) all += uint32_t(word[j]);
        sum += int32_t(__reduce_add_sync(0xffffffffu, all));
        counted += len;
        // kEscLazy: settle a status that stays empty (missing from the forms timed in session 22's
        // call 3, whose cluster form therefore read no escape word and hung on the escape input)
        if constexpr ((MODE & kStat32) && (MODE & kEscLazy))
          escape_step<4>(esc, counted, hi, stuck_at, stuck, sum);
        if (SLEEP > 0 && len < 32 * WIN && counted < hi) __nanosleep(SLEEP);  // stopped short
      }
    }
  } else if (warp == kProducer + 1 && C > 1) {
    if (rank == 0) {  // the cluster's look-ahead
      unsigned next[C] = {};
      unsigned live = (1u << C) - 1;
      size_t counted = 0;
      int32_t sum = 0;
      while (live) {
        unsigned best = C, bt = ~0u;  // lane 0 tests, the warp follows
        if (lane == 0) {
          for (unsigned m = 0; m < C; ++m) {
            if (!((live >> m) & 1)) continue;
            const bool ready = (MODE & kStAsync)
                                   ? test_local(&claimed_c[m][next[m] % NS], (next[m] / NS) & 1)
                                   : test_cluster(&claimed_c[m][next[m] % NS], (next[m] / NS) & 1);
            if (ready) {
              const unsigned t = *static_cast<volatile unsigned*>(&look_c[m][next[m] % NS]);
              if (t < bt) bt = t, best = m;
            }
          }
        }
        best = __shfl_sync(0xffffffffu, best, 0);
        bt = __shfl_sync(0xffffffffu, bt, 0);
        if (best == C) continue;
        const unsigned i = next[best]++;
        if ((MODE & kStAsync) && lane == 0) arm4(&claimed_c[best][i % NS]);  // its next claim
        if (bt >= tiles) {
          live &= ~(1u << best);
          continue;
        }
        int32_t p;
        if (bt >= counted) {
          if constexpr (!(MODE & (kCopy | kNoLook)))
            lookback::advance_to<WIN>(status, bt, counted, sum);
          p = sum;
        } else {  // every status in [bt, counted) is published
          uint32_t back = 0;
          for (size_t k = bt + lane; k < counted; k += 32)
            back += uint32_t(lookback::peek(status + k));
          p = sum - int32_t(__reduce_add_sync(0xffffffffu, back));
        }
        if (lane == 0) {
          if constexpr (MODE & kStAsync) {
            send_async(&tile_prefix[i % NS], &prefixed[i % NS], best, uint32_t(p));
          } else {
            store_remote(&tile_prefix[i % NS], best, uint32_t(p));
            arrive_remote(&prefixed[i % NS], best);
          }
        }
      }
    }
  } else if (warp == kProducer + 1) {
    size_t counted = 0;
    int32_t sum = 0;
    unsigned long long trips = 0, nclaims = 0, in_trips = 0;  // kTrace
    constexpr bool kPoll = (MODE & (kPollShared | kPollPrivate | kPollMove)) && !(MODE & kPollSep);
    static_assert(!kPoll || ((MODE & kCopy) && C == 1 && K == 1), "kPoll*: with kCopy only");
    size_t last = 0;              // kPollMove: the block's last claim
    uint32_t acc = 0;             // kPoll*: what the polls read, kept live
    for (unsigned i = 0;; ++i) {  // K > 1: i counts claims
      const unsigned s = i % NS, round = i / NS;
      if constexpr (kPoll) {  // one round trip as the look-ahead's, until the claim has come
        const size_t from = (MODE & kPollShared) ? 0
                            : (MODE & kPollPrivate)
                                ? size_t(blockIdx.x) * 32 * WIN + ((MODE & kPollFar) ? 1u << 20 : 0)
                                : last;
        if ((MODE & kPollDirty) && i == 0) {  // the block writes its own lines once, first
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j)
            lookback::publish(status + from + 32 * j + lane, lookback::kAggregate, 0);
        }
        do {
          lookback::Status word[WIN];
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j)
            word[j] = lookback::peek(status + from + 32 * j + lane);
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j) acc += uint32_t(word[j]) + uint32_t(word[j] >> 32);
        } while (!test_local(&claimed[i % NC], (i / NC) & 1));
      }
      bulk::wait(&claimed[i % NC], (i / NC) & 1);
      const size_t t = look_tile[i % NC];
      if (t >= claims) {
        if (kPoll && acc == 0x9e3779b9u) g_trace[blockIdx.x][6] = acc;  // never, in practice
        break;
      }
      last = t;
      // kLate waits on the stage's barriers: only without kHold, where the stage cannot move on
      // to its next round before this warp's prefix for it
      static_assert(!((MODE & kLate) && (MODE & kHold)), "kLate with kHold may miss the phase");
      if constexpr (MODE & kLate) {       // start once the tile itself has landed
        if constexpr (MODE & kLateRed) {  // ... or been reduced
          bulk::wait(&reduced[s], round & 1);
        } else if constexpr (MODE & kPieces) {
          for (unsigned q = 0; q < 4; ++q) bulk::wait(&piece[s][q], round & 1);
        } else {
          bulk::wait(&full[s], round & 1);
        }
      }
      // DLY (with kLate and kLateRed): the look-ahead reads nothing until DLY ns after its own
      // tile is reduced (%globaltimer), so that the statuses below it, published about then, are
      // that much older when read. DLY_FROM_REDUCE 0 (session 24's call 7): DLY ns from the end of
      // the wait above, so a look-ahead that is behind adds the whole DLY to every claim; 1: until
      // DLY ns after the time the reduce squad recorded (red_time), which a late look-ahead may
      // have passed already
      static_assert(DLY == 0 || ((MODE & kLate) && (MODE & kLateRed) && C == 1 && K == 1),
                    "DLY: with kLate and kLateRed");
      if constexpr (DLY > 0) {
        const unsigned long long t0 = DLY_FROM_REDUCE ? red_time[s] : globaltimer_ns();
        while (globaltimer_ns() - t0 < DLY) __nanosleep(100);
      }
      if constexpr ((MODE & (kProbeLast | kProbeNap)) && !(MODE & (kCopy | kNoLook))) {
        // poll the one status t - 1 (one sector a warp) until it is published, then read the run
        if (t > counted)
          while ((lookback::peek(status + t - 1) >> 32) == lookback::kInvalid)
            if (MODE & kProbeNap) __nanosleep(100);
      }
      if constexpr ((MODE & kStat32) && !(MODE & (kCopy | kNoLook))) {
        advance32<WIN, !(MODE & kEscLazy)>(s32, esc, t, counted, sum);
      } else if constexpr (MODE & kSeq) {  // the sequencer overwrites the aggregate with the prefix
        // this block has published the aggregate (kNoWait, kHold: a freed stage may run a round
        // ahead, so those poll from the claim)
        if constexpr (!(MODE & (kNoWait | kHold | kSeqEarly))) bulk::wait(&reduced[s], round & 1);
        if (lane == 0) {
          lookback::Status w;
          while (((w = lookback::peek(status + t)) >> 32) != lookback::kPrefix)
            if (SLEEP > 0) __nanosleep(SLEEP);
          sum = int32_t(uint32_t(w));
        }
      } else if constexpr (MODE & kGroup2)
        advance_grouped2(status, status + tiles, t, counted, sum);
      else if constexpr (MODE & kGroup)
        advance_grouped<32>(status, status + tiles, t, counted, sum);
      else if constexpr (SLEEP > 0 || kStride<MODE> > 1 || (MODE & (kLdCg | kLdVol | kLdNa)))
        advance_sleep<WIN, SLEEP, kStride<MODE>,
                      (MODE & kLdCg)    ? 1u
                      : (MODE & kLdVol) ? 2u
                      : (MODE & kLdNa)  ? 3u
                                        : 0u>(status, t, counted, sum);
      else if constexpr ((MODE & kTrace) && !(MODE & (kCopy | kNoLook))) {
        const unsigned long long t0 = globaltimer_ns();
        advance_sleep<WIN, 0>(status, t, counted, sum, &trips);
        in_trips += globaltimer_ns() - t0;
        ++nclaims;
      } else if constexpr ((MODE & kMirror) && !(MODE & (kCopy | kNoLook | kMirrorIdle)))
        lookback::advance_to<WIN>(mirror_of(status, tiles), t, counted, sum);
      else if constexpr (!(MODE & (kCopy | kNoLook | kSeq)))
        lookback::advance_to<WIN>(status + (blockIdx.x % kReps<MODE>)*rep_stride<MODE>(tiles), t,
                                  counted, sum);
      if (lane == 0) {
        tile_prefix[i % NC] = sum;
        bulk::arrive(&prefixed[i % NC]);
      }
    }
    if ((MODE & kTrace) && lane == 0) {
      g_trace[blockIdx.x][1] = globaltimer_ns();
      g_trace[blockIdx.x][3] = trips;
      g_trace[blockIdx.x][4] = nclaims;
      g_trace[blockIdx.x][5] = in_trips;
    }
  } else if ((MODE & kPollSep) && warp == kProducer + 2) {
    // kPollSep: the synthetic look-ahead's round trips, gating nothing
    uint32_t acc = 0;
    static_assert(!(MODE & (kPollSelfMid | kPollNextMid)) ||
                      ((MODE & kPollPrivate) && (MODE & kPollFar) && !(MODE & kPollWrite)),
                  "kPollSelfMid, kPollNextMid: private windows far from the statuses");
    unsigned target = (MODE & kPollNextMid) ? (blockIdx.x + 1) % gridDim.x : blockIdx.x;
    constexpr unsigned long long kPartner =
        kPartnerSame | kPartnerNear | kPartnerFar | kPartnerNext;
    if constexpr (MODE & kPartner) {
      static_assert((MODE & kPollNextMid) && (MODE & kPollTrickle), "kPartner*: trickled windows");
      volatile unsigned long long* const tab =
          reinterpret_cast<volatile unsigned long long*>(status + (1u << 22));
      unsigned smid;
      asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
      if (lane == 0) tab[blockIdx.x] = smid + 1;
      for (unsigned j = lane; j < gridDim.x; j += 32) {
        unsigned long long v;
        while ((v = tab[j]) == 0) {
        }
        sm_of[j] = unsigned(v - 1);
      }
      __syncwarp();
      const unsigned nb = gridDim.x, nsm = nb / 2;
      const auto rank_of = [&](unsigned s) {  // blocks on lower SMs, over two
        unsigned c = 0;
        for (unsigned j = 0; j < nb; ++j) c += sm_of[j] < s;
        return c / 2;
      };
      const auto slot_of = [&](unsigned b) {  // blocks of lower index on b's SM
        unsigned c = 0;
        for (unsigned j = 0; j < b; ++j) c += sm_of[j] == sm_of[b];
        return c;
      };
      unsigned on_mine = 0;
      for (unsigned j = 0; j < nb; ++j) on_mine += sm_of[j] == smid;
      const unsigned r = rank_of(smid), slot = slot_of(blockIdx.x);
      const unsigned want_rank = (MODE & kPartnerNear)  ? (r ^ 1u)
                                 : (MODE & kPartnerFar) ? (r + nsm / 2) % nsm
                                                        : r;
      const unsigned want_slot = (MODE & kPartnerSame) ? 1u - slot : slot;
      unsigned found = ~0u;
      if (MODE & kPartnerNext) {
        found = (blockIdx.x + 1) % nb;
      } else {
        for (unsigned j = lane; j < nb; j += 32)
          if (rank_of(sm_of[j]) == want_rank && slot_of(j) == want_slot) found = j;
#pragma unroll
        for (unsigned o = 16; o > 0; o /= 2) found = min(found, __shfl_xor_sync(~0u, found, o));
      }
      if (on_mine != 2 || nb % 2 != 0 || found >= nb || (want_rank >= nsm)) {
        if (lane == 0)
          printf("block %u: no partner (SM %u has %u blocks)\n", blockIdx.x, smid, on_mine);
        found = nb + blockIdx.x;  // a window nobody polls
      }
      target = found;
    }
    bool wrote = !(MODE & (kPollSelfMid | kPollNextMid));
    unsigned seen = ~0u, word_next = 0;  // kPollTrickle: the last claim seen, the next word
    unsigned polls = 0;                  // kPollBulk: the bulk copies waited for (the parity)
    while (!*static_cast<volatile unsigned*>(&poll_done)) {
      lookback::Status* const window = status + size_t(target) * 32 * WIN + (1u << 20);
      if ((MODE & kPollTrickle) && (MODE & (kPollSelfMid | kPollNextMid))) {
        const unsigned last = *static_cast<volatile unsigned*>(&poll_last);
        if (last != seen) {  // one word of the window, each time the block's last claim moves
          seen = last;
          if (lane == 0) lookback::publish(window + word_next, lookback::kAggregate, 0);
          word_next = (word_next + 1) % (32 * WIN);
        }
      } else if (!wrote && *static_cast<volatile unsigned*>(&poll_last) >= 32 * WIN * target) {
        wrote = true;  // the window `target` polls, written once
        if (MODE & kPollMany) {
          if (lane == 0)
            for (unsigned k = 0; k < 32 * WIN; ++k)
              lookback::publish(window + k, lookback::kAggregate, 0);
          __syncwarp();
        } else {
#pragma unroll
          for (unsigned j = 0; j < WIN; ++j)
            lookback::publish(window + 32 * j + lane, lookback::kAggregate, 0);
        }
      }
      const size_t from = (MODE & kPollShared) ? 0
                          : (MODE & kPollPrivate)
                              ? size_t(blockIdx.x) * 32 * WIN + ((MODE & kPollFar) ? 1u << 20 : 0)
                              : size_t(*static_cast<volatile unsigned*>(&poll_last));
      lookback::Status word[WIN];
      if constexpr (MODE & kPollBulk) {  // one bulk copy of the window, then read from shared
        static_assert(!(MODE & kPollMove), "kPollBulk: fixed windows (16-byte aligned)");
        if (lane == 0)
          bulk::load(poll_buf, status + from, 32 * WIN * sizeof(lookback::Status), &poll_bar);
        bulk::wait(&poll_bar, polls & 1);
        ++polls;
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) word[j] = poll_buf[32 * j + lane];
        __syncwarp();  // every lane has read the buffer before lane 0 refills it
      } else {
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) word[j] = lookback::peek(status + from + 32 * j + lane);
      }
#pragma unroll
      for (unsigned j = 0; j < WIN; ++j) acc += uint32_t(word[j]) + uint32_t(word[j] >> 32);
    }
    if (acc == 0x9e3779b9u) g_trace[blockIdx.x][7] = acc;  // never, in practice
  } else if ((MODE & kMirror) && warp == kProducer + 2) {
    // kMirror: for each group end its block claimed, in claim order, wait until the group's
    // statuses are all published, then copy them to the mirror's line in one warp store. Every wait
    // ends: a claimed tile's aggregate waits only on its own bulk copy, and a group's tiles are
    // all claimed once its last is.
    static_assert(
        !(MODE & kMirror) || (C == 1 && K == 1 && kRed == 1 && kSquads == 1 && kReps<MODE> == 1 &&
                              kStride<MODE> == 1 &&
                              !(MODE & (kStat32 | kSeq | kGroup | kGroup2 | kPollSep | kPubWarp |
                                        kTrace | kNoReduce | kHold | kStatic))),
        "kMirror with the plain forms only");
    lookback::Status* const mirror = mirror_of(status, tiles);
    for (unsigned r = 0;; ++r) {
      unsigned t = 0, i = 0;
      if (lane == 0) {
        while (*static_cast<volatile unsigned*>(&mir_w) == r) {
        }
        __threadfence_block();
        t = *static_cast<volatile unsigned*>(&mir_t[r % 64]);
        i = *static_cast<volatile unsigned*>(&mir_i[r % 64]);
        *static_cast<volatile unsigned*>(&mir_r) = r + 1;
      }
      t = __shfl_sync(0xffffffffu, t, 0);
      i = __shfl_sync(0xffffffffu, i, 0);
      if (t >= tiles) break;
      if (MODE & kMirrorLate) {  // until claim i's aggregate is published
        if (lane == 0)
          while (*static_cast<volatile unsigned*>(&red_done) <= i) {
          }
        __syncwarp();
      }
      if constexpr (MODE & kMirrorBare) continue;
      const size_t base = size_t(t) / 16 * 16;
      // MX 3, 4, 5 (polls only): every status of the group but the block's own tile's (t, which
      // its reduce squad has just stored), that one alone, or those of the group's first line
      // alone (statuses 16 g to 16 g + 13: the group starts 16 bytes past a line, so the last two
      // share the next line with the following group)
      // MX 6: as 4, every other group (g even) only; MX 7, 8: as 4, 500 or 2,000 ns after the
      // reduce (one __nanosleep, which PTX lets last up to twice as long)
      if constexpr (MX == 6)
        if ((t / 16) % 2) continue;
      if constexpr (MX == 7) __nanosleep(500);
      if constexpr (MX == 8) __nanosleep(2000);
      const bool mine = lane < 16 && base + lane < tiles &&
                        (MX == 3                         ? base + lane != t
                         : MX == 4 || MX == 6 || MX >= 7 ? base + lane == t
                         : MX == 5                       ? lane < 14
                                                         : true);
      lookback::Status w = 0;
      // MX (with kMirrorIdle): 1 polls the group's statuses and stores nothing, 2 stores the
      // mirror's line (zeros) without polling (the parts of the mirror warp's cost)
      static_assert(MX == 0 || (MODE & kMirrorIdle), "MX: with kMirrorIdle");
      for (; MX != 2;) {
        if (mine) w = lookback::peek(status + base + lane);
        if (__all_sync(0xffffffffu, !mine || (w >> 32) != lookback::kInvalid)) break;
        if (MODE & kMirrorNap) __nanosleep(100);
      }
      if (mine && MX != 1 && MX < 3)
        lookback::publish(mirror + base + lane, lookback::kAggregate, uint32_t(w));
    }
  } else if ((MODE & kPubWarp) && warp == kProducer + 2 + ((MODE & kPollSep) ? 1 : 0)) {
    // kPubWarp: publish each posted aggregate, in claim order, until the end mark (t >= tiles)
    if (lane == 0) {
      for (unsigned i = 0;; ++i) {
        const unsigned s = i % NS;
        while (*static_cast<volatile unsigned*>(&pub_seq[s]) != i + 1) {
        }
        __threadfence_block();
        const unsigned t = *static_cast<volatile unsigned*>(&pub_t[s]);
        const int32_t v = *static_cast<volatile int32_t*>(&pub_v[s]);
        if (t >= tiles) break;
        lookback::publish(status + t, lookback::kAggregate, v);
        *static_cast<volatile unsigned*>(&pub_ack[s]) = i + 1;
      }
    }
  } else if ((MODE & kSeq) && warp == kProducer + 2) {
    // kSeq: the sequencer, in the first block whose warp gets here, so in a running block. Every
    // wait ends, by induction on the tiles: claims are taken in order, a producer takes a stage
    // before it claims, and a claimed tile's aggregate waits only on its own bulk copy; so the
    // tiles below the lowest unclaimed one are all published, the sequencer turns them into
    // prefixes, and the stages they hold are freed for the next claims.
    unsigned first = 0;
    if (lane == 0) first = atomicAdd(counter + 1, 1u);  // the workspace header's second word
    if (__shfl_sync(0xffffffffu, first, 0) == 0) {
      size_t counted = 0;  // statuses [0, counted) hold their exclusive prefixes
      int32_t sum = 0;     // the sum of the aggregates of tiles [0, counted)
      while ((MODE & kSeqIlp) && counted < tiles) {
        // the windows as below, but their ballots and warp scans independent of one another (no
        // early exit), so that they overlap: one scan's latency a round trip, not WIN of them
        lookback::Status word[WIN];
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) {
          const size_t k = counted + 32 * j + lane;
          word[j] = k < tiles ? lookback::peek(status + k) : 0;
        }
        unsigned full_windows = WIN, ready_last = 0;  // windows wholly published, from the first
#pragma unroll
        for (int j = WIN - 1; j >= 0; --j) {
          const unsigned ready = __ballot_sync(0xffffffffu, (word[j] >> 32) != lookback::kInvalid);
          if (ready != 0xffffffffu) {
            full_windows = unsigned(j);
            ready_last = ready;
          }
        }
        const unsigned run = full_windows == WIN ? 0 : __ffs(~ready_last) - 1;  // in window `full`
        int32_t v[WIN], incl[WIN];
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) {
          const bool in_run = j < full_windows || (j == full_windows && lane < run);
          v[j] = in_run ? int32_t(uint32_t(word[j])) : 0;
          incl[j] = v09::scan_warp(v[j]);
        }
        int32_t base = sum;
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) {
          const bool in_run = j < full_windows || (j == full_windows && lane < run);
          if (in_run)
            lookback::publish(status + counted + 32 * j + lane, lookback::kPrefix,
                              base + incl[j] - v[j]);
          base += __shfl_sync(0xffffffffu, incl[j], 31);
        }
        sum = base;
        counted += size_t(32) * full_windows + run;
      }
      while ((MODE & kSeqBlocked) && counted < tiles) {
        // lane l holds statuses counted + l WIN ... + WIN - 1: one ballot and one warp scan a
        // round trip, whatever WIN (the loop below takes a ballot and a scan for each 32)
        lookback::Status word[WIN];
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) {
          const size_t k = counted + size_t(lane) * WIN + j;
          word[j] = k < tiles ? lookback::peek(status + k) : 0;
        }
        unsigned mine = WIN;  // this lane's first unpublished status (WIN: none)
#pragma unroll
        for (int j = WIN - 1; j >= 0; --j)
          if ((word[j] >> 32) == lookback::kInvalid) mine = unsigned(j);
        const unsigned stops = __ballot_sync(0xffffffffu, mine < WIN);
        const unsigned first_stop = stops ? __ffs(stops) - 1 : 32;  // the lane the run ends in
        const unsigned cnt = lane < first_stop ? WIN : lane == first_stop ? mine : 0;
        int32_t part = 0;
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j)
          if (j < cnt) part += int32_t(uint32_t(word[j]));
        const int32_t incl = v09::scan_warp(part);
        int32_t run = sum + incl - part;
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j)
          if (j < cnt) {
            lookback::publish(status + counted + size_t(lane) * WIN + j, lookback::kPrefix, run);
            run += int32_t(uint32_t(word[j]));
          }
        sum += __shfl_sync(0xffffffffu, incl, 31);
        counted += first_stop == 32
                       ? size_t(32) * WIN
                       : size_t(first_stop) * WIN + __shfl_sync(0xffffffffu, mine, first_stop);
      }
      while (!(MODE & (kSeqBlocked | kSeqIlp)) && counted < tiles) {
        lookback::Status word[WIN];
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) {
          const size_t k = counted + 32 * j + lane;
          word[j] = k < tiles ? lookback::peek(status + k) : 0;
        }
#pragma unroll
        for (unsigned j = 0; j < WIN; ++j) {  // window j covers [counted, counted + 32) here
          const unsigned ready = __ballot_sync(0xffffffffu, (word[j] >> 32) != lookback::kInvalid);
          const unsigned run = ~ready ? __ffs(~ready) - 1 : 32;
          const int32_t v = lane < run ? int32_t(uint32_t(word[j])) : 0;
          const int32_t incl = v09::scan_warp(v);
          if (lane < run)
            lookback::publish(status + counted + lane, lookback::kPrefix, sum + incl - v);
          sum += __shfl_sync(0xffffffffu, incl, 31);
          counted += run;
          if (run < 32) break;
        }
      }
    }
  } else if (warp < kRed * W) {
    // kDuo: reduce squad r takes tiles i = r, r + 2, ... with named barrier 1 + 2 r; below,
    // `tid` and `wr` are the thread and warp within the squad.
    const unsigned r = warp / W, tid = threadIdx.x - r * T, wr = warp - r * W;
    unsigned ends = 0;
    static_assert(!(MODE & kPubWarp) ||
                      (C == 1 && K == 1 && kRed == 1 && kSquads == 1 && kReps<MODE> == 1 &&
                       kStride<MODE> == 1 &&
                       !(MODE & (kStat32 | kPubAfter | kSeq | kGroup | kGroup2 | kNoReduce))),
                  "kPubWarp with the plain forms only");
    // kPubWarp, lane 0 of the squad's first warp: post claim i's tile and aggregate to the ring,
    // once the publisher has taken the slot's previous entry (claim i - NS)
    const auto post = [&](unsigned i, unsigned t, int32_t v) {
      const unsigned s = i % NS;
      if (i >= NS)
        while (*static_cast<volatile unsigned*>(&pub_ack[s]) < i + 1 - NS) {
        }
      *static_cast<volatile unsigned*>(&pub_t[s]) = t;
      *static_cast<volatile int32_t*>(&pub_v[s]) = v;
      __threadfence_block();
      *static_cast<volatile unsigned*>(&pub_seq[s]) = i + 1;
    };
    int32_t run_excl = 0;  // K > 1, warp 0: the claim's sum so far
    for (unsigned i = r;; i += kRed) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&full[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) {
        if ((MODE & kPubWarp) && wr == 0 && lane == 0) post(i, t, 0);  // the publisher's end
        if (wr == 0) bulk::arrive(&reduced[s]);
        if constexpr (C > 1 && (MODE & kHandLate)) {
          if (wr == 0 && lane == 0)
            send_async(&look_c[rank][i % NP], &claimed_c[rank][i % NP], 0, t);
        }
        if (kRed == 1 && ++ends < kSquads) continue;
        break;
      }
      if constexpr (MODE & kPieces) {
        for (unsigned q = 0; q < 4; ++q) bulk::wait(&piece[s][q], round & 1);
      }
      if constexpr (MODE & kCopy) {
        if (wr == 0) {
          if ((MODE & kPollWrite) && !(MODE & kPubAfter) && lane == 0) {  // as a scan writes them
            if (MODE & kPubWarp)
              post(i, t, 0);
            else
              lookback::publish(status + t, lookback::kAggregate, 0);
          }
          __syncwarp();
          bulk::arrive(&reduced[s]);
          if ((MODE & kPollWrite) && (MODE & kPubAfter) && lane == 0)
            lookback::publish(status + t, lookback::kAggregate, 0);
        }
        continue;
      }
      if constexpr (MODE & kNoReduce) {  // timing only: aggregates 0, chunk prefixes unset
        if (wr == 0) {
          if (lane == 0) lookback::publish(status + t, lookback::kAggregate, 0);
          __syncwarp();
          bulk::arrive(&reduced[s]);
        }
        continue;
      }
      const int4* src = stage_data + size_t(s) * kVecs;
#pragma unroll 8
      for (unsigned u = 0; u < V; ++u) {
        const int4 x = src[u * T + tid];
        const int32_t c = __reduce_add_sync(0xffffffffu, x.x + x.y + x.z + x.w);
        if (lane == 0) chunk_prefix[s][u * W + wr] = c;
      }
      if (r == 0)
        asm volatile("bar.sync 1, %0;" ::"n"(T) : "memory");
      else
        asm volatile("bar.sync 3, %0;" ::"n"(T) : "memory");
      if (wr == 0) {
        int32_t total;
        if constexpr (kChunks >= 32) {
          int32_t v[kPerLane], mine = 0;
#pragma unroll
          for (unsigned k = 0; k < kPerLane; ++k)
            mine += v[k] = chunk_prefix[s][lane * kPerLane + k];
          const int32_t incl = v09::scan_warp(mine);
          int32_t run = incl - mine;
#pragma unroll
          for (unsigned k = 0; k < kPerLane; ++k) {
            chunk_prefix[s][lane * kPerLane + k] = run;
            run += v[k];
          }
          total = __shfl_sync(0xffffffffu, incl, 31);
        } else {  // tiles below 16 KB: fewer chunks than lanes
          const int32_t mine = lane < kChunks ? chunk_prefix[s][lane] : 0;
          const int32_t incl = v09::scan_warp(mine);
          if (lane < kChunks) chunk_prefix[s][lane] = incl - mine;
          total = __shfl_sync(0xffffffffu, incl, 31);
        }
        if constexpr (K > 1) {
          if (i % K == 0) run_excl = 0;
          if (lane == 0) tile_excl[s] = run_excl;
          run_excl += total;
          if (lane == 0 && i % K == K - 1)
            lookback::publish(status + (t / K) * kStride<MODE>, lookback::kAggregate, run_excl);
        } else {
          if (lane == 0 && (MODE & kStat32)) publish32(s32, esc, t, uint32_t(total));
          if ((MODE & kPubWarp) && lane == 0) post(i, t, total);
          if (lane == 0 && !(MODE & (kStat32 | kPubAfter | kPubWarp)))
            for (unsigned r = 0; r < kReps<MODE>; ++r)
              lookback::publish(status + r * rep_stride<MODE>(tiles) + t * kStride<MODE>,
                                lookback::kAggregate, total);
          if ((MODE & kMirror) && lane == 0) *static_cast<volatile unsigned*>(&red_done) = i + 1;
          if (DLY_FROM_REDUCE && lane == 0) red_time[s] = globaltimer_ns();
          if constexpr (C > 1 && (MODE & kHandLate)) {
            if (lane == 0) {
              arm4(&prefixed[i % NP]);
              send_async(&look_c[rank][i % NP], &claimed_c[rank][i % NP], 0, t);
            }
          }
        }
        if constexpr (MODE & (kGroup | kGroup2)) {
          if (lane == 0) atomicAdd(status + tiles + t / 32, (1ull << 40) + uint32_t(total));
        }
        __syncwarp();
        bulk::arrive(&reduced[s]);
        if constexpr ((MODE & kPubAfter) && K == 1)
          if (lane == 0) lookback::publish(status + t, lookback::kAggregate, total);
      }
    }
  } else {
    const unsigned q = (warp - kRed * W) / W;  // the squad
    const unsigned j = threadIdx.x - kRed * T - q * T, w = warp - kRed * W - q * W;
    for (unsigned i = q;; i += kSquads) {
      const unsigned s = i % NS, round = i / NS;
      bulk::wait(&reduced[s], round & 1);
      const unsigned t = tile_of[s];
      if (t >= tiles) break;
      if constexpr (MODE & kHold) {
        const int4* src = stage_data + size_t(s) * kVecs;
        int4 y[V];
#pragma unroll
        for (unsigned u = 0; u < V; ++u) {
          int4 x = src[u * T + j];
          x.y += x.x;
          x.z += x.y;
          x.w += x.z;
          const int32_t incl = v09::scan_warp(x.w);
          const int32_t add = chunk_prefix[s][u * W + w] + (incl - x.w);
          y[u] = make_int4(x.x + add, x.y + add, x.z + add, x.w + add);
        }
        bulk::arrive(&empty[s]);  // the stage is free; the tile waits in registers
        bulk::wait(&prefixed[i % NP], (i / NP) & 1);
        const int32_t prefix = tile_prefix[i % NP];
        const size_t base = size_t(t) * kTileElems;
        const bool whole = base + kTileElems <= n;
        int4* dst = reinterpret_cast<int4*>(out + base);
#pragma unroll
        for (unsigned u = 0; u < V; ++u) {
          const int4 x =
              make_int4(y[u].x + prefix, y[u].y + prefix, y[u].z + prefix, y[u].w + prefix);
          if (whole) {
            dst[u * T + j] = x;
          } else {
            store_tail(out, n, base + 4 * (size_t(u) * T + j), x);
          }
        }
        continue;
      }
      static_assert(!(MODE & kStoreFirst) || (C == 1 && K == 1), "kStoreFirst: C == K == 1");
      if constexpr (MODE & (kStoreFirst | kNoWait)) {
      } else if constexpr (C > 1 && !(MODE & kStAsync)) {
        wait_cluster(&prefixed[i % NS], (i / NS) & 1);
      } else {
        bulk::wait(&prefixed[(i / K) % NC], ((i / K) / NC) & 1);
      }
      const int32_t prefix = (MODE & (kStoreFirst | kNoWait))
                                 ? 0
                                 : tile_prefix[(i / K) % NC] + (K > 1 ? tile_excl[s] : 0);
      int4* src = stage_data + size_t(s) * kVecs;
      const size_t base = size_t(t) * kTileElems;
      const bool whole = base + kTileElems <= n;
      int4* dst = reinterpret_cast<int4*>(out + base);
#pragma unroll 4
      for (unsigned u = 0; u < V; ++u) {
        int4 x = src[u * T + j];
        if constexpr (MODE & kNoScan) {  // timing only: the prefixes added, no scan
          const int32_t add = prefix + chunk_prefix[s][u * W + w];
          x.x += add;
          x.y += add;
          x.z += add;
          x.w += add;
        } else if constexpr (!(MODE & kCopy)) {
          x.y += x.x;
          x.z += x.y;
          x.w += x.z;
          const int32_t incl = v09::scan_warp(x.w);
          const int32_t add = prefix + chunk_prefix[s][u * W + w] + (incl - x.w);
          x.x += add;
          x.y += add;
          x.z += add;
          x.w += add;
        }
        if (whole) {
          if constexpr (MODE & kBulk)
            src[u * T + j] = x;
          else if constexpr (MODE & kPlain)
            dst[u * T + j] = x;
          else
            __stcs(dst + u * T + j, x);
        } else {
          store_tail(out, n, base + 4 * (size_t(u) * T + j), x);
        }
      }
      if constexpr (MODE & kBulk) {
        if (whole) {
          // Generic-proxy writes to the stage, then an async-proxy read of it: each writer fences,
          // the squad meets, one thread stores and waits until the stage has been read.
          bulk::fence_proxy_async_shared();
          asm volatile("bar.sync 2, %0;" ::"n"(T) : "memory");
          if (j == 0) store_bulk(dst, src, unsigned(kVecs * 16));
          // The next bulk load into this stage (async proxy) follows these generic writes too.
        }
      }
      if constexpr (MODE & kStoreFirst) bulk::wait(&prefixed[i % NC], (i / NC) & 1);
      bulk::arrive(&empty[s]);
    }
    if ((MODE & kTrace) && j == 0) g_trace[blockIdx.x][2] = globaltimer_ns();
  }
  // C > 1: no block leaves while a member may still write into its shared memory
  if constexpr (C > 1) cluster_sync();
}

// per_sm: blocks an SM (0: as many as fit, one resident wave).
template <unsigned long long MODE, unsigned W = 4, unsigned V = 8, unsigned NS = 6,
          unsigned WIN = 8, unsigned THR = 0, unsigned SLEEP = 0, unsigned K = 1, unsigned C = 1,
          unsigned MX = 0, unsigned DLY = 0, unsigned DLY_FROM_REDUCE = 0>
cudaError_t launch(const int32_t* in, int32_t* out, size_t n, void* ws, cudaStream_t stream,
                   unsigned per_sm = 0) {
  constexpr size_t kTileElems = size_t(W) * 32 * V * 4;
  constexpr size_t kSmem = NS * size_t(W) * 32 * V * sizeof(int4);
  const size_t tiles = ceil_div(n, kTileElems);
  // the statuses, then (kGroup) one word per 32 tiles
  const size_t group_bytes = (MODE & (kGroup | kGroup2)) ? ceil_div(tiles, size_t(32)) * 8 : 0;
  // kStat32: the same bytes (those of 8-byte statuses) filled with 0x80 (kEmpty32's bytes)
  cudaError_t e = cudaMemsetAsync(
      ws, (MODE & kStat32) ? 0x80 : 0,
      lookback::workspace_bytes((MODE & kMirror)
                                    ? mirror_offset(tiles) + (tiles + 15) / 16 * 16
                                    : rep_stride<MODE>(tiles * kStride<MODE>) * kReps<MODE>) +
          group_bytes,
      stream);
  if (e == cudaSuccess && (MODE & (kPartnerSame | kPartnerNear | kPartnerFar | kPartnerNext)))
    e = cudaMemsetAsync(lookback::tile_status(ws) + (1u << 22), 0, 1024 * 8, stream);  // the table
  if (e == cudaSuccess && (MODE & kPrepub))
    e = cudaMemsetAsync(lookback::tile_status(ws), 1, tiles * sizeof(lookback::Status), stream);
  if (e != cudaSuccess) return e;
  if (tiles % K != 0) return cudaErrorInvalidValue;
  auto k = kernel<W, V, NS, WIN, MODE, THR, SLEEP, K, C, MX, DLY, DLY_FROM_REDUCE>;
  e = cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, int(kSmem));
  if (e != cudaSuccess) return e;
  if constexpr (C > 1) {  // clusters of C blocks: as many as are resident at once
    cudaLaunchAttribute attr;
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = C;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cudaLaunchConfig_t cfg = {};
    cfg.blockDim = dim3(kThreads<W, MODE>);
    cfg.dynamicSmemBytes = kSmem;
    cfg.stream = stream;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    static const size_t clusters = [&] {
      cfg.gridDim = dim3(C * 1024);
      int c = 0;
      const cudaError_t oe = cudaOccupancyMaxActiveClusters(&c, k, &cfg);
      printf("kernel<W %u, V %u, NS %u, WIN %u, MODE %llu, THR %u, C %u>: %d clusters (%s)\n", W, V,
             NS, WIN, MODE, THR, C, c, cudaGetErrorString(oe));
      return size_t(c);
    }();
    if (clusters == 0) return cudaErrorInvalidConfiguration;
    cfg.gridDim = dim3(unsigned(std::min(ceil_div(tiles, size_t(C)), clusters) * C));
    e = cudaLaunchKernelEx(&cfg, k, in, out, n, static_cast<unsigned>(tiles),
                           lookback::tile_counter(ws), lookback::tile_status(ws));
    if (e != cudaSuccess) return e;
    return cudaGetLastError();
  }
  static const size_t resident = [&] {
    const size_t r = resident_grid(reinterpret_cast<const void*>(k), kThreads<W, MODE>, kSmem);
    printf("kernel<W %u, V %u, NS %u, WIN %u, MODE %llu, THR %u>: grid %zu\n", W, V, NS, WIN, MODE,
           THR, r);
    return r;
  }();
  const size_t grid = std::min(tiles, per_sm ? size_t(per_sm) * current_sm_count() : resident);
  k<<<static_cast<unsigned>(grid), kThreads<W, MODE>, kSmem, stream>>>(
      in, out, n, static_cast<unsigned>(tiles), lookback::tile_counter(ws),
      lookback::tile_status(ws));
  return cudaGetLastError();
}

// A tile-contiguous int4 copy: one resident wave of 256-thread blocks, U int4 per thread a trip.
// HINT 0: plain loads and stores; 1: ld.global.nc (__ldg), plain stores; 2: load_once
// (ld.global.nc.L1::no_allocate) and __stcs (st.global.cs).
template <int U, int HINT>
__global__ void copy_kernel(const int4* __restrict__ in, int4* __restrict__ out, size_t n4) {
  constexpr size_t kTile = size_t(U) * 256;
  size_t base = size_t(blockIdx.x) * kTile;
  for (; base + kTile <= n4; base += size_t(gridDim.x) * kTile) {
    int4 v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const size_t i = base + u * 256 + threadIdx.x;
      v[u] = HINT == 2 ? load_once(in + i) : HINT == 1 ? __ldg(in + i) : in[i];
    }
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const size_t i = base + u * 256 + threadIdx.x;
      if (HINT == 2)
        __stcs(out + i, v[u]);
      else
        out[i] = v[u];
    }
  }
  for (size_t i = base + threadIdx.x; i < n4; i += 256) out[i] = in[i];
}

template <int U, int HINT>
void copy(const int4* in, int4* out, size_t n4, cudaStream_t st) {
  static const unsigned grid =
      unsigned(resident_grid(reinterpret_cast<const void*>(copy_kernel<U, HINT>), 256, 0));
  copy_kernel<U, HINT><<<grid, 256, 0, st>>>(in, out, n4);
}

}  // namespace probe

int main(int argc, char** argv) {
  // PROBE_LOG2N (20 to 28): a smaller n, for `./p delay3`'s forms at the sizes v16 gives v15
  const char* log2n = std::getenv("PROBE_LOG2N");
  const size_t n = size_t(1) << (log2n ? std::max(20, std::min(28, std::atoi(log2n))) : 28);
  int32_t *in, *out, *want;
  void* ws;
  unsigned long long* scratch;
  if (cudaMalloc(&in, n * 4) || cudaMalloc(&out, n * 4) || cudaMalloc(&want, n * 4) ||
      cudaMalloc(&ws, 64 << 20) || cudaMalloc(&scratch, 8)) {
    printf("cudaMalloc failed\n");
    return 1;
  }
  std::vector<int32_t> h(n);
  uint32_t x = 12345;
  for (auto& v : h) {
    x = x * 1664525u + 1013904223u;
    v = int32_t(x >> 28) - 8;
  }
  cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
  cudaStream_t st;
  cudaStreamCreate(&st);
  probe_timing::Timer timer(st);
  size_t tb = 0;
  cub::DeviceScan::InclusiveSum(nullptr, tb, in, out, int(n));
  void* cub_tmp;
  cudaMalloc(&cub_tmp, tb);
  cub::DeviceScan::InclusiveSum(cub_tmp, tb, in, want, int(n), st);
  cudaStreamSynchronize(st);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);

  struct Case {
    const char* name;
    bool copy;  // output should equal the input (else CUB's scan)
    std::function<void()> run;
  };
  const int4* in4 = reinterpret_cast<const int4*>(in);
  int4* out4 = reinterpret_cast<int4*>(out);
  std::vector<Case> cases = {
      {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
      {"copy kernel 4/thread, plain", true, [&] { probe::copy<4, 0>(in4, out4, n / 4, st); }},
      {"copy kernel 4/thread, __ldg", true, [&] { probe::copy<4, 1>(in4, out4, n / 4, st); }},
      {"copy kernel 4/thread, load_once+__stcs", true,
       [&] { probe::copy<4, 2>(in4, out4, n / 4, st); }},
      {"copy kernel 8/thread, plain", true, [&] { probe::copy<8, 0>(in4, out4, n / 4, st); }},
      {"copy kernel 8/thread, __ldg", true, [&] { probe::copy<8, 1>(in4, out4, n / 4, st); }},
      {"copy kernel 16/thread, plain", true, [&] { probe::copy<16, 0>(in4, out4, n / 4, st); }},
      {"copy kernel 2/thread, plain", true, [&] { probe::copy<2, 0>(in4, out4, n / 4, st); }},
      {"v15 pipeline as a copy (kCopy)", true,
       [&] { probe::launch<probe::kCopy>(in, out, n, ws, st); }},
      {"v15 pipeline copy, bulk stores", true,
       [&] { probe::launch<probe::kCopy | probe::kBulk>(in, out, n, ws, st); }},
      {"v15 pipeline copy, plain stores", true,
       [&] { probe::launch<probe::kCopy | probe::kPlain>(in, out, n, ws, st); }},
      {"cub InclusiveSum", false,
       [&] { cub::DeviceScan::InclusiveSum(cub_tmp, tb, in, out, int(n), st); }},
      {"v15 shipped", false, [&] { v15::launch(in, out, n, ws, st); }},
      {"v15 copy of the kernel (MODE 0)", false, [&] { probe::launch<0>(in, out, n, ws, st); }},
      {"v15 plain stores", false, [&] { probe::launch<probe::kPlain>(in, out, n, ws, st); }},
      {"v15 bulk stores", false, [&] { probe::launch<probe::kBulk>(in, out, n, ws, st); }},
      {"v15 static schedule", false, [&] { probe::launch<probe::kStatic>(in, out, n, ws, st); }},
      {"v15 evict_first loads", false, [&] { probe::launch<probe::kEvict>(in, out, n, ws, st); }},
      {"v15 bulk + static + evict_first", false,
       [&] { probe::launch<probe::kBulk | probe::kStatic | probe::kEvict>(in, out, n, ws, st); }},
      {"v15 plain + static", false,
       [&] { probe::launch<probe::kPlain | probe::kStatic>(in, out, n, ws, st); }},
  };
  if (argc > 1 && std::string(argv[1]) == "small") {  // fewer bytes in flight an SM
    using probe::launch;
    constexpr unsigned P = probe::kPlain;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM: 192 KB)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"16 KB x 6, 1/SM (96 KB)", false, [&] { launch<0, 4, 8, 6>(in, out, n, ws, st, 1); }},
        {"16 KB x 3, 4/SM (192 KB)", false, [&] { launch<0, 4, 8, 3>(in, out, n, ws, st); }},
        {"16 KB x 3, 2/SM (96 KB)", false, [&] { launch<0, 4, 8, 3>(in, out, n, ws, st, 2); }},
        {"16 KB x 3, 3/SM (144 KB)", false, [&] { launch<0, 4, 8, 3>(in, out, n, ws, st, 3); }},
        {"8 KB x 6, 4/SM (192 KB)", false, [&] { launch<0, 4, 4, 6>(in, out, n, ws, st); }},
        {"8 KB x 6, 3/SM (144 KB)", false, [&] { launch<0, 4, 4, 6>(in, out, n, ws, st, 3); }},
        {"8 KB x 6, 2/SM (96 KB)", false, [&] { launch<0, 4, 4, 6>(in, out, n, ws, st, 2); }},
        {"8 KB x 12, 2/SM (192 KB)", false, [&] { launch<0, 4, 4, 12>(in, out, n, ws, st); }},
        {"8 KB x 4, 3/SM (96 KB)", false, [&] { launch<0, 4, 4, 4>(in, out, n, ws, st, 3); }},
        {"8 KB (2w) x 6, 4/SM (192 KB)", false, [&] { launch<0, 2, 8, 6>(in, out, n, ws, st); }},
        {"8 KB (2w) x 6, 2/SM (96 KB)", false, [&] { launch<0, 2, 8, 6>(in, out, n, ws, st, 2); }},
        {"4 KB x 8, 6/SM (192 KB)", false, [&] { launch<0, 4, 2, 8>(in, out, n, ws, st); }},
        {"4 KB x 8, 3/SM (96 KB)", false, [&] { launch<0, 4, 2, 8>(in, out, n, ws, st, 3); }},
        {"4 KB x 12, 4/SM (192 KB)", false, [&] { launch<0, 4, 2, 12>(in, out, n, ws, st); }},
        {"8 KB x 6, 2/SM, plain stores", false, [&] { launch<P, 4, 4, 6>(in, out, n, ws, st, 2); }},
        {"8 KB x 6, 3/SM, plain stores", false, [&] { launch<P, 4, 4, 6>(in, out, n, ws, st, 3); }},
    };
  }
  if (argc > 1 && std::string(argv[1]) == "align") {  // the stages on a 128-byte boundary
    using probe::launch;
    constexpr unsigned A = probe::kAlign, P = probe::kPlain, B = probe::kBulk, C = probe::kCopy;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"cub InclusiveSum", false,
         [&] { cub::DeviceScan::InclusiveSum(cub_tmp, tb, in, out, int(n), st); }},
        {"v15 shipped", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"v15 copy of the kernel (MODE 0)", false, [&] { launch<0>(in, out, n, ws, st); }},
        {"v15 aligned stages", false, [&] { launch<A>(in, out, n, ws, st); }},
        {"v15 aligned, plain stores", false, [&] { launch<A | P>(in, out, n, ws, st); }},
        {"v15 aligned, bulk stores", false, [&] { launch<A | B>(in, out, n, ws, st); }},
        {"v15 pipeline as a copy", true, [&] { launch<C>(in, out, n, ws, st); }},
        {"v15 pipeline as a copy, aligned", true, [&] { launch<C | A>(in, out, n, ws, st); }},
        {"v15 aligned, window 16", false, [&] { launch<A, 4, 8, 6, 16>(in, out, n, ws, st); }},
    };
  }
  if (argc > 1 && std::string(argv[1]) == "align-shapes") {  // the shapes again, stages aligned
    using probe::launch;
    constexpr unsigned AP = probe::kAlign | probe::kPlain;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"16 KB x 6, 2/SM, aligned + plain", false,
         [&] { launch<AP, 4, 8, 6>(in, out, n, ws, st); }},
        {"16 KB x 5, 2/SM", false, [&] { launch<AP, 4, 8, 5>(in, out, n, ws, st); }},
        {"16 KB x 4, 3/SM", false, [&] { launch<AP, 4, 8, 4>(in, out, n, ws, st); }},
        {"16 KB x 3, 4/SM", false, [&] { launch<AP, 4, 8, 3>(in, out, n, ws, st); }},
        {"16 KB x 2, 6/SM", false, [&] { launch<AP, 4, 8, 2>(in, out, n, ws, st); }},
        {"16 KB (8w) x 6, 2/SM", false, [&] { launch<AP, 8, 4, 6>(in, out, n, ws, st); }},
        {"8 KB x 12, 2/SM", false, [&] { launch<AP, 4, 4, 12>(in, out, n, ws, st); }},
        {"8 KB x 8, 3/SM", false, [&] { launch<AP, 4, 4, 8>(in, out, n, ws, st); }},
        {"8 KB x 6, 4/SM", false, [&] { launch<AP, 4, 4, 6>(in, out, n, ws, st); }},
        {"32 KB x 3, 2/SM", false, [&] { launch<AP, 4, 16, 3>(in, out, n, ws, st); }},
    };
  }
  if (argc > 1 && std::string(argv[1]) == "throttle") {  // at most THR bulk copies a block
    using probe::launch;
    constexpr unsigned A = probe::kAlign, AP = probe::kAlign | probe::kPlain, C = probe::kCopy;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"copy, aligned, THR 0", true, [&] { launch<C | A>(in, out, n, ws, st); }},
        {"copy, aligned, THR 1", true, [&] { launch<C | A, 4, 8, 6, 8, 1>(in, out, n, ws, st); }},
        {"copy, aligned, THR 2", true, [&] { launch<C | A, 4, 8, 6, 8, 2>(in, out, n, ws, st); }},
        {"copy, aligned, THR 3", true, [&] { launch<C | A, 4, 8, 6, 8, 3>(in, out, n, ws, st); }},
        {"copy, aligned, THR 4", true, [&] { launch<C | A, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan A+P, THR 0", false, [&] { launch<AP>(in, out, n, ws, st); }},
        {"scan A+P, THR 1", false, [&] { launch<AP, 4, 8, 6, 8, 1>(in, out, n, ws, st); }},
        {"scan A+P, THR 2", false, [&] { launch<AP, 4, 8, 6, 8, 2>(in, out, n, ws, st); }},
        {"scan A+P, THR 3", false, [&] { launch<AP, 4, 8, 6, 8, 3>(in, out, n, ws, st); }},
        {"scan A+P, THR 4", false, [&] { launch<AP, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan 16 KB x 12, 1/SM, THR 0", false,
         [&] { launch<AP, 4, 8, 12, 8>(in, out, n, ws, st); }},
        {"scan 16 KB x 12, 1/SM, THR 3", false,
         [&] { launch<AP, 4, 8, 12, 8, 3>(in, out, n, ws, st); }},
        {"scan 16 KB x 12, 1/SM, THR 5", false,
         [&] { launch<AP, 4, 8, 12, 8, 5>(in, out, n, ws, st); }},
        {"scan 8 KB x 12, 2/SM, THR 4", false,
         [&] { launch<AP, 4, 4, 12, 8, 4>(in, out, n, ws, st); }},
        {"scan 8 KB x 12, 2/SM, THR 6", false,
         [&] { launch<AP, 4, 4, 12, 8, 6>(in, out, n, ws, st); }},
    };
  }
  // The first four cases of the modes look, wait and claims: the copy, v15, the scan on quarter
  // copies with four in flight, and the same without its look-ahead.
  const auto quarter_base = [&](std::vector<Case> more) {
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces;
    std::vector<Case> v = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"scan, Q THR 4", false, [&] { launch<AQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | probe::kNoLook, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    };
    v.insert(v.end(), more.begin(), more.end());
    return v;
  };
  if (argc > 1 && std::string(argv[1]) == "duo") {  // one block an SM, two pipelines
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, D = probe::kDuo;
    cases = quarter_base({
        {"duo, 12 stages, THR 8", false,
         [&] { launch<AQ | D, 4, 8, 12, 8, 8>(in, out, n, ws, st); }},
        {"duo, 12 stages, THR 8, no look (timing)", false,
         [&] { launch<AQ | D | probe::kNoLook, 4, 8, 12, 8, 8>(in, out, n, ws, st); }},
        {"duo, 12 stages, THR 8, window 16", false,
         [&] { launch<AQ | D, 4, 8, 12, 16, 8>(in, out, n, ws, st); }},
        {"duo, 12 stages, THR 6", false,
         [&] { launch<AQ | D, 4, 8, 12, 8, 6>(in, out, n, ws, st); }},
        {"duo, 12 stages, THR 12", false,
         [&] { launch<AQ | D, 4, 8, 12, 8, 12>(in, out, n, ws, st); }},
        {"duo, copy, THR 8", true,
         [&] { launch<AQ | D | probe::kCopy, 4, 8, 12, 8, 8>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "cluster") {  // one look-ahead a cluster of C blocks
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                       AP = probe::kAlign | probe::kPlain;
    cases = quarter_base({
        {"cluster 2, Q THR 4", false,
         [&] { launch<AQ, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"cluster 4, Q THR 4", false,
         [&] { launch<AQ, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
        {"cluster 8, Q THR 4", false,
         [&] { launch<AQ, 4, 8, 6, 8, 4, 0, 1, 8>(in, out, n, ws, st); }},
        {"cluster 2, whole tiles", false,
         [&] { launch<AP, 4, 8, 6, 8, 0, 0, 1, 2>(in, out, n, ws, st); }},
        {"cluster 4, whole tiles", false,
         [&] { launch<AP, 4, 8, 6, 8, 0, 0, 1, 4>(in, out, n, ws, st); }},
        {"cluster 2, Q THR 4, st.async", false,
         [&] { launch<AQ | probe::kStAsync, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"cluster 4, Q THR 4, st.async", false,
         [&] { launch<AQ | probe::kStAsync, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
        {"cluster 2, st.async", false,
         [&] { launch<AP | probe::kStAsync, 4, 8, 6, 8, 0, 0, 1, 2>(in, out, n, ws, st); }},
        {"cluster 2, Q THR 4, st.async, no look (timing)", false,
         [&] {
           launch<AQ | probe::kStAsync | probe::kNoLook, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws,
                                                                                 st);
         }},
        {"cluster 4, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | probe::kNoLook, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "stream") {  // the cluster's look-ahead, kStream
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                       AP = probe::kAlign | probe::kPlain, SA = probe::kStAsync,
                       SS = probe::kStAsync | probe::kStream, NL = probe::kNoLook;
    cases = quarter_base({
        {"cluster 2, Q THR 4, st.async", false,
         [&] { launch<AQ | SA, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"cluster 2, Q THR 4, st.async, no look (timing)", false,
         [&] { launch<AQ | SA | NL, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4", false,
         [&] { launch<AQ | SS, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 4, Q THR 4", false,
         [&] { launch<AQ | SS, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
        {"stream 2, whole tiles", false,
         [&] { launch<AP | SS, 4, 8, 6, 8, 0, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 6", false,
         [&] { launch<AQ | SS, 4, 8, 6, 8, 6, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hold", false,
         [&] { launch<AQ | SS | probe::kHold, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late", false,
         [&] { launch<AQ | SS | probe::kHandLate, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hold, hand late", false,
         [&] {
           launch<AQ | SS | probe::kHold | probe::kHandLate, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws,
                                                                                     st);
         }},
        {"stream 2, Q THR 4, window 4", false,
         [&] { launch<AQ | SS, 4, 8, 6, 4, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hold, 5 stages", false,
         [&] { launch<AQ | SS | probe::kHold, 4, 8, 5, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "late") {  // kStream with kHandLate, and back-off
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                       SL = probe::kStAsync | probe::kStream | probe::kHandLate;
    cases = quarter_base({
        {"cluster 2, Q THR 4, st.async, no look (timing)", false,
         [&] {
           launch<AQ | probe::kStAsync | probe::kNoLook, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws,
                                                                                 st);
         }},
        {"stream 2, Q THR 4, hand late", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late, sleep 100", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 100, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late, sleep 400", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 400, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 6, hand late", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 6, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late, window 16", false,
         [&] { launch<AQ | SL, 4, 8, 6, 16, 4, 0, 1, 2>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "first") {  // stores not held by the look-ahead
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                       AP = probe::kAlign | probe::kPlain;
    cases = quarter_base({
        {"scan, Q THR 4, store first (timing)", false,
         [&] { launch<AQ | probe::kStoreFirst, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan (aligned, plain stores, whole tiles)", false,
         [&] { launch<AP>(in, out, n, ws, st); }},
        {"scan, no look (timing)", false, [&] { launch<AP | probe::kNoLook>(in, out, n, ws, st); }},
        {"scan, store first (timing)", false,
         [&] { launch<AP | probe::kStoreFirst>(in, out, n, ws, st); }},
    });
  }
  const bool trace =
      argc > 1 && (std::string(argv[1]) == "trace" || std::string(argv[1]) == "seqtrace" ||
                   std::string(argv[1]) == "seqilp");
  if (trace) {  // where the time goes: the look-ahead's end against the scan-store's
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, TR = probe::kTrace;
    cases = quarter_base({
        {"trace: scan, Q THR 4", false,
         [&] { launch<AQ | TR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"trace: scan, Q THR 4, no wait (timing)", false,
         [&] { launch<AQ | TR | probe::kNoWait, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"trace: scan, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | TR | probe::kNoLook, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "group2") {  // group words, read with the statuses
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 G2 = probe::kGroup2, L = probe::kLate;
    cases = quarter_base({
        {"scan, Q THR 4, late", false, [&] { launch<AQ | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"group2, Q THR 4", false, [&] { launch<AQ | G2, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"group2, Q THR 4, late", false,
         [&] { launch<AQ | G2 | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"group (advance_grouped), Q THR 4, late", false,
         [&] { launch<AQ | probe::kGroup | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"group2, Q THR 6, late", false,
         [&] { launch<AQ | G2 | L, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "seqhold") {  // more tiles waiting for the sequencer
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 S = probe::kSeq, H = probe::kHold, T2 = probe::kTwo;
    cases = quarter_base({
        {"seq, Q THR 4, window 16", false,
         [&] { launch<AQ | S, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, hold", false, [&] { launch<AQ | H, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"seq, Q THR 4, window 16, hold, poll sleep 100", false,
         [&] { launch<AQ | S | H, 4, 8, 6, 16, 4, 100>(in, out, n, ws, st); }},
        {"seq, Q THR 4, window 16, polls from the claim, sleep 100", false,
         [&] { launch<AQ | S | probe::kSeqEarly, 4, 8, 6, 16, 4, 100>(in, out, n, ws, st); }},
        {"scan, Q THR 4, two squads", false,
         [&] { launch<AQ | T2, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"seq, Q THR 4, window 16, two squads", false,
         [&] { launch<AQ | S | T2, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"seq, Q THR 6, window 16, two squads", false,
         [&] { launch<AQ | S | T2, 4, 8, 6, 16, 6>(in, out, n, ws, st); }},
    });
  }
  const bool stat32 = argc > 1 && std::string(argv[1]) == "stat32";
  if (stat32) {  // 4-byte statuses: half the bytes the look-aheads read
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 AP = probe::kAlign | probe::kPlain, S32 = probe::kStat32,
                                 SL = probe::kStAsync | probe::kStream | probe::kHandLate,
                                 LZ = probe::kStat32 | probe::kEscLazy;
    if (argc > 2 && std::string(argv[2]) == "lazy")
      cases = quarter_base({
          {"stat32, Q THR 4", false, [&] { launch<AQ | S32, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
          {"stat32 lazy, Q THR 4", false,
           [&] { launch<AQ | LZ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
          {"stat32 lazy, Q THR 4, window 16", false,
           [&] { launch<AQ | LZ, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
          {"scan (aligned, plain stores, whole tiles)", false,
           [&] { launch<AP>(in, out, n, ws, st); }},
          {"stat32 lazy, whole tiles", false, [&] { launch<AP | LZ>(in, out, n, ws, st); }},
          {"stream 2, Q THR 4, hand late", false,
           [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
          {"stream 2, Q THR 4, hand late, stat32 lazy", false,
           [&] { launch<AQ | SL | LZ, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
          {"stream 2, Q THR 4, hand late, stat32 lazy, window 16", false,
           [&] { launch<AQ | SL | LZ, 4, 8, 6, 16, 4, 0, 1, 2>(in, out, n, ws, st); }},
      });
    else
      cases = quarter_base({
          {"stat32, Q THR 4", false, [&] { launch<AQ | S32, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
          {"stat32, Q THR 4, window 16", false,
           [&] { launch<AQ | S32, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
          {"stat32, Q THR 4, window 4", false,
           [&] { launch<AQ | S32, 4, 8, 6, 4, 4>(in, out, n, ws, st); }},
          {"scan (aligned, plain stores, whole tiles)", false,
           [&] { launch<AP>(in, out, n, ws, st); }},
          {"stat32, whole tiles", false, [&] { launch<AP | S32>(in, out, n, ws, st); }},
          {"stream 2, Q THR 4, hand late", false,
           [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
          {"stream 2, Q THR 4, hand late, stat32", false,
           [&] { launch<AQ | SL | S32, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
      });
  }
  if (argc > 1 && std::string(argv[1]) == "c4") {  // what a cluster launch alone costs
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CO = probe::kClusterOnly,
                                 SL = probe::kStAsync | probe::kStream | probe::kHandLate;
    cases = quarter_base({
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, launched in clusters of 4", true,
         [&] { launch<AQ | probe::kCopy | CO, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, launched in clusters of 2", false,
         [&] { launch<AQ | CO, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"scan, Q THR 4, launched in clusters of 4", false,
         [&] { launch<AQ | CO, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, no look, launched in clusters of 4 (timing)", false,
         [&] { launch<AQ | CO | probe::kNoLook, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
        {"stream 4, Q THR 4, hand late", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 0, 1, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "sep2") {  // who writes the polled lines, and when
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy | probe::kPollSep | probe::kPollPrivate,
                                 PW = probe::kPollWrite, FAR = probe::kPollFar;
    cases = quarter_base({
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private", true,
         [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private, statuses written", true,
         [&] { launch<CQ | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, statuses written", true,
         [&] { launch<CQ | PW | FAR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, self-written mid", true,
         [&] { launch<CQ | FAR | probe::kPollSelfMid, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, next block writes mid", true,
         [&] { launch<CQ | FAR | probe::kPollNextMid, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "pubwarp") {  // statuses published by their own warp
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy | probe::kPollSep | probe::kPollPrivate,
                                 PW = probe::kPollWrite, PB = probe::kPubWarp, L = probe::kLate;
    cases = quarter_base({
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private", true,
         [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private, statuses written", true,
         [&] { launch<CQ | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private, statuses written by a publisher warp", true,
         [&] { launch<CQ | PW | PB, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, statuses written by a publisher warp", true,
         [&] { launch<AQ | probe::kCopy | PW | PB, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, publisher warp", false,
         [&] { launch<AQ | PB, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late", false, [&] { launch<AQ | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late, publisher warp", false,
         [&] { launch<AQ | L | PB, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "mirror") {  // the look-ahead reads a mirror
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 L = probe::kLate, LR = probe::kLate | probe::kLateRed,
                                 M = probe::kMirror, MI = probe::kMirror | probe::kMirrorIdle;
    cases = quarter_base({
        {"scan, Q THR 4, late", false, [&] { launch<AQ | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp, statuses read", false,
         [&] { launch<AQ | MI, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror", false,
         [&] { launch<AQ | M, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror, late", false,
         [&] { launch<AQ | M | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror, late reduced", false,
         [&] { launch<AQ | M | LR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror, window 16", false,
         [&] { launch<AQ | M, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 6, mirror", false,
         [&] { launch<AQ | M, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "mirror2") {  // the mirror warp polls late, or naps
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 L = probe::kLate, M = probe::kMirror, I = probe::kMirrorIdle,
                                 ML = probe::kMirrorLate, MN = probe::kMirrorNap;
    cases = quarter_base({
        {"scan, Q THR 4, late", false, [&] { launch<AQ | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp, statuses read", false,
         [&] { launch<AQ | M | I, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, statuses read", false,
         [&] { launch<AQ | M | I | ML, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, naps, statuses read", false,
         [&] { launch<AQ | M | I | ML | MN, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror late", false,
         [&] { launch<AQ | M | ML, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror late, naps", false,
         [&] { launch<AQ | M | ML | MN, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror late, naps, look-ahead late", false,
         [&] { launch<AQ | M | ML | MN | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 6, mirror late, naps", false,
         [&] { launch<AQ | M | ML | MN, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "mirror3") {  // what the mirror warp's parts cost
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 MI = probe::kMirror | probe::kMirrorIdle, ML = probe::kMirrorLate,
                                 B = probe::kMirrorBare;
    cases = quarter_base({
        {"scan, Q THR 4, mirror warp, statuses read", false,
         [&] { launch<AQ | MI, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp bare (ring only), statuses read", false,
         [&] { launch<AQ | MI | B, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, statuses read", false,
         [&] { launch<AQ | MI | ML, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late bare (ring, reduce count), statuses read", false,
         [&] { launch<AQ | MI | ML | B, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, polls only, statuses read", false,
         [&] { launch<AQ | MI | ML, 4, 8, 6, 8, 4, 0, 1, 1, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, stores only, statuses read", false,
         [&] { launch<AQ | MI | ML, 4, 8, 6, 8, 4, 0, 1, 1, 2>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, polls only, all but its own tile's status", false,
         [&] { launch<AQ | MI | ML, 4, 8, 6, 8, 4, 0, 1, 1, 3>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, polls only, its own tile's status alone", false,
         [&] { launch<AQ | MI | ML, 4, 8, 6, 8, 4, 0, 1, 1, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, polls only, the group's first line alone", false,
         [&] { launch<AQ | MI | ML, 4, 8, 6, 8, 4, 0, 1, 1, 5>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp, polls only, statuses read", false,
         [&] { launch<AQ | MI, 4, 8, 6, 8, 4, 0, 1, 1, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp, stores only, statuses read", false,
         [&] { launch<AQ | MI, 4, 8, 6, 8, 4, 0, 1, 1, 2>(in, out, n, ws, st); }},
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "mirror4") {  // one poll a group: how many, and when
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 MIL = probe::kMirror | probe::kMirrorIdle | probe::kMirrorLate;
    cases = quarter_base({
        {"scan, Q THR 4, mirror warp late bare (ring, reduce count), statuses read", false,
         [&] { launch<AQ | MIL | probe::kMirrorBare, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, mirror warp late, polls only, its own tile's status alone", false,
         [&] { launch<AQ | MIL, 4, 8, 6, 8, 4, 0, 1, 1, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, the same, every other group", false,
         [&] { launch<AQ | MIL, 4, 8, 6, 8, 4, 0, 1, 1, 6>(in, out, n, ws, st); }},
        {"scan, Q THR 4, the same, every group, 500 ns after the reduce", false,
         [&] { launch<AQ | MIL, 4, 8, 6, 8, 4, 0, 1, 1, 7>(in, out, n, ws, st); }},
        {"scan, Q THR 4, the same, 2000 ns after the reduce", false,
         [&] { launch<AQ | MIL, 4, 8, 6, 8, 4, 0, 1, 1, 8>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "delay2") {  // the same, timed from the reduce
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 LR = probe::kLate | probe::kLateRed;
    cases = quarter_base({
        {"scan, Q THR 4, late reduced", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 250 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 250, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 500 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 500, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 1000 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 1000, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 2000 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 2000, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 6, late reduced, 1000 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 6, 0, 1, 1, 0, 1000, 1>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "delay3") {  // longer delays; whole tiles
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 AP = probe::kAlign | probe::kPlain,
                                 LR = probe::kLate | probe::kLateRed;
    cases = quarter_base({
        {"scan, Q THR 4, late reduced", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 2000 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 2000, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 3000 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 3000, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 4000 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 4000, 1>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, 6000 ns from the reduce", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 6000, 1>(in, out, n, ws, st); }},
        {"scan, whole tiles, late reduced", false,
         [&] { launch<AP | LR, 4, 8, 6, 8>(in, out, n, ws, st); }},
        {"scan, whole tiles, late reduced, 2000 ns from the reduce", false,
         [&] { launch<AP | LR, 4, 8, 6, 8, 0, 0, 1, 1, 0, 2000, 1>(in, out, n, ws, st); }},
        {"scan, whole tiles, late reduced, 4000 ns from the reduce", false,
         [&] { launch<AP | LR, 4, 8, 6, 8, 0, 0, 1, 1, 0, 4000, 1>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "delay") {  // the look-ahead reads older statuses
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 L = probe::kLate, LR = probe::kLate | probe::kLateRed;
    cases = quarter_base({
        {"scan, Q THR 4, late", false, [&] { launch<AQ | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced + 500 ns", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 500>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced + 1000 ns", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 1000>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced + 2000 ns", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 2000>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced + 3000 ns", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 3000>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced + 4000 ns", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4, 0, 1, 1, 0, 4000>(in, out, n, ws, st); }},
        {"scan, Q THR 6, late reduced + 2000 ns", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 6, 0, 1, 1, 0, 2000>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced + 2000 ns, window 16", false,
         [&] { launch<AQ | LR, 4, 8, 6, 16, 4, 0, 1, 1, 0, 2000>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "latered") {  // the look-ahead from the tile's reduce
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 L = probe::kLate, LR = probe::kLate | probe::kLateRed,
                                 SL = probe::kStAsync | probe::kStream | probe::kHandLate;
    cases = quarter_base({
        {"scan, Q THR 4, late", false, [&] { launch<AQ | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, window 16", false,
         [&] { launch<AQ | LR, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late reduced, window 4", false,
         [&] { launch<AQ | LR, 4, 8, 6, 4, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 6, late reduced", false,
         [&] { launch<AQ | LR, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "partner") {  // where the writer of a polled line runs
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy | probe::kPollSep | probe::kPollPrivate,
                                 TRN = probe::kPollFar | probe::kPollNextMid | probe::kPollTrickle;
    cases = quarter_base({
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private", true,
         [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, next block writes a word a claim", true,
         [&] { launch<CQ | TRN, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, a word a claim, table, writer: next block", true,
         [&] { launch<CQ | TRN | probe::kPartnerNext, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, a word a claim, table, writer: same SM", true,
         [&] { launch<CQ | TRN | probe::kPartnerSame, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, a word a claim, table, writer: SM rank ^ 1", true,
         [&] { launch<CQ | TRN | probe::kPartnerNear, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, a word a claim, table, writer: SM half away", true,
         [&] { launch<CQ | TRN | probe::kPartnerFar, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "bulkpoll") {  // the polls by bulk copy instead
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy | probe::kPollSep | probe::kPollPrivate,
                                 PW = probe::kPollWrite, FAR = probe::kPollFar,
                                 NM = probe::kPollNextMid, TR = probe::kPollTrickle,
                                 BK = probe::kPollBulk;
    cases = quarter_base({
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private", true,
         [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private, statuses written", true,
         [&] { launch<CQ | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, next block writes a word a claim", true,
         [&] { launch<CQ | FAR | NM | TR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep bulk poll private", true,
         [&] { launch<CQ | BK, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep bulk poll private, statuses written", true,
         [&] { launch<CQ | PW | BK, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep bulk poll private far, next block writes a word a claim", true,
         [&] { launch<CQ | FAR | NM | TR | BK, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "sep3") {  // how many writes a polled line takes
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy | probe::kPollSep | probe::kPollPrivate,
                                 PW = probe::kPollWrite, FAR = probe::kPollFar,
                                 SM = probe::kPollSelfMid, NM = probe::kPollNextMid,
                                 MANY = probe::kPollMany, TR = probe::kPollTrickle;
    cases = quarter_base({
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private", true,
         [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private, statuses written", true,
         [&] { launch<CQ | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, self-written mid", true,
         [&] { launch<CQ | FAR | SM, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, self-written mid, 16 stores a line", true,
         [&] { launch<CQ | FAR | SM | MANY, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, next block writes mid, 16 stores a line", true,
         [&] { launch<CQ | FAR | NM | MANY, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, self-written a word a claim", true,
         [&] { launch<CQ | FAR | SM | TR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private far, next block writes a word a claim", true,
         [&] { launch<CQ | FAR | NM | TR, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "sep") {  // polls that gate nothing; publish after
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy | probe::kPollSep, PW = probe::kPollWrite,
                                 PA = probe::kPubAfter;
    cases = quarter_base({
        {"scan, Q THR 4, publish after", false,
         [&] { launch<AQ | PA, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4", true,
         [&] { launch<AQ | probe::kCopy, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll shared", true,
         [&] { launch<CQ | probe::kPollShared, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private", true,
         [&] { launch<CQ | probe::kPollPrivate, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll private, statuses written", true,
         [&] { launch<CQ | probe::kPollPrivate | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll moving", true,
         [&] { launch<CQ | probe::kPollMove, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll moving, statuses written", true,
         [&] { launch<CQ | probe::kPollMove | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, sep poll moving, written after", true,
         [&] { launch<CQ | probe::kPollMove | PW | PA, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "probe") {  // dirty or far private polls; kProbeLast
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy, PP = probe::kPollPrivate,
                                 PW = probe::kPollWrite, PL = probe::kProbeLast,
                                 SL = probe::kStAsync | probe::kStream | probe::kHandLate;
    cases = quarter_base({
        {"copy, Q THR 4", true, [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll private", true,
         [&] { launch<CQ | PP, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll private, written first", true,
         [&] { launch<CQ | PP | probe::kPollDirty, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll private, statuses written", true,
         [&] { launch<CQ | PP | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll private far, statuses written", true,
         [&] { launch<CQ | PP | PW | probe::kPollFar, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, probe last", false,
         [&] { launch<AQ | PL, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, probe last, nap 100", false,
         [&] { launch<AQ | probe::kProbeNap, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late, probe last", false,
         [&] { launch<AQ | PL | probe::kLate, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, probe last, window 16", false,
         [&] { launch<AQ | PL, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late", false,
         [&] { launch<AQ | SL, 4, 8, 6, 8, 4, 0, 1, 2>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "pollw") {  // the moving polls, with statuses written
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy, PM = probe::kPollMove,
                                 PW = probe::kPollWrite;
    cases = quarter_base({
        {"scan, Q THR 4, no wait (timing)", false,
         [&] { launch<AQ | probe::kNoWait, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4", true, [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, statuses written", true,
         [&] { launch<CQ | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll moving", true,
         [&] { launch<CQ | PM, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll moving, statuses written", true,
         [&] { launch<CQ | PM | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll private, statuses written", true,
         [&] { launch<CQ | probe::kPollPrivate | PW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "poll") {  // a synthetic look-ahead beside the copy
    using probe::launch;
    constexpr unsigned long long AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                                 CQ = AQ | probe::kCopy, SK = probe::kRepSkew;
    cases = quarter_base({
        {"copy, Q THR 4", true, [&] { launch<CQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll shared", true,
         [&] { launch<CQ | probe::kPollShared, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll private", true,
         [&] { launch<CQ | probe::kPollPrivate, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll moving", true,
         [&] { launch<CQ | probe::kPollMove, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll shared, window 4", true,
         [&] { launch<CQ | probe::kPollShared, 4, 8, 6, 4, 4>(in, out, n, ws, st); }},
        {"copy, Q THR 4, poll private, window 4", true,
         [&] { launch<CQ | probe::kPollPrivate, 4, 8, 6, 4, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, 4 copies", false,
         [&] { launch<AQ | probe::kRep4, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, 4 copies, skewed", false,
         [&] { launch<AQ | probe::kRep4 | SK, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, 16 copies, skewed", false,
         [&] { launch<AQ | probe::kRep16 | SK, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "seqilp") {  // a faster sequencer round trip
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, TR = probe::kTrace,
                       S = probe::kSeq | probe::kSeqIlp;
    cases = quarter_base({
        {"trace: seq, Q THR 4, window 16", false,
         [&] { launch<AQ | TR | probe::kSeq, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"trace: seqilp, Q THR 4, window 8", false,
         [&] { launch<AQ | TR | S, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"trace: seqilp, Q THR 4, window 16", false,
         [&] { launch<AQ | TR | S, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"trace: seqilp, Q THR 4, window 8, no wait (timing)", false,
         [&] { launch<AQ | TR | S | probe::kNoWait, 4, 8, 6, 8, 4, 200>(in, out, n, ws, st); }},
        {"trace: seqilp, Q THR 6, window 8", false,
         [&] { launch<AQ | TR | S, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "seqtrace") {  // the sequencer's end against the stores'
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, TR = probe::kTrace,
                       S = probe::kSeq;
    cases = quarter_base({
        {"trace: seq, Q THR 4, window 16", false,
         [&] { launch<AQ | TR | S, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"trace: seq, Q THR 4, window 16, no wait (timing)", false,
         [&] { launch<AQ | TR | S | probe::kNoWait, 4, 8, 6, 16, 4, 200>(in, out, n, ws, st); }},
        {"trace: scan, Q THR 4, no wait (timing)", false,
         [&] { launch<AQ | TR | probe::kNoWait, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"trace: scan, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | TR | probe::kNoLook, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "nowait") {  // the look-ahead reads, nobody waits
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                       AP = probe::kAlign | probe::kPlain;
    cases = quarter_base({
        {"scan, Q THR 4, no wait (timing)", false,
         [&] { launch<AQ | probe::kNoWait, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, store first (timing)", false,
         [&] { launch<AQ | probe::kStoreFirst, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan (aligned, plain stores, whole tiles)", false,
         [&] { launch<AP>(in, out, n, ws, st); }},
        {"scan, no look (timing)", false, [&] { launch<AP | probe::kNoLook>(in, out, n, ws, st); }},
        {"scan, no wait (timing)", false, [&] { launch<AP | probe::kNoWait>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "seq") {  // one sequencer serves every prefix
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, S = probe::kSeq,
                       AP = probe::kAlign | probe::kPlain;
    cases = quarter_base({
        {"seq, Q THR 4", false, [&] { launch<AQ | S, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"seq, Q THR 4, window 16", false,
         [&] { launch<AQ | S, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"seq, Q THR 4, poll sleep 200", false,
         [&] { launch<AQ | S, 4, 8, 6, 8, 4, 200>(in, out, n, ws, st); }},
        {"seq, Q THR 6", false, [&] { launch<AQ | S, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
        {"scan (aligned, plain stores, whole tiles)", false,
         [&] { launch<AP>(in, out, n, ws, st); }},
        {"seq, whole tiles", false, [&] { launch<AP | S>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "big") {  // 32 KB tiles: half the claims and statuses
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, NL = probe::kNoLook;
    cases = quarter_base({
        {"32 KB x 3, Q THR 2", false, [&] { launch<AQ, 4, 16, 3, 8, 2>(in, out, n, ws, st); }},
        {"32 KB x 3, Q THR 2, no look (timing)", false,
         [&] { launch<AQ | NL, 4, 16, 3, 8, 2>(in, out, n, ws, st); }},
        {"32 KB x 3, Q THR 3", false, [&] { launch<AQ, 4, 16, 3, 8, 3>(in, out, n, ws, st); }},
        {"32 KB x 3, Q THR 4", false, [&] { launch<AQ, 4, 16, 3, 8, 4>(in, out, n, ws, st); }},
        {"32 KB x 3, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | NL, 4, 16, 3, 8, 4>(in, out, n, ws, st); }},
        {"32 KB (8w) x 3, Q THR 2", false, [&] { launch<AQ, 8, 8, 3, 8, 2>(in, out, n, ws, st); }},
        {"32 KB (8w) x 3, Q THR 4", false, [&] { launch<AQ, 8, 8, 3, 8, 4>(in, out, n, ws, st); }},
        {"32 KB (8w) x 3, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | NL, 8, 8, 3, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "loads") {  // how the look-ahead reads its statuses
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, NW = probe::kNoWait;
    cases = quarter_base({
        {"scan, Q THR 4, no wait (timing)", false,
         [&] { launch<AQ | NW, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, no wait, .cg (timing)", false,
         [&] { launch<AQ | NW | probe::kLdCg, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, no wait, volatile (timing)", false,
         [&] { launch<AQ | NW | probe::kLdVol, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, no wait, no_allocate (timing)", false,
         [&] { launch<AQ | NW | probe::kLdNa, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, .cg", false,
         [&] { launch<AQ | probe::kLdCg, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, volatile", false,
         [&] { launch<AQ | probe::kLdVol, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "seq3") {  // the sequencer in blocked order
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces,
                       S = probe::kSeq | probe::kSeqBlocked;
    cases = quarter_base({
        {"seq, Q THR 4, window 16 (strided)", false,
         [&] { launch<AQ | probe::kSeq, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"seqb, Q THR 4, window 8", false,
         [&] { launch<AQ | S, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"seqb, Q THR 4, window 16", false,
         [&] { launch<AQ | S, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"seqb, Q THR 4, window 4", false,
         [&] { launch<AQ | S, 4, 8, 6, 4, 4>(in, out, n, ws, st); }},
        {"seqb, Q THR 4, window 16, no wait (timing)", false,
         [&] { launch<AQ | S | probe::kNoWait, 4, 8, 6, 16, 4, 200>(in, out, n, ws, st); }},
        {"seqb, Q THR 6, window 16", false,
         [&] { launch<AQ | S, 4, 8, 6, 16, 6>(in, out, n, ws, st); }},
        {"seqb, whole tiles, window 16", false,
         [&] { launch<probe::kAlign | probe::kPlain | S, 4, 8, 6, 16>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "seq2") {  // the sequencer's window; nothing waiting
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, S = probe::kSeq;
    cases = quarter_base({
        {"seq, Q THR 4, window 16", false,
         [&] { launch<AQ | S, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"seq, Q THR 4, window 32", false,
         [&] { launch<AQ | S, 4, 8, 6, 32, 4>(in, out, n, ws, st); }},
        {"seq, Q THR 4, window 32, poll sleep 100", false,
         [&] { launch<AQ | S, 4, 8, 6, 32, 4, 100>(in, out, n, ws, st); }},
        {"seq, Q THR 4, window 16, no wait (timing)", false,
         [&] { launch<AQ | S | probe::kNoWait, 4, 8, 6, 16, 4, 200>(in, out, n, ws, st); }},
        {"scan, Q THR 4, no wait (timing)", false,
         [&] { launch<AQ | probe::kNoWait, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "reps") {  // copies of the statuses
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces;
    cases = quarter_base({
        {"scan, Q THR 4, 4 copies", false,
         [&] { launch<AQ | probe::kRep4, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, 16 copies", false,
         [&] { launch<AQ | probe::kRep16, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, 16 copies", false,
         [&] { launch<probe::kAlign | probe::kPlain | probe::kRep16>(in, out, n, ws, st); }},
        {"stream 2, Q THR 4, hand late", false,
         [&] {
           launch<AQ | probe::kStAsync | probe::kStream | probe::kHandLate, 4, 8, 6, 8, 4, 0, 1, 2>(
               in, out, n, ws, st);
         }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "claims") {  // K tiles a claim, a status a claim
    using probe::launch;
    constexpr unsigned AP = probe::kAlign | probe::kPlain, Q = probe::kPieces;
    cases = quarter_base({
        {"scan, Q THR 4, K 2", false,
         [&] { launch<AP | Q, 4, 8, 6, 8, 4, 0, 2>(in, out, n, ws, st); }},
        {"scan, Q THR 4, K 2, window 4", false,
         [&] { launch<AP | Q, 4, 8, 6, 4, 4, 0, 2>(in, out, n, ws, st); }},
        {"scan, Q THR 6, K 2", false,
         [&] { launch<AP | Q, 4, 8, 6, 8, 6, 0, 2>(in, out, n, ws, st); }},
        {"scan, K 2", false, [&] { launch<AP, 4, 8, 6, 8, 0, 0, 2>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "wait") {  // what makes the look-ahead cost
    using probe::launch;
    constexpr unsigned AP = probe::kAlign | probe::kPlain, Q = probe::kPieces, L = probe::kLate,
                       H = probe::kHold, T2 = probe::kTwo, P4 = probe::kPad4;
    cases = quarter_base({
        {"scan, Q THR 4, sleep 300", false,
         [&] { launch<AP | Q, 4, 8, 6, 8, 4, 300>(in, out, n, ws, st); }},
        {"scan, Q THR 4, pad 32 B", false,
         [&] { launch<AP | Q | P4, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, pad 128 B", false,
         [&] { launch<AP | Q | probe::kPad16, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, pad 32 B", false, [&] { launch<AP | P4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, late, pad 32 B", false,
         [&] { launch<AP | Q | L | P4, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, two squads", false,
         [&] { launch<AP | Q | T2, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, two squads, late", false,
         [&] { launch<AP | Q | T2 | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, hold", false,
         [&] { launch<AP | Q | H, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, hold, pad 32 B", false,
         [&] { launch<AP | Q | H | P4, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, two squads, hold", false,
         [&] { launch<AP | Q | T2 | H, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, two squads, hold, pad 32 B", false,
         [&] { launch<AP | Q | T2 | H | P4, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "look") {  // a cheaper look-ahead
    using probe::launch;
    constexpr unsigned AP = probe::kAlign | probe::kPlain, Q = probe::kPieces, L = probe::kLate,
                       G = probe::kGroup;
    cases = quarter_base({
        {"scan, Q THR 4, late", false,
         [&] { launch<AP | Q | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, prepub (timing)", false,
         [&] { launch<AP | Q | probe::kPrepub, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, prepub, late (timing)", false,
         [&] { launch<AP | Q | L | probe::kPrepub, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, prepub (timing)", false, [&] { launch<AP | probe::kPrepub>(in, out, n, ws, st); }},
        {"scan, Q THR 4, hold", false,
         [&] { launch<AP | Q | probe::kHold, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, hold", false, [&] { launch<AP | probe::kHold>(in, out, n, ws, st); }},
        {"scan, Q THR 4, hold, 5 stages", false,
         [&] { launch<AP | Q | probe::kHold, 4, 8, 5, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, group", false,
         [&] { launch<AP | Q | G, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, group, late", false,
         [&] { launch<AP | Q | G | L, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 6, group, late", false,
         [&] { launch<AP | Q | G | L, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
        {"scan, group", false, [&] { launch<AP | G>(in, out, n, ws, st); }},
        {"scan, group, late", false, [&] { launch<AP | G | L>(in, out, n, ws, st); }},
        {"scan, late", false, [&] { launch<AP | L>(in, out, n, ws, st); }},
    });
  }
  if (argc > 1 && std::string(argv[1]) == "parts") {  // what the scan adds to the copy
    using probe::launch;
    constexpr unsigned AQ = probe::kAlign | probe::kPlain | probe::kPieces, C = probe::kCopy,
                       NR = probe::kNoReduce, NS = probe::kNoScan, NL = probe::kNoLook;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"copy, Q THR 4", true, [&] { launch<C | AQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4", false, [&] { launch<AQ, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | NL, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"neither, Q THR 4 (timing)", false,
         [&] { launch<AQ | NR | NS, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"neither, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | NR | NS | NL, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"no reduce, Q THR 4, no look (timing)", false,
         [&] { launch<AQ | NR | NL, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, Q THR 4, window 16", false,
         [&] { launch<AQ, 4, 8, 6, 16, 4>(in, out, n, ws, st); }},
        {"scan, no look (timing)", false,
         [&] { launch<probe::kAlign | probe::kPlain | NL>(in, out, n, ws, st); }},
    };
  }
  if (argc > 1 && std::string(argv[1]) == "pieces") {  // quarter-tile copies, a sliding window
    using probe::launch;
    constexpr unsigned A = probe::kAlign, AP = probe::kAlign | probe::kPlain, C = probe::kCopy,
                       Q = probe::kPieces;
    cases = {
        {"cudaMemcpy", true, [&] { cudaMemcpyAsync(out, in, n * 4, cudaMemcpyDefault, st); }},
        {"v15 shipped (16 KB x 6, 2/SM)", false, [&] { v15::launch(in, out, n, ws, st); }},
        {"copy, aligned", true, [&] { launch<C | A>(in, out, n, ws, st); }},
        {"copy, aligned, THR 2", true, [&] { launch<C | A, 4, 8, 6, 8, 2>(in, out, n, ws, st); }},
        {"copy, quarters", true, [&] { launch<C | A | Q>(in, out, n, ws, st); }},
        {"copy, quarters, THR 3", true,
         [&] { launch<C | A | Q, 4, 8, 6, 8, 3>(in, out, n, ws, st); }},
        {"copy, quarters, THR 4", true,
         [&] { launch<C | A | Q, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"copy, quarters, THR 6", true,
         [&] { launch<C | A | Q, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
        {"copy, quarters, THR 8", true,
         [&] { launch<C | A | Q, 4, 8, 6, 8, 8>(in, out, n, ws, st); }},
        {"copy, quarters, THR 12", true,
         [&] { launch<C | A | Q, 4, 8, 6, 8, 12>(in, out, n, ws, st); }},
        {"scan A+P", false, [&] { launch<AP>(in, out, n, ws, st); }},
        {"scan A+P, quarters", false, [&] { launch<AP | Q>(in, out, n, ws, st); }},
        {"scan A+P, quarters, THR 4", false,
         [&] { launch<AP | Q, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan A+P, quarters, THR 6", false,
         [&] { launch<AP | Q, 4, 8, 6, 8, 6>(in, out, n, ws, st); }},
        {"scan A+P, quarters, THR 8", false,
         [&] { launch<AP | Q, 4, 8, 6, 8, 8>(in, out, n, ws, st); }},
        {"scan A+P, quarters, THR 12", false,
         [&] { launch<AP | Q, 4, 8, 6, 8, 12>(in, out, n, ws, st); }},
        {"scan, no reduce (timing only)", false,
         [&] { launch<AP | probe::kNoReduce>(in, out, n, ws, st); }},
        {"scan, no reduce, quarters, THR 4", false,
         [&] { launch<AP | Q | probe::kNoReduce, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, no warp scan (timing only)", false,
         [&] { launch<AP | probe::kNoScan>(in, out, n, ws, st); }},
        {"scan, no warp scan, quarters, THR 4", false,
         [&] { launch<AP | Q | probe::kNoScan, 4, 8, 6, 8, 4>(in, out, n, ws, st); }},
        {"scan, neither, quarters, THR 4", false,
         [&] {
           launch<AP | Q | probe::kNoScan | probe::kNoReduce, 4, 8, 6, 8, 4>(in, out, n, ws, st);
         }},
        {"scan 8w x 4, quarters, THR 6", false,
         [&] { launch<AP | Q, 8, 4, 6, 8, 6>(in, out, n, ws, st); }},
    };
  }
  // PROBE_ONLY=NAME: the first case and the one named NAME only, one round (for Nsight Compute)
  int rounds = std::getenv("PROBE_CHECK_ONLY") ? 0 : 3;  // 0: the stat32 escape check alone
  if (const char* only = std::getenv("PROBE_ONLY")) {
    std::vector<Case> kept = {cases[0]};
    for (auto& c : cases)
      if (std::string(c.name) == only) kept.push_back(c);
    cases = kept;
    rounds = 1;
  }
  printf("n = %zu int32 (%zu bytes each way), %d SMs; us: median of 31 launches\n", n, n * 4, sms);
  std::vector<std::vector<float>> us(cases.size());
  for (int round = 0; round < rounds; ++round)
    for (size_t c = 0; c < cases.size(); ++c) {
      cudaMemsetAsync(out, 0, n * 4, st);
      const float t = timer.median_us(cases[c].run);
      const unsigned long long bad =
          probe_timing::mismatches(out, cases[c].copy ? in : want, n, scratch, st);
      const cudaError_t err = cudaGetLastError();
      us[c].push_back(t);
      printf("round %d  %-36s %8.2f us  %7.1f GB/s  mismatches %llu  %s\n", round, cases[c].name, t,
             8.0 * n / t / 1e3, bad, cudaGetErrorString(err));
      fflush(stdout);
    }
  printf("\nsummary (median of the three rounds; %% of cudaMemcpy's median)\n");
  std::vector<float> med(cases.size());
  for (size_t c = 0; c < cases.size(); ++c) {
    std::sort(us[c].begin(), us[c].end());
    med[c] = us[c].empty() ? 0.f : us[c][us[c].size() / 2];
  }
  for (size_t c = 0; c < cases.size(); ++c)
    printf("%-36s %8.2f us  %6.1f%%\n", cases[c].name, med[c], 100.0 * med[0] / med[c]);
  if (stat32) {  // the escape path: an input where every seventh tile's aggregate is kEmpty32
    const size_t tile = 4096;
    size_t want_escaped = 0, escaped = 0;
    for (size_t t = 3; (t + 1) * tile <= n; t += 7, ++want_escaped) {
      uint32_t rest = 0;
      for (size_t k = 1; k < tile; ++k) rest += uint32_t(h[t * tile + k]);
      h[t * tile] = int32_t(probe::kEmpty32 - rest);
    }
    for (size_t t = 0; (t + 1) * tile <= n; ++t) {
      uint32_t sum = 0;
      for (size_t k = 0; k < tile; ++k) sum += uint32_t(h[t * tile + k]);
      escaped += sum == probe::kEmpty32;
    }
    cudaMemcpy(in, h.data(), n * 4, cudaMemcpyDefault);
    cub::DeviceScan::InclusiveSum(cub_tmp, tb, in, want, int(n), st);
    printf("\nescape check: %zu tiles (of %zu set so) with an aggregate of kEmpty32\n", escaped,
           want_escaped);
    fflush(stdout);
    for (auto& c : cases) {
      if (c.copy || std::string(c.name).find("timing") != std::string::npos) continue;
      printf("escape check: %s, launched\n", c.name);
      fflush(stdout);
      cudaMemsetAsync(out, 0, n * 4, st);
      c.run();
      const unsigned long long bad = probe_timing::mismatches(out, want, n, scratch, st);
      printf("escape check: %-36s mismatches %llu  %s\n", c.name, bad,
             cudaGetErrorString(cudaGetLastError()));
      fflush(stdout);
    }
  }
  if (trace) {  // one more launch of each traced form, its per-block record
    printf("\ntraces (one launch each; us from the first block's start)\n");
    static unsigned long long h[2048][8];
    for (auto& c : cases) {
      if (std::string(c.name).rfind("trace:", 0) != 0) continue;
      std::memset(h, 0, sizeof h);
      cudaMemcpyToSymbol(probe::g_trace, h, sizeof h);
      c.run();
      cudaDeviceSynchronize();
      cudaMemcpyFromSymbol(h, probe::g_trace, sizeof h);
      unsigned long long t0 = ~0ull, look = 0, store = 0, trips = 0, claims = 0, in_trips = 0;
      unsigned blocks = 0, look_last = 0;
      std::vector<double> lag;
      for (unsigned b = 0; b < 2048 && h[b][0]; ++b) {
        ++blocks;
        t0 = std::min(t0, h[b][0]);
        look = std::max(look, h[b][1]);
        store = std::max(store, h[b][2]);
        trips += h[b][3];
        claims += h[b][4];
        in_trips += h[b][5];
        if (h[b][1] > h[b][2]) ++look_last;
        lag.push_back((double(h[b][1]) - double(h[b][2])) / 1e3);
      }
      std::sort(lag.begin(), lag.end());
      printf(
          "%s: %u blocks; last scan-store end %.2f us, last look-ahead end %.2f us; look-ahead "
          "ends after the block's scan-store in %u blocks (its lag, us: median %.2f, max %.2f); "
          "%.2f round trips a claim, %.3f us a round trip, %.3f us in round trips a claim\n",
          c.name, blocks, (store - t0) / 1e3, (look - t0) / 1e3, look_last,
          lag.empty() ? 0.0 : lag[lag.size() / 2], lag.empty() ? 0.0 : lag.back(),
          claims ? double(trips) / claims : 0.0, trips ? in_trips / 1e3 / trips : 0.0,
          claims ? in_trips / 1e3 / claims : 0.0);
    }
  }
  return 0;
}
