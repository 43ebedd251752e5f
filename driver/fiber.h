/*
 * driver/fiber.h: fibers for the CPU launcher's cooperative lanes. Our own x86-64 switch
 * (callee-saved registers, stack pointer, MXCSR, x87 control word; no system call), or
 * ucontext elsewhere or with TJI_FIBER_FORCE_UCONTEXT. Stacks are mmap'ed with a guard page
 * below and registered with valgrind; AddressSanitizer and ThreadSanitizer builds tell the
 * sanitizer of every switch. No scheduling policy here.
 */
#ifndef TILEJIT_FIBER_H
#define TILEJIT_FIBER_H

#include <stddef.h>
#include <stdint.h>
#if !defined(__x86_64__)
#include <fenv.h>
#endif

#include "driver.h"

#if defined(__x86_64__) && !defined(TJI_FIBER_FORCE_UCONTEXT)
#define TJI_FIBER_ASM 1
#else
#define TJI_FIBER_ASM 0
#include <ucontext.h>
#endif

#if defined(__SANITIZE_ADDRESS__)
#define TJI_FIBER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TJI_FIBER_ASAN 1
#endif
#endif
#ifndef TJI_FIBER_ASAN
#define TJI_FIBER_ASAN 0
#endif
#if defined(__SANITIZE_THREAD__)
#define TJI_FIBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define TJI_FIBER_TSAN 1
#endif
#endif
#ifndef TJI_FIBER_TSAN
#define TJI_FIBER_TSAN 0
#endif

/* The floating-point controls (rounding, flush-to-zero, exception masks, x87 precision): on
 * x86-64 the MXCSR and the x87 control word, which a switch keeps per fiber; elsewhere the
 * whole fenv_t. The CPU launcher loads the caller's into every worker and lane, which
 * otherwise keep what they had at pthread_create or at the fiber's creation. */
typedef struct tji_fp_controls {
#if defined(__x86_64__)
    uint32_t mxcsr;
    uint16_t x87_cw;
#else
    fenv_t env;
#endif
} tji_fp_controls;

static inline void
tji_fp_controls_save(tji_fp_controls *c)
{
#if defined(__x86_64__)
    __asm__ volatile("stmxcsr %0" : "=m"(c->mxcsr));
    __asm__ volatile("fnstcw %0" : "=m"(c->x87_cw));
#else
    fegetenv(&c->env);
#endif
}

static inline void
tji_fp_controls_load(const tji_fp_controls *c)
{
#if defined(__x86_64__)
    __asm__ volatile("ldmxcsr %0" : : "m"(c->mxcsr));
    __asm__ volatile("fldcw %0" : : "m"(c->x87_cw));
#else
    fesetenv(&c->env);
#endif
}

typedef void (*tji_fiber_fn)(void *arg);

/* A fiber: a saved execution context and, unless it is a thread's own context, the stack it
 * runs on. A zero-initialised tji_fiber stands for the calling thread's own stack: switching
 * away from it saves the thread's context there. */
typedef struct tji_fiber tji_fiber;
struct tji_fiber {
#if TJI_FIBER_ASM
    void *sp;                  /* saved stack pointer; the registers sit on the stack */
#else
    ucontext_t uc;
#endif
    void *map;                 /* the mapping: guard page, then the stack; NULL for a thread */
    size_t map_bytes;
    void *stack;               /* lowest usable address of the stack */
    size_t stack_bytes;
    unsigned vg_id;            /* valgrind's stack id */
    tji_fiber_fn fn;
    void *arg;
#if TJI_FIBER_ASAN
    const void *asan_bottom;   /* the stack's bounds as AddressSanitizer wants them */
    size_t asan_size;
    tji_fiber *asan_from;      /* who switched to this fiber last */
#endif
#if TJI_FIBER_TSAN
    void *tsan_fiber;          /* ThreadSanitizer's state of the fiber (or of the thread) */
#endif
};

/* Maps a stack of 'stack_bytes' (rounded up to pages) with a guard page below it and
 * prepares 'f' so that the first switch to it calls fn(arg). 'fn' must never return.
 * The fiber starts 'colour' bytes (rounded up to 16) below the top of its stack, which it
 * then does not use: stacks are whole pages, so fibers that run in turn and start at the
 * same offset of a page keep their hot frames in the same cache sets, and different
 * colours spread them. Returns 0 or an errno value (EINVAL: 'colour' leaves less than a
 * page of the rounded stack, or less than 'stack_bytes' when that is under a page); on
 * failure 'f' holds nothing to destroy. */
TJI_HIDDEN int tji_fiber_create(tji_fiber *f, size_t stack_bytes, size_t colour, tji_fiber_fn fn,
                                void *arg);
/* Unmaps the stack of a fiber that is not running. A thread's own fiber, or a zeroed one,
 * does nothing. */
TJI_HIDDEN void tji_fiber_destroy(tji_fiber *f);

#if TJI_FIBER_ASM && !TJI_FIBER_ASAN && !TJI_FIBER_TSAN
/* Saves the running context on its stack, stores the stack pointer in '*save_sp' and
 * resumes the context whose stack pointer is 'next_sp'. Defined in fiber.c (assembly). */
TJI_HIDDEN void tji_fiber_swap(void **save_sp, void *next_sp);

/* Saves the running context in 'from' and resumes 'to'. */
static inline void
tji_fiber_switch(tji_fiber *from, tji_fiber *to)
{
    tji_fiber_swap(&from->sp, to->sp);
}
#else
TJI_HIDDEN void tji_fiber_switch(tji_fiber *from, tji_fiber *to);
#endif

#endif /* TILEJIT_FIBER_H */
