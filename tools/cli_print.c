/*
 * tools/cli_print.c: arrays printed back as JSON for `tilejit run` (NAME = [..]), with
 * floats in the shortest text that reads back exactly in their own precision, and the
 * small helpers on dtypes and float16 the value parser shares.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

size_t
cli_dtype_size(tj_dtype dt)
{
    switch (dt) {
    case TJ_DTYPE_BOOL:
    case TJ_DTYPE_I8:
    case TJ_DTYPE_U8:
        return 1;
    case TJ_DTYPE_I16:
    case TJ_DTYPE_U16:
    case TJ_DTYPE_F16:
        return 2;
    case TJ_DTYPE_I32:
    case TJ_DTYPE_U32:
    case TJ_DTYPE_F32:
        return 4;
    default:
        return 8;
    }
}

const char *
cli_dtype_name(tj_dtype dt)
{
    static const char *const names[] = {"?",      "bool",   "int8",    "int16",   "int32",
                                        "int64",  "uint8",  "uint16",  "uint32",  "uint64",
                                        "float16", "float32", "float64"};
    return (unsigned)dt < sizeof names / sizeof names[0] ? names[dt] : "?";
}

bool
cli_elem_dims(const tj_type *elem, int *n, int64_t *dims)
{
    *n = 0;
    switch (tj_type_get_kind(elem)) {
    case TJ_TYPE_SCALAR:
        return true;
    case TJ_TYPE_VECTOR:
    case TJ_TYPE_QUAT:
        dims[(*n)++] = tj_type_get_rows(elem);
        return true;
    case TJ_TYPE_MATRIX:
        dims[(*n)++] = tj_type_get_rows(elem);
        dims[(*n)++] = tj_type_get_cols(elem);
        return true;
    default:
        return false;
    }
}

double
cli_half_to_double(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m | 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}

uint16_t
cli_half_from_double(double d)
{
    uint16_t s = signbit(d) ? 0x8000 : 0;
    if (isnan(d))
        return 0x7e00;
    double a = fabs(d);
    if (a >= 65520.0)
        return s | 0x7c00;
    if (a < ldexp(1.0, -14))
        return s | (uint16_t)nearbyint(a * 16777216.0);
    int e;
    frexp(a, &e);
    double q = nearbyint(ldexp(a, 11 - e));
    if (q == 2048.0) {
        q = 1024.0;
        e++;
    }
    if (e - 1 + 15 >= 31)
        return s | 0x7c00;
    return s | (uint16_t)((e - 1 + 15) << 10) | (uint16_t)((int)q - 1024);
}

static bool
reads_back(const char *buf, double v, tj_dtype dt)
{
    if (dt == TJ_DTYPE_F32)
        return strtof(buf, NULL) == (float)v;
    if (dt == TJ_DTYPE_F16)
        return cli_half_from_double(strtod(buf, NULL)) == cli_half_from_double(v);
    return strtod(buf, NULL) == v;
}

void
cli_format_float(char *buf, size_t n, double v, tj_dtype dt)
{
    if (isnan(v)) {
        snprintf(buf, n, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, n, v < 0 ? "-Infinity" : "Infinity");
        return;
    }
    int maxp = dt == TJ_DTYPE_F64 ? 17 : dt == TJ_DTYPE_F32 ? 9 : 5, p = 1;
    for (; p <= maxp; p++) {
        snprintf(buf, n, "%.*e", p - 1, v);
        if (reads_back(buf, v, dt))
            break;
    }
    /* Python's repr: fixed notation for exponents in [-4, 16), else "1e+16" */
    const char *e = strchr(buf, 'e');
    int exp = e ? atoi(e + 1) : 0;
    if (exp >= -4 && exp < 16) {
        int decimals = p - 1 - exp > 0 ? p - 1 - exp : 0;
        snprintf(buf, n, "%.*f", decimals, v);
        if (!strchr(buf, '.') && strlen(buf) + 3 < n)
            strcat(buf, ".0");
    }
}

static void
print_leaf(FILE *f, const cli_buffer *b, size_t i)
{
    const unsigned char *p = (const unsigned char *)b->data + i * cli_dtype_size(b->dtype);
    char buf[64];
    union {
        int8_t i8;
        int16_t i16;
        int32_t i32;
        int64_t i64;
        uint8_t u8;
        uint16_t u16;
        uint32_t u32;
        uint64_t u64;
        float f32;
        double f64;
    } u;
    memcpy(&u, p, cli_dtype_size(b->dtype));
    switch (b->dtype) {
    case TJ_DTYPE_BOOL: fputs(u.u8 ? "true" : "false", f); return;
    case TJ_DTYPE_I8: fprintf(f, "%d", u.i8); return;
    case TJ_DTYPE_I16: fprintf(f, "%d", u.i16); return;
    case TJ_DTYPE_I32: fprintf(f, "%d", (int)u.i32); return;
    case TJ_DTYPE_I64: fprintf(f, "%lld", (long long)u.i64); return;
    case TJ_DTYPE_U8: fprintf(f, "%u", u.u8); return;
    case TJ_DTYPE_U16: fprintf(f, "%u", u.u16); return;
    case TJ_DTYPE_U32: fprintf(f, "%lu", (unsigned long)u.u32); return;
    case TJ_DTYPE_U64: fprintf(f, "%llu", (unsigned long long)u.u64); return;
    case TJ_DTYPE_F16:
        cli_format_float(buf, sizeof buf, cli_half_to_double(u.u16), b->dtype);
        break;
    case TJ_DTYPE_F32: cli_format_float(buf, sizeof buf, u.f32, b->dtype); break;
    default: cli_format_float(buf, sizeof buf, u.f64, b->dtype); break;
    }
    fputs(buf, f);
}

/* Prints dims [d, ndims) starting at leaf 'first'; returns the leaves printed. */
static size_t
print_dims(FILE *f, const cli_buffer *b, const int64_t *dims, int d, int ndims, size_t first)
{
    if (d == ndims) {
        print_leaf(f, b, first);
        return 1;
    }
    size_t used = 0;
    fputc('[', f);
    for (int64_t i = 0; i < dims[d]; i++) {
        if (i)
            fputs(", ", f);
        used += print_dims(f, b, dims, d + 1, ndims, first + used);
    }
    fputc(']', f);
    if (dims[d] == 0) /* leaves inside an empty dimension: none */
        return 0;
    return used;
}

void
cli_print_json(FILE *f, const cli_buffer *b)
{
    print_dims(f, b, b->shape, 0, b->ndim + b->ncomp_dims, 0);
}
