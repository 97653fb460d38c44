// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tui.c - `kdmesg --tui`: the live viewer, and the only file that calls
 * curses (what keys do is tui-actions.c's).  Records flow from the pipeline (kd_pipeline_step(), never
 * blocking) into a record store; the curses-free model (lib/view/view.c) says
 * what is selected and shown; keys become actions through lib/view/view-keys.c.
 * One loop: read what arrived, let the model work a bounded amount, draw,
 * wait for a key, the source or a timeout.  Signals only set flags.
 */

#define NCURSES_WIDECHAR 1
#include <curses.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <langinfo.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>
#include <wctype.h>

#include "record/field.h"
#include "shared/boottime.h"
#include "sink/format.h"
#include "nls.h"
#include "pipeline.h"
#include "shared/modinfo.h"
#include "record/priority.h"
#include "view/store.h"
#include "sink/terminal.h"
#include "stage/translate.h"
#include "view/view.h"
#include "view/view-detail.h"
#include "view/view-keys.h"
#include "kdmesg.h"
#include "tui.h"
#include "tui-internal.h"

/* Records the model may check per loop turn. */
#define WORK_STEP	2000
/* How often a source that cannot be polled (a growing file) is read. */
#define RETRY_MS	200
/* Least time between two repaints while records pour in. */
#define FRAME_MS	50

static volatile sig_atomic_t stop_flag, resize_flag;
/* The signal mask to wait with: the handled signals are blocked elsewhere. */
static sigset_t wait_mask;

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void on_stop(int sig)
{
	(void)sig;
	stop_flag = 1;
}

static void on_winch(int sig)
{
	(void)sig;
	resize_flag = 1;
}

/*
 * The handled signals stay blocked except while the loop waits in
 * ppoll(): a resize or Ctrl-C that came between the loop's look at the
 * flags and the wait would otherwise go unseen until the next key.
 * ppoll() that returns at once (a descriptor ready, no timeout) leaves
 * them pending, so wait_input() also lets them in after it.
 */
static void setup_signals(void)
{
	struct sigaction sa;
	sigset_t block;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	sigaddset(&block, SIGWINCH);
	sigprocmask(SIG_BLOCK, &block, &wait_mask);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop;	/* no SA_RESTART: poll() returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_winch;
	sigaction(SIGWINCH, &sa, NULL);
	sa.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &sa, NULL);
}

/* --- drawing (the record list: tui-render.c) ----------------------------- */

static void draw_status(struct tui *t)
{
	char left[512], flags[256] = "";
	size_t pos, shown, total = kd_store_count(t->st);
	const struct kd_vfilter *f = kd_view_filter(t->v);
	bool complete;
	int n;

	kd_view_position(t->v, &pos, &shown, &complete);
	if (t->prompt != P_NONE) {
		n = snprintf(left, sizeof(left), "%s%.*s",
			     t->prompt == P_SEARCH ? "/" : _(kd_vfilter_kind_name(t->pkind)),
			     (int)t->plen, t->pbuf);
		if (t->prompt == P_FILTER)
			n = snprintf(left, sizeof(left), "%s: %.*s",
				     _(kd_vfilter_kind_name(t->pkind)), (int)t->plen, t->pbuf);
	} else {
		/* TRANSLATORS: source, selected record, records shown, records read. */
		n = snprintf(left, sizeof(left), _("%s  %zu/%zu%s of %zu"), t->source,
			     pos == KD_VIEW_NONE ? 0 : pos + 1, shown, complete ? "" : "+", total);
		if (kd_pipeline_lost_reported(t->p))
			n += snprintf(left + n, sizeof(left) - (size_t)n, _("  %" PRIu64 " lost"),
				      kd_pipeline_lost_reported(t->p));
		snprintf(flags, sizeof(flags), "%s%s%s%s",
			 t->paused ? _("  paused") : "",
			 kd_view_following(t->v) ? _("  following") : "",
			 f->max_level < 7 ? "  " : "",
			 f->max_level < 7 ? kd_priority_level_name(f->max_level) : "");
		n += snprintf(left + n, sizeof(left) - (size_t)n, "%s", flags);
		/* The command line's filter, as it was given. */
		if (f->base && n < (int)sizeof(left) - 1)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "  %s%s", f->base_desc,
				      f->base_enabled ? "" : _(" (off)"));
		for (size_t i = 0; i < f->n && n < (int)sizeof(left) - 1; i++)
			if (f->items[i].enabled)
				n += snprintf(left + n, sizeof(left) - (size_t)n, "  %s=%s",
					      _(kd_vfilter_kind_name(f->items[i].kind)),
					      f->items[i].pattern);
		if (t->msg[0] && n < (int)sizeof(left) - 1)
			n += snprintf(left + n, sizeof(left) - (size_t)n, "  -- %s", t->msg);
	}
	if (n < 0)
		return;
	attrset(A_REVERSE);
	mvhline(LINES - 1, 0, ' ', COLS);
	tui_put_text(LINES - 1, LINES - 1, 0, COLS, left, strnlen(left, sizeof(left)), 0,
		     false, &(struct tui_paint){ .t = t, .base = A_REVERSE });
	attrset(A_NORMAL);
	if (t->prompt != P_NONE) {
		curs_set(1);
		move(LINES - 1, (int)strnlen(left, sizeof(left)) < COLS ?
		     (int)strnlen(left, sizeof(left)) : COLS - 1);
	} else {
		curs_set(0);
	}
}

/* How many bytes of @s (@len) fit in @cols columns. */
static size_t fit_bytes(const char *s, size_t len, size_t cols)
{
	mbstate_t ms;
	size_t i = 0, col = 0;

	memset(&ms, 0, sizeof(ms));
	while (i < len) {
		wchar_t wc;
		size_t n = mbrtowc(&wc, s + i, len - i, &ms);
		int w;

		if (n == (size_t)-1 || n == (size_t)-2 || n == 0) {
			memset(&ms, 0, sizeof(ms));
			n = 1;
			wc = L'?';
		}
		w = wc == L'\t' ? 8 - (int)(col % 8) : wcwidth(wc) < 0 ? 1 : wcwidth(wc);
		if (col + (size_t)w > cols)
			break;
		col += (size_t)w;
		i += n;
	}
	return i;
}

/* A page of lines for the detail, filter and help screens. */
static void draw_lines(struct tui *t, const char *title, char **lines, size_t n, int rows)
{
	attrset(A_BOLD);
	tui_put_text(0, 0, 0, COLS, title, strlen(title), 0, false,
		     &(struct tui_paint){ .t = t, .base = A_BOLD });
	attrset(A_NORMAL);
	if (t->mode_top + (size_t)rows - 1 > n)
		t->mode_top = n > (size_t)rows - 1 ? n - (size_t)rows + 1 : 0;
	/* Long values wrap, continuing under the value column. */
	for (size_t i = t->mode_top, y = 1; (int)y < rows && i < n; i++) {
		size_t len = strlen(lines[i]), first = fit_bytes(lines[i], len, (size_t)COLS);
		attr_t a = t->mode == M_FILTERS && i == t->mode_sel ? A_REVERSE : A_NORMAL;
		int indent = t->mode == M_DETAIL && COLS > 40 ? 18 : 0;

		const struct tui_paint paint = { .t = t, .base = a };

		tui_put_text((int)y, (int)y, 0, COLS, lines[i], first, 0, false, &paint);
		y++;
		if (first < len && (int)y < rows)
			y += (size_t)tui_put_text((int)y, rows - 1, indent, COLS, lines[i] + first,
						  len - first, 0, true, &paint);
	}
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* The lines of the detail, filter or help screen; NULL entries are skipped. */
static size_t screen_lines(struct tui *t, char **lines, size_t max)
{
	const struct kd_vfilter *f = kd_view_filter(t->v);
	static const char *const fac[] = { N_("all"), N_("kernel only"), N_("user space only") };
	const struct kd_key_binding *b;
	size_t n = 0, nb;

	switch (t->mode) {
	case M_DETAIL:
		for (size_t i = 0; i < t->detail.n && n < max; i++) {
			const struct kd_detail_line *l = &t->detail.v[i];

			if (l->note)
				lines[n++] = xasprintf("%18s(%s)", "", _(l->label));
			else
				lines[n++] = xasprintf("%-16s  %s", !l->label ? "" :
						       l->label_is_key ? l->label : _(l->label), l->value);
		}
		break;
	case M_FILTERS:
		lines[n++] = xasprintf("   %-16s %s", _("levels shown"),
				       kd_priority_level_name(f->max_level));
		lines[n++] = xasprintf("   %-16s %s", _("records"), _(fac[f->facility]));
		if (f->base)
			lines[n++] = xasprintf("[%c] %-16s %s", f->base_enabled ? 'x' : ' ',
					       _("command line"), f->base_desc);
		for (size_t i = 0; i < f->n && n < max; i++)
			lines[n++] = xasprintf("[%c] %-16s %s", f->items[i].enabled ? 'x' : ' ',
					       _(kd_vfilter_kind_name(f->items[i].kind)),
					       f->items[i].pattern);
		break;
	case M_HELP:
		/* Which text / and i, x look at: the one on the screen. */
		lines[n++] = xasprintf("  %s", t->translate ?
				       _("Search (/) and the text filters (i, x) match the translated text shown; T shows the kernel's.") :
				       _("Search (/) and the text filters (i, x) match the kernel's text as shown."));
		b = kd_key_bindings(&nb);
		for (size_t i = 0; i < nb && n < max; i++)
			if (b[i].keyname)
				lines[n++] = xasprintf("  %-12s %s", b[i].keyname, _(b[i].help));
		break;
	case M_LIST:
		break;
	}
	return n;
}

static void draw(struct tui *t)
{
	int rows = LINES - 1;
	char *lines[128 + KD_VFILTER_MAX];
	size_t n;

	erase();
	if (rows < 1 || COLS < 8) {
		refresh();
		return;
	}
	if (t->mode == M_LIST) {
		kd_view_set_height(t->v, (size_t)rows);
		tui_draw_list(t, rows);
	} else {
		n = screen_lines(t, lines, sizeof(lines) / sizeof(lines[0]));
		draw_lines(t, t->mode == M_DETAIL ?
			   _("Record details  (Up/Down: scroll, Enter/Esc/q: back)") :
			   t->mode == M_FILTERS ?
			   _("Filters  (Up/Down: choose, Space: on/off, -/+: levels, d: remove, Esc/q: back)") :
			   _("Keys  (Esc/q: back)"), lines, n, rows);
		for (size_t i = 0; i < n; i++)
			free(lines[i]);
	}
	draw_status(t);
	refresh();
}

/* A mouse event: the wheel scrolls; clicks are the terminal's to select text. */
static int mouse_key(void)
{
	MEVENT ev;

	if (getmouse(&ev) != OK)
		return -1;
	if (ev.bstate & BUTTON4_PRESSED)
		return KD_KEY_WHEEL_UP;
#ifdef BUTTON5_PRESSED
	if (ev.bstate & BUTTON5_PRESSED)
		return KD_KEY_WHEEL_DOWN;
#endif
	return -1;
}

/* curses key codes to lib/view/view-keys.h's. */
static int map_key(int rc, wint_t wc)
{
	if (rc == KEY_CODE_YES) {
		switch (wc) {
		case KEY_UP: return KD_KEY_UP;
		case KEY_DOWN: return KD_KEY_DOWN;
		case KEY_LEFT: return KD_KEY_LEFT;
		case KEY_RIGHT: return KD_KEY_RIGHT;
		case KEY_PPAGE: return KD_KEY_PGUP;
		case KEY_NPAGE: return KD_KEY_PGDN;
		case KEY_HOME: return KD_KEY_HOME;
		case KEY_END: return KD_KEY_END;
		case KEY_ENTER: return KD_KEY_ENTER;
		case KEY_BACKSPACE: return KD_KEY_BACKSPACE;
		case KEY_F(1): return KD_KEY_F1;
		case KEY_F(10): return KD_KEY_F10;
		case KEY_MOUSE: return mouse_key();
		}
		return -1;
	}
	switch (wc) {
	case '\n':
	case '\r':
		return KD_KEY_ENTER;
	case 27:
		return KD_KEY_ESC;
	case 127:
	case 8:
		return KD_KEY_BACKSPACE;
	}
	return (int)wc;
}

/* Returns whether a key came. */
static bool handle_keys(struct tui *t)
{
	wint_t wc;
	int rc, key;
	bool any = false;

	while ((rc = get_wch(&wc)) != ERR) {
		any = true;
		key = map_key(rc, wc);
		if (key < 0)
			continue;
		if (t->prompt != P_NONE)
			tui_prompt_key(t, key);
		else if (t->mode != M_LIST)
			tui_screen_key(t, key);
		else
			tui_list_key(t, key);
	}
	return any;
}

/* --- set-up and the loop ---------------------------------------------- */

static void resize(void)
{
	struct winsize ws;

	resize_flag = 0;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row && ws.ws_col)
		resize_term(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
}

/*
 * The terminal: curses on standard output, keys from standard input when
 * it is the terminal and not the log, else from /dev/tty.
 */
static SCREEN *open_screen(const struct ctl *c, FILE **in)
{
	bool log_on_stdin = c->path && strcmp(c->path, "-") == 0;
	SCREEN *scr;

	*in = stdin;
	if (log_on_stdin || !isatty(STDIN_FILENO)) {
		*in = fopen("/dev/tty", "re");
		if (!*in)
			err(EXIT_FAILURE, _("cannot open %s"), "/dev/tty");
	}
	scr = newterm(NULL, stdout, *in);
	if (!scr)
		errx(EXIT_FAILURE, _("cannot use the terminal (TERM=%s)"),
		     getenv("TERM") ? getenv("TERM") : "");
	return scr;
}

static void init_colors(struct tui *t)
{
	const char *no = getenv("NO_COLOR");

	t->can_color = has_colors();
	t->color = has_colors() && t->c->colormode != KD_COLORMODE_NEVER &&
		   !(no && *no && t->c->colormode != KD_COLORMODE_ALWAYS);
	if (has_colors()) {
		start_color();
		use_default_colors();
	}
	/* dmesg's colour scheme, as the command line colours its output. */
	if (tui_render_init(t) < 0)
		errx(EXIT_FAILURE, "%s", strerror(ENOMEM));
}

/* Poll the terminal and the source; wait at most @ms (-1: until one). */
static void wait_input(struct tui *t, int tty_fd, int ms)
{
	struct pollfd pfd[2] = {
		{ .fd = tty_fd, .events = POLLIN },
		{ .fd = t->src_fd, .events = POLLIN },
	};
	nfds_t n = t->src_poll && !t->paused && !t->at_end ? 2 : 1;
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000 };
	sigset_t blocked;
	int rc;

	rc = ppoll(pfd, n, ms < 0 ? NULL : &ts, &wait_mask);
	/* Signals that came while the loop worked, or during a ppoll() that returned at once. */
	sigprocmask(SIG_SETMASK, &wait_mask, &blocked);
	sigprocmask(SIG_SETMASK, &blocked, NULL);
	if (rc <= 0)
		return;
	/* The terminal hung up (its window closed): keys will never come. */
	if (pfd[0].revents & (POLLHUP | POLLERR | POLLNVAL))
		stop_flag = 1;
	if (n == 2 && (pfd[1].revents & (POLLHUP | POLLERR)) && !(pfd[1].revents & POLLIN))
		t->src_poll = false;	/* a pipe without writer: retry on a timer */
}

int kdmesg_tui(struct ctl *c)
{
	struct tui t = { .c = c, .src_fd = -1 };
	FILE *in;
	SCREEN *scr;
	int64_t last_draw = 0;
	int rc;

	if (!isatty(STDOUT_FILENO))
		errx(EXIT_FAILURE, _("--tui needs a terminal on standard output"));
	if (kd_store_new(&t.st) < 0 || kd_view_new(&t.v, t.st) < 0)
		errx(EXIT_FAILURE, "%s", strerror(ENOMEM));
	tui_open_intake(&t);

	t.opts = c->out;
	t.opts.mode = KD_OUTPUT_TEXT;
	t.opts.color = t.opts.follow = t.opts.batch = t.opts.raw = false;
	t.opts.source_syslog = c->caps & KD_SOURCE_SYSLOG_TEXT;
	if (!t.opts.boot_usec && kd_boottime_get(&t.opts.boot_usec) < 0)
		t.opts.boot_usec = 0;
	t.location = c->out.location;
	tui_time_init(&t);
	t.line.cap = 4096;
	t.line.data = malloc(t.line.cap);
	kd_record_init(&t.rec);
	kd_record_init(&t.prev);
	if (!t.line.data || tui_setup_format(&t) < 0)
		errx(EXIT_FAILURE, "%s", strerror(ENOMEM));

	setup_signals();
	scr = open_screen(c, &in);
	set_term(scr);
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	/* Only the wheel: a click or a drag stays the terminal's (copying text). */
	mousemask(BUTTON4_PRESSED
#ifdef BUTTON5_PRESSED
		  | BUTTON5_PRESSED
#endif
		  , NULL);
	curs_set(0);
	init_colors(&t);

	while (!stop_flag && !t.quit) {
		bool busy, keyed;

		if (resize_flag)
			resize();
		if (t.redraw) {
			t.redraw = false;
			clearok(curscr, TRUE);
		}
		busy = tui_intake(&t);
		busy |= kd_view_work(t.v, WORK_STEP);
		rc = kd_view_search_result(t.v);
		if (rc == -ENOENT)
			tui_set_msg(&t, "%s", _("pattern not found"));
		/*
		 * While a large log pours in, a frame every FRAME_MS is
		 * enough; a key or an idle loop always gets one.
		 */
		if (!busy || now_ms() - last_draw >= FRAME_MS) {
			draw(&t);
			last_draw = now_ms();
		}
		wait_input(&t, fileno(in), busy ? 0 :
			   !t.src_poll && !t.at_end && !t.paused ? RETRY_MS : -1);
		keyed = handle_keys(&t);
		if (keyed)
			last_draw = 0;
	}

	endwin();
	sigprocmask(SIG_SETMASK, &wait_mask, NULL);
	delscreen(scr);
	if (in != stdin)
		fclose(in);
	kdmesg_translate_finish(c);
	kdmesg_recover_finish(c);
	kdmesg_sites_finish(c);
	kdmesg_report_stats(kd_pipeline_stats(t.p), 0);
	kd_pipeline_free(t.p);
	kd_view_free(t.v);
	kd_store_free(t.st);
	kd_detail_release(&t.detail);
	kdmesg_modinfo_log_to(NULL, NULL);
	kd_format_release(&t.fmt);
	kd_spans_release(&t.spans);
	free(t.prevs);
	kd_record_free(&t.rec);
	kd_record_free(&t.prev);
	free(t.line.data);
	return EXIT_SUCCESS;
}
