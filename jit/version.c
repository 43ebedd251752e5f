/* jit/version.c: the version string and status names. */
#include "tilejit.h"

#ifndef TJ_LLVM_VERSION_STRING
#define TJ_LLVM_VERSION_STRING "?"
#endif

#define TJ_STR2(x) #x
#define TJ_STR(x) TJ_STR2(x)

const char *
tj_version(void)
{
    return TJ_STR(TJ_VERSION_MAJOR) "." TJ_STR(TJ_VERSION_MINOR) "." TJ_STR(
        TJ_VERSION_PATCH) " (LLVM " TJ_LLVM_VERSION_STRING ")";
}

const char *
tj_status_name(tj_status status)
{
    static const char *const names[] = {
        [TJ_OK] = "TJ_OK",
        [TJ_ERR_INVALID] = "TJ_ERR_INVALID",
        [TJ_ERR_STATE] = "TJ_ERR_STATE",
        [TJ_ERR_NOMEM] = "TJ_ERR_NOMEM",
        [TJ_ERR_NO_DEVICE] = "TJ_ERR_NO_DEVICE",
        [TJ_ERR_UNSUPPORTED] = "TJ_ERR_UNSUPPORTED",
        [TJ_ERR_LIMIT] = "TJ_ERR_LIMIT",
        [TJ_ERR_LLVM] = "TJ_ERR_LLVM",
        [TJ_ERR_CUDA] = "TJ_ERR_CUDA",
        [TJ_ERR_LAUNCH] = "TJ_ERR_LAUNCH",
        [TJ_ERR_KERNEL] = "TJ_ERR_KERNEL",
        [TJ_ERR_IO] = "TJ_ERR_IO",
    };
    if ((unsigned)status >= sizeof names / sizeof names[0] || !names[status])
        return "TJ_ERR_?";
    return names[status];
}
