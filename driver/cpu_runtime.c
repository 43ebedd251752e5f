/*
 * driver/cpu_runtime.c: helpers that CPU kernel code may call, bound into the JIT as
 * absolute symbols (jit/target_host.c): float16 conversions that x86 lowers to libcalls.
 * Round-to-nearest-even, like the hardware conversions.
 */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "driver.h"

static uint16_t
f32_to_f16_bits(float f)
{
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xffu;
    uint32_t man = x & 0x7fffffu;
    if (exp == 0xffu)
        return (uint16_t)(sign | 0x7c00u | (man ? 0x200u | (man >> 13) : 0));
    int32_t e = (int32_t)exp - 127 + 15;
    if (e >= 31)
        return (uint16_t)(sign | 0x7c00u);
    if (e <= 0) {
        if (e < -10)
            return (uint16_t)sign;
        man |= 0x800000u;
        uint32_t shift = (uint32_t)(14 - e);
        uint32_t half = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1);
        uint32_t mid = 1u << (shift - 1);
        if (rem > mid || (rem == mid && (half & 1u)))
            half++;
        return (uint16_t)(sign | half);
    }
    uint32_t half = ((uint32_t)e << 10) | (man >> 13);
    uint32_t rem = man & 0x1fffu;
    if (rem > 0x1000u || (rem == 0x1000u && (half & 1u)))
        half++; /* may carry into the exponent, up to infinity: correct */
    return (uint16_t)(sign | half);
}

TJI_HIDDEN float
tji_rt_extendhfsf2(uint16_t h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1fu;
    uint32_t man = h & 0x3ffu;
    uint32_t x;
    if (exp == 0x1fu) {
        x = sign | 0x7f800000u | (man << 13);
    } else if (exp == 0) {
        if (man == 0) {
            x = sign;
        } else {
            int e = -1;
            do {
                man <<= 1;
                e++;
            } while (!(man & 0x400u));
            x = sign | ((uint32_t)(127 - 15 - e) << 23) | ((man & 0x3ffu) << 13);
        }
    } else {
        x = sign | ((exp - 15 + 127) << 23) | (man << 13);
    }
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

TJI_HIDDEN uint16_t
tji_rt_truncsfhf2(float f)
{
    return f32_to_f16_bits(f);
}

/* Double to half must round once. Truncate to float, then set the float's last bit when
 * that was inexact (round to odd): float has 13 more bits than half, so rounding the
 * result to half gives the correctly rounded double-to-half conversion. */
TJI_HIDDEN uint16_t
tji_rt_truncdfhf2(double d)
{
    float f = (float)d;
    if (f != f || (double)f == d)
        return f32_to_f16_bits(f);
    if (fabs((double)f) > fabs(d))
        f = nextafterf(f, 0.0f);
    uint32_t x;
    memcpy(&x, &f, sizeof x);
    x |= 1u;
    memcpy(&f, &x, sizeof f);
    return f32_to_f16_bits(f);
}

/* The entry points bound as __extendhfsf2, __truncsfhf2 and __truncdfhf2 for JIT code.
 * LLVM (since 15) passes and returns x86-64 'half' values in XMM registers, like
 * _Float16; a uint16_t would travel in a general register. A float whose low 16 bits
 * are the half's bits travels in the same XMM register. */
static float
half_in_xmm(uint16_t h)
{
    uint32_t x = h;
    float f;
    memcpy(&f, &x, sizeof f);
    return f;
}

TJI_HIDDEN float
tji_rt_jit_extendhfsf2(float h)
{
    uint32_t x;
    memcpy(&x, &h, sizeof x);
    return tji_rt_extendhfsf2((uint16_t)x);
}

TJI_HIDDEN float
tji_rt_jit_truncsfhf2(float f)
{
    return half_in_xmm(tji_rt_truncsfhf2(f));
}

TJI_HIDDEN float
tji_rt_jit_truncdfhf2(double d)
{
    return half_in_xmm(tji_rt_truncdfhf2(d));
}
