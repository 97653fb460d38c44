// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-sites.c - the kprint site table (lib/stage/sites.c): both line
 * forms, bad and duplicate lines counted, bounds; the expansion stage
 * (lib/stage/expand.c) on records built here: the full keys in full
 * mode's order, device prefixes, parts, groups, cuts, and the records
 * it must leave alone; the build id note parser and the saved-table
 * helpers (lib/shared/buildid.c, lib/stage/sites-saved.c) on crafted
 * input.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "shared/buildid.h"
#include "stage/expand.h"
#include "stage/sites-saved.h"
#include "stage/sites.h"
#include "tap.h"

static struct kd_sites *table(const char *text)
{
	struct kd_sites *t;
	char *copy = strdup(text);

	if (!copy || kd_sites_load(&t, copy, strlen(text)) < 0)
		return NULL;
	return t;
}

static void test_table(void)
{
	struct kd_sites *t = table(
		"# kdmesg-sites 1\n"
		"vmlinux:0 6 init/main.c:10 start_kernel main Linux version %s\n"
		"vmlinux:2 - kernel/x.c:7 f - \n"	/* no format, no module */
		"vmlinux:2 6 kernel/dup.c:1 g - dup\n"	/* a duplicate: the first stands */
		"vmlinux:3 6 kernel/y.c:9 - - y\n"	/* no function names in this kernel */
		"e1000 3 drivers/e.c:5 probe e1000 link %s\\x0a\n"	/* old form: index 0 */
		"e1000 3 drivers/e.c:6 probe e1000 down\n"		/* index 1 */
		"bad line\n"
		"vmlinux:x 6 a.c:1 f m y\n"
		"vmlinux:99999999 6 a.c:1 f m y\n");
	const struct kd_site *s;

	if (!tap_ok(t != NULL, "the table loads"))
		return;
	tap_is_int((long long)kd_sites_count(t), 5, "five sites");
	tap_is_int((long long)kd_sites_skipped(t), 4, "four lines skipped (bad, duplicate, bad index)");
	s = kd_sites_get(t, "vmlinux", 7, 0);
	tap_ok(s && !strcmp(s->file, "init/main.c") && !strcmp(s->line, "10") &&
	       !strcmp(s->func, "start_kernel") && !strcmp(s->module, "main") &&
	       s->fmt_len == 16, "vmlinux:0: every field");
	s = kd_sites_get(t, "vmlinux", 7, 2);
	tap_ok(s && !s->module && s->fmt_len == 0 && !strcmp(s->file, "kernel/x.c"),
	       "vmlinux:2: no module, no format; the duplicate left out");
	s = kd_sites_get(t, "vmlinux", 7, 3);
	tap_ok(s && !s->func && !strcmp(s->file, "kernel/y.c"), "vmlinux:3: function \"-\" is none");
	tap_ok(!kd_sites_get(t, "vmlinux", 7, 1) && !kd_sites_get(t, "vmlinux", 7, 999999) &&
	       !kd_sites_get(t, "vmlinu", 6, 0) && !kd_sites_get(t, "nothere", 7, 0),
	       "indexes and objects the table lacks");
	s = kd_sites_get(t, "e1000", 5, 1);
	tap_ok(s && !strcmp(s->line, "6"), "old-form lines numbered per object");
	s = kd_sites_get(t, "e1000", 5, 0);
	tap_ok(s && s->fmt_len == 7 && !memcmp(s->fmt, "link %s", 7),
	       "escapes undone, the trailing newline dropped");
	kd_sites_free(t);
}

/* A record of @text with the dictionary lines "KEY=value\n..." in @dict. */
static void make(struct kd_record *r, const char *text, const char *dict)
{
	kd_record_reset(r);
	r->level = 6;
	kd_record_set_text(r, text, strlen(text));
	while (*dict) {
		const char *eq = strchr(dict, '='), *nl = strchr(dict, '\n');

		kd_record_dict_add(r, dict, (size_t)(eq - dict), eq + 1, (size_t)(nl - eq - 1));
		dict = nl + 1;
	}
}

/* The dictionary as "KEY=value\n" lines. */
static const char *dump(const struct kd_record *r)
{
	static char buf[4096];
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < r->dict_len; i++)
		at += (size_t)snprintf(buf + at, sizeof(buf) - at, "%s=%.*s%s\n", r->dict[i].key,
				       (int)r->dict[i].value_len, r->dict[i].value,
				       r->dict[i].origin == KD_ORIGIN_KERNEL ? "" : " (derived)");
	return buf;
}

static const struct kd_sites *the_table;

static const struct kd_sites *pick(void *data, const struct kd_record *rec)
{
	(void)data;
	(void)rec;
	return the_table;
}

static void test_expand(void)
{
	struct kd_sites *t = table(
		"kprint_test:17 6 kprint_test.c:106 kp_dev kprint_test kptest:dev_info name=%s\n"
		"vmlinux:1 6 e820.c:208 print e820 %s: [mem %#018Lx-%#018Lx] \n"
		"vmlinux:2 6 e820.c:209 print - usable\n"
		"vmlinux:3 6 g.c:5 grp g line %d of %s\n"
		"vmlinux:4 6 c.c:1 cut - long <%s>\n"
		"vmlinux:5 6 p.c:1 pv - pv: %s %pV\n"
		"vmlinux:6 6 n.c:1 nofmt - \n"
		"vmlinux:7 6 d.c:1 dd - %s-%s\n"
		"vmlinux:8 3 t.c:4 - tiny tiny: %d\n"
		"vmlinux:9 5 sd.c:3017 wp sd_mod Write Protect is %s\n"
		"vmlinux:10 5 sd.c:3043 ok sd_mod Attached SCSI disk\n"
		"kprint_test:20 3 kprint_test.c:201 kp_drm kprint_test kptest:drm_error n=%d\n"
		"vmlinux:11 3 bochs.c:90 bochs_hw_init - *ERROR* ID mismatch %d\n"
		"vmlinux:12 7 mvm/fw.c:180 iwl_alive_fn iwlmvm Alive ucode status 0x%04x\n"
		"vmlinux:13 7 ath11k/core.c:1060 ath11k_core_firmware_request ath11k "
		"firmware request %s size %zu\n"
		"vmlinux:14 7 brcmfmac/cfg80211.c:2971 brcmf_cfg80211_get_tx_power brcmfmac Enter\n"
		"vmlinux:15 3 ath9k/main.c:290 ath_reset_internal ath9k "
		"Unable to reset channel, reset status %d\n"
		"vmlinux:16 5 ocfs2/aops.c:149 ocfs2_get_block ocfs2 "
		"get_block on system inode 0x%p (%lu)\n"
		"vmlinux:17 3 ocfs2/alloc.c:894 ocfs2_validate_extent_block ocfs2 "
		"Checksum failed for extent block %llu\n"
		"vmlinux:18 3 tda18271-common.c:130 tda18271_read_regs tda18271 "
		"ERROR: i2c_transfer returned: %d\n"
		"vmlinux:19 3 en_netdev.c:262 mlx4_en_filter_work mlx4_en "
		"Error detaching flow. rc = %d\n"
		"vmlinux:20 3 jfs_xtree.c:1823 xtUpdate jfs xtSearch failed\n"
		"vmlinux:21 7 ath5k/base.c:571 ath5k_update_bssid_mask_and_opmode ath5k "
		"(%s:%d): RX filter 0x%x\n");
	struct kd_expand *x;
	struct kd_record r;
	const struct kd_expand_stats *st;

	the_table = t;
	kd_record_init(&r);
	if (!tap_ok(t && kd_expand_new(&x, pick, NULL) == 0, "a stage"))
		return;
	st = kd_expand_stats(x);

	/* SITE-ABI.md's example: a device prefix before the format's text. */
	make(&r, "kprint_test kprint_test.0: kptest:dev_info name=plat",
	     "SUBSYSTEM=platform\nDEVICE=+platform:kprint_test.0\nSITE=kprint_test:17 48-52\n");
	tap_is_int(kd_expand_apply(x, &r), 1, "passed on");
	tap_is_str(dump(&r), "SUBSYSTEM=platform\nDEVICE=+platform:kprint_test.0\n"
		   "CODE_FILE=kprint_test.c\nCODE_LINE=106\nCODE_FUNC=kp_dev\nMODULE=kprint_test\n"
		   "FORMAT=kptest:dev_info name=%s\nARG0=plat\n",
		   "dev_info: the full keys in SITE's place, the kernel's mark");
	/* SCSI's sd_printk(): the disk's name in brackets after the device prefix. */
	make(&r, "sd 0:0:0:0: [sda] Write Protect is off", "SUBSYSTEM=scsi\nSITE=vmlinux:9 35-38\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "SUBSYSTEM=scsi\nCODE_FILE=sd.c\nCODE_LINE=3017\nCODE_FUNC=wp\n"
		   "MODULE=sd_mod\nFORMAT=Write Protect is %s\nARG0=off\n",
		   "sdev_printk(): after \"...: [sda] \"");
	make(&r, "sd 0:0:0:0: [sda] Attached SCSI disk", "SITE=vmlinux:10\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 5 && !strcmp(r.dict[4].key, "FORMAT"),
	       "sdev_printk() without arguments: the rendering at the end, after \"...: [sda] \"");
	/* Brackets alone are no device prefix. */
	make(&r, "[sda] Attached SCSI disk", "SITE=vmlinux:10\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"), "\"[sda] \" without \": \" before it: unexpanded");
	make(&r, "sd 0:0:0:0 [sda] Attached SCSI disk", "SITE=vmlinux:10\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"), "\"... [sda] \" without \": \" before the bracket: unexpanded");
	/* DRM's "[drm:<caller>] " (a module's function has "[mod]" in it), "*ERROR* " after it. */
	make(&r, "[drm:kp_drm [kprint_test]] *ERROR* kptest:drm_error n=1", "SITE=kprint_test:20 54-55\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "CODE_FILE=kprint_test.c\nCODE_LINE=201\nCODE_FUNC=kp_drm\nMODULE=kprint_test\n"
		   "FORMAT=kptest:drm_error n=%d\nARG0=1\n", "DRM_ERROR(): after \"[drm:f [mod]] *ERROR* \"");
	/* DRM_DEV_ERROR(): the device prefix, then DRM's; "*ERROR* " is the format's. */
	make(&r, "bochs-drm 0000:00:02.0: [drm:bochs_hw_init] *ERROR* ID mismatch 7", "SITE=vmlinux:11 64-65\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 5 && !strcmp(r.dict[4].key, "ARG0"),
	       "DRM_DEV_ERROR(): after \"...: [drm:f] \"");
	make(&r, "x[drm:kp_drm] kptest:drm_error n=1", "SITE=kprint_test:20 33-34\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"), "\"[drm:f] \" after other text: unexpanded");
	make(&r, "[drm:kp_drm]*ERROR* kptest:drm_error n=1", "SITE=kprint_test:20 39-40\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"), "\"[drm:f]\" without a blank: unexpanded");

	/*
	 * A word of the wrapper's own between the device's prefix and the
	 * caller's format: iwlwifi's function, ath11k's debug mask,
	 * brcmf_dbg()'s function after "brcmfmac: "; one word, after ": ".
	 * "ath: phy0: " (and "brcmfmac: <function>: ") end in ": " anyway.
	 */
	make(&r, "iwlwifi 0000:00:14.3: iwl_alive_fn Alive ucode status 0x0001",
	     "SITE=vmlinux:12 56-60\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "CODE_FILE=mvm/fw.c\nCODE_LINE=180\nCODE_FUNC=iwl_alive_fn\nMODULE=iwlmvm\n"
		   "FORMAT=Alive ucode status 0x%04x\nARG0=0001\n",
		   "IWL_DEBUG_INFO(): after \"driver device: <function> \"");
	make(&r, "ath11k_pci 0000:03:00.0: boot firmware request ath11k/QCA6390/hw2.0/amss.bin "
	     "size 4796416", "SITE=vmlinux:13 47-76,82-89\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 7 && !strcmp(r.dict[6].key, "ARG1") &&
	       !strcmp(r.dict[4].value, "firmware request %s size %zu"),
	       "ath11k_dbg(): after \"driver device: <mask> \"");
	make(&r, "brcmfmac: brcmf_cfg80211_get_tx_power Enter", "SITE=vmlinux:14\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 5 && !strcmp(r.dict[4].key, "FORMAT"),
	       "brcmf_dbg() without arguments: the rendering at the end, after "
	       "\"brcmfmac: <function> \"");
	make(&r, "ath: phy0: Unable to reset channel, reset status -5", "SITE=vmlinux:15 49-51\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 6 && !strcmp(r.dict[5].key, "ARG0"), "ath_err(): after \"ath: phy0: \"");
	make(&r, "iwlwifi 0000:00:14.3: iwl_alive_fn x Alive ucode status 0x0001",
	     "SITE=vmlinux:12 58-62\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"),
	       "two words after the device's prefix: unexpanded");
	make(&r, "iwl_alive_fn Alive ucode status 0x0001", "SITE=vmlinux:12 34-38\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"),
	       "a word alone is no prefix: unexpanded");
	make(&r, "iwlwifi iwl_alive_fn Alive ucode status 0x0001", "SITE=vmlinux:12 42-46\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"),
	       "a word after words without \": \": unexpanded");

	/*
	 * ocfs2's mlog(): "(<task>,<pid>,<cpu>):<function>:<line> ", and
	 * "ERROR: " after it for ML_ERROR, which ends in ": " anyway.
	 */
	make(&r, "(dd,4242,3):ocfs2_get_block:149 get_block on system inode 0x00000000c0ffee00 (12)",
	     "SITE=vmlinux:16 60-76,78-80\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "CODE_FILE=ocfs2/aops.c\nCODE_LINE=149\nCODE_FUNC=ocfs2_get_block\n"
		   "MODULE=ocfs2\nFORMAT=get_block on system inode 0x%p (%lu)\n"
		   "ARG0=00000000c0ffee00\nARG1=12\n",
		   "mlog(ML_NOTICE): after \"(<task>,<pid>,<cpu>):<function>:<line> \"");
	make(&r, "(kworker/u8:2,1187,1):ocfs2_validate_extent_block:894 ERROR: Checksum failed for "
	     "extent block 4242", "SITE=vmlinux:17 94-98\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 6 && !strcmp(r.dict[5].key, "ARG0"),
	       "mlog(ML_ERROR): after \"...:<line> ERROR: \"");
	make(&r, "(dd,4242):ocfs2_get_block:149 get_block on system inode 0x00000000c0ffee00 (12)",
	     "SITE=vmlinux:16 58-74,76-78\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"),
	       "mlog(): without the CPU no such prefix: unexpanded");
	make(&r, "x (dd,4242,3):ocfs2_get_block:149 get_block on system inode 0x00000000c0ffee00 (12)",
	     "SITE=vmlinux:16 62-78,80-82\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"),
	       "mlog(): the prefix starts the text: unexpanded");
	make(&r, "(dd,4242,3):ocfs2_get_block:149 x get_block on system inode 0x00000000c0ffee00 (12)",
	     "SITE=vmlinux:16 62-78,80-82\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 1 && !strcmp(r.dict[0].key, "SITE"),
	       "mlog(): no word after its line: unexpanded");

	/*
	 * The series' other last wrappers end their prefixes in ": " or a
	 * bracket after one: tda18271's, mlx4_en's before its net device is
	 * registered, jfs_error()'s, ath5k's before ATH5K_DBG()'s format.
	 */
	make(&r, "tda18271_read_regs: [1-0060|M] ERROR: i2c_transfer returned: -6",
	     "SITE=vmlinux:18 61-63\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 6 && !strcmp(r.dict[5].key, "ARG0"),
	       "tda_err(): after \"<function>: [<adapter>-<address>|M] \"");
	make(&r, "mlx4_en: 0000:03:00.0: Port 1: Error detaching flow. rc = -22",
	     "SITE=vmlinux:19 58-61\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 6 && !strcmp(r.dict[5].key, "ARG0"),
	       "en_err(): after \"mlx4_en: <pci device>: Port <n>: \"");
	make(&r, "ERROR: (device sdc1): xtUpdate: xtSearch failed", "SITE=vmlinux:20\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 5 && !strcmp(r.dict[4].key, "FORMAT"),
	       "jfs_error(): after \"ERROR: (device <device>): <caller>: \"");
	make(&r, "ath5k: phy0: (ath5k_update_bssid_mask_and_opmode:571): RX filter 0x1e5",
	     "SITE=vmlinux:21 14-48,49-52,67-70\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 8 && !strcmp(r.dict[7].key, "ARG2"),
	       "ATH5K_DBG(): its \"(<function>:<line>): \" after \"ath5k: <phy>: \"");

	/* A kernel without function names: no CODE_FUNC line. */
	make(&r, "tiny: 42", "SITE=vmlinux:8 6-8\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "CODE_FILE=t.c\nCODE_LINE=4\nMODULE=tiny\nFORMAT=tiny: %d\nARG0=42\n",
		   "function \"-\": the lines without CODE_FUNC");

	/* Parts: FORMAT_PART, PARTS, a part without arguments. */
	make(&r, "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable",
	     "SITE=vmlinux:1 0-9,16-34,35-53\nFORMAT_PART=1\nPARTS=2\nPART2_SITE=vmlinux:2\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "CODE_FILE=e820.c\nCODE_LINE=208\nCODE_FUNC=print\nMODULE=e820\n"
		   "FORMAT=%s: [mem %#018Lx-%#018Lx] \nARG0=BIOS-e820\nARG1=0x0000000000000000\n"
		   "ARG2=0x000000000009fbff\nFORMAT_PART=1\nPARTS=2\nPART2_FORMAT=usable\n",
		   "parts: PART2_ gets FORMAT only");
	/* The same with a part whose text is not there. */
	make(&r, "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] reserved",
	     "SITE=vmlinux:1 0-9,16-34,35-53\nFORMAT_PART=1\nPARTS=2\nPART2_SITE=vmlinux:2\n");
	kd_expand_apply(x, &r);
	tap_ok(r.dict_len == 4 && !strcmp(r.dict[0].key, "SITE"), "a part that does not render: unexpanded");
	/* Without FORMAT_PART the format must be the whole text. */
	make(&r, "BIOS-e820: [mem 0x0000000000000000-0x000000000009fbff] usable",
	     "SITE=vmlinux:1 0-9,16-34,35-53\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[0].key, "SITE"), "the start of the text only, no FORMAT_PART: unexpanded");

	/* A group: each line's spans in its line; the order kept. */
	make(&r, "line 1 of two\nline 2 of two",
	     "GROUP=2\nLINE1_SITE=vmlinux:3 5-6,10-13\nLINE2_SITE=vmlinux:3 19-20,24-27\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "GROUP=2\nLINE1_CODE_FILE=g.c\nLINE1_CODE_LINE=5\nLINE1_CODE_FUNC=grp\n"
		   "LINE1_MODULE=g\nLINE1_FORMAT=line %d of %s\nLINE1_ARG0=1\nLINE1_ARG1=two\n"
		   "LINE2_CODE_FILE=g.c\nLINE2_CODE_LINE=5\nLINE2_CODE_FUNC=grp\nLINE2_MODULE=g\n"
		   "LINE2_FORMAT=line %d of %s\nLINE2_ARG0=2\nLINE2_ARG1=two\n", "group lines");
	make(&r, "line 1 of two\nline 2 of two",
	     "GROUP=2\nLINE1_SITE=vmlinux:3 19-20,24-27\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[1].key, "LINE1_SITE"), "a line's spans in another line: unexpanded");

	/* ARGS_CUT: compared as far as the text goes. */
	make(&r, "long <abcdef", "SITE=vmlinux:4 6-12\nARGS_CUT=0\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "CODE_FILE=c.c\nCODE_LINE=1\nCODE_FUNC=cut\nFORMAT=long <%s>\nARG0=abcdef\nARGS_CUT=0\n",
		   "a cut argument");
	make(&r, "long <abcdef", "SITE=vmlinux:4\nARGS_CUT=0\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[0].key, "CODE_FILE") && r.dict_len == 5, "ARGS_CUT=0 without spans: no ARGn");
	make(&r, "short <abcdef", "SITE=vmlinux:4\nARGS_CUT=0\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[0].key, "SITE"), "a cut record of another format: unexpanded");

	/* %pV: spans in range, the literal before it. */
	make(&r, "pv: a inner 5", "SITE=vmlinux:5 4-5,12-13\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[0].key, "CODE_FILE") && r.dict_len == 6, "%%pV: expanded with its spans");
	/* No format: the site alone. */
	make(&r, "anything", "SITE=vmlinux:6\n");
	kd_expand_apply(x, &r);
	tap_is_str(dump(&r), "CODE_FILE=n.c\nCODE_LINE=1\nCODE_FUNC=nofmt\n", "no format: no FORMAT, no ARGn");
	make(&r, "anything", "SITE=vmlinux:6 0-3\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[0].key, "SITE"), "no format but spans: unexpanded");

	/* A span on the same bytes elsewhere: rendered alike, but not where the argument is. */
	make(&r, "ab-ab", "SITE=vmlinux:7 0-2,0-2\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[0].key, "SITE"), "a span not where its argument is: unexpanded");
	make(&r, "ab-ab", "SITE=vmlinux:7 0-2,3-5\n");
	kd_expand_apply(x, &r);
	tap_ok(!strcmp(r.dict[0].key, "CODE_FILE"), "the same with the right span: expanded");

	/* Malformed values. */
	static const char *const bad[] = {
		"SITE=vmlinux\n", "SITE=vmlinux:\n", "SITE=:1\n", "SITE=vmlinux:1x\n",
		"SITE=kprint_test:17 48-53\n", "SITE=kprint_test:17 52-48\n",
		"SITE=kprint_test:17 48-52,\n", "SITE=kprint_test:17 48\n",
		"SITE=kprint_test:17 48-52 48-52\n", "SITE=kprint_test:17\nSITE=kprint_test:17\n",
		"SITE=kprint_test:17 99999999999-1\n", "SITE=kprint_test:17\n",
		"SITE=kprint_test:17 47-52\n", "SITE=kprint_test:17 48-52\nPART2_SITE=vmlinux:2\n",
	};
	uint64_t before = st->expanded;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		make(&r, "kprint_test kprint_test.0: kptest:dev_info name=plat", bad[i]);
		kd_expand_apply(x, &r);
	}
	tap_ok(st->expanded == before, "malformed SITE values: none expanded");
	tap_is_int((long long)st->unresolved, 4, "unresolved: sites the table cannot have");

	/* Not SITE records, or no table. */
	make(&r, "x", "FOO_SITE=1\n");
	before = st->records;
	kd_expand_apply(x, &r);
	tap_ok(st->records == before && !strcmp(dump(&r), "FOO_SITE=1\n"), "FOO_SITE: not a block, not counted");
	the_table = NULL;
	make(&r, "kprint_test kprint_test.0: kptest:dev_info name=plat", "SITE=kprint_test:17 48-52\n");
	kd_expand_apply(x, &r);
	tap_ok(st->no_table == 1 && !strcmp(r.dict[0].key, "SITE"), "no table: counted, unexpanded");

	kd_record_free(&r);
	kd_expand_free(x);
	kd_sites_free(t);
}

static void test_buildid(void)
{
	unsigned char n[64] = {
		4, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 'X', 'e', 'n', 0, 1, 2, 3, 0,
		4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'G', 'N', 'U', 0, 0xde, 0xad, 0xbe, 0xef,
	};
	char hex[KD_BUILDID_HEX_MAX + 1];

	tap_ok(kd_buildid_from_notes(n, 40, hex) == 0 && !strcmp(hex, "deadbeef"),
	       "the GNU note after another");
	tap_is_int(kd_buildid_from_notes(n, 39, hex), -ENOENT, "a note cut short");
	n[4] = 0xff;	/* a descsz past the end */
	tap_is_int(kd_buildid_from_notes(n, 40, hex), -ENOENT, "a size past the end");
	tap_is_int(kd_buildid_from_notes(n, 0, hex), -ENOENT, "no notes");
	tap_ok(kd_buildid_valid("00ff") && !kd_buildid_valid("0") && !kd_buildid_valid("00FF") &&
	       !kd_buildid_valid("../x"), "build ids: lower-case hex only");
}

static void test_saved(void)
{
	static const char listing[] = "vmlinux:0 6 a.c:1 f m x\nnew:0 6 n.c:1 g new y\n";
	static const char old[] = "# kdmesg-sites 1\n# build-id ab\nvmlinux:0 6 old.c:1 f m x\n"
				  "gone:0 6 g.c:1 h gone z\ngone:1 6 g.c:2 h gone w\nnew:0 6 o.c:1 g new y\n";
	struct kd_sites_header h = { .build_id = "ab", .release = "6.12", .version = "Linux version 6.12 x" };
	struct kd_sites_header r;
	char *out, id[KD_BUILDID_HEX_MAX + 1], boot[33];
	size_t len, merged;

	tap_ok(kd_sites_compose(&h, listing, sizeof(listing) - 1, old, sizeof(old) - 1,
				&out, &len, &merged) == 0, "compose");
	tap_is_str(out, "# kdmesg-sites 1\n# build-id ab\n# release 6.12\n# version Linux version 6.12 x\n"
		   "vmlinux:0 6 a.c:1 f m x\nnew:0 6 n.c:1 g new y\n"
		   "gone:0 6 g.c:1 h gone z\ngone:1 6 g.c:2 h gone w\n",
		   "the listing, then the old lines of objects it does not name");
	tap_is_int((long long)merged, 2, "two lines merged");
	tap_ok(kd_sites_header_read(out, len, &r) == 0 && !strcmp(r.version, h.version) &&
	       !strcmp(r.build_id, "ab") && !strcmp(r.release, "6.12"), "the header reads back");
	tap_is_int(kd_sites_header_read("vmlinux:0 x\n", 12, &r), -EBADMSG, "no header: not a saved table");
	free(out);

	tap_ok(kd_sites_boot_id("4e1c2a3b-0000-4000-8000-00000000ABCD\n", boot) &&
	       !strcmp(boot, "4e1c2a3b00004000800000000000abcd"), "a /proc boot_id");
	tap_ok(!kd_sites_boot_id("4e1c", boot) && !kd_sites_boot_id("zz1c2a3b00004000800000000000abcd", boot),
	       "not boot ids");
	tap_ok(kd_sites_boots_update("b1 aa\nb2 bb\n", 12, "b1", "cc", &out, &len) == 0 &&
	       !strcmp(out, "b2 bb\nb1 cc\n"), "the boots map: a boot's line replaced, at the end");
	tap_ok(kd_sites_boots_find(out, len, "b1", id) == 0 && !strcmp(id, "cc") &&
	       kd_sites_boots_find(out, len, "b3", id) == -ENOENT &&
	       kd_sites_boots_find("b1 ../../etc\n", 13, "b1", id) == -ENOENT,
	       "the boots map: found, missing, and a build id that is no file name");
	free(out);
}

int main(void)
{
	test_table();
	test_expand();
	test_buildid();
	test_saved();
	return tap_done();
}
