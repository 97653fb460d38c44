// SPDX-License-Identifier: GPL-2.0-or-later
/* kdmesg.c - placeholder front end; the CLI lands in a following commit. */
#include <stdio.h>

#include "nls.h"

int main(void)
{
	setlocale(LC_ALL, "");
	bindtextdomain(PACKAGE, LOCALEDIR);
	textdomain(PACKAGE);
	fputs(_("kdmesg: not implemented yet\n"), stderr);
	return 1;
}
