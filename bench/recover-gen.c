// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * recover-gen.c - inputs and a load timer for bench/recover.sh:
 *
 *   recover-gen synth N SEED OUT      an index of N synthetic formats (for
 *                                     machines without a kernel tree)
 *   recover-gen subset INDEX N OUT    the first N sites of INDEX, as an index
 *   recover-gen dump INDEX N SEED K   a stock /dev/kmsg dump (stdout) of N
 *                                     records printed by K formats drawn
 *                                     from INDEX, as the kernel prints them
 *                                     (dev_printk/netdev_printk prefixes,
 *                                     each conversion rendered with its
 *                                     flags, width, precision and length
 *                                     as lib/vsprintf.c does)
 *   recover-gen load INDEX            seconds to open and check INDEX
 *
 * Deterministic for a seed.  Not installed; `make bench-recover` builds it.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "shared/kfmt.h"
#include "stage/fidx.h"
#include "stage/fidx-internal.h"

static unsigned long long rng_state;

static unsigned int rnd(unsigned int n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)((rng_state >> 33) % (n ? n : 1));
}

static struct kd_fidx *open_index(const char *path)
{
	struct kd_fidx *x;
	const char *why = "";

	if (kd_fidx_open(&x, path, &why) < 0) {
		fprintf(stderr, "recover-gen: %s: cannot open: %s\n", path, why);
		exit(1);
	}
	return x;
}

static void write_image(struct kd_fidx_builder *b, const char *release, const char *out)
{
	void *img;
	size_t len;
	FILE *f;

	if (kd_fidx_builder_image(b, release, &img, &len) < 0 || !(f = fopen(out, "wb")) ||
	    fwrite(img, 1, len, f) != len || fclose(f) != 0) {
		fprintf(stderr, "recover-gen: cannot write %s\n", out);
		exit(1);
	}
	free(img);
}

static const char *const words[] = {
	"device", "failed", "link", "error", "timeout", "reset", "port", "queue", "buffer",
	"driver", "firmware", "register", "memory", "mapped", "enabled", "disabled", "found",
	"using", "controller", "interrupt", "channel", "status", "version", "loaded", "invalid",
	"request", "response", "power", "state", "clock", "mode", "table", "entry", "vendor",
};

static int cmd_synth(unsigned int n, unsigned int seed, const char *out)
{
	static const char *const convs[] = { "%d", "%u", "%s", "%#x", "%pM", "%pI4", "%*ph", "%lu" };
	struct kd_fidx_builder *b;
	char fmt[256], file[64], func[64], mod[32];

	rng_state = seed;
	if (kd_fidx_builder_new(&b) < 0)
		return 1;
	for (unsigned int i = 0; i < n; i++) {
		struct kd_fidx_site s = { .fmt = fmt, .file = file, .func = func, .module = mod,
					  .level = '6' };
		size_t at = 0;
		unsigned int nw = 3 + rnd(6);

		snprintf(mod, sizeof(mod), "mod%u", i / 40);
		snprintf(file, sizeof(file), "drivers/x/mod%u/f%u.c", i / 40, i / 8);
		snprintf(func, sizeof(func), "fn%u", i / 2);
		s.line = 10 + i % 900;
		s.family = (enum kd_fidx_family)(1 + rnd(3));
		/* A word unique to the format, as real ones mostly have. */
		at += (size_t)snprintf(fmt + at, sizeof(fmt) - at, "w%x", i * 2654435761u);
		for (unsigned int k = 0; k < nw && at < sizeof(fmt) - 16; k++)
			at += (size_t)snprintf(fmt + at, sizeof(fmt) - at, rnd(3) ? " %s" : " %s %s",
					       words[rnd(sizeof(words) / sizeof(words[0]))],
					       convs[rnd(sizeof(convs) / sizeof(convs[0]))]);
		s.fmt_len = at;
		if (kd_fidx_builder_add(b, &s) < 0)
			return 1;
	}
	write_image(b, "synthetic", out);
	kd_fidx_builder_free(b);
	return 0;
}

static int cmd_subset(const char *in, unsigned int n, const char *out)
{
	struct kd_fidx *x = open_index(in);
	struct kd_fidx_builder *b;

	if (kd_fidx_builder_new(&b) < 0)
		return 1;
	for (uint32_t id = 0; id < kd_fidx_count(x) && kd_fidx_builder_count(b) < n; id++) {
		struct kd_fidx_entry e;
		struct kd_fidx_site s;

		kd_fidx_get(x, id, &e);
		s = (struct kd_fidx_site){ .fmt = e.fmt, .fmt_len = e.fmt_len, .file = e.file,
					   .line = e.line, .func = e.func, .module = e.module,
					   .level = e.level, .family = e.family };
		if (kd_fidx_builder_add(b, &s) < 0)
			return 1;
	}
	write_image(b, kd_fidx_release(x), out);
	kd_fidx_builder_free(b);
	kd_fidx_free(x);
	return 0;
}

/*
 * A conversion as the kernel's format_decode() reads it (lib/vsprintf.c):
 * flags, width and precision (-1: none; a '*' is an argument, taken as
 * none), length modifier, the conversion letter and a %p's first
 * extension letter.
 */
enum { S_LEFT = 1, S_PLUS = 2, S_SPACE = 4, S_SPECIAL = 8, S_ZEROPAD = 16, S_SIGN = 32,
       S_SMALL = 64 };

struct spec {
	unsigned int flags;
	int width, prec;
	char len;	/* 0, 'H' (hh), 'h', 'l', 'L' (ll), 'z', 't' */
	char conv, pext;
	bool star_width;
};

static struct spec spec_parse(const char *c, size_t n)
{
	struct spec s = { .width = -1, .prec = -1 };
	size_t i = 1;

	for (; i < n && strchr("-+ #0", c[i]); i++)
		s.flags |= c[i] == '-' ? S_LEFT : c[i] == '+' ? S_PLUS : c[i] == ' ' ? S_SPACE :
			   c[i] == '#' ? S_SPECIAL : S_ZEROPAD;
	if (i < n && c[i] == '*') {
		s.star_width = true;
		i++;
	}
	for (; i < n && c[i] >= '0' && c[i] <= '9'; i++)
		s.width = (s.width < 0 ? 0 : s.width) * 10 + (c[i] - '0');
	if (i < n && c[i] == '.') {
		/* "%.d" keeps the default, as in the kernel; "%.*d" is an argument */
		for (i++; i < n && c[i] >= '0' && c[i] <= '9'; i++)
			s.prec = (s.prec < 0 ? 0 : s.prec) * 10 + (c[i] - '0');
		if (i < n && c[i] == '*')
			i++;
	}
	if (i < n && strchr("hlLqzZtj", c[i])) {
		s.len = c[i] == 'q' || c[i] == 'L' ? 'L' : c[i] == 'Z' ? 'z' : c[i];
		if (++i < n && c[i] == c[i - 1]) {
			s.len = s.len == 'h' ? 'H' : 'L';
			i++;
		}
	}
	if (i < n) {
		s.conv = c[i];
		s.pext = i + 1 < n ? c[i + 1] : 0;
	}
	if (s.conv == 'x')
		s.flags |= S_SMALL;
	if (s.conv == 'd' || s.conv == 'i')
		s.flags |= S_SIGN;
	return s;
}

/* The kernel's number(): @num in @base as @s says ("%#x" of 0 is "0x0"). */
static size_t number(char *out, size_t cap, unsigned long long num, unsigned int base,
		     struct spec s)
{
	char tmp[24], sign = 0;
	int i = 0, width = s.width, prec = s.prec;
	bool pfx = (s.flags & S_SPECIAL) && base != 10, zero = num == 0;
	size_t at = 0;

	if (s.flags & S_LEFT)
		s.flags &= ~(unsigned int)S_ZEROPAD;
	if (s.flags & S_SIGN) {
		if ((long long)num < 0) {
			sign = '-';
			num = -num;
		} else {
			sign = s.flags & S_PLUS ? '+' : s.flags & S_SPACE ? ' ' : 0;
		}
		width -= sign != 0;
	}
	if (pfx)
		width -= base == 16 ? 2 : !zero;
	do {
		tmp[i++] = (char)("0123456789ABCDEF"[num % base] | (s.flags & S_SMALL ? 0x20 : 0));
		num /= base;
	} while (num);
	if (i > prec)
		prec = i;
	width -= prec;
#define PUT(c) do { if (at + 1 < cap) out[at] = (c); at++; } while (0)
	if (!(s.flags & (S_ZEROPAD | S_LEFT)))
		while (--width >= 0)
			PUT(' ');
	if (sign)
		PUT(sign);
	if (pfx && (base == 16 || !zero))
		PUT('0');
	if (pfx && base == 16)
		PUT(s.flags & S_SMALL ? 'x' : 'X');
	if (!(s.flags & S_LEFT))
		while (--width >= 0)
			PUT(s.flags & S_ZEROPAD ? '0' : ' ');
	while (i <= --prec)
		PUT('0');
	while (--i >= 0)
		PUT(tmp[i]);
	while (--width >= 0)
		PUT(' ');
	if (cap)
		out[at < cap ? at : cap - 1] = '\0';
	return at < cap ? at : cap - 1;
}

/* The kernel's string_nocheck(): @str cut at the precision, padded to the width. */
static size_t string(char *out, size_t cap, const char *str, const struct spec *s)
{
	size_t len = strlen(str), pad;

	if (s->prec >= 0 && (size_t)s->prec < len)
		len = (size_t)s->prec;
	pad = s->width > 0 && (size_t)s->width > len ? (size_t)s->width - len : 0;
	if (len + pad >= cap)
		return 0;
	memset(out, ' ', pad);
	memcpy(out + (s->flags & S_LEFT ? 0 : pad), str, len);
	if (s->flags & S_LEFT)
		memset(out + len, ' ', pad);
	out[len + pad] = '\0';
	return len + pad;
}

/* A value of @v's type: the length modifier cuts it as the kernel's va_arg() does. */
static unsigned long long typed(long long v, const struct spec *s)
{
	bool sg = s->flags & S_SIGN;

	switch (s->len) {
	case 'H':
		return sg ? (unsigned long long)(signed char)v : (unsigned char)v;
	case 'h':
		return sg ? (unsigned long long)(short)v : (unsigned short)v;
	case 'l': case 'L': case 'z': case 't':
		return (unsigned long long)v;
	default:
		return sg ? (unsigned long long)(int)v : (unsigned int)v;
	}
}

/*
 * What the kernel prints for op @op, written @c (@n bytes from its '%'),
 * into @out: numbers, characters and strings with the conversion's
 * flags, width, precision and length, as lib/vsprintf.c does.  Each kind
 * draws as many random numbers, in the same order, as before widths were
 * rendered, so that a seed gives the same records and formats, and the
 * same texts where no width or flag changes them.
 */
static size_t render(const struct kd_fidx_op *op, const char *c, size_t n, char *out, size_t cap)
{
	static const char *const strs[] = { "eth0", "sda1", "0000:00:1f.2", "usb1", "nvme0n1",
					    "ok", "enabled", "intel_idle", "1-1.2" };
	static const char *const syms[] = { "intel_idle", "ahci_init_one", "e1000_probe",
					    "do_one_initcall", "nvme_reset_work", "usb_hub_init",
					    "acpi_bus_scan", "pci_enable_device", "kthread" };
	struct spec s = spec_parse(c, n);
	char buf[256];

	switch (op->kind) {
	case KD_OP_INT:
		return number(out, cap, typed((int)rnd(200000) - 1000, &s), 10, s);
	case KD_OP_UINT:
		return number(out, cap, typed(rnd(1000000), &s), 10, s);
	case KD_OP_HEX:
	case KD_OP_HEXU:
		return number(out, cap, typed(rnd(1u << 30), &s), 16, s);
	case KD_OP_OCT:
		return number(out, cap, typed(rnd(4096), &s), 8, s);
	case KD_OP_CHAR:
		/* vsnprintf() pads a %c with spaces, never zeros */
		snprintf(buf, sizeof(buf), "%c", 'a' + rnd(26));
		s.prec = -1;
		return string(out, cap, buf, &s);
	case KD_OP_PTR: {
		/* pointer_string(): 16 digits when no width is written */
		unsigned long long lo = rnd(1u << 30), hi = rnd(1u << 30);

		s.flags |= S_SMALL;
		if (s.width < 0) {
			s.width = 16;
			s.flags |= S_ZEROPAD;
		}
		return number(out, cap, hi << 32 | lo, 16, s);
	}
	case KD_OP_ADDR: {
		/* special_hex_number(): "0x" and 16 digits, whatever is written */
		unsigned long long lo = rnd(1u << 30), hi = rnd(1u << 30);

		return number(out, cap, hi << 32 | lo, 16,
			      (struct spec){ .flags = S_SPECIAL | S_SMALL | S_ZEROPAD, .width = 18,
					     .prec = -1 });
	}
	case KD_OP_IP4: {
		unsigned int b3 = rnd(256), b2 = rnd(256), b1 = rnd(256);

		snprintf(buf, sizeof(buf), "10.%u.%u.%u", b1, b2, b3);
		return string(out, cap, buf, &s);
	}
	case KD_OP_IP6:
		snprintf(buf, sizeof(buf), "fe80::%x", rnd(65536));
		return string(out, cap, buf, &s);
	case KD_OP_MAC: {
		unsigned int b3 = rnd(256), b2 = rnd(256), b1 = rnd(256);

		snprintf(buf, sizeof(buf), "52:54:00:%02x:%02x:%02x", b1, b2, b3);
		return string(out, cap, buf, &s);
	}
	case KD_OP_HEXDUMP: {
		/* hex_string(): as many bytes as the width, one when none is written */
		unsigned int v = rnd(256);
		unsigned int len = s.star_width ? 3 : s.width > 0 ? (unsigned int)s.width : 1;
		size_t at = 0;

		v |= rnd(256) << 8;
		v |= rnd(256) << 16;
		if (len > 64)
			len = 64;
		/* bytes past the third from the three drawn */
		for (unsigned int i = 0; i < len && at + 4 < cap; i++) {
			unsigned int byte = (v >> (8 * (2 - i % 3)) ^ i / 3 * 0x5b) & 0xff;

			at += (size_t)snprintf(out + at, cap - at, "%02x", byte);
			if (op->arg && i + 1 < len)
				out[at++] = (char)op->arg;
		}
		out[at] = '\0';
		return at;
	}
	case KD_OP_UUID:
		snprintf(buf, sizeof(buf), "%08x-1234-5678-9abc-def012345678", rnd(1u << 30));
		return string(out, cap, buf, &s);
	case KD_OP_ERR:
		return string(out, cap, "-ENOMEM", &s);
	case KD_OP_SYM: {
		/* symbol_string(): %ps the name, %pS and %pB name+0xoff/0xsize */
		unsigned int r = rnd(9 * 4096), nsym = sizeof(syms) / sizeof(syms[0]);

		if (s.pext == 's')
			snprintf(buf, sizeof(buf), "%s", syms[r % nsym]);
		else
			snprintf(buf, sizeof(buf), "%s+0x%x/0x%x", syms[r % nsym], r / nsym,
				 (r / nsym + 0x40) & ~0xfu);
		return string(out, cap, buf, &s);
	}
	default:
		return string(out, cap, strs[rnd(sizeof(strs) / sizeof(strs[0]))], &s);
	}
}

static int cmd_dump(const char *in, unsigned long n, unsigned int seed, unsigned int k)
{
	struct kd_fidx *x = open_index(in);
	uint32_t *pick = calloc(k ? k : 1, sizeof(*pick)), count = kd_fidx_count(x);
	char text[2048];
	static struct kd_kfmt kf;

	rng_state = seed;
	if (!pick || !count)
		return 1;
	/*
	 * K formats with literal text, of the whole-record kind (no pr_cont
	 * fragments), and not a subsystem wrapper's (KD_FIDX_WRAP): the
	 * kernel prints those behind a prefix of the wrapper's own ("EXT4-fs
	 * (vda): ", "BTRFS info (device vdb): "), which the index does not
	 * name and this dump would leave out, so that they would be
	 * unmatched records of no kernel (15% of the dump with the index of
	 * 2026-12-07, when kdmesg-po learnt the wrappers).
	 */
	for (unsigned int i = 0; i < k;) {
		uint32_t id = rnd(count);
		const struct kd_fidx_fmt *f = &x->fmt[id];

		if (f->lit >= 4 && f->level != 'c' && !(f->flags & KD_FIDX_F_PV) && f->nconv < 16 &&
		    f->family != KD_FIDX_WRAP)
			pick[i++] = id;
	}
	for (unsigned long r = 0; r < n; r++) {
		uint32_t id = pick[rnd(k)];
		const struct kd_fidx_fmt *f = &x->fmt[id];
		struct kd_fidx_entry e;
		size_t at = 0;
		unsigned int conv = 0;

		/* The ops say what each conversion prints, its text how (width, flags...). */
		kd_fidx_get(x, id, &e);
		if (kd_kfmt_parse(e.fmt, e.fmt_len, &kf) < 0 || kf.nconv != f->nconv)
			return 1;

		if (f->family == KD_FIDX_DEV)
			at += (size_t)snprintf(text, sizeof(text), "ahci 0000:00:%02x.%u: ", rnd(32), rnd(8));
		else if (f->family == KD_FIDX_NETDEV)
			at += (size_t)snprintf(text, sizeof(text), "e1000e 0000:00:19.0 eth%u: ", rnd(4));
		else if (f->family == KD_FIDX_DEVPROBE)
			at += (size_t)snprintf(text, sizeof(text), "ahci 0000:00:%02x.%u: error -EIO: ",
					       rnd(32), rnd(8));
		else if (f->family == KD_FIDX_ACPI)	/* ACPICA's prefix by the level */
			at += (size_t)snprintf(text, sizeof(text), "%s", e.level == '6' ? "ACPI: " :
					       e.level == '4' ? "ACPI Warning: " : "ACPI Error: ");
		for (unsigned int o = 0; o < f->nops && at < sizeof(text) - 600; o++) {
			const struct kd_fidx_op *op = &x->op[f->op + o];

			if (op->kind == KD_OP_LIT) {
				memcpy(text + at, x->str + op->arg, op->len < 500 ? op->len : 500);
				at += op->len < 500 ? op->len : 500;
			} else {
				const struct kd_kfmt_conv *cv = &kf.conv[conv++];

				at += render(op, e.fmt + cv->start, cv->end - cv->start, text + at,
					     sizeof(text) - at);
			}
		}
		printf("6,%lu,%lu,-;", r, r * 1000);
		/* /dev/kmsg escapes: \ and bytes outside 0x20..0x7e as \xNN. */
		for (size_t i = 0; i < at; i++) {
			unsigned char c = (unsigned char)text[i];

			if (c < 0x20 || c > 0x7e || c == '\\')
				printf("\\x%02x", c);
			else
				putchar(c);
		}
		putchar('\n');
	}
	free(pick);
	kd_fidx_free(x);
	return 0;
}

static int cmd_load(const char *in)
{
	struct timespec a, b;
	struct kd_fidx *x;

	clock_gettime(CLOCK_MONOTONIC, &a);
	x = open_index(in);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.6f %u %zu\n", (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9,
	       kd_fidx_count(x), kd_fidx_size(x));
	kd_fidx_free(x);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 5 && !strcmp(argv[1], "synth"))
		return cmd_synth((unsigned int)atoi(argv[2]), (unsigned int)atoi(argv[3]), argv[4]);
	if (argc == 5 && !strcmp(argv[1], "subset"))
		return cmd_subset(argv[2], (unsigned int)atoi(argv[3]), argv[4]);
	if (argc == 6 && !strcmp(argv[1], "dump"))
		return cmd_dump(argv[2], strtoul(argv[3], NULL, 10), (unsigned int)atoi(argv[4]),
				(unsigned int)atoi(argv[5]));
	if (argc == 3 && !strcmp(argv[1], "load"))
		return cmd_load(argv[2]);
	fprintf(stderr, "usage: recover-gen synth N SEED OUT | subset INDEX N OUT | "
		"dump INDEX N SEED K | load INDEX\n");
	return 2;
}
