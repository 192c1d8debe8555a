// Deterministic parallel loops: see parallel.h for the contract and why the
// results do not depend on the thread count.
#include "algorithms/core/parallel.h"

#include <algorithm>
#include <atomic>
#include <climits>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>

namespace cilab {

namespace {

// 0 = use the hardware concurrency.
std::atomic<int> g_max_threads{0};

// Read once at start-up (the call is a system query).
const int kHardwareThreads = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));

}  // namespace

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
  threads = std::min(threads, blocks);
  std::atomic<int> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mu;
  int error_block = INT_MAX;
  std::exception_ptr error;
  auto worker = [&]() {
    while (!failed.load(std::memory_order_relaxed)) {
      const int b = next.fetch_add(1);
      if (b >= blocks) return;
      try {
        fn(body, b);
      } catch (...) {
        std::lock_guard<std::mutex> lock(error_mu);
        if (b < error_block) {
          error_block = b;
          error = std::current_exception();
        }
        failed.store(true, std::memory_order_relaxed);
      }
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(static_cast<size_t>(std::max(0, threads - 1)));
  for (int t = 1; t < threads; ++t) {
    try {
      pool.emplace_back(worker);
    } catch (const std::system_error&) {
      break;  // no more threads available: run on those we have
    }
  }
  worker();
  for (std::thread& t : pool) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace parallel_detail

}  // namespace cilab
