// Deterministic parallel loops over a fixed partition of the work.
//
// The caller cuts its work into `blocks` pieces whose boundaries depend only on
// the problem (e.g. fixed runs of kBlockRows rows), never on the machine, and
// writes a loop body f(b) that touches only block b's outputs (its rows, its
// own partial sums). parallel_for_blocks() runs f(b) once for every block on up
// to `threads` threads (the caller is one of them; blocks are handed out in
// increasing order from an atomic counter). parallel_reduce_blocks() does the
// same for a body that returns a partial result, then folds the partials on
// the calling thread in block order 0, 1, ..., blocks - 1.
//
// Why results never depend on the core count: a block's computation is the
// same instructions on the same inputs whichever thread runs it, and every
// combination of partials (floating-point sums included) happens in the fixed
// block order on one thread. The thread count only changes WHEN a block runs,
// never WHAT it computes or in which order partials are added; so 1, 2 or 16
// threads give bit-identical results. (The partition must not be derived from
// the thread count, and bodies must not share accumulators.)
//
// Exceptions: if a body throws, no further block is started; blocks already
// running finish; then the exception of the LOWEST-numbered block that threw is
// rethrown in the caller, after every worker has joined. Since blocks are handed
// out in order, every block below the first thrower has run, so the caller sees
// the same exception the serial loop would raise (for bodies whose failure
// depends only on their block). Outputs of the other blocks are unspecified.
// If the system cannot start a thread, the loop runs on fewer threads.
//
// Threads: a persistent pool (parallel.cpp), started lazily by the first loop
// that needs it and joined at exit. Idle workers spin for ~100 us, then sleep,
// so the loops of one training step follow each other cheaply. One loop owns
// the pool at a time: a loop started inside a block (nested), or from another
// thread while the pool is busy, runs serially in its own caller (same
// results; no deadlock, no oversubscription).
//
// Thread count: parallel_threads(blocks, work, min_work) gives 1 below a
// minimum amount of work and otherwise min(blocks, max_threads(),
// kMaxParallelThreads). Measured on the 2-core machine: handing a 2-block
// loop to a worker still spinning from the previous loop costs ~0.1 us; a
// loop that finds the workers asleep pays a futex wake-up (the caller starts
// on the blocks at once and never waits for a worker that has not woken: a
// few us idle, up to ~40 us at the 90th percentile under load), where the
// former start-a-thread-per-loop cost 30-120 us per loop.
// set_max_threads() is the one global bound (tests and benches set it;
// 0 = hardware_concurrency).
#pragma once

#include <atomic>
#include <cstddef>
#include <memory>
#include <type_traits>
#include <utility>
#include <vector>

namespace cilab {

// Never more threads than this per loop, whatever the bound.
constexpr int kMaxParallelThreads = 16;

// Sets the global bound on threads per loop (0 = hardware_concurrency, the
// default; negative = 0). Results do not depend on it; tests and benches use it.
void set_max_threads(int threads);

// The bound in force: the set_max_threads() value, or hardware_concurrency
// (at least 1) when it is 0.
int max_threads();

// Threads for a loop over `blocks` blocks of total cost `work` (any unit the
// caller also uses for `min_work`): 1 when blocks <= 1 or work < min_work,
// else min(blocks, max_threads(), kMaxParallelThreads).
int parallel_threads(int blocks, double work, double min_work);

// While alive, every parallel loop started on the constructing thread runs
// serially in it (same results). For background work beside a training run (a
// view's pictures job): its loops then never take the pool from the training
// loop's (one loop owns the pool at a time; the other runs serially).
class SerialScope {
 public:
  SerialScope();
  ~SerialScope();
  SerialScope(const SerialScope&) = delete;
  SerialScope& operator=(const SerialScope&) = delete;

 private:
  bool previous_;
};

// What the pool has done since the process started (tests read the difference
// around a run to assert that a loop really was split): loops handed to the
// pool with more than one thread, and blocks that a worker (not the calling
// thread) ran.
struct ParallelStats {
  long long pool_loops = 0;
  long long worker_blocks = 0;
};
ParallelStats parallel_stats();

namespace parallel_detail {
using BlockFn = void (*)(const void* body, int block);
// Runs fn(body, b) for b in [0, blocks) on up to `threads` threads (see above).
void run_blocks(int blocks, int threads, BlockFn fn, const void* body);
}  // namespace parallel_detail

// Runs f(b) exactly once for every b in [0, blocks) on up to `threads` threads
// (the caller included; threads <= 1 = a plain loop in the caller). f must
// write only block-private outputs. Exceptions: see the header comment.
template <class F>
void parallel_for_blocks(int blocks, int threads, const F& f) {
  if (threads <= 1 || blocks <= 1) {
    for (int b = 0; b < blocks; ++b) f(b);
    return;
  }
  parallel_detail::run_blocks(
      blocks, threads, [](const void* body, int b) { (*static_cast<const F*>(body))(b); }, &f);
}

// Computes part_b = map(b) for every block in parallel (as parallel_for_blocks),
// then calls fold(b, std::move(part_b)) for b = 0, 1, ..., blocks - 1 on the
// calling thread: a reduction whose order is fixed by the partition. The
// partial type (map's return type) must be default-constructible. If a map
// throws, nothing is folded.
template <class Map, class Fold>
void parallel_reduce_blocks(int blocks, int threads, const Map& map, const Fold& fold) {
  using Part = std::decay_t<decltype(map(0))>;
  std::vector<Part> parts(static_cast<size_t>(blocks > 0 ? blocks : 0));
  parallel_for_blocks(blocks, threads, [&](int b) { parts[static_cast<size_t>(b)] = map(b); });
  for (int b = 0; b < blocks; ++b) fold(b, std::move(parts[static_cast<size_t>(b)]));
}

// Marks a function whose unsynchronised writes to shared memory are intended:
// Hogwild SGD (word2vec with workers > 1 updates shared embedding rows from
// several threads without locks, as gensim and word2vec.c do; a lost update is
// noise the method tolerates). That is a data race by design, so ThreadSanitizer
// does not instrument these functions (only these: every other loop stays
// checked by make test-tsan). Put it on every function of the racy loop, the
// inlined helpers included (GCC inlines only between functions of equal
// sanitizer attributes). No effect outside a -fsanitize=thread build.
#define CILAB_HOGWILD __attribute__((no_sanitize("thread")))

// Whether the buffer held through `p` may be reused in place: it is set and no
// one else holds it (use_count() == 1). When true, an acquire fence has paired
// with the release in the last other owner's reference drop, so that owner's
// reads happen before the caller's writes. Under ThreadSanitizer, which does not
// model fences (GCC refuses them there: -Wtsan), always false: callers then
// allocate a fresh buffer, with the same results.
template <class T>
bool sole_owner(const std::shared_ptr<T>& p) {
#if defined(__SANITIZE_THREAD__)
  static_cast<void>(p);
  return false;
#else
  if (!p || p.use_count() != 1) return false;
  std::atomic_thread_fence(std::memory_order_acquire);
  return true;
#endif
}

}  // namespace cilab
