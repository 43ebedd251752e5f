/*
 * driver/fiber.c: fiber stacks and context switches (see fiber.h). The x86-64 switch is a
 * few instructions of assembly below; other targets use ucontext. No scheduling and no
 * allocation here other than the stack mappings.
 */
#include "fiber.h"

#include <errno.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define TJI_HAVE_VALGRIND 1
#endif
#endif

#if TJI_FIBER_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
#if TJI_FIBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

static void fiber_start(tji_fiber *f);

#if TJI_FIBER_ASM
/*
 * tji_fiber_swap(save_sp, next_sp): the System V ABI lets a call clobber every register
 * except rbx, rbp, r12-r15 and rsp, and the control bits of MXCSR and the x87 control word;
 * those are all a switch must keep. They are pushed on the running stack, the stack pointer
 * goes to *save_sp, and the same frame is popped off the next stack.
 *
 * Frame, from the saved stack pointer up: [MXCSR, x87 CW] r15 r14 r13 r12 rbx rbp ret.
 * A new fiber's frame (tji_fiber_create) returns into tji_fiber_boot with rbx = fiber_start
 * and r12 = the fiber, and a zero return address above it that ends backtraces.
 */
__asm__(".text\n"
        ".p2align 4\n"
        ".globl tji_fiber_swap\n"
        ".hidden tji_fiber_swap\n"
        ".type tji_fiber_swap, @function\n"
        "tji_fiber_swap:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size tji_fiber_swap, .-tji_fiber_swap\n"
        "\n"
        ".p2align 4\n"
        ".type tji_fiber_boot, @function\n"
        "tji_fiber_boot:\n"
        "    movq %r12, %rdi\n"
        "    jmp *%rbx\n"
        ".size tji_fiber_boot, .-tji_fiber_boot\n");

void tji_fiber_swap(void **save_sp, void *next_sp);
void tji_fiber_boot(void);

/* The control words a new fiber starts with: the creating thread's. */
static uint64_t
control_words(void)
{
    tji_fp_controls c;
    tji_fp_controls_save(&c);
    return (uint64_t)c.mxcsr | (uint64_t)c.x87_cw << 32;
}

static void
prepare_context(tji_fiber *f, size_t colour)
{
    uintptr_t top = ((uintptr_t)f->stack + f->stack_bytes - colour) & ~(uintptr_t)15;
    uint64_t *sp = (uint64_t *)top;
    sp[-1] = 0;                             /* fiber_start's return address: none */
    sp[-2] = (uint64_t)(uintptr_t)tji_fiber_boot;
    sp[-3] = 0;                             /* rbp */
    sp[-4] = (uint64_t)(uintptr_t)fiber_start;  /* rbx */
    sp[-5] = (uint64_t)(uintptr_t)f;        /* r12 */
    sp[-6] = 0;                             /* r13 */
    sp[-7] = 0;                             /* r14 */
    sp[-8] = 0;                             /* r15 */
    sp[-9] = control_words();
    f->sp = &sp[-9];
}

#if TJI_FIBER_ASAN || TJI_FIBER_TSAN
static void
raw_switch(tji_fiber *from, tji_fiber *to)
{
    tji_fiber_swap(&from->sp, to->sp);
}
#endif
#else
/* makecontext passes int arguments only: the fiber's address travels in two halves. */
static void
uc_start(unsigned hi, unsigned lo)
{
    uintptr_t p = (uintptr_t)lo;
    if (sizeof p > 4)
        p |= (uintptr_t)((uint64_t)hi << 32);
    fiber_start((tji_fiber *)p);
}

static void
prepare_context(tji_fiber *f, size_t colour)
{
    uint64_t p = (uint64_t)(uintptr_t)f;
    getcontext(&f->uc);
    f->uc.uc_stack.ss_sp = f->stack;
    f->uc.uc_stack.ss_size = (f->stack_bytes - colour) & ~(size_t)15;
    f->uc.uc_link = NULL;
    makecontext(&f->uc, (void (*)(void))uc_start, 2, (unsigned)(p >> 32), (unsigned)p);
}

static void
raw_switch(tji_fiber *from, tji_fiber *to)
{
    swapcontext(&from->uc, &to->uc);
}
#endif

#if TJI_FIBER_ASAN
/*
 * AddressSanitizer must be told about every switch, with the bounds of the stack it goes
 * to. A thread's own stack has none recorded: it learns them when a fiber it switched to
 * finishes the switch, which always happens before anything switches back to it.
 */
static void
asan_arrived(tji_fiber *self, void *fake_stack)
{
    const void *bottom = NULL;
    size_t size = 0;
    __sanitizer_finish_switch_fiber(fake_stack, &bottom, &size);
    if (self->asan_from && !self->asan_from->map) {
        self->asan_from->asan_bottom = bottom;
        self->asan_from->asan_size = size;
    }
}

void
tji_fiber_switch(tji_fiber *from, tji_fiber *to)
{
    void *fake_stack = NULL;
    to->asan_from = from;
    __sanitizer_start_switch_fiber(&fake_stack, to->asan_bottom, to->asan_size);
    raw_switch(from, to);
    asan_arrived(from, fake_stack);
}
#elif TJI_FIBER_TSAN
/* ThreadSanitizer keeps a state (its shadow call stack, its clocks) per fiber, and must be
 * told right before each switch (without that, check_tile_lanes with fibers grew to 24 GB
 * and was killed). A thread's own fiber takes the thread's state when it first switches
 * away. The switch orders the two fibers' accesses (flags 0), as running on one thread
 * does. */
void
tji_fiber_switch(tji_fiber *from, tji_fiber *to)
{
    if (!from->tsan_fiber)
        from->tsan_fiber = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(to->tsan_fiber, 0);
    raw_switch(from, to);
}
#elif !TJI_FIBER_ASM
void
tji_fiber_switch(tji_fiber *from, tji_fiber *to)
{
    raw_switch(from, to);
}
#endif

static void
fiber_start(tji_fiber *f)
{
#if TJI_FIBER_ASAN
    asan_arrived(f, NULL);
#endif
    f->fn(f->arg);
    /* fn never returns (fiber.h); there is no context to return to. */
    __builtin_unreachable();
}

/* Maps 'bytes' (whole pages) of stack above a guard page. */
static int
map_stack(tji_fiber *f, size_t bytes, size_t page)
{
    void *map = mmap(NULL, bytes + page, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (map == MAP_FAILED)
        return errno;
    if (mprotect(map, page, PROT_NONE) != 0) {
        int e = errno;
        munmap(map, bytes + page);
        return e;
    }
    f->map = map;
    f->map_bytes = bytes + page;
    f->stack = (char *)map + page;
    f->stack_bytes = bytes;
    return 0;
}

int
tji_fiber_create(tji_fiber *f, size_t stack_bytes, size_t colour, tji_fiber_fn fn, void *arg)
{
    *f = (tji_fiber){.fn = fn, .arg = arg};
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (stack_bytes == 0 || stack_bytes > SIZE_MAX - 2 * page)
        return EINVAL;
    /* The rule is on the stack as mapped: with 64 KiB pages a 16 KiB request is one page, of
     * which a colour must leave the 16 KiB asked for. */
    size_t bytes = (stack_bytes + page - 1) / page * page;
    size_t keep = stack_bytes < page ? stack_bytes : page;
    if (colour > bytes || bytes - colour < keep)
        return EINVAL;
    int e = map_stack(f, bytes, page);
    if (e != 0) {
        *f = (tji_fiber){0};
        return e;
    }
#ifdef TJI_HAVE_VALGRIND
    f->vg_id = VALGRIND_STACK_REGISTER(f->stack, (char *)f->stack + f->stack_bytes);
#endif
#if TJI_FIBER_ASAN
    /* The mapping may reuse an old stack's addresses, still poisoned by its frames. */
    ASAN_UNPOISON_MEMORY_REGION(f->stack, f->stack_bytes);
    f->asan_bottom = f->stack;
    f->asan_size = f->stack_bytes;
#endif
#if TJI_FIBER_TSAN
    f->tsan_fiber = __tsan_create_fiber(0);
#endif
    prepare_context(f, colour);
    return 0;
}

void
tji_fiber_destroy(tji_fiber *f)
{
    if (!f || !f->map)
        return;
#ifdef TJI_HAVE_VALGRIND
    VALGRIND_STACK_DEREGISTER(f->vg_id);
#endif
#if TJI_FIBER_ASAN
    ASAN_UNPOISON_MEMORY_REGION(f->stack, f->stack_bytes);
#endif
#if TJI_FIBER_TSAN
    __tsan_destroy_fiber(f->tsan_fiber);
#endif
    munmap(f->map, f->map_bytes);
    *f = (tji_fiber){0};
}
