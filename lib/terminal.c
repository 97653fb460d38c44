// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * terminal.c - the colour and pager decisions for terminal output.  They
 * follow util-linux (lib/colors.c colors_init(), lib/pager.c) so that an
 * admin's terminal-colors.d files and $PAGER/$LESS settings act on kdmesg
 * exactly as on dmesg.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

/* configure requires ncursesw; terminfo tells whether a terminal has colours. */
#if defined(__has_include)
# if __has_include(<term.h>) && __has_include(<curses.h>)
#  include <curses.h>
#  include <term.h>
#  define KD_HAVE_TERMINFO 1
# endif
#endif

#include "terminal.h"

int kd_colormode_parse(const char *when)
{
	if (!when)
		return -EINVAL;
	if (*when == '=')
		when++;
	if (strcasecmp(when, "auto") == 0)
		return KD_COLORMODE_AUTO;
	if (strcasecmp(when, "never") == 0)
		return KD_COLORMODE_NEVER;
	if (strcasecmp(when, "always") == 0)
		return KD_COLORMODE_ALWAYS;
	return -EINVAL;
}

/* util-linux asks terminfo: a terminal counts when it has 2+ colours. */
static bool terminal_has_colors(void)
{
#ifdef KD_HAVE_TERMINFO
	int err = 0;

	if (setupterm(NULL, STDOUT_FILENO, &err) != 0 || err != 1)
		return false;
	return tigetnum("colors") > 1;
#else
	const char *term = getenv("TERM");

	return term && *term && strcmp(term, "dumb") != 0;
#endif
}

enum { FILE_DISABLE, FILE_ENABLE, FILE__COUNT };

/*
 * Score one terminal-colors.d file name "[util][@term].type": 1 for the
 * type alone, +20 when the util name matches, +10 when the terminal
 * matches; a name for another util or terminal does not count at all.
 */
static int score_name(const char *name, const char *util, const char *term,
		      int *type)
{
	const char *dot = strrchr(name, '.');
	const char *kind = dot ? dot + 1 : name;
	const char *at;
	size_t util_len, term_len = 0;
	int score = 1;

	if (strcmp(kind, "disable") == 0)
		*type = FILE_DISABLE;
	else if (strcmp(kind, "enable") == 0)
		*type = FILE_ENABLE;
	else
		return -1;
	if (kind == name)
		return score;

	at = memchr(name, '@', kind - name);
	util_len = (at ? at : dot) - name;
	if (at) {
		term_len = dot - at - 1;
		if (!term || strlen(term) != term_len ||
		    strncmp(at + 1, term, term_len) != 0)
			return -1;
		score += 10;
	}
	if (util_len) {
		if (strlen(util) != util_len || strncmp(name, util, util_len) != 0)
			return -1;
		score += 20;
	}
	return score;
}

static int read_color_dir(const char *dir, const char *util, int scores[])
{
	const char *term = getenv("TERM");
	struct dirent *d;
	DIR *dp = opendir(dir);

	if (!dp)
		return -errno;
	while ((d = readdir(dp))) {
		int type = FILE_DISABLE, score;

		if (d->d_name[0] == '.')
			continue;
		if (d->d_type != DT_UNKNOWN && d->d_type != DT_REG &&
		    d->d_type != DT_LNK)
			continue;
		score = score_name(d->d_name, util, term, &type);
		if (score > scores[type])
			scores[type] = score;
	}
	closedir(dp);
	return 0;
}

/* The user's directory wins; /etc is read only when it is missing. */
static bool colors_disabled_by_config(const char *util)
{
	int scores[FILE__COUNT] = { 0, 0 };
	char path[PATH_MAX];
	const char *base;
	int rc = -ENOENT;

	if ((base = getenv("XDG_CONFIG_HOME")))
		snprintf(path, sizeof(path), "%s/terminal-colors.d", base);
	else if ((base = getenv("HOME")))
		snprintf(path, sizeof(path), "%s/.config/terminal-colors.d", base);
	if (base)
		rc = read_color_dir(path, util, scores);
	if (rc == -ENOENT || rc == -EACCES || rc == -EPERM)
		rc = read_color_dir("/etc/terminal-colors.d", util, scores);
	if (rc < 0)
		return false;
	return scores[FILE_DISABLE] > scores[FILE_ENABLE];
}

bool kd_terminal_want_color(enum kd_colormode mode, const char *utilname)
{
	const char *no_color;

	if (mode == KD_COLORMODE_ALWAYS)
		return true;
	if (mode == KD_COLORMODE_NEVER || !isatty(STDOUT_FILENO))
		return false;
	if (mode == KD_COLORMODE_UNDEF) {
		/* https://no-color.org: only the default yields to it. */
		no_color = getenv("NO_COLOR");
		if (no_color && *no_color)
			return false;
		if (!terminal_has_colors())
			return false;
		return !colors_disabled_by_config(utilname);
	}
	return terminal_has_colors();
}

static pid_t pager_pid;
static int saved_stdout = -1, saved_stderr = -1;

/* Is the first word of @cmd an executable, by path or on $PATH? */
static bool have_command(const char *cmd)
{
	char word[PATH_MAX], file[PATH_MAX];
	const char *path, *p;
	size_t n = strcspn(cmd, " ");

	if (n == 0 || n >= sizeof(word))
		return false;
	memcpy(word, cmd, n);
	word[n] = '\0';
	if (word[0] == '/')
		return access(word, X_OK) == 0;

	path = getenv("PATH");
	for (p = path; p && *p; ) {
		size_t len = strcspn(p, ":");

		if (len && (size_t)snprintf(file, sizeof(file), "%.*s/%s",
					    (int)len, p, word) < sizeof(file) &&
		    access(file, X_OK) == 0)
			return true;
		p += len;
		if (*p == ':')
			p++;
	}
	return false;
}

static void pager_signal(int sig)
{
	pid_t pid = pager_pid;

	/*
	 * Let the pager finish with the terminal before we die; only
	 * async-signal-safe calls here (the buffered output is lost anyway).
	 */
	if (pid) {
		close(STDOUT_FILENO);
		close(STDERR_FILENO);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

int kd_pager_open(void)
{
	const char *pager = getenv("PAGER");
	int fds[2];

	if (pager_pid || !isatty(STDOUT_FILENO))
		return 0;
	if (!pager)
		pager = "less";
	else if (!*pager || strcmp(pager, "cat") == 0)
		return 0;
	if (!have_command(pager))
		return 0;

	if (pipe(fds) < 0)
		return -errno;
	fflush(NULL);
	pager_pid = fork();
	if (pager_pid < 0) {
		int e = errno;

		pager_pid = 0;
		close(fds[0]);
		close(fds[1]);
		return -e;
	}
	if (pager_pid == 0) {
		fd_set in;

		dup2(fds[0], STDIN_FILENO);
		close(fds[0]);
		close(fds[1]);
		/* less misbehaves when started before its input has data. */
		FD_ZERO(&in);
		FD_SET(STDIN_FILENO, &in);
		select(STDIN_FILENO + 1, &in, NULL, NULL, NULL);
		setenv("LESS", "FRSX", 0);
		execlp("sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}

	saved_stdout = dup(STDOUT_FILENO);
	saved_stderr = dup(STDERR_FILENO);
	dup2(fds[1], STDOUT_FILENO);
	if (isatty(STDERR_FILENO))
		dup2(fds[1], STDERR_FILENO);
	close(fds[0]);
	close(fds[1]);

	signal(SIGINT, pager_signal);
	signal(SIGHUP, pager_signal);
	signal(SIGTERM, pager_signal);
	signal(SIGQUIT, pager_signal);
	signal(SIGPIPE, pager_signal);
	return 0;
}

void kd_pager_close(void)
{
	pid_t pid = pager_pid;

	if (!pid)
		return;
	pager_pid = 0;
	fflush(stdout);
	fflush(stderr);
	/* End of input for the pager: our copies of the pipe must go. */
	if (saved_stdout >= 0) {
		dup2(saved_stdout, STDOUT_FILENO);
		close(saved_stdout);
		saved_stdout = -1;
	}
	if (saved_stderr >= 0) {
		dup2(saved_stderr, STDERR_FILENO);
		close(saved_stderr);
		saved_stderr = -1;
	}
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
}
