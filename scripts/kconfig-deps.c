// SPDX-License-Identifier: GPL-2.0
/*
 * kconfig-deps KCONFIG: for every named bool or tristate option of the
 * Kconfig tree KCONFIG, one line
 *
 *	NAME NEED... | DEFAULT...
 *
 * and for every "select" or "imply" one line
 *
 *	+ NAME SELECTOR
 *
 * NEED... are the options of its "depends on" and of the menus and ifs
 * around it: it is off when they are.  DEFAULT... are those its defaults
 * name: an option without a prompt is on only when one of its defaults
 * or one of its selectors is.  distro.sh uses it to find the modules that
 * an option Debian has =y cannot do without.
 *
 * Linked with the kernel's own Kconfig parser (the objects that
 * scripts/kconfig/Makefile builds for conf), run with the environment
 * the kernel's Makefile gives conf (srctree, SRCARCH, CC, ...).
 */
#include <stdio.h>
#include <string.h>

#include "lkc.h"

static void sym(struct symbol *s)
{
	if (s->name && !(s->flags & SYMBOL_CONST))
		printf(" %s", s->name);
}

static void walk(struct expr *e)
{
	if (!e)
		return;
	switch (e->type) {
	case E_OR:
	case E_AND:
		walk(e->left.expr);
		walk(e->right.expr);
		break;
	case E_NOT:
		walk(e->left.expr);
		break;
	case E_SYMBOL:
		sym(e->left.sym);
		break;
	case E_EQUAL:
	case E_UNEQUAL:
	case E_LTH:
	case E_LEQ:
	case E_GTH:
	case E_GEQ:
	case E_RANGE:
		sym(e->left.sym);
		sym(e->right.sym);
		break;
	default:
		break;
	}
}

int main(int argc, char **argv)
{
	struct property *prop;
	struct symbol *sym;
	int i;

	if (argc != 2) {
		fprintf(stderr, "usage: %s KCONFIG\n", argv[0]);
		return 2;
	}
	conf_parse(argv[1]);
	for_all_symbols(i, sym) {
		if (!sym->name ||
		    (sym->type != S_BOOLEAN && sym->type != S_TRISTATE))
			continue;
		printf("%s", sym->name);
		walk(sym->dir_dep.expr);
		printf(" |");
		for (prop = sym->prop; prop; prop = prop->next) {
			if (prop->type != P_DEFAULT)
				continue;
			walk(prop->expr);
			walk(prop->visible.expr);
		}
		printf("\n");
		for (prop = sym->prop; prop; prop = prop->next) {
			if ((prop->type != P_SELECT && prop->type != P_IMPLY) ||
			    prop->expr->type != E_SYMBOL ||
			    !prop->expr->left.sym->name)
				continue;
			printf("+ %s %s\n", prop->expr->left.sym->name,
			       sym->name);
		}
	}
	return 0;
}
