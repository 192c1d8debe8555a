// The definitions behind module_base.h, for a module's own .cpp only: write
// CILAB_MODULE_STATE(Module) once, after its State and its `module_params`
// overload, which instantiates them there (explicit instantiation may name the
// module's private State).
#pragma once

#include "algorithms/core/module_base.h"

#include <utility>

namespace cilab {

template <class T>
StatePtr<T>::StatePtr() : p_(new T()) {}

template <class T>
StatePtr<T>::StatePtr(const StatePtr& other) : p_(new T(*other.p_)) {}

template <class T>
StatePtr<T>& StatePtr<T>::operator=(const StatePtr& other) {
  if (this != &other) {
    T* copy = new T(*other.p_);
    delete p_;
    p_ = copy;
  }
  return *this;
}

template <class T>
StatePtr<T>::~StatePtr() {
  delete p_;
}

template <class T>
StatePtr<T>& StatePtr<T>::operator=(std::unique_ptr<T> p) {
  delete p_;
  p_ = p.release();
  return *this;
}

template <class Derived>
const ParamSpecs& ModuleBase<Derived>::params() const {
  return module_params(static_cast<const Derived*>(this)).specs();
}

template <class Derived>
std::unique_ptr<Module> ModuleBase<Derived>::clone() const {
  return std::make_unique<Derived>(static_cast<const Derived&>(*this));
}

}  // namespace cilab

// Instantiates a module's shared plumbing in its .cpp (at namespace scope, inside
// namespace cilab).
#define CILAB_MODULE_STATE(ModuleType)          \
  template class StatePtr<ModuleType::State>; \
  template class ModuleBase<ModuleType>;
