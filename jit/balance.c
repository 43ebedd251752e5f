/*
 * jit/balance.c: long chains of one reassociable operation as trees (CPU, after the
 * pipeline).
 *
 * A cooperative block's lanes fold their partials into one total in turn (a tile_reduce,
 * builtins/reduce.c); LLVM vectorises that lanes' loop with one accumulator and unrolls it,
 * so 256 lanes of floats with AVX2 become a chain of 31 dependent vector adds (about 100
 * cycles a block on AMD Zen 3, 16% of the cooperative sum's samples), then 7 scalar ones.
 * A chain
 *
 *   n1 = op(l0, l1), n2 = op(n1, l2), ..., nk = op(n(k-1), lk)
 *
 * in one block, each n (but the last) used once, by the next, becomes a tree whose depth is
 * the logarithm of its leaves: at n_i's place, leaf l_i joins a stack of partial trees, and
 * two trees of the same height combine (a binary counter), so that at most log2(k) partial
 * values are live at once; at n_k's place what is left combines. The leaves keep their order.
 * The operations: integer add, mul, and, or, xor (associative and commutative; nsw and nuw
 * go, as the partial values change), and float add and multiply with reassoc on every node
 * (the order of a tile_reduce's combination is unspecified, SPEC 4; each new node keeps
 * reassoc and nsz, which hold in any order, and drops nnan, ninf and the like, which were
 * said of the old order).
 */
#include "internal.h"

enum {
    MIN_LEAVES = 8,   /* shorter chains: a few cycles at most */
    MAX_LEAVES = 1024,
    MAX_HEIGHT = 11,  /* log2(MAX_LEAVES) + 1 partial trees at most */
};

bool
tji_reassociable(LLVMValueRef in)
{
    if (!LLVMIsABinaryOperator(in))
        return false;
    switch (LLVMGetInstructionOpcode(in)) {
    case LLVMAdd: case LLVMMul: case LLVMAnd: case LLVMOr: case LLVMXor:
        return true;
    case LLVMFAdd: case LLVMFMul:
        return LLVMGetFastMathFlags(in) & LLVMFastMathAllowReassoc;
    default:
        return false;
    }
}

void
tji_forget_order(LLVMValueRef op)
{
    LLVMOpcode o = LLVMGetInstructionOpcode(op);
    if (LLVMCanValueUseFastMathFlags(op))
        LLVMSetFastMathFlags(op, LLVMGetFastMathFlags(op) &
                                     (LLVMFastMathAllowReassoc | LLVMFastMathNoSignedZeros));
    else if (o == LLVMOr)
        LLVMSetIsDisjoint(op, false);
    else if (o == LLVMAdd || o == LLVMMul) {
        LLVMSetNSW(op, false);
        LLVMSetNUW(op, false);
    }
}

/* Whether 'v' continues the chain below 'user': the same operation in the same block, used
 * by 'user' alone. */
static bool
links(LLVMValueRef v, LLVMValueRef user)
{
    return LLVMIsAInstruction(v) && tji_reassociable(v) &&
           LLVMGetInstructionOpcode(v) == LLVMGetInstructionOpcode(user) &&
           LLVMGetInstructionParent(v) == LLVMGetInstructionParent(user) &&
           LLVMGetFirstUse(v) && !LLVMGetNextUse(LLVMGetFirstUse(v));
}

/* The chain's node below 'n' (its operand that links), or NULL; '*leaf' the other operand.
 * Both operands linking is a tree already: NULL, '*leaf' NULL. */
static LLVMValueRef
below(LLVMValueRef n, LLVMValueRef *leaf)
{
    LLVMValueRef a = LLVMGetOperand(n, 0), b = LLVMGetOperand(n, 1);
    bool la = links(a, n), lb = links(b, n) && a != b;
    *leaf = la && lb ? NULL : la ? b : a;
    return la && lb ? NULL : la ? a : lb ? b : NULL;
}

typedef struct chain {
    LLVMBuilderRef b;
    LLVMValueRef proto; /* a node, cloned for each new one */
    unsigned fmf;       /* the flags every node carries (floats) */
    LLVMValueRef val[MAX_HEIGHT];
    int height[MAX_HEIGHT], n;
} chain;

static LLVMValueRef
combine(chain *c, LLVMValueRef x, LLVMValueRef y)
{
    LLVMValueRef op = LLVMInstructionClone(c->proto);
    LLVMSetOperand(op, 0, x);
    LLVMSetOperand(op, 1, y);
    if (LLVMCanValueUseFastMathFlags(op))
        LLVMSetFastMathFlags(op, c->fmf);
    tji_forget_order(op);
    LLVMInsertIntoBuilder(c->b, op);
    return op;
}

/* Leaf 'v' joins the stack at the builder; equal heights combine. */
static void
push(chain *c, LLVMValueRef v)
{
    int h = 0;
    while (c->n > 0 && c->height[c->n - 1] == h) {
        v = combine(c, c->val[--c->n], v);
        h++;
    }
    c->val[c->n] = v;
    c->height[c->n++] = h;
}

/* Rebuilds the chain whose last node is 'root' when it is long enough; whether it did. */
static bool
balance(LLVMBuilderRef b, LLVMValueRef root)
{
    LLVMValueRef nodes[MAX_LEAVES], leaves[MAX_LEAVES + 1];
    int k = 0;
    unsigned fmf = LLVMCanValueUseFastMathFlags(root) ? LLVMGetFastMathFlags(root) : 0;
    LLVMValueRef n = root, leaf = NULL;
    /* from the root down: nodes[0] = root, leaves[i] = nodes[i]'s other operand */
    while (n && k < MAX_LEAVES) {
        LLVMValueRef next = below(n, &leaf);
        if (!leaf)
            return false;
        nodes[k] = n;
        leaves[k++] = leaf;
        if (LLVMCanValueUseFastMathFlags(n))
            fmf &= LLVMGetFastMathFlags(n);
        if (!next) { /* the bottom node: both operands are leaves */
            leaves[k - 1] = LLVMGetOperand(n, 1);
            leaves[k] = LLVMGetOperand(n, 0);
            break;
        }
        n = next;
    }
    if (n == NULL || k >= MAX_LEAVES || k + 1 < MIN_LEAVES)
        return false;
    /* bottom up: leaves[k] and leaves[k - 1] at nodes[k - 1], then leaves[i] at nodes[i] */
    chain c = {.b = b, .proto = root, .fmf = fmf};
    for (int i = k - 1; i >= 0; i--) {
        LLVMPositionBuilderBefore(b, nodes[i]);
        if (i == k - 1)
            push(&c, leaves[k]);
        push(&c, leaves[i]);
    }
    LLVMPositionBuilderBefore(b, root);
    LLVMValueRef v = c.val[--c.n];
    while (c.n > 0)
        v = combine(&c, c.val[--c.n], v);
    LLVMReplaceAllUsesWith(root, v);
    for (int i = 0; i < k; i++)
        LLVMInstructionEraseFromParent(nodes[i]);
    return true;
}

int
tji_balance_chains(LLVMModuleRef m)
{
    int done = 0;
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn; fn = LLVMGetNextFunction(fn))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef in = LLVMGetFirstInstruction(bb);
            while (in) {
                LLVMValueRef next = LLVMGetNextInstruction(in);
                /* a root: no node of a chain above it */
                LLVMValueRef u = LLVMGetFirstUse(in) ? LLVMGetUser(LLVMGetFirstUse(in)) : NULL;
                if (tji_reassociable(in) && !(u && LLVMIsAInstruction(u) && links(in, u) &&
                                      tji_reassociable(u)) &&
                    balance(b, in))
                    done++;
                in = next;
            }
        }
    LLVMDisposeBuilder(b);
    return done;
}
