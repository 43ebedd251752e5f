/*
 * jit/lang/builtins_check.h: argument helpers of builtins.c for the builtins' type rules in
 * builtins_check.c. Each helper checks one argument and fails with
 * "<builtin>: argument '<name>' <reason>" at the argument's position.
 */
#ifndef TILEJIT_LANG_BUILTINS_CHECK_H
#define TILEJIT_LANG_BUILTINS_CHECK_H

#include "check.h"

TJL_HIDDEN bool tjl_arg_fail(tjl_checker *c, const tjl_expr *e, int id, const char *arg,
                             const char *fmt, ...) TJL_PRINTF(5, 6);
TJL_HIDDEN bool tjl_arg_int(tjl_checker *c, tjl_expr *e, int id, const char *arg);
TJL_HIDDEN bool tjl_arg_bool(tjl_checker *c, tjl_expr *e, int id, const char *arg);
/* Requires a value of tjl_kind 'kind' ("an array", "a tile"...). */
TJL_HIDDEN bool tjl_arg_kind(tjl_checker *c, tjl_expr *e, int id, const char *arg, int kind,
                             const char *what);
TJL_HIDDEN bool tjl_arg_as(tjl_checker *c, tjl_expr *e, int id, const char *arg, tjl_type t);
TJL_HIDDEN bool tjl_const_bool_arg(tjl_checker *c, tjl_expr *e, int id, const char *arg,
                                   bool *out);
TJL_HIDDEN bool tjl_arg_shape(tjl_checker *c, tjl_expr *e, int id, const char *arg, int *rank,
                              int32_t *shape);
/* A type (NULL: float32, Warp's default). */
TJL_HIDDEN bool tjl_arg_dtype(tjl_checker *c, tjl_expr *e, int id, const char *arg,
                              tjl_type *out);
TJL_HIDDEN bool tjl_arg_storage(tjl_checker *c, tjl_expr *e, int id);
TJL_HIDDEN bool tjl_arg_offset(tjl_checker *c, tjl_expr *e, int id, int rank);
/* The type rules, after bind_args (builtins_check.c). */
TJL_HIDDEN bool tjl_check_builtin(tjl_checker *c, tjl_expr *e, int id);

#endif /* TILEJIT_LANG_BUILTINS_CHECK_H */
