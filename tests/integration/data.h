/* data.h - the public test data (tests/data/<game>/NN.in and NN.out). */
#ifndef GJ_TEST_DATA_H
#define GJ_TEST_DATA_H

#include <stddef.h>

typedef void (*data_case_fn)(const char *game, const char *in, size_t in_len, const char *out);

/* Call fn for every NN.in / NN.out pair of every game; returns the count.
 * Fails the test when a game's folder is missing. */
int data_each_case(data_case_fn fn);

#endif
