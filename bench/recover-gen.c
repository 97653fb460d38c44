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
 *                                     each conversion rendered)
 *   recover-gen load INDEX            seconds to open and check INDEX
 *
 * Deterministic for a seed.  Not installed; `make bench-recover` builds it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* What the kernel prints for op @op, into @out. */
static size_t render(const struct kd_fidx_op *op, char *out, size_t cap)
{
	static const char *const strs[] = { "eth0", "sda1", "0000:00:1f.2", "usb1", "nvme0n1",
					    "ok", "enabled", "intel_idle", "1-1.2" };

	switch (op->kind) {
	case KD_OP_INT:
		return (size_t)snprintf(out, cap, "%d", (int)rnd(200000) - 1000);
	case KD_OP_UINT:
		return (size_t)snprintf(out, cap, "%u", rnd(1000000));
	case KD_OP_HEX:
		return (size_t)snprintf(out, cap, op->flags & KD_OPF_ALT ? "%#x" : "%x", rnd(1u << 30));
	case KD_OP_HEXU:
		return (size_t)snprintf(out, cap, "%X", rnd(1u << 30));
	case KD_OP_OCT:
		return (size_t)snprintf(out, cap, "%o", rnd(4096));
	case KD_OP_CHAR:
		return (size_t)snprintf(out, cap, "%c", 'a' + rnd(26));
	case KD_OP_PTR:
		return (size_t)snprintf(out, cap, "%08x%08x", rnd(1u << 30), rnd(1u << 30));
	case KD_OP_ADDR:
		return (size_t)snprintf(out, cap, "0x%08x%08x", rnd(1u << 30), rnd(1u << 30));
	case KD_OP_IP4:
		return (size_t)snprintf(out, cap, "10.%u.%u.%u", rnd(256), rnd(256), rnd(256));
	case KD_OP_IP6:
		return (size_t)snprintf(out, cap, "fe80::%x", rnd(65536));
	case KD_OP_MAC:
		return (size_t)snprintf(out, cap, "52:54:00:%02x:%02x:%02x", rnd(256), rnd(256), rnd(256));
	case KD_OP_HEXDUMP:
		return (size_t)snprintf(out, cap, op->arg ? "%02x%c%02x%c%02x" : "%02x%02x%02x",
					rnd(256), op->arg ? (char)op->arg : 0, rnd(256),
					op->arg ? (char)op->arg : 0, rnd(256));
	case KD_OP_UUID:
		return (size_t)snprintf(out, cap, "%08x-1234-5678-9abc-def012345678", rnd(1u << 30));
	case KD_OP_ERR:
		return (size_t)snprintf(out, cap, "-ENOMEM");
	default:
		return (size_t)snprintf(out, cap, "%s", strs[rnd(sizeof(strs) / sizeof(strs[0]))]);
	}
}

static int cmd_dump(const char *in, unsigned long n, unsigned int seed, unsigned int k)
{
	struct kd_fidx *x = open_index(in);
	uint32_t *pick = calloc(k ? k : 1, sizeof(*pick)), count = kd_fidx_count(x);
	char text[2048];

	rng_state = seed;
	if (!pick || !count)
		return 1;
	/* K formats with literal text, of the whole-record kind (no pr_cont fragments). */
	for (unsigned int i = 0; i < k;) {
		uint32_t id = rnd(count);
		const struct kd_fidx_fmt *f = &x->fmt[id];

		if (f->lit >= 4 && f->level != 'c' && !(f->flags & KD_FIDX_F_PV) && f->nconv < 16)
			pick[i++] = id;
	}
	for (unsigned long r = 0; r < n; r++) {
		const struct kd_fidx_fmt *f = &x->fmt[pick[rnd(k)]];
		size_t at = 0;

		if (f->family == KD_FIDX_DEV)
			at += (size_t)snprintf(text, sizeof(text), "ahci 0000:00:%02x.%u: ", rnd(32), rnd(8));
		else if (f->family == KD_FIDX_NETDEV)
			at += (size_t)snprintf(text, sizeof(text), "e1000e 0000:00:19.0 eth%u: ", rnd(4));
		for (unsigned int o = 0; o < f->nops && at < sizeof(text) - 600; o++) {
			const struct kd_fidx_op *op = &x->op[f->op + o];

			if (op->kind == KD_OP_LIT) {
				memcpy(text + at, x->str + op->arg, op->len < 500 ? op->len : 500);
				at += op->len < 500 ? op->len : 500;
			} else {
				at += render(op, text + at, sizeof(text) - at);
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
