/*
 * tools/cli.h: what the tilejit command's files share: argument values (--arg NAME=VALUE:
 * JSON, zeros(SHAPE), @PATH.npy) turned into host buffers, and arrays printed back as
 * JSON. Uses only tilejit.h. Functions here never exit: they return false with a message in
 * a caller's buffer; tools/tilejit.c decides the exit status.
 */
#ifndef TILEJIT_CLI_H
#define TILEJIT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tilejit.h"

enum { CLI_MAX_DIMS = 6, CLI_ERR = 512 };

/* A host copy of an array argument (or of a composite scalar): dims are the array's,
 * followed by the element's component dims (vector: 1, matrix: 2). */
typedef struct cli_buffer {
    tj_dtype dtype;          /* of each leaf */
    int ndim;                /* array dims */
    int ncomp_dims;          /* element component dims */
    int64_t shape[CLI_MAX_DIMS];
    size_t nleaves;
    void *data;              /* nleaves leaves of dtype, malloc'ed */
} cli_buffer;

/* The element layout of 'elem' as component dims ('*n' of them, extents in 'dims');
 * false for structs. */
bool cli_elem_dims(const tj_type *elem, int *n, int64_t *dims);
size_t cli_dtype_size(tj_dtype dt);
const char *cli_dtype_name(tj_dtype dt);

/* cli_values.c */
/* Parses the value of an array parameter of 'ndim' dims of 'elem': a JSON nested list,
 * zeros(N[,N..]) or @PATH.npy. */
bool cli_parse_array(const char *text, const tj_type *elem, int ndim, cli_buffer *out,
                     char *err, size_t nerr);
/* Parses the value of a scalar or composite parameter of type 't' into 'arg'; composites
 * (a JSON list of components) go through 'storage' (at least 128 bytes). */
bool cli_parse_scalar(const char *text, const tj_type *t, tj_arg *arg, void *storage,
                      char *err, size_t nerr);
void cli_buffer_free(cli_buffer *b);

/* cli_print.c */
/* Prints the buffer as a JSON nested list (floats with the shortest text that reads back
 * exactly, NaN and Infinity as Python's json writes them). */
void cli_print_json(FILE *f, const cli_buffer *b);
/* The shortest "%g" text of 'v' that reads back as the same value of 'dt' (F16, F32 or
 * F64), with ".0" added when it reads as an integer. */
void cli_format_float(char *buf, size_t n, double v, tj_dtype dt);
/* float16 bits <-> double (round to nearest even). */
double cli_half_to_double(uint16_t h);
uint16_t cli_half_from_double(double d);

#endif /* TILEJIT_CLI_H */
