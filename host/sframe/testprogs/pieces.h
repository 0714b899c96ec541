/* SPDX-License-Identifier: GPL-2.0 */
/* The function pieces-b.c gives pieces.c. */
#ifndef PIECES_H
#define PIECES_H

int pieces_helper(int x);

#endif
