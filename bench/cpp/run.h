// run(impl, workload, op, bytes, lambda): bench_run for C++ lambdas.
#pragma once

#include <cstddef>

#include "harness.h"

template <class F>
void bench_call(void* p) {
  (*static_cast<F*>(p))();
}

template <class F>
void run(const char* impl, const char* workload, const char* op, size_t bytes, F&& f) {
  bench_run(impl, workload, op, bytes, &bench_call<typename std::remove_reference<F>::type>, &f);
}
