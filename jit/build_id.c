/*
 * jit/build_id.c: the identity of the code that compiles kernels, for the cache keys
 * (module.c). The version strings do not change when the library is rebuilt from changed
 * sources, nor when libLLVM is replaced by a build with the same version, and either can
 * change the code a module compiles to: a disk cache filled by the old binaries must then
 * miss. So the key also holds the GNU build-id (the linker's hash of the object's contents)
 * of the ELF object that holds tilejit's code and of the one that holds LLVM's (the same
 * object when LLVM is linked in statically). An object without a build-id note is
 * identified by a hash of its read-only segments (code and constants) instead.
 */
#include <elf.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"

typedef struct object_id {
    uintptr_t addr;            /* an address inside the object sought */
    char hex[2 * 64 + 1];      /* its build-id, or 'h' and the hash of its segments */
} object_id;

/* The descriptor of the NT_GNU_BUILD_ID note in the PT_NOTE segment [p, p + n), as hex. */
static bool
note_build_id(const uint8_t *p, size_t n, char *hex, size_t hexlen)
{
    while (n >= sizeof(ElfW(Nhdr))) {
        ElfW(Nhdr) nh;
        memcpy(&nh, p, sizeof nh);
        size_t name = (nh.n_namesz + 3) & ~(size_t)3, desc = (nh.n_descsz + 3) & ~(size_t)3;
        size_t total = sizeof nh + name + desc;
        if (total > n)
            return false;
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
            memcmp(p + sizeof nh, "GNU", 4) == 0 && nh.n_descsz > 0 &&
            2 * (size_t)nh.n_descsz < hexlen) {
            const uint8_t *d = p + sizeof nh + name;
            for (size_t i = 0; i < nh.n_descsz; i++)
                snprintf(hex + 2 * i, 3, "%02x", d[i]);
            return true;
        }
        p += total;
        n -= total;
    }
    return false;
}

/* Hashes [p, p + n), pages of a loaded object, into 'h'. AddressSanitizer puts redzones
 * between an object's globals, inside these pages, and would report their reads: this
 * function is not instrumented, and reads through no call (a memcpy of 'n' would be
 * checked). */
__attribute__((no_sanitize_address)) static void
hash_pages(const uint8_t *p, size_t n, uint8_t h[16])
{
    uint64_t words[64];
    size_t k = 0;
    for (size_t i = 0; i + 8 <= n; i += 8) {
        __builtin_memcpy(&words[k++], p + i, 8);
        if (k == 64) {
            tji_hash128(words, sizeof words, h, h);
            k = 0;
        }
    }
    uint64_t last = 0;
    for (size_t i = n & ~(size_t)7; i < n; i++)
        last = last << 8 | ((const volatile uint8_t *)p)[i];
    words[k++] = last;
    tji_hash128(words, 8 * k, h, h);
}

static int
find_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    object_id *o = data;
    bool inside = false;
    for (int i = 0; i < info->dlpi_phnum && !inside; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t start = info->dlpi_addr + ph->p_vaddr;
        inside = ph->p_type == PT_LOAD && o->addr >= start && o->addr - start < ph->p_memsz;
    }
    if (!inside)
        return 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_NOTE &&
            note_build_id((const uint8_t *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz,
                          o->hex, sizeof o->hex))
            return 1;
    }
    /* No build-id: the segments that are never written (no relocations reach them). */
    uint8_t h[16] = {0};
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type == PT_LOAD && !(ph->p_flags & PF_W))
            hash_pages((const uint8_t *)(info->dlpi_addr + ph->p_vaddr), ph->p_memsz, h);
    }
    o->hex[0] = 'h';
    for (int i = 0; i < 16; i++)
        snprintf(o->hex + 1 + 2 * i, 3, "%02x", h[i]);
    return 1;
}

static char identity[2 * sizeof(((object_id *)0)->hex) + 8];

static void
compute_identity(void)
{
    object_id self = {.addr = (uintptr_t)&compute_identity};
    object_id llvm = {.addr = (uintptr_t)&LLVMContextCreate};
    if (!dl_iterate_phdr(find_object, &self))
        snprintf(self.hex, sizeof self.hex, "?");
    if (!dl_iterate_phdr(find_object, &llvm))
        snprintf(llvm.hex, sizeof llvm.hex, "?");
    snprintf(identity, sizeof identity, "%s|%s", self.hex, llvm.hex);
}

const char *
tji_build_identity(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, compute_identity);
    return identity;
}
