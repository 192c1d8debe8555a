// A 1-vs-2-thread test that can fail: runs the same work on 1 thread and on 2,
// and checks that the 2-thread run really went through the pool (loops handed to
// it, blocks its workers ran) and the 1-thread run never did. The caller compares
// the two results (bit-identical is the contract: parallel loops fold their
// partial results in block order).
#pragma once

#include "algorithms/core/parallel.h"

#include <doctest/doctest.h>

#include <utility>

namespace cilab::test_support {

// run(threads) does the work with at most `threads` threads (it calls set_max_threads) and
// returns what the test compares; `min_pool_loops`: loops the 2-thread run must hand to the pool.
template <class Run>
auto one_and_two_threads(Run run, long long min_pool_loops) {
  const ParallelStats before_one = parallel_stats();
  auto one = run(1);
  const ParallelStats before_two = parallel_stats();
  auto two = run(2);
  const ParallelStats after_two = parallel_stats();
  set_max_threads(0);
  CHECK_MESSAGE(before_two.pool_loops == before_one.pool_loops, "the 1-thread run used the pool");
  CHECK_MESSAGE(after_two.pool_loops >= before_two.pool_loops + min_pool_loops,
                "the 2-thread run handed " << after_two.pool_loops - before_two.pool_loops
                                           << " loops to the pool (below the parallel threshold?)");
  CHECK_MESSAGE(after_two.worker_blocks > before_two.worker_blocks, "no worker ran a block of the 2-thread run");
  return std::make_pair(std::move(one), std::move(two));
}

}  // namespace cilab::test_support
