/*
 * jit/lang/check.c: the static checker's program and statement level. Order: struct field
 * types, module constants, function signatures, then function bodies (a call to a function
 * whose return type is not annotated checks that function first). Python scoping: a name
 * assigned anywhere in a function is local to it; it must be assigned (in source order)
 * before it is used, and keeps one type. A local assigned once and used only inside the
 * block of that assignment is bound directly to its value when lowering; every other one
 * becomes a variable (tj_var_*): hoisted to the function's start with a zero value, or,
 * for tiles, made at the first assignment (so tiles may not escape that block).
 */
#include <stdio.h>
#include <string.h>

#include "check.h"

tjl_program *
tjl_checker_program(tjl_checker *c)
{
    return c->p;
}

bool
tjl_block_inside(const tjl_func *f, int outer, int inner)
{
    for (int b = inner, guard = 0; b >= 0 && guard <= f->nblocks; b = f->block_parent[b], guard++)
        if (b == outer)
            return true;
    return false;
}

tjl_local *
tjl_find_local(tjl_checker *c, const char *name, int *index)
{
    tjl_func *f = c->f;
    for (int i = 0; f && i < f->nlocals; i++)
        if (strcmp(f->locals[i].name, name) == 0) {
            if (index)
                *index = i;
            return &f->locals[i];
        }
    return NULL;
}

static tjl_local *
add_local(tjl_checker *c, char *name, int pos)
{
    tjl_func *f = c->f;
    if (f->nlocals == c->cap_locals) {
        int cap = c->cap_locals ? 2 * c->cap_locals : 16;
        tjl_local *l = tjl_alloc(&c->p->arena, (size_t)cap * sizeof *l);
        if (!l) {
            tjl_fail(c->p, pos, "out of memory");
            return NULL;
        }
        if (f->nlocals)
            memcpy(l, f->locals, (size_t)f->nlocals * sizeof *l);
        f->locals = l;
        c->cap_locals = cap;
    }
    tjl_local *l = &f->locals[f->nlocals++];
    *l = (tjl_local){.name = name, .pos = pos};
    return l;
}

static bool
is_direct_only(tjl_type t)
{
    return !tjl_is_value(t) && t.kind != TJL_T_TILE;
}

static const char *
kind_word(tjl_type t)
{
    switch (t.kind) {
    case TJL_T_ARRAY:
        return "an array";
    case TJL_T_STACK:
        return "a tile stack";
    case TJL_T_TILE:
        return "a tile";
    case TJL_T_FUNC:
        return "a function";
    case TJL_T_TYPE:
        return "a type";
    default:
        return "a value";
    }
}

/* A use or assignment outside the block of the first assignment: the value must live in a
 * variable hoisted to the function's start, which only value types can. */
static bool
note_escape(tjl_checker *c, tjl_local *l, int pos)
{
    if (tjl_block_inside(c->f, l->first_block, c->block))
        return true;
    l->escapes = true;
    if (tjl_is_value(l->type) || l->is_param)
        return true;
    return tjl_fail(c->p, pos,
                    "'%s' is %s assigned inside a block and used after it; assign it before "
                    "the block%s",
                    l->name, kind_word(l->type),
                    l->type.kind == TJL_T_TILE ? " (for example with wp.tile_zeros)" : "");
}

bool
tjl_use_local(tjl_checker *c, tjl_local *l, int pos)
{
    if (!l->typed)
        return tjl_fail(c->p, pos, "local variable '%s' is used before it is assigned", l->name);
    return note_escape(c, l, pos);
}

/* Assigns a value of type 't' to local 'name' (pos: the target). */
static bool
assign_name(tjl_checker *c, tjl_expr *target, tjl_type t)
{
    char b1[96], b2[96];
    int index;
    tjl_local *l = tjl_find_local(c, target->name, &index);
    if (!l)
        return tjl_fail(c->p, target->pos, "internal error: '%s' is not a local", target->name);
    target->refkind = TJL_R_LOCAL;
    target->ref = (int16_t)index;
    target->type = t;
    if (t.kind == TJL_T_NONE)
        return tjl_fail(c->p, target->pos, "the value assigned to '%s' is None (the call "
                                           "returns nothing)", l->name);
    if (t.kind == TJL_T_STR || t.kind == TJL_T_SLICE || t.kind == TJL_T_MODULE ||
        t.kind == TJL_T_SHAPE || t.kind == TJL_T_TUPLE)
        return tjl_fail(c->p, target->pos, "%s cannot be assigned to a name",
                        tjl_type_name(c->p, t, b1, sizeof b1));
    if (!l->typed) {
        l->typed = true;
        l->type = t;
        l->nassign = 1;
        l->first_block = c->block;
        l->pos = target->pos;
        return true;
    }
    if (!tjl_type_eq(l->type, t))
        return tjl_fail(c->p, target->pos,
                        "'%s' holds %s and cannot be assigned %s (a name keeps one type)",
                        l->name, tjl_type_name(c->p, l->type, b1, sizeof b1),
                        tjl_type_name(c->p, t, b2, sizeof b2));
    if (is_direct_only(t))
        return tjl_fail(c->p, target->pos, "'%s' is %s and cannot be reassigned", l->name,
                        kind_word(t));
    l->nassign++;
    return note_escape(c, l, target->pos);
}

/* ---- assignment targets ----------------------------------------------------------------- */

/* The name at the root of a target such as s.pos.x or v[1], or NULL. */
static tjl_expr *
target_root(tjl_expr *e)
{
    while (e->kind == TJL_E_ATTR || e->kind == TJL_E_INDEX)
        e = e->kind == TJL_E_ATTR ? e->args[0] : e->fn;
    return e->kind == TJL_E_NAME ? e : NULL;
}

/* A partial assignment (x.f = v, v[i] = x) changes the local at its root unless an array
 * or tile element is written on the way. */
static bool
note_partial(tjl_checker *c, tjl_expr *target)
{
    for (tjl_expr *e = target; e->kind == TJL_E_ATTR || e->kind == TJL_E_INDEX;) {
        tjl_expr *obj = e->kind == TJL_E_ATTR ? e->args[0] : e->fn;
        if (obj->type.kind == TJL_T_ARRAY || obj->type.kind == TJL_T_TILE)
            return true;
        e = obj;
    }
    tjl_expr *root = target_root(target);
    if (!root || root->refkind != TJL_R_LOCAL)
        return tjl_fail(c->p, target->pos, "cannot assign to this expression (only local "
                                           "names, their fields and components, and array or "
                                           "tile elements)");
    tjl_local *l = &c->f->locals[root->ref];
    l->nassign++;
    return note_escape(c, l, target->pos);
}

static bool
check_store_target(tjl_checker *c, tjl_expr *target, tjl_type vt)
{
    char b1[96], b2[96];
    if (!tjl_check_expr(c, target))
        return false;
    tjl_expr *obj = target->kind == TJL_E_ATTR ? target->args[0] : target->fn;
    if (target->kind == TJL_E_ATTR && target->refkind == TJL_R_SHAPE)
        return tjl_fail(c->p, target->pos, "the shape cannot be assigned");
    if (target->kind == TJL_E_INDEX && obj->type.kind == TJL_T_SHAPE)
        return tjl_fail(c->p, target->pos, "the shape cannot be assigned");
    if (target->kind == TJL_E_INDEX && obj->type.kind == TJL_T_TILE &&
        target->type.kind == TJL_T_TILE)
        return tjl_fail(c->p, target->pos, "only single tile elements can be assigned (use "
                                           "wp.tile_assign for a view)");
    if (!tjl_type_eq(target->type, vt))
        return tjl_fail(c->p, target->pos, "cannot assign %s to an element of type %s",
                        tjl_type_name(c->p, vt, b1, sizeof b1),
                        tjl_type_name(c->p, target->type, b2, sizeof b2));
    return note_partial(c, target);
}

/* ---- statements ---------------------------------------------------------------------------- */

static bool check_block(tjl_checker *c, tjl_block *b);
static bool check_block_of(tjl_checker *c, tjl_block *b, tjl_stmt *loop, tjl_type loop_type);

static bool
check_unpack(tjl_checker *c, tjl_stmt *s)
{
    tjl_expr *v = s->value;
    if (v->kind != TJL_E_CALL)
        return tjl_fail(c->p, v->pos, "only the results of wp.tid() and wp.tile_stack_pop() "
                                      "can be unpacked");
    c->unpack = s->ntargets;
    bool ok = tjl_check_expr(c, v);
    c->unpack = 0;
    if (!ok)
        return false;
    if (v->type.kind != TJL_T_TUPLE)
        return tjl_fail(c->p, v->pos, "only the results of wp.tid() and wp.tile_stack_pop() "
                                      "can be unpacked");
    if (v->type.ndim != s->ntargets)
        return tjl_fail(c->p, s->pos, "cannot unpack %d values into %d names", v->type.ndim,
                        s->ntargets);
    for (int i = 0; i < s->ntargets; i++) {
        tjl_type t = i == 0 ? tjl_elem(v->type) : tjl_scalar(TJ_DTYPE_I32);
        if (!assign_name(c, s->targets[i], t))
            return false;
    }
    return true;
}

static bool
check_assign(tjl_checker *c, tjl_stmt *s)
{
    char b1[96], b2[96];
    if (s->unpack)
        return check_unpack(c, s);
    if (s->value->kind == TJL_E_TUPLE)
        return tjl_fail(c->p, s->value->pos, "a tuple cannot be assigned (unpack a call, or "
                                             "use a vector)");
    if (!tjl_check_expr(c, s->value))
        return false;
    tjl_expr *target = s->targets[0];
    if (s->ann) {
        tjl_type at;
        if (!tjl_check_type_expr(c, s->ann, &at))
            return false;
        if (!tjl_type_eq(at, s->value->type))
            return tjl_fail(c->p, s->value->pos, "the annotation says %s but the value is %s",
                            tjl_type_name(c->p, at, b1, sizeof b1),
                            tjl_type_name(c->p, s->value->type, b2, sizeof b2));
    }
    if (target->kind == TJL_E_NAME)
        return assign_name(c, target, s->value->type);
    return check_store_target(c, target, s->value->type);
}

static bool
check_augassign(tjl_checker *c, tjl_stmt *s)
{
    char b1[96], b2[96];
    tjl_expr *target = s->targets[0];
    if (!tjl_check_expr(c, target) || !tjl_check_expr(c, s->value))
        return false;
    tjl_type r;
    tjl_expr *v = s->value;
    if (s->op == TJL_OP_POW && tjl_is_int(target->type) && tjl_type_eq(target->type, v->type)) {
        if (!v->is_const || v->ival < 0 || v->ival > 64)
            return tjl_fail(c->p, s->pos, "operator '**' on integers needs a constant exponent "
                                          "from 0 to 64");
        r = target->type;
    } else if (!tjl_binary_type(c, s->op, target->type, v->type, s->pos, &r)) {
        return false;
    }
    if (!tjl_type_eq(r, target->type))
        return tjl_fail(c->p, s->pos, "'%s=' gives %s, which cannot be stored in %s",
                        tjl_op_text(s->op), tjl_type_name(c->p, r, b1, sizeof b1),
                        tjl_type_name(c->p, target->type, b2, sizeof b2));
    if (target->kind == TJL_E_NAME) {
        tjl_expr copy = *target;
        return assign_name(c, &copy, r);
    }
    return check_store_target(c, target, r);
}

static bool
check_for(tjl_checker *c, tjl_stmt *s)
{
    char b1[96], b2[96];
    tjl_type t = tjl_scalar(TJ_DTYPE_I32);
    for (int i = 0; i < s->nrange; i++) {
        tjl_expr *a = s->range[i];
        if (!tjl_check_expr(c, a))
            return false;
        if (!tjl_is_int(a->type))
            return tjl_fail(c->p, a->pos, "range() takes integers, got %s",
                            tjl_type_name(c->p, a->type, b1, sizeof b1));
        if (i > 0 && a->type.dtype != t.dtype)
            return tjl_fail(c->p, a->pos, "range() arguments must have one type: %s and %s",
                            tjl_type_name(c->p, t, b1, sizeof b1),
                            tjl_type_name(c->p, a->type, b2, sizeof b2));
        t = a->type;
        t.shape[0] = 0;
    }
    if (s->nrange == 3 && s->range[2]->is_const && s->range[2]->ival == 0)
        return tjl_fail(c->p, s->range[2]->pos, "range() step must not be zero");
    c->loops++;
    bool ok = check_block_of(c, &s->body, s, t);
    c->loops--;
    return ok;
}

static bool
check_return(tjl_checker *c, tjl_stmt *s)
{
    char b1[96], b2[96];
    tjl_func *f = c->f;
    if (f->is_kernel) {
        if (s->value)
            return tjl_fail(c->p, s->value->pos, "a kernel cannot return a value");
        return true;
    }
    if (!s->value) {
        if (f->ret_known && f->ret.kind != TJL_T_NONE)
            return tjl_fail(c->p, s->pos, "return without a value in a function that returns "
                                          "%s", tjl_type_name(c->p, f->ret, b1, sizeof b1));
        f->ret = tjl_none();
        f->ret_known = true;
        return true;
    }
    if (s->value->kind == TJL_E_TUPLE)
        return tjl_fail(c->p, s->value->pos, "functions return one value (tuples are not "
                                             "supported)");
    if (!tjl_check_value(c, s->value, "a return value"))
        return false;
    if (f->ret_known && !tjl_type_eq(f->ret, s->value->type))
        return tjl_fail(c->p, s->value->pos, "function '%s' returns %s, not %s", f->name,
                        f->ret.kind == TJL_T_NONE ? "nothing"
                                                  : tjl_type_name(c->p, f->ret, b1, sizeof b1),
                        tjl_type_name(c->p, s->value->type, b2, sizeof b2));
    f->ret = s->value->type;
    f->ret_known = true;
    return true;
}

static bool
check_stmt(tjl_checker *c, tjl_stmt *s)
{
    switch (s->kind) {
    case TJL_S_EXPR:
        if (s->value->kind == TJL_E_STR)
            return true; /* a docstring */
        if (s->value->kind == TJL_E_TUPLE)
            return tjl_fail(c->p, s->value->pos, "a tuple is not a statement");
        return tjl_check_expr(c, s->value);
    case TJL_S_ASSIGN:
        return check_assign(c, s);
    case TJL_S_AUGASSIGN:
        return check_augassign(c, s);
    case TJL_S_IF:
        return tjl_check_cond(c, s->value, "the if condition") && check_block(c, &s->body) &&
               check_block(c, &s->orelse);
    case TJL_S_WHILE:
        if (!tjl_check_cond(c, s->value, "the while condition"))
            return false;
        c->loops++;
        if (!check_block(c, &s->body))
            return false;
        c->loops--;
        return true;
    case TJL_S_FOR:
        return check_for(c, s);
    case TJL_S_BREAK:
    case TJL_S_CONTINUE:
        if (c->loops == 0)
            return tjl_fail(c->p, s->pos, "'%s' outside a loop",
                            s->kind == TJL_S_BREAK ? "break" : "continue");
        return true;
    case TJL_S_RETURN:
        return check_return(c, s);
    default:
        return true;
    }
}

static bool
new_block(tjl_checker *c, tjl_block *b)
{
    tjl_func *f = c->f;
    if (f->nblocks == c->cap_blocks) {
        int cap = c->cap_blocks ? 2 * c->cap_blocks : 16;
        int *bp = tjl_alloc(&c->p->arena, (size_t)cap * sizeof *bp);
        if (!bp)
            return tjl_fail(c->p, -1, "out of memory");
        if (f->nblocks)
            memcpy(bp, f->block_parent, (size_t)f->nblocks * sizeof *bp);
        f->block_parent = bp;
        c->cap_blocks = cap;
    }
    b->id = f->nblocks++;
    f->block_parent[b->id] = c->block;
    return true;
}

/* Checks a block; 'loop' is the for statement whose name the block assigns first. */
static bool
check_block_of(tjl_checker *c, tjl_block *b, tjl_stmt *loop, tjl_type loop_type)
{
    int outer = c->block;
    if (!new_block(c, b))
        return false;
    c->block = b->id;
    if (loop && !assign_name(c, loop->targets[0], loop_type))
        return false;
    for (int i = 0; i < b->n; i++)
        if (!check_stmt(c, b->stmts[i]))
            return false;
    c->block = outer;
    return true;
}

static bool
check_block(tjl_checker *c, tjl_block *b)
{
    return check_block_of(c, b, NULL, tjl_none());
}

/* ---- functions ----------------------------------------------------------------------------- */

/* Adds every name a statement list assigns as a whole (x = , a, b = , x += , for x in). */
static bool
collect_locals(tjl_checker *c, const tjl_block *b)
{
    for (int i = 0; i < b->n; i++) {
        const tjl_stmt *s = b->stmts[i];
        for (int t = 0; t < s->ntargets; t++) {
            tjl_expr *e = s->targets[t];
            if (e->kind == TJL_E_NAME && !tjl_find_local(c, e->name, NULL) &&
                !add_local(c, e->name, e->pos))
                return false;
        }
        if (!collect_locals(c, &s->body) || !collect_locals(c, &s->orelse))
            return false;
    }
    return true;
}

static bool
check_signature(tjl_checker *c, tjl_func *f)
{
    char b1[96];
    for (int i = 0; i < f->nparams; i++) {
        tjl_param *pa = &f->params[i];
        if (!tjl_check_type_expr(c, pa->ann, &pa->type))
            return false;
        bool ok = tjl_is_value(pa->type) || pa->type.kind == TJL_T_ARRAY;
        if (!ok)
            return tjl_fail(c->p, pa->ann->pos, "parameter '%s' cannot be %s (parameters are "
                                                "values, structs or arrays)",
                            pa->name, tjl_type_name(c->p, pa->type, b1, sizeof b1));
    }
    if (f->ret_ann) {
        if (f->is_kernel)
            return tjl_fail(c->p, f->ret_ann->pos, "a kernel returns nothing");
        if (f->ret_ann->kind == TJL_E_NONE) {
            f->ret = tjl_none();
        } else {
            if (!tjl_check_type_expr(c, f->ret_ann, &f->ret))
                return false;
            if (!tjl_is_value(f->ret))
                return tjl_fail(c->p, f->ret_ann->pos, "functions return values, not %s",
                                tjl_type_name(c->p, f->ret, b1, sizeof b1));
        }
        f->ret_known = true;
    }
    if (f->is_kernel) {
        f->ret = tjl_none();
        f->ret_known = true;
    }
    return true;
}

static void
decide_vars(tjl_func *f)
{
    for (int i = 0; i < f->nlocals; i++) {
        tjl_local *l = &f->locals[i];
        l->is_var = l->typed && (l->nassign > 1 || (l->escapes && !l->is_param));
    }
}

static bool
check_body(tjl_checker *outer, int fi)
{
    tjl_func *f = outer->p->funcs[fi];
    if (outer->fdepth >= TJL_MAX_FUNC_DEPTH)
        return tjl_fail(outer->p, f->pos, "functions call one another more than %d levels deep "
                                          "before their return types are known; annotate "
                                          "them ('-> float')", TJL_MAX_FUNC_DEPTH);
    tjl_checker c = {.p = outer->p, .f = f, .fdepth = outer->fdepth + 1, .block = -1};
    f->check_state = 1;
    for (int i = 0; i < f->nparams; i++) {
        tjl_local *l = add_local(&c, f->params[i].name, f->params[i].pos);
        if (!l)
            return false;
        *l = (tjl_local){.name = f->params[i].name, .pos = f->params[i].pos,
                         .type = f->params[i].type, .typed = true, .is_param = true,
                         .nassign = 1, .first_block = 0};
    }
    if (!collect_locals(&c, &f->body) || !check_block(&c, &f->body))
        return false;
    if (!f->ret_known) {
        f->ret = tjl_none();
        f->ret_known = true;
    }
    decide_vars(f);
    f->check_state = 2;
    return true;
}

bool
tjl_need_return_type(tjl_checker *c, int fi, int pos)
{
    tjl_func *f = c->p->funcs[fi];
    if (f->ret_known || f->check_state == 2)
        return true;
    if (f->check_state == 1)
        return tjl_fail(c->p, pos, "function '%s' calls itself; annotate its return type "
                                   "('-> float')", f->name);
    return check_body(c, fi);
}

/* ---- the program ------------------------------------------------------------------------- */

static bool
check_structs(tjl_checker *c)
{
    char b1[96];
    tjl_program *p = c->p;
    for (int s = 0; s < p->nstructs; s++) {
        tjl_struct *st = p->structs[s];
        for (int k = 0; k < s; k++)
            if (strcmp(p->structs[k]->name, st->name) == 0)
                return tjl_fail(p, st->pos, "struct '%s' is defined twice", st->name);
        for (int i = 0; i < st->nfields; i++) {
            tjl_field *fl = &st->fields[i];
            /* only earlier structs are visible: hide this one and the later ones */
            int saved = p->nstructs;
            p->nstructs = s;
            bool ok = tjl_check_type_expr(c, fl->ann, &fl->type);
            p->nstructs = saved;
            if (!ok)
                return false;
            if (!tjl_is_value(fl->type))
                return tjl_fail(p, fl->ann->pos, "field '%s' cannot be %s (fields are values "
                                                 "or structs)",
                                fl->name, tjl_type_name(p, fl->type, b1, sizeof b1));
        }
    }
    return true;
}

static bool
check_consts(tjl_checker *c)
{
    tjl_program *p = c->p;
    for (int i = 0; i < p->nconsts; i++) {
        tjl_const *k = p->consts[i];
        tjl_expr *e = k->expr;
        /* NAME = wp.constant(EXPR) or NAME = EXPR; only earlier constants are visible */
        int saved = p->nconsts;
        p->nconsts = i;
        bool ok = tjl_check_expr(c, e);
        p->nconsts = saved;
        if (!ok)
            return false;
        if (!e->is_const || e->type.kind != TJL_T_SCALAR)
            return tjl_fail(p, e->pos, "constant '%s' must be a compile-time scalar (an int, "
                                       "float or bool expression of literals and constants)",
                            k->name);
        k->type = e->type;
        k->ival = e->ival;
        k->fval = e->fval;
    }
    return true;
}

static bool
check_names(tjl_program *p)
{
    for (int i = 0; i < p->nfuncs; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(p->funcs[i]->name, p->funcs[j]->name) == 0)
                return tjl_fail(p, p->funcs[i]->pos, "'%s' is defined twice", p->funcs[i]->name);
    return true;
}

bool
tjl_check(tjl_program *p)
{
    tjl_checker c = {.p = p, .block = -1};
    if (!check_names(p) || !check_structs(&c) || !check_consts(&c))
        return false;
    for (int i = 0; i < p->nfuncs; i++) {
        c.f = p->funcs[i];
        if (!check_signature(&c, p->funcs[i]))
            return false;
    }
    c.f = NULL;
    for (int i = 0; i < p->nfuncs; i++)
        if (p->funcs[i]->check_state == 0 && !check_body(&c, i))
            return false;
    return true;
}
