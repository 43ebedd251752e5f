/*
 * jit/llvm_compat.c: the LLVM calls whose spelling changes between LLVM versions, kept in
 * one place (DESIGN.md). tilejit builds against LLVM 19.
 */
#include "internal.h"


/* __syncthreads(): llvm.nvvm.barrier0 in LLVM 19 (renamed in later versions). */
const char *
tji_compat_barrier_intrinsic(void)
{
    return "llvm.nvvm.barrier0";
}

/* A kernel entry: the ptx_kernel calling convention works in LLVM 19 and later, while the
 * nvvm.annotations "kernel" metadata is ignored from LLVM 20 on. */
void
tji_compat_mark_kernel(LLVMValueRef fn)
{
    LLVMSetFunctionCallConv(fn, LLVMPTXKernelCallConv);
}
