// The definitions behind trainer.h, for a trainer's own .cpp only: write
// CILAB_TRAINER_STATE(Module) once, after its State and its `module_params` overload.
#pragma once

#include "algorithms/core/module_base_impl.h"
#include "algorithms/nn/trainer.h"

namespace cilab {

template <class Derived>
void Trainer<Derived>::sub_step() {
  auto& s = *static_cast<Derived*>(this)->st_;
  if (!s.ready) return;
  s.cache.reset();
  s.loop.sub_step(s);
}

template <class Derived>
void Trainer<Derived>::step() {
  auto& s = *static_cast<Derived*>(this)->st_;
  if (!s.ready) return;
  s.cache.reset();
  s.loop.step(s);
}

template <class Derived>
bool Trainer<Derived>::settle() {
  auto& s = *static_cast<Derived*>(this)->st_;
  if (!s.ready || !s.loop.settle(s)) return false;
  s.cache.reset();
  return true;
}

template <class Derived>
void Trainer<Derived>::set_live(const std::string& name, double value) {
  auto& s = *static_cast<Derived*>(this)->st_;
  auto p = s.p;
  module_params(static_cast<const Derived*>(this)).set_live(p, name, value, this->info().name);
  if (s.ready) s.live_changed(p);
  s.p = p;
  if (s.ready) s.budget_changed();
  s.cache.reset();
}

}  // namespace cilab

// Instantiates a trainer's shared plumbing in its .cpp (at namespace scope, inside
// namespace cilab).
#define CILAB_TRAINER_STATE(ModuleType) \
  CILAB_MODULE_STATE(ModuleType)        \
  template class Trainer<ModuleType>;
