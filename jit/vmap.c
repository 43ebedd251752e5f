/*
 * jit/vmap.c: a map from LLVM values to values, open addressing on the pointer. Its
 * capacity is fixed when it is made (twice the entries, rounded up to a power of two):
 * the passes that use it know how many values they will put there.
 */
#include <stdlib.h>

#include "internal.h"

static size_t
slot(const tji_vmap *m, LLVMValueRef key)
{
    size_t h = (size_t)(uintptr_t)key;
    h ^= h >> 17;
    h *= 0x9e3779b97f4a7c15ull;
    size_t i = (h >> 20) & (m->cap - 1);
    while (m->key[i] && m->key[i] != key)
        i = (i + 1) & (m->cap - 1);
    return i;
}

bool
tji_vmap_init(tji_vmap *m, size_t n)
{
    m->cap = 64;
    while (m->cap < 2 * n)
        m->cap *= 2;
    m->key = calloc(m->cap, sizeof *m->key);
    m->val = calloc(m->cap, sizeof *m->val);
    return m->key && m->val;
}

void
tji_vmap_free(tji_vmap *m)
{
    free(m->key);
    free(m->val);
}

void
tji_vmap_put(tji_vmap *m, LLVMValueRef key, LLVMValueRef val)
{
    size_t i = slot(m, key);
    m->key[i] = key;
    m->val[i] = val;
}

LLVMValueRef
tji_vmap_get(const tji_vmap *m, LLVMValueRef v)
{
    size_t i = slot(m, v);
    return m->key[i] ? m->val[i] : v;
}

bool
tji_vmap_has(const tji_vmap *m, LLVMValueRef v)
{
    return m->key[slot(m, v)] != NULL;
}
