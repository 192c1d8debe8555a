// Deterministic parallel loops: see parallel.h for the contract and why the
// results do not depend on the thread count.
//
// The pool: up to kMaxParallelThreads - 1 worker threads, started lazily (the
// first loop that asks for t threads starts the missing t - 1) and joined when
// the program exits (the pool is a namespace-scope object). One loop runs on
// the pool at a time: its caller owns the pool (a try-lock), publishes the job
// and offers `threads - 1` seats; idle workers take seats and, like the
// caller, pull blocks from the job's atomic counter. When the caller runs out
// of blocks it withdraws the seats nobody took (a descheduled worker never
// delays it) and waits only for the workers that sat down. A loop that finds
// the pool owned (a loop nested inside a block, or a second thread's loop at
// the same time) runs serially in its own caller: same results, no deadlock.
//
// Parking: a worker that finds no job spins for about kSpinNs (the gap between
// the loops of one training step is often shorter: handing a job to a spinning
// worker costs well under a microsecond), then sleeps on a condition variable
// (waking it costs a futex wake-up, tens of microseconds). The caller waits
// for its seated workers the same way.
#include "algorithms/core/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <climits>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace cilab {

namespace {

// 0 = use the hardware concurrency.
std::atomic<int> g_max_threads{0};

// Read once at start-up (the call is a system query).
const int kHardwareThreads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));

// How long an idle worker (or a waiting caller) spins before it sleeps.
constexpr std::chrono::nanoseconds kSpinNs{100000};
// After this much of it, the spin yields the core once per round.
constexpr std::chrono::nanoseconds kPoliteAfterNs{20000};

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#else
  std::this_thread::yield();
#endif
}

// Spins until ready() or about kSpinNs have passed; returns ready().
template <class Ready>
bool spin_until(const Ready& ready) {
  const auto deadline = std::chrono::steady_clock::now() + kSpinNs;
  for (;;) {
    for (int i = 0; i < 64; ++i) {
      if (ready()) return true;
      cpu_relax();
    }
    const auto now = std::chrono::steady_clock::now();
    if (now >= deadline) return ready();
    // Past the first few microseconds, let other runnable threads on this
    // core go first (the machine may be shared): a yield per round.
    if (now + kSpinNs - kPoliteAfterNs >= deadline) std::this_thread::yield();
  }
}

// True while g_pool exists (constant-initialised, so valid before its
// construction and after its destruction: loops then run serially).
std::atomic<bool> g_pool_alive{false};
// parallel_stats(): loops the pool ran, blocks its workers ran.
std::atomic<long long> g_pool_loops{0};
std::atomic<long long> g_worker_blocks{0};

class Pool {
 public:
  Pool() { g_pool_alive.store(true); }
  Pool(const Pool&) = delete;
  Pool& operator=(const Pool&) = delete;
  ~Pool() {
    g_pool_alive.store(false);
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
  }

  // Runs the loop on the pool; false (nothing run) when the pool is owned by
  // another loop: the caller then runs it serially.
  bool run(int blocks, int threads, parallel_detail::BlockFn fn, const void* body) {
    if (owned_.exchange(true, std::memory_order_acquire)) return false;
    struct Release {
      std::atomic<bool>& owned;
      ~Release() { owned.store(false, std::memory_order_release); }
    } release{owned_};

    const int seats = std::min(threads - 1, start_workers(threads - 1));
    if (seats < 1) return false;
    fn_ = fn;
    body_ = body;
    blocks_ = blocks;
    next_.store(0, std::memory_order_relaxed);
    failed_.store(false, std::memory_order_relaxed);
    error_block_ = INT_MAX;
    error_ = nullptr;
    finished_.store(0, std::memory_order_relaxed);
    {
      std::lock_guard<std::mutex> lock(mu_);
      seats_.store(seats, std::memory_order_release);
    }
    if (sleeping_.load(std::memory_order_seq_cst) > 0) wake_.notify_all();

    work();
    // Withdraw the seats nobody took; wait for the workers that sat down.
    const int seated = seats - seats_.exchange(0, std::memory_order_acq_rel);
    auto all_done = [&] { return finished_.load(std::memory_order_acquire) == seated; };
    if (!spin_until(all_done)) {
      std::unique_lock<std::mutex> lock(mu_);
      done_.wait(lock, all_done);
    }
    if (error_) {
      std::exception_ptr e = std::move(error_);
      error_ = nullptr;
      std::rethrow_exception(e);
    }
    return true;
  }

 private:
  // Starts workers until there are `want` (or the system refuses); returns how many there are.
  int start_workers(int want) {
    want = std::min(want, kMaxParallelThreads - 1);
    while (static_cast<int>(workers_.size()) < want) {
      try {
        workers_.emplace_back([this] { worker_loop(); });
      } catch (const std::system_error&) {
        break;  // no more threads available: run on those we have
      }
    }
    return static_cast<int>(workers_.size());
  }

  // Pulls blocks of the current job until none is left or one failed; returns how many it ran.
  int work() {
    int ran = 0;
    while (!failed_.load(std::memory_order_relaxed)) {
      const int b = next_.fetch_add(1, std::memory_order_relaxed);
      if (b >= blocks_) return ran;
      ++ran;
      try {
        fn_(body_, b);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu_);
        if (b < error_block_) {
          error_block_ = b;
          error_ = std::current_exception();
        }
        failed_.store(true, std::memory_order_relaxed);
      }
    }
    return ran;
  }

  // Takes a seat if one is offered.
  bool take_seat() {
    int s = seats_.load(std::memory_order_relaxed);
    while (s > 0)
      if (seats_.compare_exchange_weak(s, s - 1, std::memory_order_acquire,
                                       std::memory_order_relaxed))
        return true;
    return false;
  }

  void worker_loop() {
    for (;;) {
      if (!spin_until([this] { return seats_.load(std::memory_order_relaxed) > 0; })) {
        std::unique_lock<std::mutex> lock(mu_);
        sleeping_.fetch_add(1, std::memory_order_seq_cst);
        wake_.wait(lock, [this] { return stop_ || seats_.load(std::memory_order_relaxed) > 0; });
        sleeping_.fetch_sub(1, std::memory_order_relaxed);
        if (stop_) return;
      }
      if (!take_seat()) continue;
      g_worker_blocks.fetch_add(work(), std::memory_order_relaxed);
      finished_.fetch_add(1, std::memory_order_acq_rel);
      // The caller may be asleep: notify under the lock (it re-checks under it).
      std::lock_guard<std::mutex> lock(mu_);
      done_.notify_one();
    }
  }

  std::atomic<bool> owned_{false};  // a loop owns the pool
  std::vector<std::thread> workers_;
  std::mutex mu_;
  std::condition_variable wake_;  // workers: a job was offered (or stop)
  std::condition_variable done_;  // caller: a seated worker finished
  std::atomic<int> sleeping_{0};  // workers blocked on wake_
  bool stop_ = false;

  // The current job (written by the owner before seats_ is offered).
  std::atomic<int> seats_{0};
  std::atomic<int> finished_{0};
  parallel_detail::BlockFn fn_ = nullptr;
  const void* body_ = nullptr;
  int blocks_ = 0;
  std::atomic<int> next_{0};
  std::atomic<bool> failed_{false};
  std::mutex error_mu_;
  int error_block_ = INT_MAX;
  std::exception_ptr error_;
};

Pool g_pool;

// Set by SerialScope: this thread's loops stay serial.
thread_local bool t_serial = false;

}  // namespace

SerialScope::SerialScope() : previous_(t_serial) { t_serial = true; }
SerialScope::~SerialScope() { t_serial = previous_; }

ParallelStats parallel_stats() {
  ParallelStats s;
  s.pool_loops = g_pool_loops.load(std::memory_order_relaxed);
  s.worker_blocks = g_worker_blocks.load(std::memory_order_relaxed);
  return s;
}

void set_max_threads(int threads) { g_max_threads.store(std::max(0, threads)); }

int max_threads() {
  const int limit = g_max_threads.load();
  return limit > 0 ? limit : kHardwareThreads;
}

int parallel_threads(int blocks, double work, double min_work) {
  if (blocks <= 1 || work < min_work) return 1;
  return std::max(1, std::min({blocks, max_threads(), kMaxParallelThreads}));
}

namespace parallel_detail {

void run_blocks(int blocks, int threads, BlockFn fn, const void* body) {
  threads = std::min({threads, blocks, kMaxParallelThreads});
  if (threads > 1 && !t_serial && g_pool_alive.load(std::memory_order_acquire) &&
      g_pool.run(blocks, threads, fn, body)) {
    g_pool_loops.fetch_add(1, std::memory_order_relaxed);
    return;
  }
  // Serial: nested or concurrent loop, a SerialScope, or no worker could be started. The
  // first block that throws is the lowest-numbered one.
  for (int b = 0; b < blocks; ++b) fn(body, b);
}

}  // namespace parallel_detail

}  // namespace cilab
