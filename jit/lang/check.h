/*
 * jit/lang/check.h: the checker's state, shared by check.c (names, statements, functions),
 * check_expr.c (expressions, operators, constants, type expressions) and builtins.c (the
 * builtins' arguments and types). Private to those files.
 */
#ifndef TILEJIT_LANG_CHECK_H
#define TILEJIT_LANG_CHECK_H

#include "lang.h"

struct tjl_checker {
    tjl_program *p;
    tjl_func *f;             /* the function being checked; NULL for constants and types */
    int block;               /* the current block id */
    int loops;               /* enclosing loops */
    int fdepth;              /* functions being checked inside one another */
    int unpack;              /* names an unpacking assignment wants from the call (0: none) */
    int cap_locals, cap_blocks;
};

/* check.c */
/* The local 'name' of the current function, or NULL. */
TJL_HIDDEN tjl_local *tjl_find_local(tjl_checker *c, const char *name, int *index);
/* Makes sure user function 'fi' has a known return type (checks it now if needed). */
TJL_HIDDEN bool tjl_need_return_type(tjl_checker *c, int fi, int pos);
/* Records a use of local 'l' at 'pos' in the current block. */
TJL_HIDDEN bool tjl_use_local(tjl_checker *c, tjl_local *l, int pos);
/* Whether block 'inner' is 'outer' or nested in it. */
TJL_HIDDEN bool tjl_block_inside(const tjl_func *f, int outer, int inner);

/* check_expr.c */
TJL_HIDDEN bool tjl_check_cond(tjl_checker *c, tjl_expr *e, const char *what);
/* Checks 'e' and requires a value type (scalar, composite or struct). */
TJL_HIDDEN bool tjl_check_value(tjl_checker *c, tjl_expr *e, const char *what);
/* Folds a constant scalar to 'dt' ("int(3.7)", "wp.float64(0.1)"). */
TJL_HIDDEN void tjl_const_convert(tjl_expr *e, int from_dt, int to_dt);
/* Converts integer or float literals (possibly negated) among 'args' to component type
 * 'dt', so that wp.vec3d(1.0, 2.0, 3.0) and wp.float64(0.1) are exact. */
TJL_HIDDEN bool tjl_is_literal(const tjl_expr *e);
TJL_HIDDEN bool tjl_check_literal_as(tjl_checker *c, tjl_expr *e, int dt);
/* Whether literal 'e' (possibly negated) is a value of type 'dt' as written, so that an
 * argument, a component or a field takes it without a cast: a float literal is never an
 * integer or a bool (Warp types 1.5 as float32; wp.int32(1.5) converts it), an integer
 * literal must lie in the type's range (a bool's: 0 and 1). If not, says why in 'why'. */
TJL_HIDDEN bool tjl_literal_fits(const tjl_expr *e, int dt, char *why, size_t n);
/* Checks a call of a type (cast or constructor): e->fn's type is TJL_T_TYPE. */
TJL_HIDDEN bool tjl_check_construct(tjl_checker *c, tjl_expr *e, tjl_type t);

/* The type of 'a op b' (tjl_op) for values; false, without a message, when it does not
 * apply. */
TJL_HIDDEN bool tjl_value_binary(int op, tjl_type a, tjl_type b, tjl_type *out);
/* The expression forms, for tjl_check_expr (check_call.c) */
TJL_HIDDEN bool tjl_check_name(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN bool tjl_check_attr(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN bool tjl_check_index(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN bool tjl_check_binary(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN bool tjl_check_unary(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN bool tjl_check_logic(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN bool tjl_check_compare(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN bool tjl_check_ifexp(tjl_checker *c, tjl_expr *e);

/* builtins_check.c: builtin ids of the math functions (abs ... transpose; min ... bit_xor) */
TJL_HIDDEN bool tjl_is_unary_math(int id);
TJL_HIDDEN bool tjl_is_binary_math(int id);

/* builtins.c */
/* Python's slice.indices length of start:stop:step over 'n' elements. */
TJL_HIDDEN int tjl_slice_length(int64_t n, int64_t start, int64_t stop, int64_t step);

#endif /* TILEJIT_LANG_CHECK_H */
