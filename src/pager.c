// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * pager.c - -H's pager, as util-linux's lib/pager.c runs it, so that
 * $PAGER and $LESS act on kdmesg exactly as on dmesg.  It lives in the
 * program, not in lib/: it forks, redirects the standard streams and
 * installs signal handlers, which a library must not do to its caller.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pager.h"

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
		setenv("LV", "-c", 0);
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

	/*
	 * Not SIGPIPE: a pager that quits early makes the next write fail
	 * with EPIPE, and kdmesg then exits with status 1, as dmesg does
	 * (kd_pager_active()), instead of dying of the signal.
	 */
	signal(SIGINT, pager_signal);
	signal(SIGHUP, pager_signal);
	signal(SIGTERM, pager_signal);
	signal(SIGQUIT, pager_signal);
	return 0;
}

bool kd_pager_active(void)
{
	return pager_pid != 0;
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
