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

/* Tells LLVM that the i32 result of 'call' lies in [lo, hi): a call-site range attribute
 * (LLVM 19; earlier versions took !range metadata). */
void
tji_compat_set_return_range(LLVMValueRef call, uint32_t lo, uint32_t hi)
{
    LLVMContextRef c = LLVMGetTypeContext(LLVMTypeOf(call));
    uint64_t lower = lo, upper = hi;
    unsigned kind = LLVMGetEnumAttributeKindForName("range", 5);
    LLVMAddCallSiteAttribute(call, LLVMAttributeReturnIndex,
                             LLVMCreateConstantRangeAttribute(c, kind, 32, &lower, &upper));
}
