/*
 * jit/lang/lang.h: the kernel-source front end (Warp's Python kernel syntax): tokens, the
 * AST, the front end's own static types, and the tjl_ functions shared between its files,
 * grouped under the file that defines them. Lexing, parsing and checking use no LLVM and no
 * other part of the library; lowering uses only the public builder API of tilejit.h, so the
 * fuzz target can build these files on their own.
 *
 *   source ──lexer.c──▶ tokens (INDENT/DEDENT) ──parser.c──▶ AST (arena)
 *     ──check.c, check_expr.c, builtins.c──▶ names resolved, static types, constants,
 *                                            which locals need a variable
 *     ──lower.c, lower_expr.c, lower_builtins.c (per build configuration)──▶ builder calls
 */
#ifndef TILEJIT_LANG_H
#define TILEJIT_LANG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tilejit.h"

#define TJL_HIDDEN __attribute__((visibility("hidden")))
#define TJL_PRINTF(a, b) __attribute__((format(printf, a, b)))

enum {
    TJL_MAX_EXPR_DEPTH = 64,    /* nested expressions (parentheses, operators, calls) */
    TJL_MAX_TREE_DEPTH = 200,   /* height of one expression's tree (bounds every recursion) */
    TJL_MAX_BLOCK_DEPTH = 24,   /* nested statement blocks (the builder allows 64 scopes) */
    TJL_MAX_ARGS = 64,          /* arguments of one call, entries of one tuple */
    TJL_MAX_FUNC_DEPTH = 8,     /* user functions checked inside one another */
    TJL_MAX_TILE_ELEMS = 1 << 24, /* elements of a tile (the builder's limit) */
    TJL_MAX_SOURCE = 1 << 24,   /* bytes of source */
    TJL_MAX_DIMS = 4,
};

/* ---------------------------------------------------------------------------------------- */
/* arena.c: allocation and the program's error                                              */
/* ---------------------------------------------------------------------------------------- */

typedef struct tjl_chunk tjl_chunk;
typedef struct tjl_arena {
    tjl_chunk *head;
} tjl_arena;

/* Zeroed memory that lives until tjl_arena_release; NULL when memory runs out. */
TJL_HIDDEN void *tjl_alloc(tjl_arena *a, size_t bytes);
TJL_HIDDEN char *tjl_strndup(tjl_arena *a, const char *s, size_t n);
TJL_HIDDEN void tjl_arena_release(tjl_arena *a);

/* The first error of a program: where, what, and the text shown to users. */
typedef struct tjl_error {
    bool set;
    int pos;                  /* byte offset in the source, -1 for none */
    tj_status status;
    char msg[512];
} tjl_error;

/* ---------------------------------------------------------------------------------------- */
/* types.c: the front end's static types                                                    */
/* ---------------------------------------------------------------------------------------- */

typedef enum tjl_kind {
    TJL_T_NONE = 0,    /* no value: a call that returns nothing */
    TJL_T_SCALAR,      /* dtype */
    TJL_T_VECTOR,      /* dtype, rows = length */
    TJL_T_MATRIX,      /* dtype, rows, cols */
    TJL_T_QUAT,        /* dtype */
    TJL_T_STRUCT,      /* sid */
    TJL_T_ARRAY,       /* element, ndim */
    TJL_T_TILE,        /* element, ndim = rank, shape */
    TJL_T_STACK,       /* element, shape[0] = capacity */
    TJL_T_TYPE,        /* a type used as a value (dtype=int, a cast): element = the type */
    TJL_T_FUNC,        /* a builtin or user function used as a value: ref */
    TJL_T_STR,
    TJL_T_SLICE,
    TJL_T_TUPLE,       /* unpacked only: tid() (ndim int32s), tile_stack_pop (element, int32) */
    TJL_T_MODULE,      /* the warp module */
    TJL_T_SHAPE,       /* array.shape or tile.shape, indexed with a constant */
} tjl_kind;

/* Tile extents: positive, or one of these. */
enum { TJL_DIM_UNKNOWN = -1, TJL_DIM_B = -2 };

typedef struct tjl_type {
    uint8_t kind;        /* tjl_kind */
    uint8_t ekind;       /* arrays, tiles, stacks, types, tuples: the element's kind */
    uint8_t dtype;       /* tj_dtype of the scalar, or of the (element's) components */
    uint8_t rows, cols;  /* of the (element's) composite */
    uint8_t ndim;        /* arrays: dimensions; tiles: rank; tuples: count */
    int16_t sid;         /* the (element's) struct; a function's ref (see tjl_expr) */
    int32_t shape[TJL_MAX_DIMS]; /* tiles; stacks: capacity in [0] */
} tjl_type;

TJL_HIDDEN tjl_type tjl_scalar(tj_dtype dt);
TJL_HIDDEN tjl_type tjl_none(void);
TJL_HIDDEN tjl_type tjl_simple(tjl_kind kind);
/* The element of an array, tile, stack, type or tuple, as a value type. */
TJL_HIDDEN tjl_type tjl_elem(tjl_type t);
/* A container of 'kind' holding value type 'elem'. */
TJL_HIDDEN tjl_type tjl_container(tjl_kind kind, tjl_type elem, int ndim);
TJL_HIDDEN bool tjl_is_value(tjl_type t);        /* scalar, composite or struct */
TJL_HIDDEN bool tjl_is_composite(tjl_type t);
TJL_HIDDEN bool tjl_is_int(tjl_type t);          /* integer scalar (not bool) */
TJL_HIDDEN bool tjl_is_float(tjl_type t);        /* float scalar */
TJL_HIDDEN bool tjl_is_bool(tjl_type t);
TJL_HIDDEN bool tjl_is_numeric(tjl_type t);      /* scalar or composite, not bool */
TJL_HIDDEN bool tjl_dtype_is_int(int dt);
TJL_HIDDEN bool tjl_dtype_is_float(int dt);
TJL_HIDDEN bool tjl_dtype_is_signed(int dt);
TJL_HIDDEN int tjl_dtype_bits(int dt);
/* Equal value types (scalars, composites, structs) or equal containers; tile extents that
 * one side does not know match anything. */
TJL_HIDDEN bool tjl_type_eq(tjl_type a, tjl_type b);
struct tjl_program;
/* "int32", "vec3f", "mat33f", "quatf", the struct's name, "array2d[float32]",
 * "tile[float32, (4, B)]"... into 'buf'. */
TJL_HIDDEN const char *tjl_type_name(const struct tjl_program *p, tjl_type t, char *buf,
                                     size_t n);
TJL_HIDDEN const char *tjl_dtype_name(int dt);
/* A type's name as Warp spells it ("int32", "vec3", "mat22d", "quat"), or false. */
TJL_HIDDEN bool tjl_type_by_name(const char *name, tjl_type *out);

/* ---------------------------------------------------------------------------------------- */
/* lexer.c: tokens                                                                          */
/* ---------------------------------------------------------------------------------------- */

typedef enum tjl_tok_kind {
    TJL_TK_EOF = 0,
    TJL_TK_NEWLINE,
    TJL_TK_INDENT,
    TJL_TK_DEDENT,
    TJL_TK_NAME,
    TJL_TK_INT,
    TJL_TK_FLOAT,
    TJL_TK_STRING,
    TJL_TK_KEYWORD,      /* kw */
    TJL_TK_OP,           /* op */
} tjl_tok_kind;

/* Keywords, including the ones the language rejects with a message. */
typedef enum tjl_kw {
    TJL_KW_AND, TJL_KW_AS, TJL_KW_BREAK, TJL_KW_CLASS, TJL_KW_CONTINUE, TJL_KW_DEF,
    TJL_KW_ELIF, TJL_KW_ELSE, TJL_KW_FALSE, TJL_KW_FOR, TJL_KW_FROM, TJL_KW_IF, TJL_KW_IMPORT,
    TJL_KW_IN, TJL_KW_IS, TJL_KW_NONE, TJL_KW_NOT, TJL_KW_OR, TJL_KW_PASS, TJL_KW_RETURN,
    TJL_KW_TRUE, TJL_KW_WHILE,
    /* not supported in kernels */
    TJL_KW_ASSERT, TJL_KW_ASYNC, TJL_KW_AWAIT, TJL_KW_DEL, TJL_KW_EXCEPT, TJL_KW_FINALLY,
    TJL_KW_GLOBAL, TJL_KW_LAMBDA, TJL_KW_NONLOCAL, TJL_KW_RAISE, TJL_KW_TRY, TJL_KW_WITH,
    TJL_KW_YIELD,
    TJL_NKW
} tjl_kw;

/* Punctuation and operators. The augmented assignments are in the order of the binary
 * operators they apply (TJL_P_ADD_EQ - TJL_P_ADD_EQ + TJL_OP_ADD is the operator). */
typedef enum tjl_punct {
    TJL_P_LPAREN, TJL_P_RPAREN, TJL_P_LBRACKET, TJL_P_RBRACKET, TJL_P_LBRACE, TJL_P_RBRACE,
    TJL_P_COMMA, TJL_P_COLON, TJL_P_DOT, TJL_P_SEMI, TJL_P_AT, TJL_P_ASSIGN, TJL_P_ARROW,
    TJL_P_PLUS, TJL_P_MINUS, TJL_P_STAR, TJL_P_SLASH, TJL_P_DSLASH, TJL_P_PERCENT,
    TJL_P_DSTAR, TJL_P_LSHIFT, TJL_P_RSHIFT, TJL_P_AMP, TJL_P_PIPE, TJL_P_CARET, TJL_P_TILDE,
    TJL_P_LT, TJL_P_GT, TJL_P_LE, TJL_P_GE, TJL_P_EQ, TJL_P_NE, TJL_P_WALRUS,
    TJL_P_ADD_EQ, TJL_P_SUB_EQ, TJL_P_MUL_EQ, TJL_P_DIV_EQ, TJL_P_FLOORDIV_EQ, TJL_P_MOD_EQ,
    TJL_P_POW_EQ, TJL_P_MATMUL_EQ, TJL_P_LSHIFT_EQ, TJL_P_RSHIFT_EQ, TJL_P_AND_EQ,
    TJL_P_OR_EQ, TJL_P_XOR_EQ,
    TJL_NPUNCT
} tjl_punct;

typedef struct tjl_token {
    uint8_t kind;        /* tjl_tok_kind */
    uint8_t sub;         /* keyword or punctuation */
    int pos;             /* byte offset of its first character */
    int len;             /* bytes of source text */
    int64_t ival;        /* TJL_TK_INT */
    double fval;         /* TJL_TK_FLOAT */
    char *text;          /* TJL_TK_STRING: the decoded string; TJL_TK_NAME: the name */
} tjl_token;

/* Splits 'src' into tokens (arena-allocated, ending with TJL_TK_EOF). False with 'err' set
 * on a lexical error. */
TJL_HIDDEN bool tjl_lex(tjl_arena *a, const char *src, size_t len, tjl_token **out,
                        int *ntokens, tjl_error *err);
TJL_HIDDEN const char *tjl_punct_text(int p);
TJL_HIDDEN const char *tjl_kw_text(int kw);

/* ---------------------------------------------------------------------------------------- */
/* The AST (parser.c builds it, check*.c annotates it)                                      */
/* ---------------------------------------------------------------------------------------- */

typedef enum tjl_ekind {
    TJL_E_NAME, TJL_E_INT, TJL_E_FLOAT, TJL_E_BOOL, TJL_E_STR, TJL_E_NONE,
    TJL_E_ATTR,          /* args[0].name */
    TJL_E_CALL,          /* fn(args..., kwnames[i]=kwargs[i]...) */
    TJL_E_INDEX,         /* fn[args...] */
    TJL_E_SLICE,         /* args[0]:args[1]:args[2], each may be NULL */
    TJL_E_TUPLE,
    TJL_E_UNARY,         /* op args[0] */
    TJL_E_BINARY,        /* args[0] op args[1] */
    TJL_E_AND,           /* args[0] and args[1] */
    TJL_E_OR,
    TJL_E_COMPARE,       /* args[0] cmpops[0] args[1] cmpops[1] args[2] ... */
    TJL_E_IFEXP,         /* args[1] if args[0] else args[2] */
} tjl_ekind;

/* Operators as written. */
typedef enum tjl_op {
    TJL_OP_ADD, TJL_OP_SUB, TJL_OP_MUL, TJL_OP_DIV, TJL_OP_FLOORDIV, TJL_OP_MOD, TJL_OP_POW,
    TJL_OP_MATMUL, TJL_OP_LSHIFT, TJL_OP_RSHIFT, TJL_OP_BITAND, TJL_OP_BITOR, TJL_OP_BITXOR,
    TJL_OP_NEG, TJL_OP_POS, TJL_OP_INVERT, TJL_OP_NOT,
    TJL_OP_EQ, TJL_OP_NE, TJL_OP_LT, TJL_OP_LE, TJL_OP_GT, TJL_OP_GE,
    TJL_NOPS
} tjl_op;

TJL_HIDDEN const char *tjl_op_text(int op);

/* What a name, an attribute or a callee denotes (set by the checker). */
typedef enum tjl_refkind {
    TJL_R_NONE = 0,
    TJL_R_LOCAL,         /* ref: index into the function's locals */
    TJL_R_CONST,         /* ref: module constant */
    TJL_R_FUNC,          /* ref: user function */
    TJL_R_STRUCT,        /* ref: struct */
    TJL_R_BUILTIN,       /* ref: tjl_builtin id */
    TJL_R_TYPE,          /* a type: in the expression's type (TJL_T_TYPE) */
    TJL_R_MODULE,        /* the warp module */
    TJL_R_FIELD,         /* ATTR: ref: struct field index */
    TJL_R_COMPONENT,     /* ATTR: ref: component index (.x .y .z .w) */
    TJL_R_SHAPE,         /* ATTR: .shape */
} tjl_refkind;

typedef struct tjl_expr tjl_expr;
struct tjl_expr {
    uint8_t kind;        /* tjl_ekind */
    uint8_t op;          /* UNARY, BINARY: tjl_op */
    uint8_t refkind;     /* tjl_refkind */
    bool is_const;       /* checker: a compile-time constant (ival or fval) */
    uint16_t depth;      /* height of the subtree (bounded by the parser) */
    int16_t ref;
    int pos;             /* byte offset shown in errors (an operator's, a call's start) */
    tjl_type type;       /* checker */
    int64_t ival;        /* INT, BOOL; checker: integer constant value */
    double fval;         /* FLOAT; checker: float constant value */
    char *name;          /* NAME, ATTR, STR */
    tjl_expr *fn;        /* CALL: the callee; INDEX: the object */
    tjl_expr **args;
    int nargs;
    char **kwnames;      /* CALL */
    tjl_expr **kwargs;
    int *kwpos;
    int nkw;
    uint8_t *cmpops;     /* COMPARE: nargs - 1 operators */
    tjl_expr **bound;    /* CALL of a builtin: arguments in its parameter order (NULL: absent) */
    tjl_expr **vargs;    /* CALL of a builtin: what its variadic parameter took */
    int nvargs;
};

/* How a call of a type makes its value (tjl_expr.op of such a call). */
typedef enum tjl_cons {
    TJL_CONS_ZERO,       /* T(): zero */
    TJL_CONS_CAST,       /* T(x): conversion of a scalar, or of a composite of T's shape */
    TJL_CONS_FILL,       /* vec3(x): every component */
    TJL_CONS_COMPONENTS, /* vec3(x, y, z), mat22(a, b, c, d) */
    TJL_CONS_ROWS,       /* mat22(row0, row1) */
    TJL_CONS_STRUCT,     /* S(field=...): bound[i] per field, NULL for zero */
} tjl_cons;

typedef enum tjl_skind {
    TJL_S_EXPR, TJL_S_ASSIGN, TJL_S_AUGASSIGN, TJL_S_IF, TJL_S_FOR, TJL_S_WHILE,
    TJL_S_BREAK, TJL_S_CONTINUE, TJL_S_RETURN, TJL_S_PASS,
} tjl_skind;

typedef struct tjl_stmt tjl_stmt;
typedef struct tjl_block {
    tjl_stmt **stmts;
    int n;
    int id;              /* checker: index into the function's block parents */
} tjl_block;

struct tjl_stmt {
    uint8_t kind;        /* tjl_skind */
    uint8_t op;          /* AUGASSIGN: tjl_op */
    bool unpack;         /* ASSIGN: 'a, b = ...' */
    int pos;
    tjl_expr **targets;  /* ASSIGN: one target, or the names unpacked; FOR: the loop name */
    int ntargets;
    tjl_expr *value;     /* EXPR, ASSIGN, AUGASSIGN, RETURN (may be NULL); IF, WHILE: cond */
    tjl_expr *ann;       /* ASSIGN: 'x: T = v' */
    tjl_expr **range;    /* FOR: the range() call's arguments */
    int nrange;
    tjl_expr *range_call;
    tjl_block body, orelse;
};

/* A function's locals: parameters first, then every name assigned in the body. */
typedef struct tjl_local {
    char *name;
    int pos;             /* the first assignment (or the parameter) */
    tjl_type type;
    bool typed;          /* assigned (lexically) by now, while checking */
    bool is_param;
    int nassign;         /* assignments, counting the parameter's */
    int first_block;     /* block of the first assignment */
    bool escapes;        /* used or assigned outside that block */
    bool is_var;         /* lowered with tj_var_new/get/set (else bound directly) */
} tjl_local;

typedef struct tjl_param {
    char *name;
    int pos;
    tjl_expr *ann;
    tjl_type type;
} tjl_param;

typedef struct tjl_func {
    char *name;
    int pos;
    bool is_kernel;
    tjl_param *params;
    int nparams;
    tjl_expr *ret_ann;   /* may be NULL */
    tjl_type ret;
    bool ret_known;
    int check_state;     /* 0 not yet, 1 in progress, 2 done */
    tjl_block body;
    tjl_local *locals;
    int nlocals;
    int *block_parent;   /* per block id: the enclosing block id (-1 for the body) */
    int nblocks;
} tjl_func;

typedef struct tjl_field {
    char *name;
    int pos;
    tjl_expr *ann;
    tjl_type type;
} tjl_field;

typedef struct tjl_struct {
    char *name;
    int pos;
    tjl_field *fields;
    int nfields;
} tjl_struct;

/* A compile-time constant: an integer or bool (ival) or a float (fval) of scalar 'type'. */
typedef struct tjl_const {
    char *name;
    int pos;
    tjl_expr *expr;      /* as written */
    tjl_type type;
    int64_t ival;
    double fval;
} tjl_const;

/* Everything parsed from one source text; the public tj_program wraps it. */
typedef struct tjl_program {
    tjl_arena arena;
    const char *src;     /* NUL-terminated copy owned by tj_program */
    size_t len;
    const char *filename;
    tjl_func **funcs;    /* kernels and functions, in source order */
    int nfuncs;
    tjl_struct **structs;
    int nstructs;
    tjl_const **consts;
    int nconsts;
    tjl_error err;
} tjl_program;

/* ---------------------------------------------------------------------------------------- */
/* parser.c, check.c                                                                        */
/* ---------------------------------------------------------------------------------------- */

/* Parses p->src into p's definitions; false with p->err set. */
TJL_HIDDEN bool tjl_parse(tjl_program *p);
/* Resolves names, types every expression and statement, evaluates constants and decides
 * which locals are variables; false with p->err set. */
TJL_HIDDEN bool tjl_check(tjl_program *p);
/* Records p's first error at byte offset 'pos' (-1: none); always returns false. */
TJL_HIDDEN bool tjl_fail(tjl_program *p, int pos, const char *fmt, ...) TJL_PRINTF(3, 4);
TJL_HIDDEN bool tjl_fail_error(tjl_error *e, int pos, const char *fmt, ...) TJL_PRINTF(3, 4);
/* Formats 'err' as "file:line:col: error: message", the source line and a caret. Returns
 * a malloc'ed string (free()), or NULL when memory runs out. */
TJL_HIDDEN char *tjl_format_error(const char *filename, const char *src, size_t len,
                                  const tjl_error *err);
/* Line and column (1-based; columns count characters) of byte offset 'pos'. */
TJL_HIDDEN void tjl_line_col(const char *src, size_t len, int pos, int *line, int *col);

/* ---------------------------------------------------------------------------------------- */
/* builtins.c: the builtin table, argument binding and the builtins' types                  */
/* ---------------------------------------------------------------------------------------- */

/* The tile builtins of builtins/builtins.def (the library's list, in its order), then the
 * front end's other builtins (builtins_lang.def). */
typedef enum tjl_builtin {
#define TJI_BUILTIN(id, name, family, coop) TJL_B_##id,
#include "builtins.def"
#undef TJI_BUILTIN
#define TJL_BUILTIN(id, name, spec) TJL_B_##id,
#include "builtins_lang.def"
#undef TJL_BUILTIN
    TJL_NBUILTINS
} tjl_builtin;

enum {
    TJL_NTILE_BUILTINS = 0
#define TJI_BUILTIN(id, name, family, coop) +1
#include "builtins.def"
#undef TJI_BUILTIN
};

TJL_HIDDEN const char *tjl_builtin_name(int id);
/* The builtin called 'name' (without "wp."), or -1. */
TJL_HIDDEN int tjl_builtin_find(const char *name);

typedef struct tjl_checker tjl_checker;
/* Binds the call's arguments to the builtin's parameters (e->bound) and types the call.
 * False with the program's error set. */
TJL_HIDDEN bool tjl_check_builtin_call(tjl_checker *c, tjl_expr *e, int id);
/* For the checker files: type an expression (false on error), evaluate a constant. */
TJL_HIDDEN bool tjl_check_expr(tjl_checker *c, tjl_expr *e);
TJL_HIDDEN tjl_program *tjl_checker_program(tjl_checker *c);
/* Reads a type expression (int, wp.vec3, wp.array2d[float], a struct...). */
TJL_HIDDEN bool tjl_check_type_expr(tjl_checker *c, tjl_expr *e, tjl_type *out);
/* An integer constant expression's value, or an error naming 'what'. */
TJL_HIDDEN bool tjl_const_int_arg(tjl_checker *c, tjl_expr *e, const char *fn,
                                  const char *what, int64_t *out);
/* A shape: an integer constant or a tuple of 1-4 of them. */
TJL_HIDDEN bool tjl_const_shape_arg(tjl_checker *c, tjl_expr *e, const char *fn,
                                    const char *what, int *rank, int32_t *shape);
/* The value a user function reference or builtin operator takes and returns. */
TJL_HIDDEN bool tjl_func_signature(tjl_checker *c, tjl_expr *op, int *nparams,
                                   tjl_type *params, tjl_type *ret);
/* Types 'op a b' on values or tiles (element-wise); false with an error at 'pos'. */
TJL_HIDDEN bool tjl_binary_type(tjl_checker *c, int op, tjl_type a, tjl_type b, int pos,
                                tjl_type *out);
TJL_HIDDEN bool tjl_unary_type(tjl_checker *c, int op, tjl_type a, int pos, tjl_type *out);

/* ---------------------------------------------------------------------------------------- */
/* lower.c: builder calls for one build configuration                                       */
/* ---------------------------------------------------------------------------------------- */

/* Per-build state: the functions made for this configuration, by user-function index. */
typedef struct tjl_build {
    tjl_program *p;
    tj_context *ctx;
    tj_kernel_options opts;
    const tj_type **struct_types;  /* per struct: the library's type (owned by the context) */
    tj_func **funcs;               /* per user function: made when reachable, else NULL */
} tjl_build;

/* Makes the library struct types once per program and context. */
TJL_HIDDEN bool tjl_build_init(tjl_build *b, tjl_program *p, tj_context *ctx,
                               const tj_type **struct_types, const tj_kernel_options *opts);
/* Lowers kernel 'fi' (and the functions it reaches) into a new kernel in '*out'; on
 * failure '*out' is NULL and p->err holds the error at its source position. */
TJL_HIDDEN tj_status tjl_lower_kernel(tjl_build *b, int fi, tj_kernel **out);
/* Drops the build's references to its functions. */
TJL_HIDDEN void tjl_build_release(tjl_build *b);
TJL_HIDDEN const tj_type *tjl_lib_type(tjl_build *b, tjl_type t);

#endif /* TILEJIT_LANG_H */
