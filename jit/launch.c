/*
 * jit/launch.c: launching a kernel of a module on a device (SPEC 1): checks the launch
 * configuration and the arguments against the kernel's descriptor, packs the argument
 * buffer (module.c's layout, the same for both targets), then runs it on the CPU pool or
 * through the CUDA driver. Debug launches wait and turn a kernel-error record into
 * TJ_ERR_KERNEL with its message.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

TJI_HIDDEN uint16_t tji_rt_truncdfhf2(double d);

tj_arg
tj_arg_int(int64_t value)
{
    return (tj_arg){.kind = TJ_ARG_INT, .u.i = value};
}

tj_arg
tj_arg_float(double value)
{
    return (tj_arg){.kind = TJ_ARG_FLOAT, .u.f = value};
}

tj_arg
tj_arg_bool(bool value)
{
    return (tj_arg){.kind = TJ_ARG_BOOL, .u.b = value};
}

tj_arg
tj_arg_array(const tj_array *array)
{
    return (tj_arg){.kind = TJ_ARG_ARRAY, .u.array = array};
}

tj_arg
tj_arg_bytes(const tj_type *type, const void *bytes)
{
    return (tj_arg){.kind = TJ_ARG_BYTES, .type = type, .u.bytes = bytes};
}

void
tji_format_kernel_error(const tji_kdesc *kd, const tji_error_record *rec, char *buf, size_t n)
{
    const char *what = rec->site >= 0 && rec->site < kd->nsites ? kd->sites[rec->site] : "a check";
    char head[300];
    if (strstr(what, "%lld")) {
        /* a site with its own message, such as an empty reduction slice */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
        snprintf(head, sizeof head, what, (long long)rec->value);
#pragma GCC diagnostic pop
    } else {
        char dim[48] = "";
        if (rec->dim >= 0)
            snprintf(dim, sizeof dim, " in dimension %d", rec->dim);
        snprintf(head, sizeof head, "%s: index %lld is out of range [%lld, %lld)%s", what,
                 (long long)rec->value, (long long)rec->lo, (long long)rec->hi, dim);
    }
    snprintf(buf, n, "kernel '%s': %s (block %lld, lane %d)", kd->name, head,
             (long long)rec->block, rec->lane);
}

/* ---- arguments -------------------------------------------------------------------------- */

typedef struct launch {
    tj_device *dev;
    const char *fn;              /* "tj_launch" or "tj_launch_tiled", for messages */
    const tji_kdesc *kd;
    int kindex;
    int ndim;
    int64_t dims[TJI_MAX_DIMS];
    int64_t n;
    int64_t nblocks;
    uint8_t *buf;
} launch;

static const char *
arg_kind_name(tj_arg_kind k)
{
    switch (k) {
    case TJ_ARG_INT:
        return "an integer";
    case TJ_ARG_FLOAT:
        return "a float";
    case TJ_ARG_BOOL:
        return "a bool";
    case TJ_ARG_ARRAY:
        return "an array";
    case TJ_ARG_BYTES:
        return "bytes";
    default:
        return "an unknown argument kind";
    }
}

static bool
int_fits(tj_dtype dt, int64_t v)
{
    int bits = tji_dtype_bits(dt);
    if (bits >= 64)
        return dt != TJ_DTYPE_U64 || v >= 0;
    if (tji_dtype_is_signed(dt))
        return v >= -(INT64_C(1) << (bits - 1)) && v < (INT64_C(1) << (bits - 1));
    return v >= 0 && v < (INT64_C(1) << bits);
}

static void
put_int(uint8_t *p, tj_dtype dt, int64_t v)
{
    switch (tji_dtype_bits(dt)) {
    case 8: { int8_t x = (int8_t)v; memcpy(p, &x, 1); break; }
    case 16: { int16_t x = (int16_t)v; memcpy(p, &x, 2); break; }
    case 32: { int32_t x = (int32_t)v; memcpy(p, &x, 4); break; }
    default: memcpy(p, &v, 8); break;
    }
}

static void
put_float(uint8_t *p, tj_dtype dt, double v)
{
    if (dt == TJ_DTYPE_F64) {
        memcpy(p, &v, 8);
    } else if (dt == TJ_DTYPE_F32) {
        float f = (float)v;
        memcpy(p, &f, 4);
    } else {
        uint16_t h = tji_rt_truncdfhf2(v);
        memcpy(p, &h, 2);
    }
}

static tj_status
arg_error(launch *l, int i, const char *expected, const char *got)
{
    return tji_dev_fail(l->dev, TJ_ERR_LAUNCH,
                        "%s: kernel '%s': argument %d ('%s'): expected %s, got %s", l->fn,
                        l->kd->name, i, l->kd->params[i].name, expected, got);
}

static tj_status
put_array(launch *l, int i, const tj_array *a, uint8_t *p)
{
    const tji_kparam *kp = &l->kd->params[i];
    char want[128];
    snprintf(want, sizeof want, "an array of %s with %d dimension%s", kp->type->name, kp->ndim,
             kp->ndim == 1 ? "" : "s");
    if (!a)
        return arg_error(l, i, want, "a NULL array");
    if (a->type != kp->type || a->ndim != kp->ndim) {
        char got[160];
        snprintf(got, sizeof got, "an array of %s with %d dimension%s%s", a->type->name,
                 a->ndim, a->ndim == 1 ? "" : "s",
                 a->type->ctx != kp->type->ctx ? " (of another context)" : "");
        return arg_error(l, i, want, got);
    }
    if (a->dev != l->dev)
        return arg_error(l, i, "an array on the launch's device", "an array on another device");
    const tji_slot *s = &l->kd->slots[kp->first_slot];
    uint64_t data = a->dev->kind == TJ_DEVICE_CPU ? (uint64_t)(uintptr_t)a->host : a->dptr;
    memcpy(p + s[0].offset, &data, 8);
    for (int d = 0; d < a->ndim; d++) {
        int32_t ext = (int32_t)a->shape[d];
        memcpy(p + s[1 + d].offset, &ext, 4);
        memcpy(p + s[1 + a->ndim + d].offset, &a->strides[d], 8);
    }
    return TJ_OK;
}

static tj_status
put_arg(launch *l, int i, const tj_arg *arg)
{
    const tji_kparam *kp = &l->kd->params[i];
    uint8_t *p = l->buf + l->kd->slots[kp->first_slot].offset;
    if (kp->is_array)
        return arg->kind == TJ_ARG_ARRAY ? put_array(l, i, arg->u.array, l->buf)
                                         : arg_error(l, i, "an array", arg_kind_name(arg->kind));
    const tj_type *t = kp->type;
    if (arg->kind == TJ_ARG_BYTES) {
        char got[128];
        snprintf(got, sizeof got, "%s%s", arg->type ? arg->type->name : "bytes of no type",
                 arg->type && arg->type->ctx != t->ctx ? " of another context"
                 : arg->type && !arg->u.bytes          ? " at NULL"
                                                       : "");
        if (arg->type != t || !arg->u.bytes)
            return arg_error(l, i, t->name, got);
        memcpy(p, arg->u.bytes, t->size);
        return TJ_OK;
    }
    bool scalar = t->kind == TJ_TYPE_SCALAR;
    if (scalar && t->dtype == TJ_DTYPE_BOOL && arg->kind == TJ_ARG_BOOL) {
        *p = arg->u.b ? 1 : 0;
        return TJ_OK;
    }
    if (scalar && tji_dtype_is_int(t->dtype) && arg->kind == TJ_ARG_INT) {
        if (!int_fits(t->dtype, arg->u.i)) {
            char got[64];
            snprintf(got, sizeof got, "%lld, which does not fit", (long long)arg->u.i);
            return arg_error(l, i, t->name, got);
        }
        put_int(p, t->dtype, arg->u.i);
        return TJ_OK;
    }
    if (scalar && tji_dtype_is_float(t->dtype) && arg->kind == TJ_ARG_FLOAT) {
        put_float(p, t->dtype, arg->u.f);
        return TJ_OK;
    }
    return arg_error(l, i, t->name, arg_kind_name(arg->kind));
}

/* ---- configuration ---------------------------------------------------------------------- */

static tj_status
check_config(launch *l, tj_module *m, const char *name, int ndim, const int64_t *dim,
             uint32_t block_dim, bool tiled)
{
    tj_device *dev = l->dev;
    const char *fn = tiled ? "tj_launch_tiled" : "tj_launch";
    if (!m)
        return tji_dev_fail(dev, TJ_ERR_INVALID, "%s: argument 'm' is NULL", fn);
    if (m->ctx != dev->ctx)
        return tji_dev_fail(dev, TJ_ERR_LAUNCH,
                            "%s: the module belongs to another context than the device; a "
                            "module runs on the devices of the context that built it",
                            fn);
    if ((m->target == TJ_TARGET_CUDA) != (dev->kind == TJ_DEVICE_CUDA))
        return tji_dev_fail(dev, TJ_ERR_LAUNCH, "%s: the module was built for %s, the device is %s",
                            fn, m->target == TJ_TARGET_CUDA ? "CUDA" : "the CPU", dev->name);
    l->kd = tji_module_find(m, name, &l->kindex);
    if (!l->kd)
        return tji_dev_fail(dev, TJ_ERR_LAUNCH, "%s: the module has no kernel named '%s'", fn,
                            name ? name : "(null)");
    int maxd = tiled ? TJI_MAX_DIMS - 1 : TJI_MAX_DIMS;
    if (ndim < 1 || ndim > maxd)
        return tji_dev_fail(dev, TJ_ERR_LAUNCH, "%s: argument 'ndim': %d is not in [1, %d]", fn,
                            ndim, maxd);
    if (!dim)
        return tji_dev_fail(dev, TJ_ERR_LAUNCH, "%s: argument 'dim' is NULL", fn);
    if (block_dim == 0 || block_dim > TJI_MAX_BLOCK_DIM)
        return tji_dev_fail(dev, TJ_ERR_LAUNCH,
                            "%s: argument 'block_dim': %u is not in [1, %d]", fn, block_dim,
                            TJI_MAX_BLOCK_DIM);
    if (block_dim != l->kd->block_dim)
        return tji_dev_fail(dev, TJ_ERR_LAUNCH,
                            "%s: kernel '%s' was built for block_dim %u, not %u; build it again "
                            "for this block_dim",
                            fn, l->kd->name, l->kd->block_dim, block_dim);
    l->ndim = tiled ? ndim + 1 : ndim;
    l->n = 1;
    for (int d = 0; d < l->ndim; d++) {
        /* launch_tiled appends the effective block width: 1 in CPU width-1 mode, where
         * the lane is always 0 (SPEC 1) */
        int64_t e = d < ndim ? dim[d] : (int64_t)l->kd->block_width;
        if (e < 0 || e > INT32_MAX)
            return tji_dev_fail(dev, TJ_ERR_LAUNCH,
                                "%s: argument 'dim': extent %lld of dimension %d is not in "
                                "[0, %d]",
                                fn, (long long)e, d, INT32_MAX);
        l->dims[d] = e;
        if (e > 0 && l->n > (INT64_C(1) << 62) / e)
            return tji_dev_fail(dev, TJ_ERR_LAUNCH, "%s: too many threads", fn);
        l->n *= e;
    }
    if (l->kd->max_tid > l->ndim)
        return tji_dev_fail(dev, TJ_ERR_LAUNCH,
                            "%s: kernel '%s' reads %d tid() coordinates, the launch has %d "
                            "dimension%s",
                            fn, l->kd->name, l->kd->max_tid, l->ndim, l->ndim == 1 ? "" : "s");
    l->nblocks = (l->n + l->kd->block_width - 1) / l->kd->block_width;
    size_t max_shared = tj_device_get_max_shared_bytes(dev);
    if (l->kd->shared_bytes > max_shared)
        return tji_dev_fail(dev, TJ_ERR_LIMIT,
                            "%s: kernel '%s' needs %zu bytes of shared memory per block; %s "
                            "allows %zu",
                            fn, l->kd->name, l->kd->shared_bytes, dev->name, max_shared);
    return TJ_OK;
}

static tj_status
pack_args(launch *l, const tj_arg *args, size_t nargs)
{
    const tji_kdesc *kd = l->kd;
    if (nargs && !args)
        return tji_dev_fail(l->dev, TJ_ERR_LAUNCH, "%s: argument 'args' is NULL", l->fn);
    if (nargs != (size_t)kd->nparams)
        return tji_dev_fail(l->dev, TJ_ERR_LAUNCH, "%s: kernel '%s' takes %d arguments, got %zu",
                            l->fn, kd->name, kd->nparams, nargs);
    memcpy(l->buf, &l->n, 8);
    for (int d = 0; d < TJI_MAX_DIMS; d++) {
        int32_t e = d < l->ndim ? (int32_t)l->dims[d] : 1;
        memcpy(l->buf + 8 + 4 * d, &e, 4);
    }
    for (int i = 0; i < kd->nparams; i++) {
        tj_status st = put_arg(l, i, &args[i]);
        if (st != TJ_OK)
            return st;
    }
    return TJ_OK;
}

/* ---- running ---------------------------------------------------------------------------- */

static tj_status
kernel_error(launch *l, const tji_error_record *rec)
{
    char msg[TJI_ERR_BYTES];
    tji_format_kernel_error(l->kd, rec, msg, sizeof msg);
    return tji_dev_fail(l->dev, TJ_ERR_KERNEL, "%s", msg);
}

static tj_status
run_cpu(launch *l)
{
    tji_error_record rec = {0};
    tji_cpu_launch cl = {.entry = l->kd->cpu_entry, .args = l->buf, .nblocks = l->nblocks,
                         .block_dim = l->kd->lane_loops ? 1 : (int32_t)l->kd->block_width,
                         .cooperative = l->kd->cooperative && !l->kd->lane_loops,
                         .block_lanes = l->kd->lane_loops ? (int32_t)l->kd->block_width : 1,
                         .arena_bytes = l->kd->shared_bytes,
                         .frame_bytes = l->kd->frame_bytes, .err = &rec};
    char msg[TJI_ERRMSG_BYTES];
    tj_status st = tji_cpu_run(l->dev->pool, &cl, msg, sizeof msg);
    if (st != TJ_OK)
        return tji_dev_fail(l->dev, st, "tj_launch: %s", msg);
    return rec.flag ? kernel_error(l, &rec) : TJ_OK;
}

static tj_status
cuda_fail(tj_device *dev, tj_status st)
{
    return tji_dev_fail(dev, st, "%s", tji_cuda_error(dev->cuda));
}

/* Whether PTX text defines device functions (lines ".func", ".visible .func" or ".weak
 * .func"; not ".extern .func" declarations): on the GPU every function is inlined but the
 * recursive ones (docs/ARCHITECTURE.md), whose frames live on the thread's stack. */
static bool
ptx_defines_functions(const char *ptx)
{
    static const char *const starts[] = {"\n.func ", "\n.visible .func ", "\n.weak .func "};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (strstr(ptx, starts[i]))
            return true;
    return false;
}

/* Before loading a module with recursive functions: the stack at least
 * TJ_CUDA_RECURSION_STACK_BYTES, unless the user chose one (tj_device_set_stack_bytes).
 * CUDA's 1 KiB default holds 8 frames of 128 bytes; a deeper chain writes past it. */
static tj_status
reserve_recursion_stack(tj_device *dev, const char *ptx)
{
    if (dev->stack_set || !ptx_defines_functions(ptx))
        return TJ_OK;
    size_t now = 0;
    tj_status st = tji_cuda_get_stack_size(dev->cuda, &now);
    if (st == TJ_OK && now < TJ_CUDA_RECURSION_STACK_BYTES)
        st = tji_cuda_set_stack_size(dev->cuda, TJ_CUDA_RECURSION_STACK_BYTES);
    return st;
}

static tj_status
load_module(tj_device *dev, tj_module *m, tji_loaded **out)
{
    for (tji_loaded *l = dev->loaded; l; l = l->next)
        if (memcmp(l->key, m->key, 16) == 0) {
            *out = l;
            return TJ_OK;
        }
    tji_loaded *l = calloc(1, sizeof *l);
    if (l)
        l->fns = calloc((size_t)m->nkernels, sizeof *l->fns);
    if (!l || !l->fns) {
        free(l);
        return tji_dev_fail(dev, TJ_ERR_NOMEM, "tj_launch: out of memory");
    }
    tj_status st = reserve_recursion_stack(dev, m->code->ptx);
    if (st == TJ_OK)
        st = tji_cuda_module_load(dev->cuda, m->code->ptx, &l->mod);
    for (int i = 0; st == TJ_OK && i < m->nkernels; i++)
        st = tji_cuda_module_function(dev->cuda, l->mod, m->kernels[i].entry, &l->fns[i]);
    size_t bytes;
    if (st == TJ_OK)
        st = tji_cuda_module_global(dev->cuda, l->mod, "__tj_err", &l->err_ptr, &bytes);
    if (st != TJ_OK) {
        if (l->mod)
            tji_cuda_module_unload(dev->cuda, l->mod);
        free(l->fns);
        free(l);
        return cuda_fail(dev, st);
    }
    memcpy(l->key, m->key, 16);
    l->nfns = m->nkernels;
    l->next = dev->loaded;
    dev->loaded = l;
    *out = l;
    return TJ_OK;
}

static tj_status
check_cuda_error(launch *l, tji_loaded *lm)
{
    tji_cuda *c = l->dev->cuda;
    tji_error_record rec;
    tj_status st = tji_cuda_synchronize(c);
    if (st == TJ_OK)
        st = tji_cuda_copy_dtoh(c, &rec, lm->err_ptr, sizeof rec);
    if (st != TJ_OK)
        return cuda_fail(l->dev, st);
    if (!rec.flag)
        return TJ_OK;
    st = tji_cuda_memset(c, lm->err_ptr, 0, sizeof rec); /* ready for the next launch */
    return st != TJ_OK ? cuda_fail(l->dev, st) : kernel_error(l, &rec);
}

static tj_status
run_cuda(launch *l, tj_module *m)
{
    tji_loaded *lm = NULL;
    tj_status st = load_module(l->dev, m, &lm);
    if (st != TJ_OK)
        return st;
    if (l->nblocks > INT32_MAX)
        return tji_dev_fail(l->dev, TJ_ERR_LAUNCH, "tj_launch: %lld blocks exceed the grid limit",
                            (long long)l->nblocks);
    /* one pointer per scalar leaf of the argument buffer (make_entry's parameters) */
    void **params = malloc((size_t)l->kd->nslots * sizeof *params);
    if (!params)
        return tji_dev_fail(l->dev, TJ_ERR_NOMEM, "%s: out of memory", l->fn);
    for (int i = 0; i < l->kd->nslots; i++)
        params[i] = l->buf + l->kd->slots[i].offset;
    uint32_t grid[3] = {(uint32_t)l->nblocks, 1, 1}, block[3] = {l->kd->block_width, 1, 1};
    st = tji_cuda_launch(l->dev->cuda, lm->fns[l->kindex], grid, block, l->kd->shared_bytes,
                         params);
    free(params);
    if (st != TJ_OK)
        return cuda_fail(l->dev, st);
    return l->kd->debug ? check_cuda_error(l, lm) : TJ_OK;
}

static tj_status
launch_common(tj_device *dev, tj_module *m, const char *name, int ndim, const int64_t *dim,
              uint32_t block_dim, const tj_arg *args, size_t nargs, bool tiled)
{
    if (!dev)
        return TJ_ERR_INVALID;
    dev->has_err = false;
    launch l = {.dev = dev, .fn = tiled ? "tj_launch_tiled" : "tj_launch"};
    tj_status st = check_config(&l, m, name, ndim, dim, block_dim, tiled);
    if (st != TJ_OK)
        return st;
    uint8_t stack_buf[2048] __attribute__((aligned(16)));
    l.buf = l.kd->args_bytes <= sizeof stack_buf ? stack_buf : aligned_alloc(16, l.kd->args_bytes);
    if (!l.buf)
        return tji_dev_fail(dev, TJ_ERR_NOMEM, "tj_launch: out of memory");
    memset(l.buf, 0, l.kd->args_bytes);
    st = pack_args(&l, args, nargs);
    if (st == TJ_OK && l.n > 0)
        st = dev->kind == TJ_DEVICE_CPU ? run_cpu(&l) : run_cuda(&l, m);
    if (l.buf != stack_buf)
        free(l.buf);
    return st;
}

tj_status
tj_launch(tj_device *dev, tj_module *m, const char *name, int ndim, const int64_t *dim,
          uint32_t block_dim, const tj_arg *args, size_t nargs)
{
    return launch_common(dev, m, name, ndim, dim, block_dim, args, nargs, false);
}

tj_status
tj_launch_tiled(tj_device *dev, tj_module *m, const char *name, int ndim, const int64_t *dim,
                uint32_t block_dim, const tj_arg *args, size_t nargs)
{
    return launch_common(dev, m, name, ndim, dim, block_dim, args, nargs, true);
}
