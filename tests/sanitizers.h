// EXACTSIM_ASAN: 1 where the test is built under AddressSanitizer (GCC defines
// __SANITIZE_ADDRESS__, Clang has __has_feature(address_sanitizer)), 0 otherwise. The tests
// that the sanitizers make meaningless or too slow check it (README.md "Tests").
#pragma once

#if defined(__SANITIZE_ADDRESS__)
#define EXACTSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EXACTSIM_ASAN 1
#endif
#endif
#ifndef EXACTSIM_ASAN
#define EXACTSIM_ASAN 0
#endif
