/*
 * tests/tj_test.h: helpers shared by the Check suites. tj_test.c has no dependency on
 * libtilejit (the driver's unit tests link without it); the API helpers below are static.
 */
#ifndef TJ_TEST_H
#define TJ_TEST_H

#include <check.h>
#include <stdbool.h>
#include <stddef.h>

/* Runs suite 's' and returns the process exit status.
 *   no argument: every test case except the one named "cuda";
 *   --cuda:      only "cuda", after probing for a GPU in a child process (CUDA must never
 *                be initialised in the forking parent). Without a GPU it prints the reason
 *                and returns 77 (skipped), or fails when TILEJIT_REQUIRE_GPU=1. With
 *                CK_FORK=no (CTest's _cuda tests) it holds device 0's primary context for
 *                the whole run, so the tests do not each create it again. */
int tj_test_main(int argc, char **argv, Suite *s);

/* Number of CUDA devices, probed in a child process; 0 without a driver or GPU. */
int tj_test_gpu_count(void);

/* The ptxas to use ($TILEJIT_PTXAS, $CUDA_HOME/bin, /usr/local/cuda/bin, PATH), or NULL. */
const char *tj_test_ptxas_path(void);

/* Assembles 'ptx' with ptxas -arch='arch' when ptxas exists. Returns true when it
 * assembled, or when there is no ptxas (then '*ran' is false); on failure 'log' holds
 * ptxas's output. 'ran' may be NULL. */
bool tj_test_ptxas(const char *ptx, const char *arch, bool *ran, char *log, size_t nlog);

/* tests/fake_libdevice.ll as bitcode (TJ_FAKE_LIBDEVICE, which CMake gives the suites that
 * use it when it finds llvm-as; else the file beside the test program, where the device kit
 * puts it), or NULL after saying on stderr that 'test' checks nothing without it. */
const char *tj_test_fake_libdevice(const char *test);

/* TJ_TEST_TSAN: this build has ThreadSanitizer (CMake's TILEJIT_SANITIZE=thread), which
 * follows neither a fork of a process with threads nor limits on address space. */
#if defined(__SANITIZE_THREAD__)
#define TJ_TEST_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TJ_TEST_TSAN 1
#endif
#endif
#ifndef TJ_TEST_TSAN
#define TJ_TEST_TSAN 0
#endif

/* Relative difference test for floats: |a - b| <= tol * max(1, |a|, |b|). */
bool tj_test_close(double a, double b, double tol);

#endif /* TJ_TEST_H */
