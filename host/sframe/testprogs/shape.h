/* SPDX-License-Identifier: GPL-2.0 */
/* The functions libshape.so exports to shape.c. */
#ifndef SHAPE_H
#define SHAPE_H

int shape_sum(int n, ...);
int shape_vla(int n);
int shape_call(int (*cb)(int), int n);

#endif
