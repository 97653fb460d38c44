// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test-po.c - kdmesg-po's library, piece by piece: the C scan
 * (lib/po/csource*.c: calls, levels, pr_fmt(), string macros, wrapper
 * macros, comments and strings that only look like calls, functions,
 * KBUILD_MODNAME), the .pot writer (lib/po/pot.c: merging, levels by
 * kdmesg's names, module contexts, escaping) and the .po reader
 * (lib/po/pofile.c: contexts, plurals, flags, obsolete entries, line
 * numbers, syntax errors).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "po/csource.h"
#include "po/pofile.h"
#include "po/pot.h"
#include "tap.h"

/*
 * What the scan reported, one "line level func module|fmt" per call (the
 * format unescaped, without its trailing newline, as records carry it).
 */
static char seen[4096];

static int collect(void *data, const struct kd_csource_msg *m)
{
	size_t n = strlen(seen);

	(void)data;
	snprintf(seen + n, sizeof(seen) - n, "%u %c %s %s|%.*s%s\n", m->line,
		 m->level ? m->level : '-', *m->func ? m->func : "-", m->module,
		 (int)m->fmt_len, m->fmt, m->family == 'a' ? " [after ACPI's prefix]" :
		 m->family == 'e' ? " [after \"error <err>: \"]" :
		 m->family == 'w' ? " [after a wrapper's prefix]" :
		 m->family == 'd' ? " [after a device's prefix]" :
		 m->family == 'n' ? " [after a net device's prefix]" : "");
	return 0;
}

static void scan(const char *src, const struct kd_csource_macros *macros,
		 const char *want, const char *name)
{
	struct kd_csource_stats st = { 0 };
	int rc;

	seen[0] = '\0';
	rc = kd_csource_scan(src, strlen(src), "drivers/x/foo-bar.c", NULL, "foo",
			     macros, collect, NULL, &st);
	tap_is_int(rc, 0, name);
	tap_is_str(seen, want, name);
}

static void test_csource(void)
{
	struct kd_csource_macros *m = NULL;
	char mod[64];
	const char *hdr =
		"#define pci_err(pdev, fmt, ...) dev_err(&(pdev)->dev, fmt, ##__VA_ARGS__)\n";

	scan("static int probe(void)\n{\n\tpr_info(\"hello %d\\n\", 1);\n"
	     "\tprintk(KERN_ERR \"bad\" \" thing\\n\");\n}\n", NULL,
	     "3 6 probe foo|hello %d\n4 3 probe foo|bad thing\n",
	     "pr_info() and printk(KERN_ERR) with adjacent literals");
	scan("#define pr_fmt(fmt) KBUILD_MODNAME \": \" fmt\n"
	     "void f(void) { pr_warn(\"w %s\\n\", s); }\n", NULL,
	     "2 4 f foo|foo: w %s\n", "pr_fmt() with KBUILD_MODNAME around the format");
	scan("#define MSG \"from a macro\\n\"\nvoid g(void) { pr_err(MSG); }\n", NULL,
	     "2 3 g foo|from a macro\n", "a string macro as the format");
	scan("/* pr_err(\"in a comment\"); */\nvoid h(void)\n{\n"
	     "\tconst char *s = \"pr_err(\\\"in a string\\\")\";\n\tpr_err(fmt);\n}\n", NULL,
	     "", "calls in comments and strings, and a variable format, are not reported");
	tap_is_int(kd_csource_macros_new(&m), 0, "wrapper macros: a set");
	tap_is_int(kd_csource_macros_learn(m, hdr, strlen(hdr)), 0, "a header teaches pci_err()");
	scan("void p(struct pci_dev *pdev) { pci_err(pdev, \"wrapped %d\\n\", 2); }\n", m,
	     "1 3 p foo|wrapped %d [after a device's prefix]\n",
	     "a wrapper macro is expanded to its dev_err()");
	kd_csource_macros_free(m);

	/* issue 18: what the kernel compiles, as the compiler sees it */
	scan("#if X\nint a; /* one\n two */\n#endif /* X */\nvoid f(void)\n{\n\tpr_info(\"f\\n\");\n}\n",
	     NULL, "7 6 f foo|f\n", "a comment ends a preprocessor line, not the next line");
	scan("int t[] = {\n#ifdef A\n [0] = { 1 },\n#endif /* A */\n};\n"
	     "void g(void)\n{\n#ifdef B\n\tif (b) {\n#else\n\tif (c) {\n#endif\n"
	     "\t\tpr_err(\"g\\n\");\n\t}\n}\nvoid h(void) { pr_err(\"h\\n\"); }\n",
	     NULL, "13 3 g foo|g\n16 3 h foo|h\n", "brace depth follows one branch of #if/#else");
	scan("void f(void)\n{\n\tif (x) {\n\t\tpr_warn(\n#ifdef Y\n#else\n\t\tpr_err(\n#endif\n"
	     "\t\t\t\"%s\\n\", s);\n\t}\n}\nvoid k(void) { pr_info(\"k\\n\"); }\n", NULL,
	     "12 6 k foo|k\n", "a call whose ')' is in an #if branch keeps the block's '}'");
	scan("#ifdef CONFIG_B\n#define FMT \" %20phN\"\n#else\n#define FMT \"%s\"\n#endif\n"
	     "#define N 42\nvoid d(void) { pr_info(\"x\" FMT \" %\" __stringify(N) \"ph\\n\"); }\n",
	     NULL, "7 6 d foo|x%s %42ph\n", "the #else definition of a macro, __stringify()");
	scan("void e(void) { kprint_early(KERN_INFO \"early %u\", 1); }\n", NULL,
	     "1 6 e foo|early %u\n", "kprint_early() is a message call");
	scan("void a(void)\n{\n\tACPI_INFO((\"%u tables\", n));\n"
	     "\tACPI_ERROR((AE_INFO, \"No handler for %s\", s));\n"
	     "\tACPI_EXCEPTION((AE_INFO, status, \"While loading\"));\n"
	     "\tACPI_BIOS_WARNING((AE_INFO, \"Bad length 0x%X\", l));\n"
	     "\tACPI_WARNING_ONCE((AE_INFO, \"once\"));\n\tpr_info(\"after\\n\");\n}\n", NULL,
	     "3 6 a foo|%u tables [after ACPI's prefix]\n"
	     "4 3 a foo|No handler for %s (%8.8X/%s-%u) [after ACPI's prefix]\n"
	     "5 3 a foo|%s, While loading (%8.8X/%s-%u) [after ACPI's prefix]\n"
	     "6 4 a foo|Bad length 0x%X (%8.8X/%s-%u) [after ACPI's prefix]\n"
	     "7 4 a foo|once (%8.8X/%s-%u) [after ACPI's prefix]\n8 6 a foo|after\n",
	     "ACPICA's ACPI_INFO((...)) and siblings: the format with ACPICA's additions");
	scan("int p(struct device *d)\n{\n\treturn dev_err_probe(d, -EIO, \"no clock %d\\n\", 1);\n}\n",
	     NULL, "3 3 p foo|no clock %d [after \"error <err>: \"]\n",
	     "dev_err_probe(): the caller's format, after \"error <err>: \"");
	/* issue 24's wrappers, their macros as the kernel's headers define them */
	tap_is_int(kd_csource_macros_new(&m), 0, "subsystem wrappers: a set");
	hdr = "#define ext4_msg(sb, level, fmt, ...) __ext4_msg(sb, level, fmt, ##__VA_ARGS__)\n"
	      "#define btrfs_printk(fs_info, fmt, args...) _btrfs_printk(fs_info, fmt, ##args)\n"
	      "#define btrfs_err(fs_info, fmt, args...) btrfs_printk(fs_info, KERN_ERR fmt, ##args)\n"
	      "#define xfs_printk_index_wrap(kern_level, mp, fmt, ...) "
	      "xfs_printk_level(kern_level, mp, fmt, ##__VA_ARGS__)\n"
	      "#define xfs_warn(mp, fmt, ...) xfs_printk_index_wrap(KERN_WARNING, mp, fmt, ##__VA_ARGS__)\n"
	      "#define f2fs_info(sbi, fmt, ...) f2fs_printk(sbi, false, KERN_INFO fmt, ##__VA_ARGS__)\n"
	      "#define BT_ERR(fmt, ...) bt_err(fmt \"\\n\", ##__VA_ARGS__)\n"
	      "#define bt_dev_err(hdev, fmt, ...) BT_ERR(\"%s: \" fmt, bt_dev_name(hdev), ##__VA_ARGS__)\n"
	      "#define DRM_ERROR(fmt, ...) __drm_err(fmt, ##__VA_ARGS__)\n"
	      "#define DRM_DEV_ERROR(dev, fmt, ...) drm_dev_printk(dev, KERN_ERR, \"*ERROR* \" fmt, ##__VA_ARGS__)\n"
	      "#define drm_dbg_kms(drm, fmt, ...) __drm_dev_dbg(NULL, (drm)->dev, DRM_UT_KMS, fmt, ##__VA_ARGS__)\n";
	tap_is_int(kd_csource_macros_learn(m, hdr, strlen(hdr)), 0, "a header teaches the wrappers' macros");
	scan("void w(void)\n{\n\text4_msg(sb, KERN_INFO, \"mounted %s\", s);\n"
	     "\tbtrfs_err(fs_info, \"bad tree %llu\", b);\n\txfs_warn(mp, \"%s: slow\", d);\n"
	     "\tf2fs_info(sbi, \"Mounted with checkpoint version = %llx\", v);\n"
	     "\tbt_dev_err(hdev, \"reset failed (%d)\", e);\n\tDRM_ERROR(\"no crtc %d\\n\", c);\n"
	     "\tDRM_DEV_ERROR(d, \"ring %s hung\\n\", r);\n\tdrm_dbg_kms(drm, \"mode %dx%d\\n\", x, y);\n}\n", m,
	     "3 6 w foo|mounted %s [after a wrapper's prefix]\n"
	     "4 3 w foo|bad tree %llu [after a wrapper's prefix]\n"
	     "5 4 w foo|%s: slow [after a wrapper's prefix]\n"
	     "6 6 w foo|Mounted with checkpoint version = %llx [after a wrapper's prefix]\n"
	     "7 3 w foo|%s: reset failed (%d) [after a wrapper's prefix]\n"
	     "8 3 w foo|no crtc %d [after a wrapper's prefix]\n"
	     "9 3 w foo|*ERROR* ring %s hung [after a wrapper's prefix]\n"
	     "10 7 w foo|mode %dx%d [after a wrapper's prefix]\n",
	     "ext4_msg(), btrfs, XFS, f2fs, Bluetooth and DRM: the caller's format and level");
	scan("void q(void)\n{\n\trtl_dbg(rtlpriv, COMP_INIT, DBG_LOUD, \"chip %d\\n\", c);\n"
	     "\tRTPRINT(rtlpriv, FINIT, INIT_IQK, \"IQK %s\\n\", s);\n"
	     "\tql_dbg(ql_dbg_init, vha, 0x0801, \"loop id %d\\n\", l);\n"
	     "\tql_log(ql_log_warn, vha, 0x0802, \"fw dump %s\\n\", f);\n"
	     "\trtw89_debug(rtwdev, RTW89_DBG_FW, \"fw ver %d\\n\", v);\n"
	     "\tsdev_prefix_printk(KERN_NOTICE, sdev, name, \"Write Protect is %s\\n\", w);\n"
	     "\tscmd_printk(KERN_INFO, cmd, \"abort %d\\n\", t);\n"
	     "\tacpi_handle_printk(KERN_INFO, h, \"Enabled at IRQ %d\\n\", i);\n}\n", m,
	     "3 6 q foo|chip %d [after a wrapper's prefix]\n"
	     "4 6 q foo|IQK %s [after a wrapper's prefix]\n"
	     "5 4 q foo|loop id %d [after a wrapper's prefix]\n"
	     "6 - q foo|fw dump %s [after a wrapper's prefix]\n"
	     "7 7 q foo|fw ver %d [after a device's prefix]\n"
	     "8 5 q foo|Write Protect is %s [after a device's prefix]\n"
	     "9 6 q foo|abort %d [after a device's prefix]\n"
	     "10 6 q foo|Enabled at IRQ %d [after a wrapper's prefix]\n",
	     "rtlwifi's, qla2xxx's and rtw89's debug functions: the caller's format, "
	     "ql_log()'s level unknown, rtw89_debug()'s KERN_DEBUG; SCSI's "
	     "sdev_prefix_printk() and scmd_printk(), acpi_handle_printk()");
	kd_csource_macros_free(m);
	/*
	 * The wireless drivers' "%pV" wrappers, called through their
	 * headers' macros, which a file in the driver's directory sees: a
	 * known name is not learned as a macro (else brcmf_info() would be
	 * its stock pr_info("%s: " fmt, __func__)).
	 */
	tap_is_int(kd_csource_macros_new(&m), 0, "wireless wrappers: a set");
	hdr = "#define ath10k_dbg(ar, dbg_mask, fmt, ...) do { if (ath10k_debug_mask & dbg_mask) "
	      "__ath10k_dbg(ar, dbg_mask, fmt, ##__VA_ARGS__); } while (0)\n"
	      "#define ath_err(common, fmt, ...) ath_printk(KERN_ERR, common, fmt, ##__VA_ARGS__)\n"
	      "#define IWL_ERR(m, f, a...) IWL_ERR_DEV((m)->dev, f, ## a)\n"
	      "#define IWL_DEBUG_INFO(p, f, a...) IWL_DEBUG(p, IWL_DL_INFO, f, ## a)\n"
	      "#define mwifiex_dbg(adapter, mask, fmt, ...) "
	      "_mwifiex_dbg(adapter, MWIFIEX_DBG_##mask, fmt, ##__VA_ARGS__)\n"
	      "#define brcmf_info(fmt, ...) do { pr_info(\"%s: \" fmt, __func__, ##__VA_ARGS__); } while (0)\n";
	tap_is_int(kd_csource_macros_learn(m, hdr, strlen(hdr)), 0,
		   "the wireless drivers' headers");
	scan("#define dev_fmt(fmt) \"dfmt: \" fmt\nvoid wl(void)\n{\n"
	     "\tath10k_warn(ar, \"failed to wake target: %d\\n\", ret);\n"
	     "\tath10k_dbg(ar, ATH10K_DBG_BOOT, \"boot qmi %d\\n\", x);\n"
	     "\tath11k_err(ab, \"failed to start %d\\n\", e);\n"
	     "\tath11k_dbg(ab, ATH11K_DBG_BOOT, \"firmware request %s\\n\", n);\n"
	     "\tath12k_info(ab, \"fw %s\\n\", v);\n"
	     "\tath12k_dbg(ab, ATH12K_DBG_MAC, \"vdev %d\\n\", id);\n"
	     "\tath_err(common, \"Unable to reset channel\\n\");\n"
	     "\tath_dbg(common, CONFIG, \"Set channel %d\\n\", c);\n"
	     "\tath_printk(KERN_NOTICE, common, \"notice %d\\n\", n);\n"
	     "\tIWL_ERR(mvm, \"Failed to send %d\\n\", r);\n"
	     "\tIWL_WARN(trans, \"warn %s\\n\", s);\n"
	     "\tIWL_INFO(mvm, \"info %u\\n\", u);\n"
	     "\tIWL_CRIT(mvm, \"crit %u\\n\", u);\n"
	     "\tIWL_DEBUG_INFO(mvm, \"Alive ucode status 0x%04x\\n\", st);\n"
	     "\tIWL_DEBUG_RATE_LIMIT(mvm, \"rate %d\\n\", r);\n"
	     "\tIWL_DEBUG_DEV(dev, IWL_DL_INFO, \"dev %d\\n\", d);\n"
	     "\tIWL_DEBUG_QUIET_RFKILL(priv, \"quiet %d\\n\", q);\n"
	     "\tmwifiex_dbg(adapter, ERROR, \"cmd timeout %d\\n\", c);\n"
	     "\tbrcmf_err(\"Failed to get %s\\n\", s);\n"
	     "\tbrcmf_info(\"fw %s\\n\", v);\n"
	     "\tbrcmf_dbg(TRACE, \"Enter, idx=%d\\n\", i);\n"
	     "\tdev_err(d, \"plain %d\\n\", p);\n}\n", m,
	     "4 4 wl foo|failed to wake target: %d [after a device's prefix]\n"
	     "5 7 wl foo|boot qmi %d [after a device's prefix]\n"
	     "6 3 wl foo|failed to start %d [after a device's prefix]\n"
	     "7 7 wl foo|firmware request %s [after a wrapper's prefix]\n"
	     "8 6 wl foo|fw %s [after a device's prefix]\n"
	     "9 7 wl foo|vdev %d [after a device's prefix]\n"
	     "10 3 wl foo|Unable to reset channel [after a wrapper's prefix]\n"
	     "11 7 wl foo|Set channel %d [after a wrapper's prefix]\n"
	     "12 5 wl foo|notice %d [after a wrapper's prefix]\n"
	     "13 3 wl foo|Failed to send %d [after a device's prefix]\n"
	     "14 4 wl foo|warn %s [after a device's prefix]\n"
	     "15 6 wl foo|info %u [after a device's prefix]\n"
	     "16 2 wl foo|crit %u [after a device's prefix]\n"
	     "17 7 wl foo|Alive ucode status 0x%04x [after a wrapper's prefix]\n"
	     "18 7 wl foo|rate %d [after a wrapper's prefix]\n"
	     "19 7 wl foo|dev %d [after a wrapper's prefix]\n"
	     "20 3 wl foo|quiet %d [after a device's prefix]\n"
	     "21 6 wl foo|cmd timeout %d [after a device's prefix]\n"
	     "22 3 wl foo|Failed to get %s [after a wrapper's prefix]\n"
	     "23 6 wl foo|fw %s [after a wrapper's prefix]\n"
	     "24 7 wl foo|Enter, idx=%d [after a wrapper's prefix]\n"
	     "25 3 wl foo|dfmt: plain %d [after a device's prefix]\n",
	     "ath10k/11k/12k, ath, iwlwifi, mwifiex and brcmfmac: the caller's format, the "
	     "wrapper's level, no dev_fmt(); a word before it (debug mask, function) a wrapper's");
	scan("void n(void)\n{\n\tIWL_DEBUG_(x, \"not a call %d\\n\", 1);\n"
	     "\tath_errors(common, \"nor this %d\\n\", 2);\n}\n", m, "",
	     "IWL_DEBUG_*: a prefix needs more after it; other names are no calls");
	kd_csource_macros_free(m);
	/*
	 * The next "%pV" wrappers: rtw88's, rsi's, ath6kl's, wil6210's,
	 * RDMA's, UBI's, UBIFS's, 9p's and qedf's, called as their drivers
	 * call them.  wil_err() is learned (it reaches __wil_err(), a known
	 * name), so the format is "%s: " and the caller's; the kernel
	 * series' __wil_err() macro of the same name is not learned.
	 */
	tap_is_int(kd_csource_macros_new(&m), 0, "more wrappers: a set");
	hdr = "#define wil_err(wil, fmt, arg...) __wil_err(wil, \"%s: \" fmt, __func__, ##arg)\n"
	      "#define wil_info(wil, fmt, arg...) __wil_info(wil, \"%s: \" fmt, __func__, ##arg)\n"
	      "#define wil_err_ratelimited(wil, fmt, arg...) \\\n"
	      "\t__wil_err_ratelimited(wil, \"%s: \" fmt, __func__, ##arg)\n"
	      "#define __wil_err(wil, fmt, ...) ___wil_err(&__kd_site, wil, fmt, ##__VA_ARGS__)\n"
	      "#define ibdev_err_ratelimited(ibdev, fmt, ...) \\\n"
	      "\tibdev_level_ratelimited(ibdev_err, ibdev, fmt, ##__VA_ARGS__)\n"
	      "#define rxe_err_qp(qp, fmt, ...) ibdev_err_ratelimited((qp)->ibqp.device, \\\n"
	      "\t\t\"qp#%d %s: \" fmt, (qp)->elem.index, __func__, ##__VA_ARGS__)\n"
	      "#define ubifs_errc(c, fmt, ...) do { if (!(c)->probing) "
	      "ubifs_err(c, fmt, ##__VA_ARGS__); } while (0)\n"
	      "#define p9_debug(level, fmt, ...) _p9_debug(level, __func__, fmt, ##__VA_ARGS__)\n"
	      "#define QEDF_ERR(pdev, fmt, ...) qedf_dbg_err(pdev, __func__, __LINE__, fmt, "
	      "## __VA_ARGS__)\n"
	      "#define QEDF_INFO(pdev, level, fmt, ...) qedf_dbg_info(pdev, __func__, __LINE__, "
	      "level, fmt, ## __VA_ARGS__)\n";
	tap_is_int(kd_csource_macros_learn(m, hdr, strlen(hdr)), 0, "their drivers' headers");
	scan("void mw(void)\n{\n"
	     "\trtw_dbg(rtwdev, RTW_DBG_FW, \"fw ver %d\\n\", v);\n"
	     "\trsi_dbg(ERR_ZONE, \"%s: Unable to load firmware\\n\", __func__);\n"
	     "\tath6kl_err(\"failed to connect to %s service status:%d\\n\", s, st);\n"
	     "\tath6kl_warn(\"warn %s\\n\", w);\n"
	     "\tath6kl_info(\"info %u\\n\", u);\n"
	     "\tath6kl_dbg(ATH6KL_DBG_BOOT, \"boot %d\\n\", b);\n"
	     "\twil_err(wil, \"bad %s: 0x%08x\\n\", msg, v);\n"
	     "\twil_info(wil, \"up %d\\n\", u);\n"
	     "\twil_err_ratelimited(wil, \"drop %d\\n\", d);\n"
	     "\tibdev_err(&dev->ib_dev, \"Failed to set ib netdev, ret %d\\n\", r);\n"
	     "\tibdev_warn_ratelimited(ibdev, \"warn %d\\n\", w);\n"
	     "\tibdev_info(ibdev, \"info %d\\n\", i);\n"
	     "\tibdev_dbg(ibdev, \"mdev=%p id=%d\\n\", p, i);\n"
	     "\tibdev_printk(KERN_NOTICE, ibdev, \"notice %d\\n\", n);\n"
	     "\trxe_err_qp(qp, \"bad opcode %d\", op);\n"
	     "\tubi_msg(ubi, \"attaching mtd%d\", n);\n"
	     "\tubi_warn(ubi, \"switch to read-only mode\");\n"
	     "\tubi_err(ubi, \"read-only mode\");\n"
	     "\tubifs_msg(c, \"mounted UBI device %d\", d);\n"
	     "\tubifs_warn(c, \"warn %d\", w);\n"
	     "\tubifs_errc(c, \"reading %d bytes from LEB %d:%d failed\", l, e, o);\n"
	     "\tp9_debug(P9_DEBUG_9P, \">>> TVERSION msize %d version %s\\n\", m, v);\n"
	     "\tQEDF_ERR(&qedf->dbg_ctx, \"Link not up.\\n\");\n"
	     "\tQEDF_WARN(&qedf->dbg_ctx, \"warn %d\\n\", w);\n"
	     "\tQEDF_NOTICE(&qedf->dbg_ctx, \"notice %d\\n\", n);\n"
	     "\tQEDF_INFO(&qedf->dbg_ctx, QEDF_LOG_DISC, \"disc %d\\n\", d);\n}\n", m,
	     "3 7 mw foo|fw ver %d [after a device's prefix]\n"
	     "4 6 mw foo|%s: Unable to load firmware [after a wrapper's prefix]\n"
	     "5 3 mw foo|failed to connect to %s service status:%d [after a wrapper's prefix]\n"
	     "6 4 mw foo|warn %s [after a wrapper's prefix]\n"
	     "7 6 mw foo|info %u [after a wrapper's prefix]\n"
	     "8 7 mw foo|boot %d [after a wrapper's prefix]\n"
	     "9 3 mw foo|%s: bad %s: 0x%08x [after a net device's prefix]\n"
	     "10 6 mw foo|%s: up %d [after a net device's prefix]\n"
	     "11 3 mw foo|%s: drop %d [after a net device's prefix]\n"
	     "12 3 mw foo|Failed to set ib netdev, ret %d [after a net device's prefix]\n"
	     "13 4 mw foo|warn %d [after a net device's prefix]\n"
	     "14 6 mw foo|info %d [after a net device's prefix]\n"
	     "15 7 mw foo|mdev=%p id=%d [after a net device's prefix]\n"
	     "16 5 mw foo|notice %d [after a net device's prefix]\n"
	     "17 3 mw foo|qp#%d %s: bad opcode %d [after a net device's prefix]\n"
	     "18 5 mw foo|attaching mtd%d [after a wrapper's prefix]\n"
	     "19 4 mw foo|switch to read-only mode [after a wrapper's prefix]\n"
	     "20 3 mw foo|read-only mode [after a wrapper's prefix]\n"
	     "21 5 mw foo|mounted UBI device %d [after a wrapper's prefix]\n"
	     "22 4 mw foo|warn %d [after a wrapper's prefix]\n"
	     "23 3 mw foo|reading %d bytes from LEB %d:%d failed [after a wrapper's prefix]\n"
	     "24 5 mw foo|>>> TVERSION msize %d version %s [after a wrapper's prefix]\n"
	     "25 3 mw foo|Link not up. [after a wrapper's prefix]\n"
	     "26 4 mw foo|warn %d [after a wrapper's prefix]\n"
	     "27 5 mw foo|notice %d [after a wrapper's prefix]\n"
	     "28 6 mw foo|disc %d [after a wrapper's prefix]\n",
	     "rtw88, rsi, ath6kl, wil6210, RDMA, UBI, UBIFS, 9p and qedf: the caller's format "
	     "(\"%s: \" and wil_err()'s), the wrapper's level and prefix family");
	scan("void mx(void)\n{\n\t_p9_debug(P9_DEBUG_VFS, __func__, \"fid %d\\n\", f);\n"
	     "\tqedf_dbg_err(&qedf->dbg_ctx, __func__, __LINE__, \"err %d\\n\", e);\n"
	     "\tqedf_dbg_info(&qedf->dbg_ctx, __func__, __LINE__, QEDF_LOG_DISC, \"i %d\\n\", i);\n"
	     "\t__wil_err(wil, \"raw %d\\n\", r);\n}\n", m,
	     "3 5 mx foo|fid %d [after a wrapper's prefix]\n"
	     "4 3 mx foo|err %d [after a wrapper's prefix]\n"
	     "5 6 mx foo|i %d [after a wrapper's prefix]\n"
	     "6 3 mx foo|raw %d [after a net device's prefix]\n",
	     "_p9_debug(), qedf_dbg_*() and __wil_err() by name: the kernel series' macros of "
	     "these names are not learned");
	kd_csource_macros_free(m);
	/*
	 * The last "%pV" wrappers of the kernel series: qedi's, mlx4_en's,
	 * ath5k's, nilfs2's, ocfs2's, tda18271's and jfs's, called as their
	 * drivers call them, and lpfc's macros, which print with
	 * dev_printk() at the caller and need no name of their own.
	 * ATH5K_DBG(), sclog() and tda_fail() are learned: the format is
	 * what they pass; the headers' mlog() and tda_printk() are not (known
	 * names).
	 */
	tap_is_int(kd_csource_macros_new(&m), 0, "last wrappers: a set");
	hdr = "#define ATH5K_DBG(_sc, _m, _fmt, ...) do { \\\n"
	      "\tif (unlikely((_sc)->debug.level & (_m) && net_ratelimit())) \\\n"
	      "\t\tATH5K_PRINTK(_sc, KERN_DEBUG, \"(%s:%d): \" _fmt, \\\n"
	      "\t\t\t__func__, __LINE__, ##__VA_ARGS__); \\\n\t} while (0)\n"
	      "#define ATH5K_DBG_UNLIMIT(_sc, _m, _fmt, ...) do { \\\n"
	      "\tif (unlikely((_sc)->debug.level & (_m))) \\\n"
	      "\t\tATH5K_PRINTK(_sc, KERN_DEBUG, \"(%s:%d): \" _fmt, \\\n"
	      "\t\t\t__func__, __LINE__, ##__VA_ARGS__); \\\n\t} while (0)\n"
	      "#define mlog(mask, fmt, ...) do { u64 _m = MLOG_MASK_PREFIX | (mask); \\\n"
	      "\tif (_m & ML_ALLOWED_BITS) __mlog_printk(&_m, __func__, __LINE__, fmt, \\\n"
	      "\t\t##__VA_ARGS__); } while (0)\n"
	      "#define sclog(sc, fmt, args...) do { typeof(sc) __sc = (sc); \\\n"
	      "\tmlog(ML_SOCKET, \"[sc %p refs %d sock %p node %u page %p \" \\\n"
	      "\t     \"pg_off %zu] \" fmt, __sc, kref_read(&__sc->sc_kref), __sc->sc_sock, \\\n"
	      "\t     __sc->sc_node->nd_num, __sc->sc_page, __sc->sc_page_off, ##args); \\\n"
	      "} while (0)\n"
	      "#define tda_printk(st, lvl, fmt, arg...) _tda_printk(st, lvl, __func__, fmt, ##arg)\n"
	      "#define tda_fail(ret) ({ int __ret; __ret = (ret < 0); if (__ret) \\\n"
	      "\ttda_printk(priv, KERN_ERR, \"error %d on line %d\\n\", ret, __LINE__); __ret; })\n"
	      "#define lpfc_printf_log(phba, level, mask, fmt, arg...) do { \\\n"
	      "\t{ if (((mask) & log_verbose) || (level[1] <= '3')) { \\\n"
	      "\t\tdev_printk(level, &((phba)->pcidev)->dev, \"%d:\" fmt, phba->brd_no, ##arg); \\\n"
	      "\t} else if (!log_verbose) \\\n"
	      "\t\tlpfc_dbg_print(phba, \"%d:\" fmt, phba->brd_no, ##arg); } } while (0)\n"
	      "#define lpfc_printf_vlog(vport, level, mask, fmt, arg...) do { \\\n"
	      "\t{ if (((mask) & (vport)->cfg_log_verbose) || (level[1] <= '3')) { \\\n"
	      "\t\tdev_printk(level, &((vport)->phba->pcidev)->dev, \"%d:(%d):\" \\\n"
	      "\t\t\tfmt, (vport)->phba->brd_no, vport->vpi, ##arg); \\\n"
	      "\t} else if (!(vport)->cfg_log_verbose) \\\n"
	      "\t\tlpfc_dbg_print((vport)->phba, \"%d:(%d):\" fmt, \\\n"
	      "\t\t\t(vport)->phba->brd_no, (vport)->vpi, ##arg); } } while (0)\n";
	tap_is_int(kd_csource_macros_learn(m, hdr, strlen(hdr)), 0, "their drivers' headers");
	scan("void w5(void)\n{\n"
	     "\tQEDI_ERR(&qedi->dbg_ctx, \"Could not allocate %d\\n\", n);\n"
	     "\tQEDI_WARN(&qedi->dbg_ctx, \"warn %d\\n\", w);\n"
	     "\tQEDI_NOTICE(&qedi->dbg_ctx, \"notice %d\\n\", n);\n"
	     "\tQEDI_INFO(&qedi->dbg_ctx, QEDI_LOG_DISC, \"disc %d\\n\", d);\n"
	     "\ten_err(priv, \"Failed to allocate RX ring %d\\n\", i);\n"
	     "\ten_warn(priv, \"warn %d\\n\", w);\n"
	     "\ten_info(priv, \"info %d\\n\", i);\n"
	     "\ten_dbg(DRV, priv, \"dbg %d\\n\", d);\n"
	     "\tATH5K_ERR(ah, \"can't reset hardware (%d)\\n\", r);\n"
	     "\tATH5K_WARN(ah, \"warn %d\\n\", w);\n"
	     "\tATH5K_INFO(ah, \"info %d\\n\", i);\n"
	     "\tATH5K_DBG(ah, ATH5K_DEBUG_RESET, \"resetting\\n\");\n"
	     "\tATH5K_DBG_UNLIMIT(ah, ATH5K_DEBUG_BEACON, \"bcn %d\\n\", b);\n"
	     "\tnilfs_err(sb, \"error %d reading segment\\n\", e);\n"
	     "\tnilfs_warn(sb, \"warn %d\", w);\n"
	     "\tnilfs_crit(sb, \"crit %d\", c);\n"
	     "\tnilfs_info(sb, \"info %d\", i);\n"
	     "\tnilfs_msg(sb, KERN_NOTICE, \"notice %d\", n);\n}\n", m,
	     "3 3 w5 foo|Could not allocate %d [after a wrapper's prefix]\n"
	     "4 4 w5 foo|warn %d [after a wrapper's prefix]\n"
	     "5 5 w5 foo|notice %d [after a wrapper's prefix]\n"
	     "6 6 w5 foo|disc %d [after a wrapper's prefix]\n"
	     "7 3 w5 foo|Failed to allocate RX ring %d [after a wrapper's prefix]\n"
	     "8 4 w5 foo|warn %d [after a wrapper's prefix]\n"
	     "9 6 w5 foo|info %d [after a wrapper's prefix]\n"
	     "10 7 w5 foo|dbg %d [after a wrapper's prefix]\n"
	     "11 3 w5 foo|can't reset hardware (%d) [after a wrapper's prefix]\n"
	     "12 4 w5 foo|warn %d [after a wrapper's prefix]\n"
	     "13 6 w5 foo|info %d [after a wrapper's prefix]\n"
	     "14 7 w5 foo|(%s:%d): resetting [after a wrapper's prefix]\n"
	     "15 7 w5 foo|(%s:%d): bcn %d [after a wrapper's prefix]\n"
	     "16 3 w5 foo|error %d reading segment [after a wrapper's prefix]\n"
	     "17 4 w5 foo|warn %d [after a wrapper's prefix]\n"
	     "18 2 w5 foo|crit %d [after a wrapper's prefix]\n"
	     "19 6 w5 foo|info %d [after a wrapper's prefix]\n"
	     "20 5 w5 foo|notice %d [after a wrapper's prefix]\n",
	     "qedi, mlx4_en, ath5k and nilfs2: the caller's format (ATH5K_DBG()'s "
	     "\"(%s:%d): \" and it), the wrapper's level and prefix family");
	scan("void w6(void)\n{\n"
	     "\tmlog(ML_ERROR, \"Checksum failed for extent block %llu\\n\", b);\n"
	     "\tmlog(0, \"trace %d\\n\", t);\n"
	     "\tmlog_ratelimited(ML_ERROR, \"limited %d\\n\", l);\n"
	     "\treturn mlog_errno(status);\n"
	     "\tmlog_bug_on_msg(x > 1, \"bad %d\\n\", x);\n"
	     "\tsclog(sc, \"releasing\\n\");\n"
	     "\ttda_err(\"error writing to tuner\\n\");\n"
	     "\ttda_warn(\"warn %d\\n\", w);\n"
	     "\ttda_dbg(\"dbg %d\\n\", d);\n"
	     "\ttda_reg(\"reg %d\\n\", r);\n"
	     "\ttda_map(\"map %d\\n\", m);\n"
	     "\ttda_cal(\"cal %d\\n\", c);\n"
	     "\tif (tda_fail(ret))\n\t\tgoto fail;\n"
	     "\tjfs_error(ip->i_sb, \"xtSearch failed\\n\");\n"
	     "\tlpfc_printf_log(phba, KERN_ERR, LOG_INIT, \"1303 Link Up Event x%x received\\n\", e);\n"
	     "\tlpfc_printf_vlog(vport, KERN_INFO, LOG_ELS, \"0116 Xmit ELS command x%x\\n\", c);\n"
	     "}\n", m,
	     "3 - w6 foo|Checksum failed for extent block %llu [after a wrapper's prefix]\n"
	     "4 - w6 foo|trace %d [after a wrapper's prefix]\n"
	     "5 - w6 foo|limited %d [after a wrapper's prefix]\n"
	     "6 3 w6 foo|status = %lld [after a wrapper's prefix]\n"
	     "7 3 w6 foo|bad %d [after a wrapper's prefix]\n"
	     "8 - w6 foo|[sc %p refs %d sock %p node %u page %p pg_off %zu] releasing "
	     "[after a wrapper's prefix]\n"
	     "9 3 w6 foo|error writing to tuner [after a wrapper's prefix]\n"
	     "10 4 w6 foo|warn %d [after a wrapper's prefix]\n"
	     "11 7 w6 foo|dbg %d [after a wrapper's prefix]\n"
	     "12 7 w6 foo|reg %d [after a wrapper's prefix]\n"
	     "13 7 w6 foo|map %d [after a wrapper's prefix]\n"
	     "14 7 w6 foo|cal %d [after a wrapper's prefix]\n"
	     "15 3 w6 foo|error %d on line %d [after a wrapper's prefix]\n"
	     "17 3 w6 foo|xtSearch failed [after a wrapper's prefix]\n"
	     "18 3 w6 foo|%d:1303 Link Up Event x%x received [after a device's prefix]\n"
	     "19 6 w6 foo|%d:(%d):0116 Xmit ELS command x%x [after a device's prefix]\n",
	     "ocfs2 (mlog()'s level unknown: its mask picks it at run time), tda18271, jfs, "
	     "and lpfc's dev_printk() with \"%d:\" or \"%d:(%d):\" before the caller's format");
	scan("void w7(void)\n{\n"
	     "\tqedi_dbg_err(&qedi->dbg_ctx, __func__, __LINE__, \"err %d\\n\", e);\n"
	     "\tqedi_dbg_info(&qedi->dbg_ctx, __func__, __LINE__, QEDI_LOG_DISC, \"i %d\\n\", i);\n"
	     "\ten_print(KERN_WARNING, priv, \"p %d\\n\", p);\n"
	     "\t_ath5k_printk(ah, KERN_NOTICE, \"a %d\\n\", a);\n"
	     "\tATH5K_PRINTK(ah, KERN_INFO, \"b %d\\n\", b);\n"
	     "\t__nilfs_msg(sb, KERN_WARNING \"n %d\\n\", n);\n"
	     "\t__mlog_printk(&_m, __func__, __LINE__, \"m %d\\n\", m);\n"
	     "\t_tda_printk(priv, KERN_INFO, __func__, \"t %d\\n\", t);\n"
	     "\ttda_printk(priv, KERN_DEBUG, \"u %d\\n\", u);\n}\n", m,
	     "3 3 w7 foo|err %d [after a wrapper's prefix]\n"
	     "4 6 w7 foo|i %d [after a wrapper's prefix]\n"
	     "5 4 w7 foo|p %d [after a wrapper's prefix]\n"
	     "6 5 w7 foo|a %d [after a wrapper's prefix]\n"
	     "7 6 w7 foo|b %d [after a wrapper's prefix]\n"
	     "8 4 w7 foo|n %d [after a wrapper's prefix]\n"
	     "9 - w7 foo|m %d [after a wrapper's prefix]\n"
	     "10 6 w7 foo|t %d [after a wrapper's prefix]\n"
	     "11 7 w7 foo|u %d [after a wrapper's prefix]\n",
	     "the functions by name, the level from their argument (_tda_printk()'s "
	     "before a function's name) or the format");
	kd_csource_macros_free(m);
	tap_is_int(kd_csource_macros_new(&m), 0, "string macros: a set");
	hdr = "#define CUT_HERE \"--[ cut ]--\\n\"\n#define IND \"    \"\n#define IND2 IND IND\n"
	      "#define TWICE \"a\"\n";
	tap_is_int(kd_csource_macros_learn(m, hdr, strlen(hdr)), 0, "a header teaches string macros");
	hdr = "#define TWICE \"b\"\n";
	tap_is_int(kd_csource_macros_learn(m, hdr, strlen(hdr)), 0, "another header defines one again");
	scan("void w(void) { pr_warn(CUT_HERE); pr_info(IND2 \"ok\\n\"); pr_info(TWICE); }\n", m,
	     "1 4 w foo|--[ cut ]--\n1 6 w foo|        ok\n",
	     "string macros of headers; one two headers disagree on is not used");
	kd_csource_macros_free(m);

	kd_csource_modname("obj-m += e1000e.o\ne1000e-y := netdev.o ethtool.o\n", 48,
			   "netdev", mod, sizeof(mod));
	tap_is_str(mod, "e1000e", "KBUILD_MODNAME of a composite object");
	kd_csource_modname("obj-$(CONFIG_X) += snd-hda-intel.o\n", 36, "snd-hda-intel",
			   mod, sizeof(mod));
	tap_is_str(mod, "snd_hda_intel", "KBUILD_MODNAME has '_' for '-'");
}

static void test_pot(void)
{
	struct kd_pot *pot = NULL;
	char *buf = NULL;
	size_t len = 0;
	FILE *out;
	struct kd_pot_msg a = {
		.msgid = "link up %d\n", .msgid_len = 11, .file = "drivers/net/a.c",
		.line = 10, .func = "up", .module = "e1000e", .level = '4',
	};
	struct kd_pot_msg b = a;

	b.file = "drivers/net/b.c";
	b.line = 20;
	b.module = "igb";
	tap_is_int(kd_pot_new(&pot), 0, "pot: a set");
	kd_pot_set_module_contexts(pot, true);
	tap_is_int(kd_pot_add(pot, &a), 0, "pot: add");
	tap_is_int(kd_pot_add(pot, &b), 0, "pot: the same format from another module");
	tap_is_int((long long)kd_pot_count(pot), 1, "pot: one format");
	out = open_memstream(&buf, &len);
	if (!out)
		return;
	tap_is_int(kd_pot_write(pot, out, 0), 0, "pot: written");
	fclose(out);
	tap_ok(buf && strstr(buf, "#. level: warn\n") != NULL,
	       "pot: the level by kdmesg's name (warn), as -l takes it");
	tap_ok(buf && strstr(buf, "#. module: e1000e igb\n#. level: warn\n"
			     "#: drivers/net/a.c:10\n#: drivers/net/b.c:20\n") != NULL,
	       "pot: one entry with both modules and both places");
	tap_ok(buf && strstr(buf, "msgctxt \"igb\"\nmsgid \"link up %d\\n\"\n") != NULL,
	       "pot: a module context entry for a format of two modules");
	tap_ok(buf && strstr(buf, "#, c-format\nmsgid \"link up %d\\n\"\nmsgstr \"\"\n") != NULL,
	       "pot: the entry without context, c-format, escaped");
	free(buf);
	kd_pot_free(pot);
}

struct po_seen {
	char text[2048];
};

static int po_entry(void *data, const struct kd_po_entry *e)
{
	struct po_seen *s = data;
	size_t n = strlen(s->text);

	snprintf(s->text + n, sizeof(s->text) - n, "%u/%u %s [%s] [%.*s] [%.*s]%s%s%s\n",
		 e->line, e->msgstr_line, e->ctx ? e->ctx : "-",
		 e->c_format ? "c" : "", (int)e->msgid_len, e->msgid,
		 (int)e->msgstr_len, e->msgstr, e->fuzzy ? " fuzzy" : "",
		 e->plural ? " plural" : "", "");
	return 0;
}

static void test_pofile(void)
{
	const char *po =
		"msgid \"\"\nmsgstr \"Content-Type: text/plain; charset=UTF-8\\n\"\n\n"
		"#, c-format\nmsgid \"a %d\"\nmsgstr \"A %d\"\n\n"
		"#, fuzzy, c-format\nmsgctxt \"e1000e\"\nmsgid \"b\\n\"\n\"c\"\nmsgstr \"\"\n\"B\\tC\"\n\n"
		"msgid \"one\"\nmsgid_plural \"many\"\nmsgstr[0] \"eins\"\nmsgstr[1] \"viele\"\n\n"
		"#~ msgid \"old\"\n#~ msgstr \"alt\"\n";
	const char *want =
		"1/2 - [] [] [Content-Type: text/plain; charset=UTF-8\n]\n"
		"5/6 - [c] [a %d] [A %d]\n"
		"10/12 e1000e [c] [b\nc] [B\tC] fuzzy\n"
		"15/17 - [] [one] [eins] plural\n";
	struct po_seen s = { .text = "" };
	unsigned int line = 0;

	tap_is_int(kd_po_read(po, strlen(po), po_entry, &s, &line), 0, "po: read");
	tap_is_str(s.text, want,
		   "po: entries, contexts, continued strings, flags, plurals, lines; no obsolete");
	s.text[0] = '\0';
	tap_is_int(kd_po_read("msgid \"a\"\nmsgstr \"b\n", 20, po_entry, &s, &line), -EINVAL,
		   "po: an unterminated string is a syntax error");
	tap_is_int(line, 2, "po: ... at its line");
}

int main(void)
{
	test_csource();
	test_pot();
	test_pofile();
	return tap_done();
}
