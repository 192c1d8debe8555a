// The deterministic parallel loops (algorithms/core/parallel.h): every block
// runs exactly once, results do not depend on the thread count, reductions fold
// in block order, exceptions reach the caller, and the thread-count rule.
#include "algorithms/core/parallel.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace cilab;

namespace {

// Restores the default bound when a test ends (also on failure).
struct ThreadBound {
  explicit ThreadBound(int threads) { set_max_threads(threads); }
  ~ThreadBound() { set_max_threads(0); }
};

// Terms of wildly different magnitudes: their float sum depends on the order.
double term(int i) {
  const double sign = (i % 3 == 0) ? -1.0 : 1.0;
  return sign * std::ldexp(1.0 + 0.1234567 * (i % 7), (i * 7919) % 60 - 30);
}

constexpr int kBlocks = 37;
constexpr int kPerBlock = 101;

// A block's partial sum (sequential inside the block).
double block_sum(int b) {
  double s = 0.0;
  for (int i = b * kPerBlock; i < (b + 1) * kPerBlock; ++i) s += term(i);
  return s;
}

}  // namespace

TEST_CASE("parallel: every block runs exactly once, for any thread count") {
  for (int threads : {1, 2, 3, 8, 64}) {
    for (int blocks : {0, 1, 2, 7, 100}) {
      std::vector<std::atomic<int>> runs(static_cast<size_t>(blocks));
      for (std::atomic<int>& r : runs) r.store(0);
      parallel_for_blocks(blocks, threads, [&](int b) {
        REQUIRE(b >= 0);
        REQUIRE(b < blocks);
        runs[static_cast<size_t>(b)].fetch_add(1);
      });
      for (int b = 0; b < blocks; ++b) CHECK(runs[static_cast<size_t>(b)].load() == 1);
    }
  }
}

TEST_CASE("parallel: loops really use several threads when asked") {
  // Each block waits until at least two threads have entered some block (or
  // a time-out), so a pool that only ever ran the caller would fail.
  const ThreadBound bound(4);
  const int threads = parallel_threads(8, 1.0, 0.0);
  CHECK(threads == 4);
  std::mutex mu;
  std::set<std::thread::id> ids;
  parallel_for_blocks(8, threads, [&](int) {
    {
      std::lock_guard<std::mutex> lock(mu);
      ids.insert(std::this_thread::get_id());
    }
    for (int spin = 0; spin < 2000; ++spin) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (ids.size() >= 2) return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  CHECK(ids.size() >= 2);
  CHECK(ids.size() <= 4);
}

TEST_CASE("parallel: results are identical for 1, 2 and 8 threads") {
  auto run = [](int bound) {
    const ThreadBound b(bound);
    std::vector<double> out(static_cast<size_t>(kBlocks));
    parallel_for_blocks(kBlocks, parallel_threads(kBlocks, 1e9, 1.0),
                        [&](int blk) { out[static_cast<size_t>(blk)] = block_sum(blk); });
    return out;
  };
  const std::vector<double> one = run(1), two = run(2), eight = run(8);
  CHECK(one == two);
  CHECK(one == eight);
}

TEST_CASE("parallel: a reduction folds the partials in block order, bit-identical to serial") {
  // Serial reference: partials added left to right.
  double serial = 0.0;
  for (int b = 0; b < kBlocks; ++b) serial += block_sum(b);
  // A different order gives a different sum for these terms (the test can fail).
  double reversed = 0.0;
  for (int b = kBlocks - 1; b >= 0; --b) reversed += block_sum(b);
  CHECK(reversed != serial);

  for (int threads : {1, 2, 8}) {
    double total = 0.0;
    std::vector<int> order;
    parallel_reduce_blocks(
        kBlocks, threads, [](int b) { return block_sum(b); },
        [&](int b, double part) {
          order.push_back(b);
          total += part;
        });
    CHECK(total == serial);
    REQUIRE(order.size() == static_cast<size_t>(kBlocks));
    for (int b = 0; b < kBlocks; ++b) CHECK(order[static_cast<size_t>(b)] == b);
  }
  // Move-only partials are handed over, not copied.
  int folded = 0;
  parallel_reduce_blocks(
      5, 2, [](int b) { return std::make_unique<int>(b); },
      [&](int b, std::unique_ptr<int> p) { folded += (*p == b); });
  CHECK(folded == 5);
}

TEST_CASE("parallel: an exception in a block reaches the caller (the lowest throwing block's)") {
  for (int threads : {1, 2, 8}) {
    std::atomic<int> ran{0};
    std::string what;
    try {
      parallel_for_blocks(50, threads, [&](int b) {
        ran.fetch_add(1);
        if (b == 13 || b == 17 || b == 40) throw std::runtime_error("block " + std::to_string(b));
      });
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
    CHECK(what == "block 13");  // as the serial loop: blocks 0..13 always ran
    CHECK(ran.load() >= 14);
    CHECK(ran.load() <= 50);
  }
  // The reduction folds nothing when a map throws.
  int folded = 0;
  CHECK_THROWS_AS(parallel_reduce_blocks(
                      10, 4,
                      [](int b) -> double {
                        if (b == 3) throw std::invalid_argument("bad block");
                        return 1.0;
                      },
                      [&](int, double) { ++folded; }),
                  std::invalid_argument);
  CHECK(folded == 0);
  // The loop still works afterwards.
  std::atomic<int> after{0};
  parallel_for_blocks(10, 4, [&](int) { after.fetch_add(1); });
  CHECK(after.load() == 10);
}

TEST_CASE("parallel: thread-count rule and the global bound") {
  {
    const ThreadBound bound(0);
    CHECK(max_threads() == std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
  }
  const ThreadBound bound(8);
  CHECK(max_threads() == 8);
  CHECK(parallel_threads(1, 1e12, 1.0) == 1);     // one block
  CHECK(parallel_threads(0, 1e12, 1.0) == 1);     // no block
  CHECK(parallel_threads(100, 10.0, 100.0) == 1); // below the minimum work
  CHECK(parallel_threads(100, 1e12, 100.0) == 8); // the bound
  CHECK(parallel_threads(3, 1e12, 100.0) == 3);   // never more threads than blocks
  set_max_threads(1000);
  CHECK(parallel_threads(100, 1e12, 0.0) == kMaxParallelThreads);
  set_max_threads(-5);  // negative = default
  CHECK(max_threads() == std::max(1, static_cast<int>(std::thread::hardware_concurrency())));
}

TEST_CASE("parallel: many loops in a row on the persistent pool stay exact") {
  // Thousands of short loops (the network library runs a few per layer and
  // step): every block once, and the same sums as the serial loop, each time.
  const ThreadBound bound(4);
  std::vector<double> serial(static_cast<size_t>(kBlocks));
  for (int b = 0; b < kBlocks; ++b) serial[static_cast<size_t>(b)] = block_sum(b);
  std::vector<double> out(static_cast<size_t>(kBlocks));
  int bad = 0;
  for (int rep = 0; rep < 2000; ++rep) {
    const int blocks = 1 + rep % kBlocks;
    const int threads = 2 + rep % 3;
    std::fill(out.begin(), out.end(), 0.0);
    std::vector<std::atomic<int>> runs(static_cast<size_t>(blocks));
    for (std::atomic<int>& r : runs) r.store(0);
    parallel_for_blocks(blocks, threads, [&](int b) {
      runs[static_cast<size_t>(b)].fetch_add(1);
      out[static_cast<size_t>(b)] = block_sum(b);
    });
    for (int b = 0; b < blocks; ++b) {
      const size_t i = static_cast<size_t>(b);
      bad += runs[i].load() != 1 || out[i] != serial[i];
    }
  }
  CHECK(bad == 0);
}

TEST_CASE("parallel: a loop nested inside a block runs (serially) and gives the same results") {
  const ThreadBound bound(4);
  constexpr int kOuter = 6, kInner = 9;
  std::vector<double> expect(static_cast<size_t>(kOuter * kInner));
  for (int i = 0; i < kOuter * kInner; ++i) expect[static_cast<size_t>(i)] = block_sum(i % kBlocks);
  for (int threads : {1, 2, 4}) {
    std::vector<double> got(expect.size(), 0.0);
    std::vector<std::atomic<int>> runs(expect.size());
    for (std::atomic<int>& r : runs) r.store(0);
    parallel_for_blocks(kOuter, threads, [&](int o) {
      parallel_for_blocks(kInner, threads, [&](int i) {
        const int k = o * kInner + i;
        runs[static_cast<size_t>(k)].fetch_add(1);
        got[static_cast<size_t>(k)] = block_sum(k % kBlocks);
      });
    });
    CHECK(got == expect);
    for (const std::atomic<int>& r : runs) CHECK(r.load() == 1);
  }
  // A nested reduction folds in block order too, and its exception reaches the outer caller.
  std::vector<double> sums(3, 0.0);
  parallel_for_blocks(3, 2, [&](int o) {
    parallel_reduce_blocks(
        kBlocks, 2, [](int b) { return block_sum(b); },
        [&](int, double p) { sums[static_cast<size_t>(o)] += p; });
  });
  double serial = 0.0;
  for (int b = 0; b < kBlocks; ++b) serial += block_sum(b);
  for (double s : sums) CHECK(s == serial);
  std::string what;
  try {
    parallel_for_blocks(4, 2, [&](int o) {
      parallel_for_blocks(5, 2, [&](int i) {
        if (o >= 1 && i == 2) throw std::runtime_error("inner " + std::to_string(o));
      });
    });
  } catch (const std::runtime_error& e) {
    what = e.what();
  }
  CHECK(what == "inner 1");
}

TEST_CASE("parallel: loops called from two threads at once are both exact") {
  // Two runners (or a runner and a view job) may start loops at the same
  // time: one owns the pool, the other runs serially; both must be right.
  const ThreadBound bound(4);
  double serial = 0.0;
  for (int b = 0; b < kBlocks; ++b) serial += block_sum(b);
  auto caller = [&](int reps, int* bad) {
    for (int rep = 0; rep < reps; ++rep) {
      double total = 0.0;
      std::vector<std::atomic<int>> runs(static_cast<size_t>(kBlocks));
      for (std::atomic<int>& r : runs) r.store(0);
      parallel_reduce_blocks(
          kBlocks, 2 + rep % 3,
          [&](int b) {
            runs[static_cast<size_t>(b)].fetch_add(1);
            return block_sum(b);
          },
          [&](int, double p) { total += p; });
      *bad += total != serial;
      for (const std::atomic<int>& r : runs) *bad += r.load() != 1;
      // Every few loops one throws: the exception stays with its own caller.
      if (rep % 50 == 7) {
        std::string what;
        try {
          parallel_for_blocks(20, 2, [&](int b) {
            if (b == 5 || b == 11) throw std::runtime_error("block " + std::to_string(b));
          });
        } catch (const std::runtime_error& e) {
          what = e.what();
        }
        *bad += what != "block 5";
      }
    }
  };
  int bad_a = 0, bad_b = 0;
  std::thread other(caller, 500, &bad_b);
  caller(500, &bad_a);
  other.join();
  CHECK(bad_a == 0);
  CHECK(bad_b == 0);
}

TEST_CASE("parallel: inside a SerialScope a thread's loops run serially in it, with the same results") {
  const ThreadBound bound(4);
  auto sum = [] {
    double s = 0.0;
    parallel_reduce_blocks(kBlocks, 4, [](int b) { return block_sum(b); }, [&](int, double p) { s += p; });
    return s;
  };
  const double parallel_sum = sum();
  std::mutex ids_mu;
  std::set<std::thread::id> ids;
  double serial_sum = 0.0;
  {
    const SerialScope serial;
    parallel_for_blocks(8, 4, [&](int) {
      std::lock_guard<std::mutex> lock(ids_mu);
      ids.insert(std::this_thread::get_id());
    });
    serial_sum = sum();
  }
  CHECK(ids.size() == 1);
  CHECK((*ids.begin() == std::this_thread::get_id()));
  CHECK(serial_sum == parallel_sum);
  // The scope ended: loops use several threads again (as in "loops really use several threads").
  std::mutex mu;
  std::set<std::thread::id> after;
  parallel_for_blocks(8, 4, [&](int) {
    {
      std::lock_guard<std::mutex> lock(mu);
      after.insert(std::this_thread::get_id());
    }
    for (int spin = 0; spin < 2000; ++spin) {
      {
        std::lock_guard<std::mutex> lock(mu);
        if (after.size() >= 2) return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  CHECK(after.size() >= 2);
}
