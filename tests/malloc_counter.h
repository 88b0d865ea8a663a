// Counts heap allocations by interposing malloc and friends (glibc's __libc_* do the work).
// Include from exactly one source file of a test executable; the interposition then covers the
// whole executable. Unavailable under sanitizers, which own malloc: EXACTSIM_COUNT_MALLOC is 0.
#pragma once

#include <cstddef>
#include <cstdlib>
// (the system's declarations come first, so that the definitions below redeclare them)
#include <malloc.h>
#if __has_include(<mm_malloc.h>)
#include <mm_malloc.h>
#endif

#include "sanitizers.h"

#define EXACTSIM_COUNT_MALLOC (!EXACTSIM_ASAN)

#if EXACTSIM_COUNT_MALLOC
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
}
inline thread_local long malloc_calls = 0;
extern "C" {
void* malloc(size_t n) {
  ++malloc_calls;
  return __libc_malloc(n);
}
void* calloc(size_t k, size_t n) {
  ++malloc_calls;
  return __libc_calloc(k, n);
}
void* realloc(void* p, size_t n) {
  ++malloc_calls;
  return __libc_realloc(p, n);
}
void* memalign(size_t a, size_t n) {
  ++malloc_calls;
  return __libc_memalign(a, n);
}
void* aligned_alloc(size_t a, size_t n) { return memalign(a, n); }
int posix_memalign(void** p, size_t a, size_t n) {
  *p = memalign(a, n);
  return *p ? 0 : 12;
}
void free(void* p) { __libc_free(p); }
}
#endif
