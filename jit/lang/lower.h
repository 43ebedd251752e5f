/*
 * jit/lang/lower.h: the lowering state shared by lower.c (functions, statements, locals,
 * stores), lower_expr.c (expressions, constructors) and lower_builtins.c (builtin calls).
 * Lowering calls only the public builder API; the first failure (a builder error or one of
 * ours) is recorded in the program's error at the source position of the expression or
 * statement that caused it, and every function returns NULL (or false) from then on.
 */
#ifndef TILEJIT_LANG_LOWER_H
#define TILEJIT_LANG_LOWER_H

#include "lang.h"

typedef struct tjl_lower {
    tjl_build *b;
    tjl_program *p;
    tjl_func *f;
    tj_kernel *k;
    tj_val **vals;       /* per local of f: its value, or its variable when is_var */
} tjl_lower;

/* What a call that returns nothing lowers to: never passed to the builder. */
TJL_HIDDEN extern tj_val *const tjl_void_val;

/* Records the kernel's builder error, if any, at 'pos' and returns false when there is an
 * error (ours or the builder's). */
TJL_HIDDEN bool tjl_lower_ok(tjl_lower *L, int pos);
/* Records an error of the front end at 'pos'; returns NULL. */
TJL_HIDDEN tj_val *tjl_lower_fail(tjl_lower *L, int pos, const char *fmt, ...) TJL_PRINTF(3, 4);

/* lower_expr.c */
/* The value of 'e' (checked); NULL after an error; tjl_void_val for calls returning nothing. */
TJL_HIDDEN tj_val *tjl_lower_expr(tjl_lower *L, tjl_expr *e);
/* A scalar constant of 'type' from a constant's ival or fval. */
TJL_HIDDEN tj_val *tjl_lower_const(tjl_lower *L, tjl_type type, int64_t ival, double fval);
/* 'v' (a scalar of 'type') as a bool: compared with zero unless it is one. */
TJL_HIDDEN tj_val *tjl_lower_bool(tjl_lower *L, tj_val *v, tjl_type type);
/* An integer index as int32 (the builder's index type). */
TJL_HIDDEN tj_val *tjl_lower_index(tjl_lower *L, tjl_expr *e);
/* 'a op b' (tjl_op) on lowered values of checked types 'ta' and 'tb'; 'bexpr' is b's
 * expression when there is one (an integer power needs its constant). */
TJL_HIDDEN tj_val *tjl_lower_binop(tjl_lower *L, int op, tj_val *a, tjl_type ta, tj_val *b,
                                   tjl_type tb, int pos, const tjl_expr *bexpr);
/* Component (or matrix row) 'index' of composite 'obj' of type 'ot'; a runtime index
 * selects among the components. */
TJL_HIDDEN tj_val *tjl_lower_extract_at(tjl_lower *L, tj_val *obj, tjl_type ot, tjl_expr *index);
/* Reads local 'i' (through its variable when it has one). */
TJL_HIDDEN tj_val *tjl_lower_local(tjl_lower *L, int i, int pos);

/* lower_builtins.c */
TJL_HIDDEN tj_val *tjl_lower_builtin(tjl_lower *L, tjl_expr *e, int id);
/* The builder's reduce operator for builtin 'id' (add, mul, min, max, bit_*), or -1. */
TJL_HIDDEN int tjl_reduce_op(int id);
/* tj_binary's operator for builtin 'id' on values of dtype 'dt', or -1. */
TJL_HIDDEN int tjl_builtin_binop(int id, int dt);
TJL_HIDDEN int tjl_builtin_unop(int id);

/* lower.c: the function for user function 'fi' in this build. */
TJL_HIDDEN tj_func *tjl_lower_func_of(tjl_lower *L, int fi);

#endif /* TILEJIT_LANG_LOWER_H */
