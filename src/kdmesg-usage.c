// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kdmesg-usage.c - kdmesg --help: dmesg's help text in its order and
 * wording, with kdmesg's options among them, and the lists of facilities
 * and levels.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "nls.h"
#include "record/priority.h"
#include "kdmesg.h"

static const char *const facility_help[] = {
	N_("kernel messages"),
	N_("random user-level messages"),
	N_("mail system"),
	N_("system daemons"),
	N_("security/authorization messages"),
	N_("messages generated internally by syslogd"),
	N_("line printer subsystem"),
	N_("network news subsystem"),
	N_("UUCP subsystem"),
	N_("clock daemon"),
	N_("security/authorization messages (private)"),
	N_("FTP daemon"),
	N_("reserved 0"),
	N_("reserved 1"),
	N_("reserved 2"),
	N_("reserved 3"),
	N_("local use 0"),
	N_("local use 1"),
	N_("local use 2"),
	N_("local use 3"),
	N_("local use 4"),
	N_("local use 5"),
	N_("local use 6"),
	N_("local use 7"),
};

static const char *const level_help[] = {
	N_("system is unusable"),
	N_("action must be taken immediately"),
	N_("critical conditions"),
	N_("error conditions"),
	N_("warning conditions"),
	N_("normal but significant condition"),
	N_("informational"),
	N_("debug-level messages"),
};

void kdmesg_usage(void)
{
	FILE *out = stdout;
	size_t i;

	fputs(_("\nUsage:\n"), out);
	fprintf(out, _(" %s [options] [FIELD=VALUE...]\n"), program_invocation_short_name);

	fputs("\n", out);
	fputs(_("Display or control the kernel ring buffer.\n"), out);

	fputs(_("\nOptions:\n"), out);
	/*
	 * TRANSLATORS: translate only the descriptions; they start at
	 * column 30, keep them aligned there.
	 */
	fputs(_(" -C, --clear                 clear the kernel ring buffer\n"), out);
	fputs(_(" -c, --read-clear            read and clear all messages\n"), out);
	fputs(_(" -D, --console-off           disable printing messages to console\n"), out);
	fputs(_(" -E, --console-on            enable printing messages to console\n"), out);
	fputs(_(" -F, --file <file>           use the file instead of the kernel log buffer\n"), out);
	fputs(_(" -K, --kmsg-file <file>      use the file in kmsg format\n"), out);
	fputs(_(" -f, --facility <list>       restrict output to defined facilities\n"), out);
	fputs(_(" -H, --human                 human readable output\n"), out);
	fputs(_(" -J, --json                  use JSON output format\n"), out);
	fputs(_(" -k, --kernel                display kernel messages\n"), out);
	fprintf(out,
		_(" -L, --color[=<when>]        colorize messages (%s, %s or %s)\n"),
		"auto", "always", "never");
	fprintf(out, "                               %s\n",
		_("colors are enabled by default"));
	fputs(_(" -l, --level <list>          restrict output to defined levels\n"), out);
	fputs(_(" -n, --console-level <level> set level of messages printed to console\n"), out);
	fputs(_(" -o, --output <format>       output format: text, json, jsonl, export or verbose\n"), out);
	fputs(_(" -P, --nopager               do not pipe output into a pager\n"), out);
	fputs(_(" -p, --force-prefix          force timestamp output on each line of multi-line messages\n"), out);
	fputs(_(" -r, --raw                   print the raw message buffer\n"), out);
	fputs(_("     --noescape              don't escape unprintable character\n"), out);
	fputs(_(" -S, --syslog                force to use syslog(2) rather than /dev/kmsg\n"), out);
	fputs(_(" -s, --buffer-size <size>    buffer size to query the kernel ring buffer\n"), out);
	fputs(_(" -u, --userspace             display userspace messages\n"), out);
	fputs(_(" -w, --follow                wait for new messages\n"), out);
	fputs(_(" -W, --follow-new            wait and print only new messages\n"), out);
	fputs(_(" -x, --decode                decode facility and level to readable string\n"), out);
	fputs(_(" -d, --show-delta            show time delta between printed messages\n"), out);
	fputs(_(" -e, --reltime               show local time and time delta in readable format\n"), out);
	fputs(_(" -T, --ctime                 show human-readable timestamp (may be inaccurate!)\n"), out);
	fputs(_(" -t, --notime                don't show any timestamp with messages\n"), out);
	fputs(_("     --time-format <format>  show timestamp using the given format:\n"
		"                               [delta|reltime|ctime|notime|iso|raw]\n"
		"Suspending/resume will make ctime and iso timestamps inaccurate.\n"), out);
	fputs(_("     --since <time>          display the lines since the specified time\n"), out);
	fputs(_("     --until <time>          display the lines until the specified time\n"), out);
	fputs(_("     --subsystem <name>      display only messages from this subsystem\n"), out);
	fputs(_("     --device <id>           display only messages about this device\n"), out);
	fprintf(out,
		_("     --translate[=<when>]    translate kernel messages (%s, %s or %s)\n"),
		"auto", "always", "never");
	fputs(_("     --no-translate          show kernel messages as the kernel wrote them\n"), out);
	fputs(_("     --catalog-dir <dir>     also look for kernel message catalogues in <dir>\n"), out);
	fputs(_(" -v, --verbose               summarize translation and recovery on standard error\n"), out);
	fputs(_("     --code-file <glob>      only messages printed by this source file or directory\n"), out);
	fputs(_("     --function <glob>       only messages printed by this function\n"), out);
	fputs(_("     --module <name>         only messages of this module (or module alias)\n"), out);
	fputs(_("     --format <format>       only messages printed with this format string\n"), out);
	fputs(_("     --grep <regex>          only messages whose text matches the regular expression\n"), out);
	fputs(_(" -i, --ignore-case           --grep ignores case\n"), out);
	fputs(_("     --location              show the file, line and function of each message\n"), out);
	fputs(_("     --stats                 count messages per call site\n"), out);
	fputs(_("     --top <n>               --stats of the <n> call sites with the most messages\n"), out);
	fputs(_("  FIELD=VALUE                only messages whose field FIELD is VALUE\n"), out);
	fprintf(out,
		_("     --recover[=<when>]      recover call sites of plain kernel messages (%s, %s or %s)\n"),
		"auto", "always", "never");
	fputs(_("     --formats <file>        the format index to recover them with\n"), out);
	fputs(_("     --sites <file>          the kprint site table to expand compact records with\n"), out);
	fputs(_("     --save-sites            save the running kernel's site table for later reads\n"), out);
	fputs(_("     --tui                   browse and follow the log in a full-screen viewer\n"), out);
	fputs(_("     --journal               read the kernel records of the systemd journal\n"), out);
	fputs(_("     --journal-directory <dir>  read the journal files in <dir>\n"), out);
	fputs(_("     --journal-file <file>   read this journal file (may be repeated)\n"), out);
	fputs(_("     --boot[=<id|±n>]        only one boot of the journal (as journalctl -b)\n"), out);
	fputs(_("     --list-boots            list the boots of the journal\n"), out);
	fputs(_("     --machine <host>        only records of this machine (host name or machine ID)\n"), out);
	fputs(_("     --boot-time <time>      date a dump's records from this boot time\n"), out);

	fputs("\n", out);
	fputs(_(" -h, --help                  display this help\n"), out);
	fputs(_(" -V, --version               display version\n"), out);

	fputs(_("\nSupported log facilities:\n"), out);
	for (i = 0; i < KD_FACILITY_COUNT; i++)
		fprintf(out, " %7s - %s\n", kd_priority_facility_name(i),
			_(facility_help[i]));

	fputs(_("\nSupported log levels (priorities):\n"), out);
	for (i = 0; i < KD_LEVEL_COUNT; i++)
		fprintf(out, " %7s - %s\n", kd_priority_level_name(i), _(level_help[i]));

	fprintf(out, _("\nFor more details see %s.\n"), "kdmesg(1)");
	exit(EXIT_SUCCESS);
}
