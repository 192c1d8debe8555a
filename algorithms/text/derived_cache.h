// DerivedCache: the last object a text module derived from a corpus (its
// vocabulary, encoded corpus, co-occurrence matrix, oracle probes), kept while
// any module still holds it, so a restart with other training parameters
// (lr, vector_size, seed, epochs, ...) on GCIDE takes milliseconds instead of
// seconds. Keyed by the corpus object and a text key of the options the object
// depends on; thread-safe (the window's run, a comparison run and a sweep may
// reset at once). Cached objects are immutable (shared_ptr<const T>).
#pragma once

#include "algorithms/core/dataset.h"

#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace cilab {

template <class T>
class DerivedCache {
 public:
  // The cached object when `data` and `key` are those it was built from and a
  // module still holds it; else build() (outside the lock; its exception
  // propagates and leaves the cache as it was), remembered for the next call.
  template <class Build>
  std::shared_ptr<const T> get(const std::shared_ptr<const Dataset>& data, const std::string& key, Build&& build) {
    {
      std::lock_guard<std::mutex> lk(mu_);
      const std::shared_ptr<const Dataset> d = data_.lock();
      if (d && d == data && key == key_)
        if (std::shared_ptr<const T> v = value_.lock()) return v;
    }
    std::shared_ptr<const T> v = std::forward<Build>(build)();
    std::lock_guard<std::mutex> lk(mu_);
    data_ = data;
    key_ = key;
    value_ = v;
    return v;
  }

 private:
  std::mutex mu_;
  std::weak_ptr<const Dataset> data_;
  std::string key_;
  std::weak_ptr<const T> value_;
};

}  // namespace cilab
