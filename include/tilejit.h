/*
 * tilejit: Warp-style tile kernels for C hosts, assembled at run time.
 *
 * Lifecycle
 *   tj_context_create          one per thread that builds or launches (owns LLVM state)
 *   tj_device_create           the CPU, or a CUDA device found at run time
 *   tj_kernel_create           a kernel being built for one target and block_dim
 *   tj_param / builder calls   values, arithmetic, control flow, tile builtins
 *   tj_module_build            verify, optimise and compile kernels into a module
 *   tj_array_create            memory on a device
 *   tj_launch / tj_launch_tiled
 *   *_destroy                  in any order; an owner frees what it still owns
 *
 * Handles and who owns them
 *
 *   tj_context ─┬─ tj_device ── tj_array            (caller owns: create/destroy)
 *               ├─ tj_kernel ── tj_val ...           (tj_val: owned by its kernel)
 *               ├─ tj_func (a tj_kernel that is a callable function)
 *               ├─ tj_module                        (caller owns; independent of kernels)
 *               └─ tj_type                          (interned; owned by the context)
 *
 * Objects made in a context live until they are destroyed or the context is; destroying the
 * context frees everything it still owns (kernels, modules, devices and their arrays), and
 * destroying a device frees its remaining arrays. Using an object after its owner is gone is
 * an error the library cannot catch. Strings passed in are copied. Strings handed out are
 * borrowed: they live as long as the object that returned them.
 *
 * Errors
 *   Builder calls (anything taking a tj_kernel first) are sticky: the first failure is
 *   recorded on the kernel with a message naming the call (or builtin), the argument and the
 *   reason; from then on every builder call on that kernel does nothing and returns NULL (or
 *   false). A NULL tj_val argument (what a failed call returned, maybe in another kernel)
 *   is an error of the call it is passed to, so no call is dropped from a kernel that
 *   builds; after an earlier failure it changes nothing, as every call does nothing then.
 *   Build the whole kernel, then check tj_kernel_error() or the status of tj_module_build().
 *   Runtime calls return a tj_status and keep a message on the device (tj_device_error) or
 *   the context (tj_context_error). No call prints, aborts or exits.
 *
 * Threads
 *   A context, and everything it owns, is used by one thread at a time; different contexts
 *   may be used from different threads at once.
 */
#ifndef TILEJIT_H
#define TILEJIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(TILEJIT_BUILDING)
#define TJ_API __attribute__((visibility("default")))
#else
#define TJ_API
#endif

#define TJ_VERSION_MAJOR 0
#define TJ_VERSION_MINOR 1
#define TJ_VERSION_PATCH 0

/* The library's version as "MAJOR.MINOR.PATCH (LLVM X.Y.Z)". */
TJ_API const char *tj_version(void);

/* ---------------------------------------------------------------------------------------- */
/* Handles                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/* Owns the LLVM context, target machines, interned types and the compile cache. */
typedef struct tj_context tj_context;
/* The CPU or one CUDA device; caller-owned; keeps its last runtime error. */
typedef struct tj_device tj_device;
/* Memory on one device; caller-owned; freed with its device if still alive then. */
typedef struct tj_array tj_array;
/* A scalar, composite or struct type; interned and owned by the context. */
typedef struct tj_type tj_type;
/* A kernel (or function) being built; caller-owned. */
typedef struct tj_kernel tj_kernel;
/* A user function: a tj_kernel built with the same calls, callable from kernels. */
typedef struct tj_kernel tj_func;
/* A value inside a kernel: scalar, composite, array, variable, tile or stack. Owned by its
 * kernel; valid until the kernel is destroyed. */
typedef struct tj_val tj_val;
/* Compiled kernels for one target and option set; caller-owned; independent of the
 * kernels it was built from. */
typedef struct tj_module tj_module;

/* ---------------------------------------------------------------------------------------- */
/* Status                                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_status {
    TJ_OK = 0,
    TJ_ERR_INVALID = 1,      /* an invalid argument: type, shape, value, name */
    TJ_ERR_STATE = 2,        /* a call not valid now: unbalanced control flow, sealed kernel */
    TJ_ERR_NOMEM = 3,        /* host or device memory exhausted */
    TJ_ERR_NO_DEVICE = 4,    /* no CUDA driver, the toolkit's stub driver, or no GPU */
    TJ_ERR_UNSUPPORTED = 5,  /* needs something absent here (libdevice, a target) */
    TJ_ERR_LIMIT = 6,        /* over a resource limit (shared memory, block_dim) */
    TJ_ERR_LLVM = 7,         /* LLVM rejected the module (an internal error) */
    TJ_ERR_CUDA = 8,         /* a CUDA driver call failed */
    TJ_ERR_LAUNCH = 9,       /* a bad launch: unknown kernel, arguments, dimensions */
    TJ_ERR_KERNEL = 10,      /* a debug build's kernel check failed during the launch */
    TJ_ERR_IO = 11,          /* a file could not be read or written */
} tj_status;

/* A constant name such as "TJ_ERR_INVALID"; "TJ_ERR_?" for unknown codes. */
TJ_API const char *tj_status_name(tj_status status);

/* ---------------------------------------------------------------------------------------- */
/* Context and errors                                                                        */
/* ---------------------------------------------------------------------------------------- */

/* Creates a context in '*out'. Fails with TJ_ERR_NOMEM; '*out' is then NULL. The context
 * compiles CPU kernels for this host's CPU and features (set up at the first CPU build, which
 * fails with TJ_ERR_UNSUPPORTED when LLVM has no target for the host); $TILEJIT_CPU_COMPRESS
 * ("avx2" or "off"), read here, lowers how width-1 loops of stack pushes are vectorised
 * (README). */
TJ_API tj_status tj_context_create(tj_context **out);
/* Destroys the context and everything it still owns. NULL does nothing. */
TJ_API void tj_context_destroy(tj_context *ctx);
/* The message of the last failed context-level call (build, type creation), or NULL.
 * Owned by the context until the next failing call. */
TJ_API const char *tj_context_error(const tj_context *ctx);

/* ---------------------------------------------------------------------------------------- */
/* Devices and arrays                                                                        */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_device_kind {
    TJ_DEVICE_CPU = 0,
    TJ_DEVICE_CUDA = 1,
} tj_device_kind;

/* Number of CUDA devices in '*count': 0 when there is no driver or GPU (TJ_OK then). */
TJ_API tj_status tj_cuda_device_count(tj_context *ctx, int *count);
/* Opens a device. For TJ_DEVICE_CUDA, 'ordinal' picks the GPU; TJ_ERR_NO_DEVICE when there
 * is none (a normal result: use the CPU). For TJ_DEVICE_CPU 'ordinal' must be 0. On failure
 * '*out' is NULL and tj_context_error() says why. */
TJ_API tj_status tj_device_create(tj_context *ctx, tj_device_kind kind, int ordinal,
                                  tj_device **out);
/* Opens the best device present: CUDA device 0, else the CPU. */
TJ_API tj_status tj_device_create_default(tj_context *ctx, tj_device **out);
/* Destroys the device, what it loaded and its remaining arrays. NULL does nothing. */
TJ_API void tj_device_destroy(tj_device *dev);
TJ_API tj_device_kind tj_device_get_kind(const tj_device *dev);
/* "cpu (N threads)" or the GPU's name. Borrowed from the device. */
TJ_API const char *tj_device_get_name(const tj_device *dev);
/* The default compile architecture: "sm_90" for an H200, the host CPU name for the CPU. */
TJ_API const char *tj_device_get_arch(const tj_device *dev);
/* The largest shared-memory budget a block may use on this device, in bytes. */
TJ_API size_t tj_device_get_max_shared_bytes(const tj_device *dev);
/* The message of the device's last failed call, or NULL. Borrowed from the device. */
TJ_API const char *tj_device_error(const tj_device *dev);
/* Sets the number of worker threads the CPU device uses (0: one per core). */
TJ_API tj_status tj_device_set_cpu_threads(tj_device *dev, int nthreads);
/* Waits for every launch on the device to finish. */
TJ_API tj_status tj_device_synchronize(tj_device *dev);
/* The stack of each GPU thread, in bytes (CUDA's CU_LIMIT_STACK_SIZE of the device's
 * context; CUDA's default is 1024). Recursive functions, which stay calls on the GPU, need
 * their deepest call chain's frames. Unless this was called, loading a module that has
 * them raises the stack to at least TJ_CUDA_RECURSION_STACK_BYTES; call it before the
 * launch for deeper recursion (a stack overflow is CUDA_ERROR_ILLEGAL_ADDRESS, after which
 * the context is unusable). The driver reserves it for every thread the GPU holds at once:
 * 8 KiB is about 2.2 GB on an H200. TJ_ERR_INVALID on a CPU device. */
TJ_API tj_status tj_device_set_stack_bytes(tj_device *dev, size_t bytes);
#define TJ_CUDA_RECURSION_STACK_BYTES 8192

typedef enum tj_dtype {
    TJ_DTYPE_BOOL = 1,
    TJ_DTYPE_I8 = 2,
    TJ_DTYPE_I16 = 3,
    TJ_DTYPE_I32 = 4,
    TJ_DTYPE_I64 = 5,
    TJ_DTYPE_U8 = 6,
    TJ_DTYPE_U16 = 7,
    TJ_DTYPE_U32 = 8,
    TJ_DTYPE_U64 = 9,
    TJ_DTYPE_F16 = 10,
    TJ_DTYPE_F32 = 11,
    TJ_DTYPE_F64 = 12,
} tj_dtype;

/* Allocates a dense, row-major array of 'ndim' (1-4) dimensions of 'shape' elements of
 * type 'elem' on 'dev', zero-filled. Each extent is in [0, INT32_MAX]. */
TJ_API tj_status tj_array_create(tj_device *dev, const tj_type *elem, int ndim,
                                 const int64_t *shape, tj_array **out);
/* Frees the array. NULL does nothing. */
TJ_API void tj_array_destroy(tj_array *arr);
/* Copies 'bytes' (must equal tj_array_get_bytes) from host memory into the array. */
TJ_API tj_status tj_array_copy_from_host(tj_array *arr, const void *src, size_t bytes);
/* Copies the whole array into host memory at 'dst' ('bytes' must equal its size). */
TJ_API tj_status tj_array_copy_to_host(const tj_array *arr, void *dst, size_t bytes);
/* Sets every byte of the array to zero. */
TJ_API tj_status tj_array_zero(tj_array *arr);
TJ_API int tj_array_get_ndim(const tj_array *arr);
/* Extent of dimension 'dim', or -1 when 'dim' is out of range. */
TJ_API int64_t tj_array_get_shape(const tj_array *arr, int dim);
TJ_API size_t tj_array_get_bytes(const tj_array *arr);
TJ_API const tj_type *tj_array_get_type(const tj_array *arr);
TJ_API tj_device *tj_array_get_device(const tj_array *arr);
/* The address of the array's first element, for handing the array to other code: a CUDA
 * device pointer (a CUdeviceptr in the device's primary context, usable by the CUDA
 * runtime and libraries on that device) for a GPU array, a host pointer for a CPU array;
 * 0 when 'arr' is NULL; a CPU array starts on 64 bytes (a cache line), a GPU array on
 * CUDA's 256. Valid until the array is destroyed. The array stays dense and
 * row-major; work issued elsewhere must be ordered with tilejit's launches by the caller
 * (tilejit launches on the legacy default stream). */
TJ_API uint64_t tj_array_get_device_pointer(const tj_array *arr);

/* ---------------------------------------------------------------------------------------- */
/* Timing                                                                                    */
/* ---------------------------------------------------------------------------------------- */

/* A start and a stop mark taken in launch order on one device, for timing launches: CUDA
 * events on the legacy default stream on a GPU, the host's monotonic clock on the CPU
 * (whose launches finish before they return). Caller-owned; destroy it before its device. */
typedef struct tj_device_timer tj_device_timer;

/* Creates a timer on 'dev' in '*out' (NULL on failure; tj_device_error says why). */
TJ_API tj_status tj_device_timer_create(tj_device *dev, tj_device_timer **out);
/* Destroys the timer. NULL does nothing. */
TJ_API void tj_device_timer_destroy(tj_device_timer *t);
/* Records the start (stop) mark after everything launched so far on the device. Both are
 * asynchronous on a GPU. */
TJ_API tj_status tj_device_timer_start(tj_device_timer *t);
TJ_API tj_status tj_device_timer_stop(tj_device_timer *t);
/* Milliseconds between the last start and stop marks in '*ms', waiting for the stop mark;
 * TJ_ERR_STATE when either mark was not recorded, or stop came before start. CUDA events
 * resolve about half a microsecond. */
TJ_API tj_status tj_device_timer_elapsed(tj_device_timer *t, double *ms);

/* ---------------------------------------------------------------------------------------- */
/* Types                                                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_type_kind {
    TJ_TYPE_VOID = 0,
    TJ_TYPE_SCALAR = 1,
    TJ_TYPE_VECTOR = 2,
    TJ_TYPE_MATRIX = 3,
    TJ_TYPE_QUAT = 4,
    TJ_TYPE_STRUCT = 5,
} tj_type_kind;

/* The scalar type 'dtype'. Interned: equal types are the same pointer. NULL on a bad dtype. */
TJ_API const tj_type *tj_context_get_type(tj_context *ctx, tj_dtype dtype);
/* A vector of 'length' (2-4) components of the numeric scalar 'dtype'. */
TJ_API const tj_type *tj_context_get_vector_type(tj_context *ctx, tj_dtype dtype, int length);
/* A 'rows' x 'cols' matrix (each 1-4, not both 1) of the numeric scalar 'dtype'. */
TJ_API const tj_type *tj_context_get_matrix_type(tj_context *ctx, tj_dtype dtype, int rows,
                                                 int cols);
/* A quaternion (x, y, z, w) of float 'dtype' (F16, F32 or F64). */
TJ_API const tj_type *tj_context_get_quat_type(tj_context *ctx, tj_dtype dtype);

typedef struct tj_field {
    const char *name;
    const tj_type *type;
} tj_field;

/* A new struct type with C layout. 'name' and the field names are copied; field types are
 * scalars, composites or other structs. Structs are nominal: every call makes a new type.
 * NULL (with tj_context_error) on a duplicate or empty name or a bad field. */
TJ_API const tj_type *tj_context_new_struct_type(tj_context *ctx, const char *name,
                                                 const tj_field *fields, size_t nfields);

TJ_API tj_type_kind tj_type_get_kind(const tj_type *type);
/* The scalar type of a scalar, or of the components of a composite; 0 for structs. */
TJ_API tj_dtype tj_type_get_dtype(const tj_type *type);
/* Size and alignment in memory (arrays, structs), in bytes. */
TJ_API size_t tj_type_get_size(const tj_type *type);
/* "float32", "vec3f", "mat33f", "quatf", or the struct's name. Borrowed. */
TJ_API const char *tj_type_get_name(const tj_type *type);
/* Rows and columns of a composite: a vector of N components is N x 1, a quaternion 4 x 1,
 * a matrix R x C, a scalar 1 x 1; 0 for structs and NULL. */
TJ_API int tj_type_get_rows(const tj_type *type);
TJ_API int tj_type_get_cols(const tj_type *type);

/* ---------------------------------------------------------------------------------------- */
/* Kernels and functions                                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_target {
    TJ_TARGET_CPU = 0,
    TJ_TARGET_CUDA = 1,
} tj_target;

typedef enum tj_cpu_mode {
    TJ_CPU_WIDTH1 = 0,       /* every block has one lane (SPEC 1); the default */
    TJ_CPU_COOPERATIVE = 1,  /* block_dim lanes really run, with real barriers */
} tj_cpu_mode;

/* What a kernel is built for; it fixes the tile shapes, so it is given at creation. A
 * zero-initialised struct means: CPU, default block_dim, width-1 mode, release. */
typedef struct tj_kernel_options {
    tj_target target;
    uint32_t block_dim;      /* threads per block; 0: 256 on CUDA, 1 on the CPU */
    tj_cpu_mode cpu_mode;    /* CPU only */
    bool debug;              /* check array and tile indices inside the kernel */
} tj_kernel_options;

/* Creates a kernel named 'name' (a C identifier). NULL 'opts' means the zero options.
 * Bad options (block_dim over 1024, an invalid name) give a kernel whose error is set, so
 * the failure shows at build time like any other builder error; NULL only when 'ctx' is
 * NULL or memory runs out. */
TJ_API tj_kernel *tj_kernel_create(tj_context *ctx, const char *name,
                                   const tj_kernel_options *opts);
/* Destroys the kernel and its values. Modules built from it stay valid. NULL: nothing. */
TJ_API void tj_kernel_destroy(tj_kernel *k);
/* TJ_OK, or the status of the kernel's first builder error. */
TJ_API tj_status tj_kernel_status(const tj_kernel *k);
/* The first builder error's message, or NULL. Owned by the kernel. */
TJ_API const char *tj_kernel_error(const tj_kernel *k);
/* The effective block width: 1 on the CPU in width-1 mode, else the block_dim. */
TJ_API uint32_t tj_kernel_get_block_dim(const tj_kernel *k);
/* The kernel's shared-memory budget in bytes so far (SPEC 3). */
TJ_API size_t tj_kernel_get_shared_bytes(const tj_kernel *k);
/* The kernel's LLVM IR before target lowering and optimisation, as text. Owned by the
 * kernel until the next call; NULL when the kernel is in error. */
TJ_API const char *tj_kernel_get_ir(tj_kernel *k);

/* Creates a function returning 'ret' (NULL: nothing). Functions are built with the same
 * calls as kernels and called with tj_call(); their options must equal the caller's:
 * target, CPU mode, debug and the effective block width (block_dim, which width-1 CPU
 * kernels and functions take as 1, whatever they were given).
 * Kernels that call a function keep it alive until they are destroyed. */
TJ_API tj_func *tj_func_create(tj_context *ctx, const char *name, const tj_type *ret,
                               const tj_kernel_options *opts);
/* Drops the caller's reference to a function. NULL does nothing. */
TJ_API void tj_func_destroy(tj_func *f);

/* Declares a scalar, composite or struct parameter. Parameters come before any other
 * builder call on the kernel. */
TJ_API tj_val *tj_param(tj_kernel *k, const char *name, const tj_type *type);
/* Declares an array parameter of 'ndim' (1-4) dimensions of 'elem'. */
TJ_API tj_val *tj_param_array(tj_kernel *k, const char *name, const tj_type *elem, int ndim);

/* ---------------------------------------------------------------------------------------- */
/* Values                                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_val_kind {
    TJ_VAL_VOID = 0,     /* the result of a call to a function returning nothing */
    TJ_VAL_SCALAR = 1,   /* scalar, composite or struct value */
    TJ_VAL_ARRAY = 2,
    TJ_VAL_VAR = 3,      /* a mutable local (tj_var_new) */
    TJ_VAL_TILE = 4,
    TJ_VAL_STACK = 5,
} tj_val_kind;

TJ_API tj_val_kind tj_val_get_kind(const tj_val *v);
/* The value's type; for arrays, variables, tiles and stacks, their element type. */
TJ_API const tj_type *tj_val_get_type(const tj_val *v);

/* Integer constant of scalar 'dtype' (bool or integer); 'value' must fit the type, except
 * that U64 takes the bit pattern of any int64_t. */
TJ_API tj_val *tj_const_int(tj_kernel *k, tj_dtype dtype, int64_t value);
/* Floating-point constant of 'dtype' (F16, F32, F64), rounded to that type. */
TJ_API tj_val *tj_const_float(tj_kernel *k, tj_dtype dtype, double value);
TJ_API tj_val *tj_const_bool(tj_kernel *k, bool value);
/* The zero value of any scalar, composite or struct type. */
TJ_API tj_val *tj_zero(tj_kernel *k, const tj_type *type);

/* Builds a composite or struct of 'type' from 'elems': a vector or quaternion from its
 * components, a matrix from rows*cols scalars in row-major order, a struct from its
 * fields in order. One scalar fills every component of a vector or matrix. Elements must
 * have the component (field) types exactly. */
TJ_API tj_val *tj_compose(tj_kernel *k, const tj_type *type, tj_val *const *elems,
                          size_t nelems);
/* Component 'index' of a vector or quaternion, or row 'index' (a vector) of a matrix. */
TJ_API tj_val *tj_extract(tj_kernel *k, tj_val *v, int index);
/* A copy of 'v' with component (row) 'index' replaced by 'x'. */
TJ_API tj_val *tj_insert(tj_kernel *k, tj_val *v, int index, tj_val *x);
/* Field 'name' of a struct value. */
TJ_API tj_val *tj_get_field(tj_kernel *k, tj_val *v, const char *name);
/* A copy of struct 'v' with field 'name' replaced by 'x'. */
TJ_API tj_val *tj_set_field(tj_kernel *k, tj_val *v, const char *name, tj_val *x);

typedef enum tj_unop {
    TJ_UN_NEG = 0,       /* -a: numeric scalars and composites */
    TJ_UN_NOT = 1,       /* logical not: bool */
    TJ_UN_BIT_NOT = 2,   /* ~a: integers */
    TJ_UN_ABS = 3,       /* numeric scalars, componentwise on composites */
    TJ_UN_SQRT = 4,      /* the rest: float scalars, componentwise on float composites */
    TJ_UN_FLOOR = 5,
    TJ_UN_CEIL = 6,
    TJ_UN_ROUND = 7,     /* half away from zero, like C round() */
    TJ_UN_TRUNC = 8,
    TJ_UN_EXP = 9,
    TJ_UN_LOG = 10,
    TJ_UN_SIN = 11,
    TJ_UN_COS = 12,
    TJ_UN_TAN = 13,
    TJ_UN_TANH = 14,
    TJ_UN_LENGTH = 15,    /* Euclidean length of a float vector or quaternion */
    TJ_UN_NORMALIZE = 16, /* a / length(a); the zero vector stays zero */
    TJ_UN_TRANSPOSE = 17, /* matrices */
} tj_unop;

typedef enum tj_binop {
    TJ_BIN_ADD = 0,      /* same numeric types (scalars or composites of one type) */
    TJ_BIN_SUB = 1,
    TJ_BIN_MUL = 2,      /* scalars; scalar*composite; matrix*vector; matrix*matrix */
    TJ_BIN_DIV = 3,      /* scalars (integer division truncates); composite/scalar */
    TJ_BIN_MOD = 4,      /* remainder with the sign of the dividend, like C */
    TJ_BIN_MIN = 5,
    TJ_BIN_MAX = 6,
    TJ_BIN_AND = 7,      /* logical, bool */
    TJ_BIN_OR = 8,
    TJ_BIN_BIT_AND = 9,  /* integers */
    TJ_BIN_BIT_OR = 10,
    TJ_BIN_BIT_XOR = 11,
    TJ_BIN_SHL = 12,
    TJ_BIN_SHR = 13,     /* arithmetic for signed, logical for unsigned */
    TJ_BIN_POW = 14,     /* float scalars (componentwise on composites) */
    TJ_BIN_ATAN2 = 15,   /* atan2(a, b), float scalars */
    TJ_BIN_DOT = 16,     /* vectors and quaternions -> scalar */
    TJ_BIN_CROSS = 17,   /* 3-vectors */
    TJ_BIN_CW_MUL = 18,  /* componentwise product of two equal composites */
    TJ_BIN_CW_DIV = 19,
} tj_binop;

typedef enum tj_cmp {
    TJ_CMP_EQ = 0,
    TJ_CMP_NE = 1,
    TJ_CMP_LT = 2,
    TJ_CMP_LE = 3,
    TJ_CMP_GT = 4,
    TJ_CMP_GE = 5,
} tj_cmp;

TJ_API tj_val *tj_unary(tj_kernel *k, tj_unop op, tj_val *a);
TJ_API tj_val *tj_binary(tj_kernel *k, tj_binop op, tj_val *a, tj_val *b);
/* Compares two scalars of the same type (EQ and NE also composites); result is bool. */
TJ_API tj_val *tj_compare(tj_kernel *k, tj_cmp op, tj_val *a, tj_val *b);
/* a * b + c for float scalars or composites of one type, fused. */
TJ_API tj_val *tj_fma(tj_kernel *k, tj_val *a, tj_val *b, tj_val *c);
/* 'cond' (bool) ? 'a' : 'b'; 'a' and 'b' of the same type. */
TJ_API tj_val *tj_select(tj_kernel *k, tj_val *cond, tj_val *a, tj_val *b);
/* Converts a scalar to scalar type 'type' (C semantics; float to int truncates and
 * saturates; to bool compares with zero), or a composite componentwise to a composite of
 * the same shape. */
TJ_API tj_val *tj_cast(tj_kernel *k, tj_val *v, const tj_type *type);

/* A mutable local holding 'init': a scalar, composite or struct, or a tile. Unlike other
 * values a variable is not bound to the block that made it: its slot is made at the
 * kernel's entry, so it can be read and set after that block ends (a scalar one holds zero
 * on paths where tj_var_new did not run); this is how values leave branches and loops.
 * A tile variable
 * keeps a register copy of its own: tj_var_get gives a register tile, and tj_var_set takes
 * a tile of the same element type and shape (SPEC 3). A variable made from a reduction's
 * result also takes other tiles of its shape (the result plus a loaded tile); each lane
 * then gets the element from the lane that holds it, so every lane of the block must reach
 * such a tj_var_set, as a cooperative builtin. */
TJ_API tj_val *tj_var_new(tj_kernel *k, tj_val *init);
/* The current value of variable 'var'. */
TJ_API tj_val *tj_var_get(tj_kernel *k, tj_val *var);
/* Stores 'value' (the variable's type exactly) into 'var'. */
TJ_API bool tj_var_set(tj_kernel *k, tj_val *var, tj_val *value);

/* ---------------------------------------------------------------------------------------- */
/* Threads, arrays and calls                                                                 */
/* ---------------------------------------------------------------------------------------- */

/* Fills 'out[0..ncoords)' (ncoords 1-4) with the thread's int32 coordinates over the
 * launch dimensions, folding trailing launch dimensions away (SPEC 1). */
TJ_API bool tj_tid(tj_kernel *k, int ncoords, tj_val **out);
/* The effective block width as int32 (1 on the CPU in width-1 mode). */
TJ_API tj_val *tj_block_dim(tj_kernel *k);
/* Extent of dimension 'dim' of array 'arr', as int32. */
TJ_API tj_val *tj_shape(tj_kernel *k, tj_val *arr, int dim);
/* Reads arr[idx...]: one int32 index per dimension. */
TJ_API tj_val *tj_load(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx);
/* Writes 'value' (the element type exactly) at arr[idx...]. */
TJ_API bool tj_store(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx, tj_val *value);
/* Atomically combines 'value' into arr[idx...] and returns the old element. add takes
 * numeric scalars and composites (componentwise, each component atomic on its own);
 * min/max take numeric scalars. */
TJ_API tj_val *tj_atomic_add(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx,
                             tj_val *value);
TJ_API tj_val *tj_atomic_min(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx,
                             tj_val *value);
TJ_API tj_val *tj_atomic_max(tj_kernel *k, tj_val *arr, tj_val *const *idx, int nidx,
                             tj_val *value);

/* Calls 'f' with 'args' (types and array ranks exactly as its parameters). Returns its
 * result, or a TJ_VAL_VOID value when it returns nothing. */
TJ_API tj_val *tj_call(tj_kernel *k, tj_func *f, tj_val *const *args, size_t nargs);

/* ---------------------------------------------------------------------------------------- */
/* Control flow (begin/end pairs; every scope must be closed before building)               */
/* ---------------------------------------------------------------------------------------- */
/* A value can be used only inside the scope that made it (and scopes nested in it); use a
 * variable (tj_var_new) to carry values out of a branch or a loop. */

/* Opens the then-branch of 'cond' (bool). */
TJ_API bool tj_if_begin(tj_kernel *k, tj_val *cond);
/* Closes the then-branch and opens the else-branch of the innermost if. */
TJ_API bool tj_else_begin(tj_kernel *k);
TJ_API bool tj_if_end(tj_kernel *k);
/* for i in range(start, stop, step): opens the body and returns 'i'. The three values are
 * integers of one type; a step of 0 runs no iteration (a constant 0 is an error). */
TJ_API tj_val *tj_for_begin(tj_kernel *k, tj_val *start, tj_val *stop, tj_val *step);
TJ_API bool tj_for_end(tj_kernel *k);
/* while cond: body. tj_while_begin opens the condition, which is computed by the calls that
 * follow; tj_while_cond(cond) ends the condition and opens the body. */
TJ_API bool tj_while_begin(tj_kernel *k);
TJ_API bool tj_while_cond(tj_kernel *k, tj_val *cond);
TJ_API bool tj_while_end(tj_kernel *k);
/* Leave or restart the innermost loop. */
TJ_API bool tj_break(tj_kernel *k);
TJ_API bool tj_continue(tj_kernel *k);
/* Returns 'value' (NULL in kernels and functions returning nothing). A function that runs
 * off its end returns the zero value of its return type. */
TJ_API bool tj_return(tj_kernel *k, tj_val *value);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: values and storage (builtins/layout.c)                                             */
/* ---------------------------------------------------------------------------------------- */
/* A tile is a block-cooperative value (SPEC 3, 4): an element type (scalar, composite or
 * struct), a compile-time shape of 1-4 positive extents, and a storage. Every lane of the
 * block must reach every tile builtin (they are cooperative). A register tile is spread
 * over the lanes; a shared tile lives in the block's shared memory. Builtins that need
 * random access move a register tile to shared memory ("promote" it) where it was made. */

typedef enum tj_storage {
    TJ_STORAGE_REGISTER = 0,
    TJ_STORAGE_SHARED = 1,
} tj_storage;

/* Rank (1-4) of tile 't', or 0 when 't' is not a tile. */
TJ_API int tj_tile_get_rank(const tj_val *t);
/* Extent of dimension 'dim' of tile 't', or 0. */
TJ_API int tj_tile_get_shape(const tj_val *t, int dim);
TJ_API tj_storage tj_tile_get_storage(const tj_val *t);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: memory (builtins/memory.c)                                                         */
/* ---------------------------------------------------------------------------------------- */

/* A tile of 'rank' extents 'shape' of zeros (ones) of type 'elem' (numeric for ones). */
TJ_API tj_val *tj_tile_zeros(tj_kernel *k, const tj_type *elem, int rank, const int *shape,
                             tj_storage storage);
TJ_API tj_val *tj_tile_ones(tj_kernel *k, const tj_type *elem, int rank, const int *shape,
                            tj_storage storage);
/* The 1-D tile start, start + step, ... of scalar type 'elem' with int((stop - start) /
 * step) elements (truncated, unlike NumPy); integer types need integral values. */
TJ_API tj_val *tj_tile_arange(tj_kernel *k, double start, double stop, double step,
                              const tj_type *elem, tj_storage storage);
/* Loads the 'rank'-dim tile 'shape' of array 'arr' (of the same rank) whose element
 * (0, ...) is arr[offset...]; 'offset' holds one integer per dimension (NULL: zeros).
 * Elements outside the array, on either side, load as zero. */
TJ_API tj_val *tj_tile_load(tj_kernel *k, tj_val *arr, int rank, const int *shape,
                            tj_val *const *offset, tj_storage storage);
/* Stores tile 't' into array 'arr' (same rank and element type) at 'offset' (NULL:
 * zeros); elements outside the array are dropped. */
TJ_API bool tj_tile_store(tj_kernel *k, tj_val *arr, tj_val *t, tj_val *const *offset);
/* A dense view of 't' with a new shape of the same size; one extent may be -1. The source
 * must be dense (a register tile or a dense shared tile). */
TJ_API tj_val *tj_tile_reshape(tj_kernel *k, tj_val *t, int rank, const int *shape);
/* Copies 'src' into 'dst' (promoted to shared memory) at 'offset' (NULL: zeros; one
 * integer per dimension of 'dst', which has the rank of 'src'). 'src' is read completely
 * before anything is written, so overlapping copies behave like NumPy. Elements that fall
 * outside 'dst' are dropped. */
TJ_API bool tj_tile_assign(tj_kernel *k, tj_val *dst, tj_val *src, tj_val *const *offset);
/* Element 'idx' (one integer per dimension) of tile 't', the same value in every lane.
 * Every lane must reach it. For a register tile the index must be the same in every lane
 * (the lane that owns the element publishes it, as in Warp): a debug build reports a lane
 * whose index differs from lane 0's as a kernel error, and otherwise the value read there
 * is unspecified. A shared tile reads each lane's own index. */
TJ_API tj_val *tj_tile_extract(tj_kernel *k, tj_val *t, tj_val *const *idx, int nidx);
/* Atomically adds tile 't' into array 'arr' at 'offset' (NULL: zeros) and returns a tile
 * of the previous values; elements outside the array are dropped. */
TJ_API tj_val *tj_tile_atomic_add(tj_kernel *k, tj_val *arr, tj_val *t, tj_val *const *offset);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: tile and untile (builtins/tile.c)                                                  */
/* ---------------------------------------------------------------------------------------- */

/* Each lane's value 'x' becomes the last dimension of a tile (SPEC 4): a scalar gives
 * shape (B,), a vector of length N (N, B), a quaternion (4, B), an R x C matrix (R, C, B);
 * with 'preserve_type' the element type stays that of 'x' and the shape is (B,). B is the
 * effective block width (1 on the CPU in width-1 mode). */
TJ_API tj_val *tj_tile(tj_kernel *k, tj_val *x, bool preserve_type);
/* The inverse of tj_tile: the last dimension of 'a' must be B; rank 1 gives the element
 * (scalar or composite), rank 2 a vector, rank 3 a matrix. */
TJ_API tj_val *tj_untile(tj_kernel *k, tj_val *a);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: views (builtins/view.c)                                                            */
/* ---------------------------------------------------------------------------------------- */

/* An omitted slice bound or step. */
#define TJ_SLICE_NONE INT64_MIN

typedef enum tj_view_kind {
    TJ_VIEW_INDEX = 0,   /* an integer (compile-time constant or runtime value) */
    TJ_VIEW_SLICE = 1,   /* start:stop:step with compile-time bounds, each optional */
} tj_view_kind;

/* One entry of a tile_view offset. */
typedef struct tj_view_index {
    tj_view_kind kind;
    tj_val *index;                /* TJ_VIEW_INDEX */
    int64_t start, stop, step;    /* TJ_VIEW_SLICE; TJ_SLICE_NONE when omitted */
} tj_view_index;

TJ_API tj_view_index tj_view_at(tj_val *index);
TJ_API tj_view_index tj_view_slice(int64_t start, int64_t stop, int64_t step);

/* A non-owning view aliasing 't' (promoted to shared memory; SPEC 4, tile_view). Without
 * 'shape' (nshape 0): integers select and remove leading dimensions, slices keep theirs
 * with Python's slice rules, unnamed trailing dimensions are kept whole. With 'shape' (one
 * extent per dimension of 't'; integers only in 'offset'): the window of that extent at
 * origin 'offset'. Integers are raw coordinates (negatives are not wrapped). Constant
 * offsets are checked when building, runtime ones in debug builds. */
TJ_API tj_val *tj_tile_view(tj_kernel *k, tj_val *t, const tj_view_index *offset,
                            int noffset, const int *shape, int nshape);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: element-wise operations (builtins/elementwise.c)                                   */
/* ---------------------------------------------------------------------------------------- */
/* tj_unary, tj_binary and tj_compare also take tiles: element-wise over tiles of one shape,
 * or a tile and a value (broadcast to every element); the result is a register tile. */

/* A register tile whose elements are f(a[i], b[i], ...) for tiles 'tiles' of one shape;
 * 'f' takes one element of each tile and returns the result element. */
TJ_API tj_val *tj_tile_map(tj_kernel *k, tj_func *f, tj_val *const *tiles, size_t ntiles);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: reductions (builtins/reduce.c)                                                     */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_reduce_op {
    TJ_REDUCE_ADD = 0,       /* identity 0 */
    TJ_REDUCE_MUL = 1,       /* identity 1 */
    TJ_REDUCE_MIN = 2,       /* identity: the largest value (+inf); NaN ignored like fmin */
    TJ_REDUCE_MAX = 3,       /* identity: the lowest value (-inf) */
    TJ_REDUCE_BIT_AND = 4,   /* identity: all ones */
    TJ_REDUCE_BIT_OR = 5,    /* identity 0 */
    TJ_REDUCE_BIT_XOR = 6,   /* identity 0 */
    TJ_REDUCE_FUNC = 7,      /* the user function 'f': (T, T) -> T; no identity */
} tj_reduce_op;

/* Combines every element of tile 'a' with 'op' (or 'f' for TJ_REDUCE_FUNC), which must be
 * associative and commutative. Result: a register tile of shape (1,) with a's element
 * type, whose element 0 reads the same in every lane. Cooperative. */
TJ_API tj_val *tj_tile_reduce(tj_kernel *k, tj_reduce_op op, tj_func *f, tj_val *a);
/* Reduces tile 'a' (scalar elements) along 'axis' in [0, rank): a register tile of a's
 * shape without that axis ((1,) for rank 1). 'a' goes to shared memory. A slice with no
 * value from an active lane (partial CPU blocks) gives the operator's identity; for a user
 * function it is a kernel error in debug builds and zero otherwise. An element of the
 * result that a lane which does not run owns is neither computed nor checked (an extract
 * of it reads 0, README). Cooperative. */
TJ_API tj_val *tj_tile_reduce_axis(tj_kernel *k, tj_reduce_op op, tj_func *f, tj_val *a,
                                   int axis);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: scatter-add (builtins/scatter_add.c)                                               */
/* ---------------------------------------------------------------------------------------- */

/* Every lane whose 'has_value' (bool) is true adds 'value' (the tile's element type
 * exactly) at index 'idx' (one integer per dimension, 1-4) of tile 'a', which is promoted
 * to shared memory. 'atomic' (a bool constant; NULL: true) makes collisions safe; false is
 * a plain read-modify-write, valid only when no two lanes target one element. Struct
 * elements accumulate the fields that support addition (32/64-bit integers, floats, and
 * composites of those) and leave the others. When it returns, the updates are visible to
 * later tile operations. Cooperative. */
TJ_API bool tj_tile_scatter_add(tj_kernel *k, tj_val *a, tj_val *const *idx, int nidx,
                                tj_val *value, tj_val *has_value, tj_val *atomic);

/* ---------------------------------------------------------------------------------------- */
/* Tiles: shared-memory stacks (builtins/stack.c)                                            */
/* ---------------------------------------------------------------------------------------- */

/* An empty stack of 'capacity' (positive) elements of 'elem' in shared memory. */
TJ_API tj_val *tj_tile_stack(tj_kernel *k, int64_t capacity, const tj_type *elem);
/* Declares a stack parameter of a function (passed by reference). */
TJ_API tj_val *tj_param_stack(tj_kernel *k, const char *name, const tj_type *elem,
                              int64_t capacity);
/* Each lane whose 'has_value' is true pushes 'value'; returns the slot written (int32), or
 * -1 when the lane pushed nothing or the stack was full (the count saturates). */
TJ_API tj_val *tj_tile_stack_push(tj_kernel *k, tj_val *s, tj_val *value, tj_val *has_value);
/* Each lane pops up to one value: returns it and its slot in '*slot' (int32), or the zero
 * value and -1. The slots of one pop are the top of the stack. */
TJ_API tj_val *tj_tile_stack_pop(tj_kernel *k, tj_val *s, tj_val **slot);
/* The number of elements (int32, in [0, capacity], the same in every lane). May be called
 * from one lane, after every lane finished the previous push, pop or clear. */
TJ_API tj_val *tj_tile_stack_count(tj_kernel *k, tj_val *s);
/* Empties the stack (the data is not zeroed). */
TJ_API bool tj_tile_stack_clear(tj_kernel *k, tj_val *s);

/* ---------------------------------------------------------------------------------------- */
/* Build options and modules                                                                 */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_opt_level {
    /* CPU: O3. CUDA: a lighter IR pipeline and NVPTX code generation without its own
     * optimisations, ptxas optimising again (the fastest builds; docs/ARCHITECTURE.md) */
    TJ_OPT_DEFAULT = 0,
    /* LLVM's default<On> pipeline; on CUDA also the NVPTX code generator's optimisations */
    TJ_OPT_O0 = 1,
    TJ_OPT_O1 = 2,
    TJ_OPT_O2 = 3,
    TJ_OPT_O3 = 4,
} tj_opt_level;

/* How a module is compiled. A zero-initialised struct (or NULL) means O3 for the default
 * architecture (that of 'device' when set, else sm_90 / the host CPU). */
typedef struct tj_build_options {
    const char *arch;          /* CUDA: "sm_50" to "sm_90a"; PTX 6.0 at least (LLVM's
                                  default for the architecture when newer) */
    const tj_device *device;   /* take the architecture from this device */
    tj_opt_level opt_level;
    bool keep_ir;              /* keep the optimised LLVM IR (tj_module_get_ir) */
} tj_build_options;

/* Seals and compiles 'nkernels' kernels (one target, distinct names) into a new module.
 * Fails with the first kernel's builder error (its message is also the context's error),
 * or with a compile error in tj_context_error(). Building the same kernels with the same
 * options again reuses the compiled code. */
TJ_API tj_status tj_module_build(tj_context *ctx, tj_kernel *const *kernels, size_t nkernels,
                                 const tj_build_options *opts, tj_module **out);
/* tj_module_build of one kernel. */
TJ_API tj_status tj_kernel_build(tj_kernel *k, const tj_build_options *opts, tj_module **out);
/* Destroys the module. NULL does nothing. */
TJ_API void tj_module_destroy(tj_module *m);
TJ_API tj_target tj_module_get_target(const tj_module *m);
/* The PTX text of a CUDA module (NULL for the CPU). Borrowed from the module. */
TJ_API const char *tj_module_get_ptx(const tj_module *m);
/* The optimised LLVM IR, when built with keep_ir (else NULL). Borrowed from the module. */
TJ_API const char *tj_module_get_ir(const tj_module *m);
/* Whether the module's code came from the compile cache. */
TJ_API bool tj_module_is_cached(const tj_module *m);

/* One parameter of a kernel in a module. */
typedef struct tj_param_info {
    const char *name;        /* borrowed from the module */
    bool is_array;
    const tj_type *type;     /* the parameter's type; for arrays the element type */
    int ndim;                /* arrays: 1-4; 0 otherwise */
} tj_param_info;

/* The number of kernels in 'm' (0 for NULL), and the name of kernel 'index' in build order
 * (NULL when out of range; borrowed from the module). */
TJ_API int tj_module_get_kernel_count(const tj_module *m);
TJ_API const char *tj_module_get_kernel_name(const tj_module *m, int index);
/* The block_dim kernel 'kernel' was built for (the value tj_launch wants), or 0 when the
 * module has no such kernel. */
TJ_API uint32_t tj_module_get_block_dim(const tj_module *m, const char *kernel);
/* The number of parameters of kernel 'kernel', or -1 when the module has no such kernel. */
TJ_API int tj_module_get_param_count(const tj_module *m, const char *kernel);
/* Describes parameter 'index' of kernel 'kernel' in '*out' (its name is borrowed from the
 * module). TJ_ERR_INVALID for an unknown kernel or an index out of range. */
TJ_API tj_status tj_module_get_param(const tj_module *m, const char *kernel, int index,
                                     tj_param_info *out);

/* ---------------------------------------------------------------------------------------- */
/* Kernel source (jit/lang/)                                                                 */
/* ---------------------------------------------------------------------------------------- */
/* Kernels written as text in NVIDIA Warp's Python kernel syntax, turned into the builder
 * calls above. The language: 'import warp as wp' (ignored; the 'wp.' prefix is optional
 * everywhere), module constants 'NAME = wp.constant(EXPR)', '@wp.kernel' and '@wp.func'
 * definitions with annotated parameters, '@wp.struct' classes with annotated fields; the
 * types int (int32), float (float32), bool, wp.int8 .. wp.uint64, wp.float16/32/64,
 * vectors, matrices and quaternions (wp.vec3, wp.vec2i, wp.mat33d, wp.quat, wp.vec(length,
 * dtype), wp.mat(shape, dtype)), wp.array[T], wp.array2d[T] .. array4d, wp.array(dtype=T,
 * ndim=N); assignment, augmented assignment (arr[i] += v is atomic, as in Warp), tuple
 * unpacking of wp.tid() and wp.tile_stack_pop(), if/elif/else, for .. in range(..), while,
 * break, continue, return, pass; Python's operators and precedence, the math builtins, the
 * atomics and every tile builtin of this header (plus tile_sum, tile_min, tile_max).
 * Types are static as in Warp: int literals are int32, float literals float32, and
 * nothing converts implicitly (int + float is an error; literals passed to a type, such as
 * wp.float64(0.1), convert exactly). '/' on integers truncates like C, '//' rounds down,
 * '%' keeps the dividend's sign. Tile subscripts t[i, j] extract an element (of a register
 * tile: at the same index in every lane, tj_tile_extract); slices and partial indices give
 * views; a negative constant index wraps once (SPEC 4, tile_view).
 *
 * Errors name the place: "file:line:col: error: message", then the source line and a
 * caret; builder errors met while lowering are reported at the call that caused them. */

/* A parsed and checked kernel source file. Caller-owned (not by the context): destroy it
 * with tj_program_destroy; building needs its context alive. */
typedef struct tj_program tj_program;

/* Parses and checks 'source' (NUL-terminated; 'filename' names it in messages, NULL:
 * "<source>") into '*out': syntax, names, types, argument counts and keywords, and the
 * arguments that must be compile-time constants. On an error the program is still made,
 * holds the message (tj_program_error) and fails every build with it: TJ_ERR_INVALID, or
 * TJ_ERR_NOMEM. '*out' is NULL only when 'ctx', 'source' or 'out' is NULL
 * (TJ_ERR_INVALID) or memory runs out (TJ_ERR_NOMEM). Never reads past the source. */
TJ_API tj_status tj_program_create(tj_context *ctx, const char *source, const char *filename,
                                   tj_program **out);
/* Destroys the program. Modules and kernels made from it stay valid. NULL does nothing. */
TJ_API void tj_program_destroy(tj_program *prog);
/* The message of the program's last failure (create or build), or NULL. Owned by the
 * program until its next failing call. Unlike the other error strings it is whole lines,
 * each ending in '\n' (the message, then the source line and a caret when it has a
 * place): print it with fputs. */
TJ_API const char *tj_program_error(const tj_program *prog);
/* The number of @wp.kernel definitions (0 when the program is in error), and the name of
 * kernel 'index' in source order (NULL when out of range; borrowed from the program). */
TJ_API int tj_program_get_kernel_count(const tj_program *prog);
TJ_API const char *tj_program_get_kernel_name(const tj_program *prog, int index);
/* The index of the kernel named 'name', or -1. */
TJ_API int tj_program_get_kernel_index(const tj_program *prog, const char *name);
/* Lowers kernel 'name' (and the @wp.func functions it uses) with 'opts' (NULL: the zero
 * options) into a new kernel in '*out', which the caller owns and may build alone or with
 * other kernels. Tile shapes follow the options' block width. On failure '*out' is NULL and
 * tj_program_error() says where and why. */
TJ_API tj_status tj_program_create_kernel(tj_program *prog, const char *name,
                                          const tj_kernel_options *opts, tj_kernel **out);
/* Lowers kernel 'kernel' (NULL: every kernel of the file) with 'kopts' (NULL: the zero
 * options) and builds it with 'bopts' (as tj_module_build) into a new module in '*out'.
 * Launch the kernels by name with the block_dim of 'kopts' (tj_module_get_block_dim). On
 * failure '*out' is NULL and tj_program_error() holds the message, at the source position
 * of the failing call where there is one. */
TJ_API tj_status tj_program_build(tj_program *prog, const char *kernel,
                                  const tj_kernel_options *kopts, const tj_build_options *bopts,
                                  tj_module **out);

/* ---------------------------------------------------------------------------------------- */
/* Launch                                                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef enum tj_arg_kind {
    TJ_ARG_INT = 1,     /* integer parameters; the value must fit */
    TJ_ARG_FLOAT = 2,   /* float parameters; rounded to the parameter's type */
    TJ_ARG_BOOL = 3,
    TJ_ARG_ARRAY = 4,   /* array parameters: same element type and rank */
    TJ_ARG_BYTES = 5,   /* any parameter, given as 'type' and bytes in its memory layout */
} tj_arg_kind;

typedef struct tj_arg {
    tj_arg_kind kind;
    const tj_type *type;          /* TJ_ARG_BYTES only */
    union {
        int64_t i;
        double f;
        bool b;
        const tj_array *array;
        const void *bytes;
    } u;
} tj_arg;

TJ_API tj_arg tj_arg_int(int64_t value);
TJ_API tj_arg tj_arg_float(double value);
TJ_API tj_arg tj_arg_bool(bool value);
TJ_API tj_arg tj_arg_array(const tj_array *array);
TJ_API tj_arg tj_arg_bytes(const tj_type *type, const void *bytes);

/* Runs kernel 'name' of 'm' over 'ndim' (1-4) dimensions 'dim' with blocks of 'block_dim'
 * threads, which must equal the kernel's block_dim (SPEC 1). The module's target must
 * match the device. CUDA launches are asynchronous unless the kernel is a debug build; a
 * debug launch waits and returns TJ_ERR_KERNEL with the first failed check's message. */
TJ_API tj_status tj_launch(tj_device *dev, tj_module *m, const char *name, int ndim,
                           const int64_t *dim, uint32_t block_dim, const tj_arg *args,
                           size_t nargs);
/* tj_launch over dims [dim..., B] ('ndim' at most 3): 'dim' counts blocks. B is the
 * effective block width: 'block_dim', or 1 on the CPU in width-1 mode (the lane is 0). */
TJ_API tj_status tj_launch_tiled(tj_device *dev, tj_module *m, const char *name, int ndim,
                                 const int64_t *dim, uint32_t block_dim, const tj_arg *args,
                                 size_t nargs);

#ifdef __cplusplus
}
#endif

#endif /* TILEJIT_H */
