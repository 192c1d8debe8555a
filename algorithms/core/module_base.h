// The plumbing every module shares, written once: a module derives from
// ModuleBase<its own type> (CRTP) and writes only its idea.
//
//   // kmeans.h: the public API, the Params struct, the metric enum
//   class KMeans : public ModuleBase<KMeans> {
//     ...
//    private:
//     struct State;            // every member (kmeans.cpp)
//     StatePtr<State> st_;
//   };
//
//   // kmeans.cpp
//   struct KMeans::State { ... };   // a value type: its copy is the module's copy
//   const ParamTable<KMeans::Params>& module_params(const KMeans*) { return param_table(); }
//   CILAB_MODULE_STATE(KMeans)      // after both
//
// and, after the class in kmeans.h, CILAB_MODULE_EXTERN(KMeans): every other file
// (another module's .cpp that includes module_base_impl.h too) then links to the
// definitions of kmeans.cpp instead of instantiating them where State is incomplete.
//
// What it gives: `StatePtr`, the State behind a pointer (defined in the module's
// .cpp only, so the header stays light), made by the module's default
// constructor and copied deeply by its copy constructor (State's own copy
// constructor says what a copy shares) - so no module declares a constructor,
// a destructor or a copy; `clone()` = that copy (the runner's keyframes);
// `params()` = the specs of the module's ParamTable, which `module_params(const
// M*)` returns (one overload per module, in namespace cilab). Each module's
// static `params_from()` stays its own (it returns its own Params).
//
// The members are defined in module_base_impl.h, which only a module's own
// .cpp includes: CILAB_MODULE_STATE instantiates them there, where the State is
// complete. Every other file sees declarations and links to those definitions.
#pragma once

#include "algorithms/core/module.h"

#include <memory>

namespace cilab {

// Owns a T that only one .cpp file defines: a deep copy on copy, deleted with it.
// Every member that needs T complete is defined in module_base_impl.h.
template <class T>
class StatePtr {
 public:
  StatePtr();  // a default-constructed T
  StatePtr(const StatePtr& other);
  StatePtr& operator=(const StatePtr& other);
  ~StatePtr();
  // Takes a T built elsewhere (a module's reset builds its new State, then commits it).
  StatePtr& operator=(std::unique_ptr<T> p);

  T& operator*() const { return *p_; }
  T* operator->() const { return p_; }

 private:
  T* p_ = nullptr;
};

template <class Derived>
class ModuleBase : public Module {
 public:
  const ParamSpecs& params() const override;
  std::unique_ptr<Module> clone() const override;
};

}  // namespace cilab

// After a module's class in its header (at namespace scope, inside namespace cilab).
#define CILAB_MODULE_EXTERN(ModuleType)               \
  extern template class StatePtr<ModuleType::State>; \
  extern template class ModuleBase<ModuleType>;
