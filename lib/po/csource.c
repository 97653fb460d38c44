// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * csource.c - the call finder: the message calls of a C file and their
 * constant formats (evaluated by csource-const.c: pr_fmt()/dev_fmt() and
 * string macros of the file), #include of local files followed, wrapper
 * macros through csource-macro.c, tokens from csource-lex.c.  See
 * csource.h.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <unistd.h>

#include "po/csource-internal.h"
#include "po/cstring.h"
#include "shared/modname.h"

#define ARG_TOKENS	64

/*
 * F_ACPI: ACPICA's message macros, ACPI_ERROR((AE_INFO, "fmt", ...)): the
 * format is an argument of the one parenthesised list, and the kernel
 * prints it after "ACPI Error: " and the like (see acpi_fix()).
 */
/*
 * F_WRAP: subsystem wrappers that print the caller's format behind a
 * prefix of their own ("EXT4-fs (vda): ", "BTRFS error (device vdb): ",
 * "XFS (vdc): ", "F2FS-fs (vdd): ", "Bluetooth: ", DRM's
 * "[drm:<function>] ", "rtlwifi: ", "qla2xxx [0000:03:00.0]-0801:2: ",
 * "ath: phy0: ", "brcmfmac: <function>: ", "rsi_91x: ", "ath6kl: ",
 * UBI's "ubi0: ", UBIFS's "UBIFS (ubi0:0): ", 9p's "9pnet: (<pid>) ",
 * qedf's and qedi's "[<device>]:[<function>:<line>]:<host>: ",
 * "mlx4_en: eth2: ", "ath5k: phy0: ", "NILFS (sdb1): ", ocfs2's
 * "(<task>,<pid>,<cpu>):<function>:<line> ERROR: ", tda18271's
 * "<function>: [1-0060|M] ", jfs_error()'s "ERROR: (device sdc1):
 * <caller>: ", and a word after a device's prefix: ath11k_dbg()'s mask,
 * iwlwifi's IWL_DEBUG_*()'s function): the names their other macros
 * (btrfs_err(), xfs_warn(), BT_ERR(), DRM_ERROR(), ...) reach, which the kernel series
 * keeps as macros of the same names (a known call's name is not learned
 * as a macro), so that a patched tree reads as a stock one.  The drivers'
 * wrappers that print "driver device: " and the caller's format
 * (ath10k_warn(), IWL_ERR(), mwifiex_dbg(), rtw_dbg(); lpfc's macros
 * call dev_printk() themselves and need no name) are F_DEV, those
 * that print a net device's prefix (wil6210's __wil_err(), RDMA's
 * ibdev_err()) F_NETDEV, known by name too: their macros are in the
 * drivers' own headers, or they are functions.
 */
enum family { F_PR, F_PRINTK, F_DEV, F_NETDEV, F_ACPI, F_DEVPROBE, F_WRAP };

struct call {
	const char *name;
	enum family fam;
	unsigned char fmt_arg;	/* index of the format argument */
	char level;		/* 0: from KERN_* in the format or argument lvl_arg */
	unsigned char lvl_arg;	/* the level's argument when fmt_arg is 2 or more */
};

/*
 * fmt_arg of a wrapper that takes no format but passes one of its own
 * (mlog_errno()): own_format() gives it.
 */
#define FMT_OWN	0xff

static const struct call calls[] = {
	{ "printk", F_PRINTK, 0, 0, 0 }, { "printk_deferred", F_PRINTK, 0, 0, 0 },
	{ "pr_cont", F_PRINTK, 0, 'c', 0 },
	{ "pr_emerg", F_PR, 0, '0', 0 }, { "pr_alert", F_PR, 0, '1', 0 },
	{ "pr_crit", F_PR, 0, '2', 0 }, { "pr_err", F_PR, 0, '3', 0 },
	{ "pr_warn", F_PR, 0, '4', 0 }, { "pr_warning", F_PR, 0, '4', 0 },
	{ "pr_notice", F_PR, 0, '5', 0 }, { "pr_info", F_PR, 0, '6', 0 },
	{ "pr_debug", F_PR, 0, '7', 0 }, { "pr_devel", F_PR, 0, '7', 0 },
	{ "kprint", F_PR, 0, 0, 0 }, { "kprint_early", F_PRINTK, 0, 0, 0 },
	{ "kprint_emerg", F_PR, 0, '0', 0 }, { "kprint_alert", F_PR, 0, '1', 0 },
	{ "kprint_crit", F_PR, 0, '2', 0 }, { "kprint_err", F_PR, 0, '3', 0 },
	{ "kprint_error", F_PR, 0, '3', 0 }, { "kprint_warning", F_PR, 0, '4', 0 },
	{ "kprint_warn", F_PR, 0, '4', 0 }, { "kprint_notice", F_PR, 0, '5', 0 },
	{ "kprint_info", F_PR, 0, '6', 0 }, { "kprint_debug", F_PR, 0, '7', 0 },
	{ "dev_emerg", F_DEV, 1, '0', 0 }, { "dev_alert", F_DEV, 1, '1', 0 },
	{ "dev_crit", F_DEV, 1, '2', 0 }, { "dev_err", F_DEV, 1, '3', 0 },
	{ "dev_warn", F_DEV, 1, '4', 0 }, { "dev_notice", F_DEV, 1, '5', 0 },
	{ "dev_info", F_DEV, 1, '6', 0 }, { "dev_dbg", F_DEV, 1, '7', 0 },
	{ "dev_printk", F_DEV, 2, 0, 0 },
	/* "driver device: error -EINVAL: " before the format; no dev_fmt() */
	{ "dev_err_probe", F_DEVPROBE, 2, '3', 0 }, { "dev_warn_probe", F_DEVPROBE, 2, '4', 0 },
	{ "netdev_emerg", F_NETDEV, 1, '0', 0 }, { "netdev_alert", F_NETDEV, 1, '1', 0 },
	{ "netdev_crit", F_NETDEV, 1, '2', 0 }, { "netdev_err", F_NETDEV, 1, '3', 0 },
	{ "netdev_warn", F_NETDEV, 1, '4', 0 }, { "netdev_notice", F_NETDEV, 1, '5', 0 },
	{ "netdev_info", F_NETDEV, 1, '6', 0 }, { "netdev_dbg", F_NETDEV, 1, '7', 0 },
	{ "netdev_printk", F_NETDEV, 2, 0, 0 },
	{ "netif_emerg", F_NETDEV, 3, '0', 0 }, { "netif_alert", F_NETDEV, 3, '1', 0 },
	{ "netif_crit", F_NETDEV, 3, '2', 0 }, { "netif_err", F_NETDEV, 3, '3', 0 },
	{ "netif_warn", F_NETDEV, 3, '4', 0 }, { "netif_notice", F_NETDEV, 3, '5', 0 },
	{ "netif_info", F_NETDEV, 3, '6', 0 }, { "netif_dbg", F_NETDEV, 3, '7', 0 },
	{ "ACPI_INFO", F_ACPI, 0, '6', 0 }, { "ACPI_WARNING", F_ACPI, 1, '4', 0 },
	{ "ACPI_WARNING_ONCE", F_ACPI, 1, '4', 0 }, { "ACPI_ERROR", F_ACPI, 1, '3', 0 },
	{ "ACPI_ERROR_ONCE", F_ACPI, 1, '3', 0 }, { "ACPI_EXCEPTION", F_ACPI, 2, '3', 0 },
	{ "ACPI_BIOS_WARNING", F_ACPI, 1, '4', 0 }, { "ACPI_BIOS_ERROR", F_ACPI, 1, '3', 0 },
	{ "ACPI_BIOS_EXCEPTION", F_ACPI, 2, '3', 0 },
	{ "ext4_msg", F_WRAP, 2, 0, 1 }, { "btrfs_printk", F_WRAP, 1, 0, 0 },
	/* XFS's: by name, xfs_message.h being three includes deep */
	{ "xfs_emerg", F_WRAP, 1, '0', 0 }, { "xfs_alert", F_WRAP, 1, '1', 0 },
	{ "xfs_crit", F_WRAP, 1, '2', 0 }, { "xfs_err", F_WRAP, 1, '3', 0 },
	{ "xfs_warn", F_WRAP, 1, '4', 0 }, { "xfs_notice", F_WRAP, 1, '5', 0 },
	{ "xfs_info", F_WRAP, 1, '6', 0 }, { "xfs_debug", F_WRAP, 1, '7', 0 },
	{ "xfs_alert_tag", F_WRAP, 2, '1', 0 },
	{ "f2fs_err", F_WRAP, 1, '3', 0 }, { "f2fs_warn", F_WRAP, 1, '4', 0 },
	{ "f2fs_notice", F_WRAP, 1, '5', 0 }, { "f2fs_info", F_WRAP, 1, '6', 0 },
	{ "f2fs_debug", F_WRAP, 1, '7', 0 },
	{ "bt_info", F_WRAP, 0, '6', 0 }, { "bt_warn", F_WRAP, 0, '4', 0 },
	{ "bt_err", F_WRAP, 0, '3', 0 }, { "bt_dbg", F_WRAP, 0, '7', 0 },
	{ "__drm_err", F_WRAP, 0, '3', 0 }, { "__drm_dev_dbg", F_WRAP, 3, '7', 0 },
	{ "drm_dev_printk", F_WRAP, 2, 0, 1 },
	/* rtlwifi's "rtlwifi: ", qla2xxx's "qla2xxx [<pci device>]-<id>:<host>: " */
	{ "rtl_dbg", F_WRAP, 3, '6', 0 }, { "RTPRINT", F_WRAP, 3, '6', 0 },
	{ "ql_dbg", F_WRAP, 3, '4', 0 },
	{ "ql_log", F_WRAP, 3, 0, 0 },	/* its level is picked at run time */
	/*
	 * SCSI: sdev_prefix_printk() (behind sdev_printk(), sd_printk(),
	 * sr_printk()) and scmd_printk() print dev_printk()'s prefix, then
	 * "[<disk>] " when they have a name, then the caller's format
	 */
	{ "sdev_prefix_printk", F_DEV, 3, 0, 0 }, { "scmd_printk", F_DEV, 2, 0, 0 },
	/* acpi_handle_<level>(): "ACPI: <path>: " before the caller's format */
	{ "acpi_handle_printk", F_WRAP, 2, 0, 0 },
	/* rtw89's and rtw88's debug messages: dev_printk(KERN_DEBUG, dev, "%pV") */
	{ "rtw89_debug", F_DEV, 2, '7', 0 }, { "rtw_dbg", F_DEV, 2, '7', 0 },
	/* ath10k, ath11k, ath12k, mwifiex, iwlwifi: dev_*(dev, "%pV") */
	{ "ath10k_err", F_DEV, 1, '3', 0 }, { "ath10k_warn", F_DEV, 1, '4', 0 },
	{ "ath10k_info", F_DEV, 1, '6', 0 }, { "ath10k_dbg", F_DEV, 2, '7', 0 },
	{ "__ath10k_dbg", F_DEV, 2, '7', 0 },
	{ "ath11k_err", F_DEV, 1, '3', 0 }, { "ath11k_warn", F_DEV, 1, '4', 0 },
	{ "ath11k_info", F_DEV, 1, '6', 0 },
	{ "ath12k_err", F_DEV, 1, '3', 0 }, { "ath12k_warn", F_DEV, 1, '4', 0 },
	{ "ath12k_info", F_DEV, 1, '6', 0 }, { "ath12k_dbg", F_DEV, 2, '7', 0 },
	{ "__ath12k_dbg", F_DEV, 2, '7', 0 },
	{ "mwifiex_dbg", F_DEV, 2, '6', 0 }, { "_mwifiex_dbg", F_DEV, 2, '6', 0 },
	{ "IWL_ERR", F_DEV, 1, '3', 0 }, { "IWL_ERR_DEV", F_DEV, 1, '3', 0 },
	{ "IWL_ERR_LIMIT", F_DEV, 1, '3', 0 }, { "__IWL_ERR_DEV", F_DEV, 2, '3', 0 },
	{ "__iwl_err", F_DEV, 2, '3', 0 },
	{ "IWL_WARN", F_DEV, 1, '4', 0 }, { "__iwl_warn", F_DEV, 1, '4', 0 },
	{ "IWL_INFO", F_DEV, 1, '6', 0 }, { "__iwl_info", F_DEV, 1, '6', 0 },
	{ "IWL_CRIT", F_DEV, 1, '2', 0 }, { "__iwl_crit", F_DEV, 1, '2', 0 },
	/* dvm's: IWL_ERR() unless the radio is killed */
	{ "IWL_DEBUG_QUIET_RFKILL", F_DEV, 1, '3', 0 },
	/*
	 * A word between the device's prefix and the format: ath11k's debug
	 * mask ("boot "), iwlwifi's function ("iwl_pcie_apm_init ").
	 */
	{ "ath11k_dbg", F_WRAP, 2, '7', 0 }, { "__ath11k_dbg", F_WRAP, 2, '7', 0 },
	{ "__iwl_dbg", F_WRAP, 4, '7', 0 }, { "__IWL_DEBUG_DEV", F_WRAP, 3, '7', 0 },
	{ "IWL_DEBUG", F_WRAP, 2, '7', 0 }, { "IWL_DEBUG_DEV", F_WRAP, 2, '7', 0 },
	{ "IWL_DEBUG_LIMIT", F_WRAP, 2, '7', 0 },
	/* iwl-debug.h's forty IWL_DEBUG_<class>(priv, fmt, ...): a prefix */
	{ "IWL_DEBUG_*", F_WRAP, 1, '7', 0 },
	/*
	 * "ath: phy0: " (or "ath: "), "brcmfmac: <function>: " and
	 * brcmf_dbg()'s "brcmfmac: <function> ".  brcmf_info() is brcmf_err()
	 * in DEBUG and tracing builds, else pr_info("%s: " fmt, __func__):
	 * the same text, at the level of the latter.
	 */
	{ "ath_printk", F_WRAP, 2, 0, 0 },
	{ "ath_emerg", F_WRAP, 1, '0', 0 }, { "ath_alert", F_WRAP, 1, '1', 0 },
	{ "ath_crit", F_WRAP, 1, '2', 0 }, { "ath_err", F_WRAP, 1, '3', 0 },
	{ "ath_warn", F_WRAP, 1, '4', 0 }, { "ath_notice", F_WRAP, 1, '5', 0 },
	{ "ath_info", F_WRAP, 1, '6', 0 }, { "ath_dbg", F_WRAP, 2, '7', 0 },
	{ "brcmf_err", F_WRAP, 0, '3', 0 }, { "__brcmf_err", F_WRAP, 2, '3', 0 },
	{ "brcmf_info", F_WRAP, 0, '6', 0 },
	{ "brcmf_dbg", F_WRAP, 1, '7', 0 }, { "__brcmf_dbg", F_WRAP, 2, '7', 0 },
	/*
	 * wil6210's netdev_*(main_ndev, "%pV"): by the names its wil_err()
	 * and wil_info() macros call with "%s: " fmt and __func__, so that
	 * the extracted format is the one these functions get.
	 */
	{ "__wil_err", F_NETDEV, 1, '3', 0 }, { "__wil_info", F_NETDEV, 1, '6', 0 },
	/*
	 * RDMA's ibdev_*(): "driver device ibdev: " like a net device's, or
	 * "ibdev: " without a parent; ibdev_dbg() prints the same, at
	 * KERN_DEBUG, through dynamic debug.
	 */
	{ "ibdev_printk", F_NETDEV, 2, 0, 0 },
	{ "ibdev_emerg", F_NETDEV, 1, '0', 0 }, { "ibdev_alert", F_NETDEV, 1, '1', 0 },
	{ "ibdev_crit", F_NETDEV, 1, '2', 0 }, { "ibdev_err", F_NETDEV, 1, '3', 0 },
	{ "ibdev_warn", F_NETDEV, 1, '4', 0 }, { "ibdev_notice", F_NETDEV, 1, '5', 0 },
	{ "ibdev_info", F_NETDEV, 1, '6', 0 }, { "ibdev_dbg", F_NETDEV, 1, '7', 0 },
	/*
	 * Prefixes ending in ": ": rsi_dbg()'s pr_info() "rsi_91x: ",
	 * ath6kl's "ath6kl: ", UBI's "ubi0: " ("ubi0 error: <function>: "),
	 * UBIFS's "UBIFS (ubi0:0): " ("UBIFS error (ubi0:0 pid 1): <function>: "),
	 * qedf's "[0000:03:00.2]:[<function>:<line>]:<host>: ".  9p's
	 * p9_debug() prints "9pnet: (<pid>) " for P9_DEBUG_9P, else
	 * "9pnet: -- <function> (<pid>): ", several words recovery does not
	 * look behind.
	 */
	{ "rsi_dbg", F_WRAP, 1, '6', 0 },
	{ "ath6kl_err", F_WRAP, 0, '3', 0 }, { "ath6kl_warn", F_WRAP, 0, '4', 0 },
	{ "ath6kl_info", F_WRAP, 0, '6', 0 }, { "ath6kl_dbg", F_WRAP, 1, '7', 0 },
	{ "ubi_msg", F_WRAP, 1, '5', 0 }, { "ubi_warn", F_WRAP, 1, '4', 0 },
	{ "ubi_err", F_WRAP, 1, '3', 0 },
	{ "ubifs_msg", F_WRAP, 1, '5', 0 }, { "ubifs_warn", F_WRAP, 1, '4', 0 },
	{ "ubifs_err", F_WRAP, 1, '3', 0 },
	{ "p9_debug", F_WRAP, 1, '5', 0 }, { "_p9_debug", F_WRAP, 2, '5', 0 },
	{ "QEDF_ERR", F_WRAP, 1, '3', 0 }, { "QEDF_WARN", F_WRAP, 1, '4', 0 },
	{ "QEDF_NOTICE", F_WRAP, 1, '5', 0 }, { "QEDF_INFO", F_WRAP, 2, '6', 0 },
	{ "qedf_dbg_err", F_WRAP, 3, '3', 0 }, { "qedf_dbg_warn", F_WRAP, 3, '4', 0 },
	{ "qedf_dbg_notice", F_WRAP, 3, '5', 0 }, { "qedf_dbg_info", F_WRAP, 4, '6', 0 },
	/* qedi's: the same text as qedf's */
	{ "QEDI_ERR", F_WRAP, 1, '3', 0 }, { "QEDI_WARN", F_WRAP, 1, '4', 0 },
	{ "QEDI_NOTICE", F_WRAP, 1, '5', 0 }, { "QEDI_INFO", F_WRAP, 2, '6', 0 },
	{ "qedi_dbg_err", F_WRAP, 3, '3', 0 }, { "qedi_dbg_warn", F_WRAP, 3, '4', 0 },
	{ "qedi_dbg_notice", F_WRAP, 3, '5', 0 }, { "qedi_dbg_info", F_WRAP, 4, '6', 0 },
	/*
	 * mlx4_en's en_print(): "mlx4_en: <ifname>: ", or before the net
	 * device is registered "mlx4_en: <pci device>: Port <n>: ", which
	 * has words past the one recovery looks behind.
	 */
	{ "en_print", F_WRAP, 2, 0, 0 },
	{ "en_err", F_WRAP, 1, '3', 0 }, { "en_warn", F_WRAP, 1, '4', 0 },
	{ "en_info", F_WRAP, 1, '6', 0 }, { "en_dbg", F_WRAP, 2, '7', 0 },
	/*
	 * ath5k's "ath5k: <phy>: " (or "ath5k: ").  ATH5K_DBG() and
	 * ATH5K_DBG_UNLIMIT() are left to their macros in debug.h, which put
	 * "(%s:%d): " with the function and line before the caller's format.
	 */
	{ "_ath5k_printk", F_WRAP, 2, 0, 1 }, { "ATH5K_PRINTK", F_WRAP, 2, 0, 1 },
	{ "ATH5K_ERR", F_WRAP, 1, '3', 0 }, { "ATH5K_WARN", F_WRAP, 1, '4', 0 },
	{ "ATH5K_INFO", F_WRAP, 1, '6', 0 },
	/* nilfs2's "NILFS (<device>): " (or "NILFS: "), the level off the format */
	{ "__nilfs_msg", F_WRAP, 1, 0, 0 }, { "nilfs_msg", F_WRAP, 2, 0, 1 },
	{ "nilfs_crit", F_WRAP, 1, '2', 0 }, { "nilfs_err", F_WRAP, 1, '3', 0 },
	{ "nilfs_warn", F_WRAP, 1, '4', 0 }, { "nilfs_info", F_WRAP, 1, '6', 0 },
	/*
	 * ocfs2's "(<task>,<pid>,<cpu>):<function>:<line> ", and "ERROR: "
	 * for ML_ERROR: only then does a ": " end the prefix.  The level
	 * comes from the mask at run time (ML_ERROR: KERN_ERR, ML_NOTICE:
	 * KERN_NOTICE, else KERN_INFO) and is left unknown, but for the
	 * macros that always pass ML_ERROR.  <cluster/masklog.h> is not
	 * read, so mlog_errno()'s own format is given here.
	 */
	{ "__mlog_printk", F_WRAP, 3, 0, 0 }, { "mlog", F_WRAP, 1, 0, 0 },
	{ "mlog_bug_on_msg", F_WRAP, 1, '3', 0 },
	{ "mlog_errno", F_WRAP, FMT_OWN, '3', 0 },
	/*
	 * tda18271's "<function>: [<adapter>-<address>|<M or S>] " (or
	 * "<function>: "); tda_fail()'s own format is read from its macro
	 * in tda18271-priv.h.
	 */
	{ "_tda_printk", F_WRAP, 3, 0, 1 }, { "tda_printk", F_WRAP, 2, 0, 1 },
	{ "tda_err", F_WRAP, 0, '3', 0 }, { "tda_warn", F_WRAP, 0, '4', 0 },
	{ "tda_dbg", F_WRAP, 0, '7', 0 }, { "tda_map", F_WRAP, 0, '7', 0 },
	{ "tda_reg", F_WRAP, 0, '7', 0 }, { "tda_cal", F_WRAP, 0, '7', 0 },
	/* jfs's pr_err("ERROR: (device <device>): <caller>: "): more words than recovery reads */
	{ "jfs_error", F_WRAP, 1, '3', 0 },
};

static const char *own_format(const struct call *c)
{
	return !strcmp(c->name, "mlog_errno") ? "status = %lld" : "";
}

/*
 * What ACPICA's acpi_error() and its siblings print around the caller's
 * format, after the "ACPI Error: " prefix: the exception's name before it
 * (the _EXCEPTION macros; their success case, which leaves it out, is
 * not told apart) and the version, module and line after it (all but
 * ACPI_INFO()).  With the kernel series' ACPICA patch this is the record's
 * FORMAT; a stock kernel prints the same text.
 */
static void acpi_fix(const struct call *c, const char **pre, const char **post)
{
	*pre = c->fmt_arg == 2 ? "%s, " : "";
	*post = c->fmt_arg ? KD_ACPI_SUFFIX : "";
}

/*
 * The call an identifier names, its _once/_ratelimited/... suffix ignored.
 * A name ending in '*' is a prefix, for the calls no other name is.
 */
static const struct call *find_call(const char *s, size_t n)
{
	enum { NCALLS = sizeof(calls) / sizeof(calls[0]) };
	const struct call *pre = NULL;
	static const char *const suffixes[] = { "_once", "_ratelimited", "_deferred_once" };
	/*
	 * Most identifiers start with a letter no call starts with, or are
	 * shorter than any (ocfs2's mlog() is the shortest); the names'
	 * lengths are compared before their bytes: made once.
	 */
	static bool first[256], made;
	static size_t shortest = (size_t)-1, len[NCALLS];
	size_t base = n;

	if (!made) {
		for (size_t i = 0; i < NCALLS; i++) {
			len[i] = strlen(calls[i].name);
			first[(unsigned char)calls[i].name[0]] = true;
			if (len[i] < shortest)
				shortest = len[i];
		}
		made = true;
	}
	if (n < shortest || !first[(unsigned char)s[0]])
		return NULL;
	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t l = strlen(suffixes[i]);

		if (n > l && memcmp(s + n - l, suffixes[i], l) == 0) {
			base = n - l;
			break;
		}
	}
	for (size_t i = 0; i < NCALLS; i++) {
		size_t l = len[i];

		if (calls[i].name[l - 1] == '*') {
			if (!pre && base >= l && memcmp(calls[i].name, s, l - 1) == 0)
				pre = &calls[i];
		} else if (l == base && memcmp(calls[i].name, s, base) == 0) {
			return &calls[i];
		}
	}
	return pre;
}

bool kd_csource_is_call(const char *s, size_t n)
{
	return find_call(s, n) != NULL;
}

/*
 * The arguments of a call, after its '(': the tokens of argument @want
 * (at most ARG_TOKENS) and of argument @lvl (the first 4).  Consumes up to
 * the closing ')'.
 */
static int call_args(struct kd_clex *lx, unsigned int want, struct kd_ctoken *fa,
		     unsigned int *nfa, unsigned int lvl, struct kd_ctoken *a0, unsigned int *na0)
{
	unsigned int arg = 0, depth = 0, ppdepth = 0, skipping = 0;
	int step;
	bool over = false;
	struct kd_ctoken t;

	*nfa = *na0 = 0;
	for (;;) {
		struct kd_clex before = *lx;

		kd_csource_lex_next(lx, &t);
		if (t.t == KD_CTOK_EOF)
			return -1;
		/*
		 * A ';' or '}' outside brackets ends no call: the ')' was in a
		 * branch of an #if not taken ("pr_warn(\n#else\npr_err(").
		 * Left to the caller, so that its count of braces stays right.
		 */
		if (!skipping && !depth && t.t == KD_CTOK_PUNCT && (*t.s == ';' || *t.s == '}')) {
			*lx = before;
			return -1;
		}
		if (t.t == KD_CTOK_PP) {
			/*
			 * Conditional pieces of a format: guess the option off,
			 * keep the #else branch (as for CONFIG_HIGHMEM in
			 * mem_init_print_info()).
			 */
			const char *d = t.s + 1;

			while (*d == ' ' || *d == '\t')
				d++;
			if (!strncmp(d, "if", 2)) {
				ppdepth++;
				if (!skipping)
					skipping = ppdepth;
			} else if (!strncmp(d, "el", 2)) {
				if (skipping == ppdepth && !strncmp(d, "else", 4))
					skipping = 0;
				else if (!skipping)
					skipping = ppdepth;
			} else if (!strncmp(d, "endif", 5) && ppdepth) {
				if (skipping == ppdepth)
					skipping = 0;
				ppdepth--;
			}
			continue;
		}
		if (skipping)
			continue;
		step = kd_ctoken_arg_step(&t, &depth);
		if (step < 0)
			break;
		if (step > 0) {
			arg++;
			continue;
		}
		if (arg == want) {
			if (*nfa < ARG_TOKENS)
				fa[(*nfa)++] = t;
			else
				over = true;
		}
		if (arg == lvl && *na0 < 4)
			a0[(*na0)++] = t;
	}
	return over ? -1 : 0;
}

/*
 * Put @pre before and @post after the @*at bytes of @fmt (@cap bytes):
 * pr_fmt()'s and dev_fmt()'s, or what ACPICA prints around the caller's
 * format.  False when it does not fit.
 */
static bool surround(char *fmt, size_t *at, size_t cap, const char *pre, size_t pl,
		     const char *post, size_t ql)
{
	if (*at + pl + ql > cap)
		return false;
	memmove(fmt + pl, fmt, *at);
	memcpy(fmt, pre, pl);
	memcpy(fmt + pl + *at, post, ql);
	*at += pl + ql;
	return true;
}

static int on_call(struct kd_cscan *sc, struct kd_clex *lx, const struct call *c, unsigned int line)
{
	struct kd_ctoken fa[ARG_TOKENS], a0[4];
	unsigned int nfa, na0;
	char fmt[FMT_MAX * 3], lv[FMT_MAX];
	size_t at = 0, lv_len = 0;
	/*
	 * dev_printk() itself does not apply dev_fmt(), nor does a driver's
	 * wrapper to its caller's format (ath10k_warn()).
	 */
	const struct kd_cwrap *w = c->fam == F_PR ? &sc->pr :
			       c->fam == F_DEV && c->fmt_arg == 1 &&
			       !strncmp(c->name, "dev_", 4) ? &sc->dev : NULL;
	char level = c->level;
	struct kd_csource_msg m;

	sc->st->calls++;
	if (c->fam == F_ACPI) {
		/* the inner '(' of ACPI_ERROR((...)); its ')' ends the arguments */
		struct kd_clex save = *lx;
		struct kd_ctoken p;

		kd_csource_lex_next(lx, &p);
		if (p.t != KD_CTOK_PUNCT || *p.s != '(') {
			*lx = save;
			sc->st->skipped++;
			return 0;
		}
	}
	if (call_args(lx, c->fmt_arg, fa, &nfa, c->lvl_arg, a0, &na0) < 0 ||
	    (c->fmt_arg != FMT_OWN &&
	     (nfa == 0 || (w && w->bad) || !kd_csource_eval(sc, fa, nfa, fmt, &at)))) {
		sc->st->skipped++;
		return 0;
	}
	if (c->fmt_arg == FMT_OWN) {
		const char *own = own_format(c);

		at = strlen(own);
		memcpy(fmt, own, at);
	}
	if (c->fam == F_ACPI) {
		struct kd_clex save = *lx;
		struct kd_ctoken p;

		kd_csource_lex_next(lx, &p);	/* the outer ')' */
		if (p.t != KD_CTOK_PUNCT || *p.s != ')')
			*lx = save;
	}
	/*
	 * dev_printk(KERN_x, ...): the level is argument 0 (1 for some
	 * wrappers; _tda_printk()'s format is argument 3).
	 */
	if (!level && c->fmt_arg >= 2 && na0 == 1 && kd_csource_eval(sc, a0, 1, lv, &lv_len) &&
	    lv_len == 2 && lv[0] == '\001')
		level = lv[1];
	/* Leading KERN_* of the format itself. */
	{
		size_t skip = 0;

		while (at - skip >= 2 && fmt[skip] == '\001') {
			if (!level || c->fam == F_PRINTK)
				level = fmt[skip + 1];
			skip += 2;
		}
		memmove(fmt, fmt + skip, at - skip);
		at -= skip;
	}
	/*
	 * A continuation fragment ('c') is kept: a kernel that keeps the
	 * parts of a continued record names its format (PART<k>_FORMAT).
	 */
	if (level && level != 'c' && (level < '0' || level > '7'))
		level = 0;
	if (w && (w->pre_len || w->post_len) &&
	    !surround(fmt, &at, sizeof(fmt), w->pre, w->pre_len, w->post, w->post_len)) {
		sc->st->skipped++;
		return 0;
	}
	if (c->fam == F_ACPI) {
		const char *pre, *post;

		acpi_fix(c, &pre, &post);
		if (!surround(fmt, &at, sizeof(fmt), pre, strlen(pre), post, strlen(post))) {
			sc->st->skipped++;
			return 0;
		}
	}
	if (at && fmt[at - 1] == '\n')
		at--;
	if (!at) {
		/* pr_cont("\n") ends a line: not a format left out */
		if (level != 'c')
			sc->st->skipped++;
		return 0;
	}
	sc->st->found++;
	m.file = sc->file;
	m.line = line;
	m.func = sc->func;
	m.module = sc->module;
	m.level = level;
	m.family = c->fam == F_DEV ? 'd' : c->fam == F_NETDEV ? 'n' : c->fam == F_ACPI ? 'a' :
		   c->fam == F_DEVPROBE ? 'e' : c->fam == F_WRAP ? 'w' : 'p';
	m.fmt = fmt;
	m.fmt_len = at;
	return sc->fn(sc->data, &m);
}

static int scan_text(struct kd_cscan *sc, const char *text, size_t len);

bool kd_csource_join_include(char *out, size_t cap, const char *dir, size_t dl,
			     const char *name, size_t n)
{
	while (n >= 3 && memcmp(name, "../", 3) == 0) {
		const char *up;

		if (!dl)
			return false;
		up = memrchr(dir, '/', dl - 1);
		dl = up ? (size_t)(up - dir + 1) : 0;
		name += 3;
		n -= 3;
	}
	if (!n || memmem(name, n, "../", 3) || memmem(name, n, "/..", 3) || dl + n >= cap)
		return false;
	memcpy(out, dir, dl);
	memcpy(out + dl, name, n);
	out[dl + n] = '\0';
	return true;
}

/*
 * #include "x.h" of a file in the same directory, a subdirectory or one
 * above ("../integrity.h" in security/integrity/ima/ima.h): scan it where
 * it is included, so that the includer's pr_fmt() and KBUILD_MODNAME
 * apply (as for kernel/rcu/tree_plugin.h in tree.c), and its own pr_fmt()
 * (integrity.h's KBUILD_MODNAME ": ") for the includer after it.  Two
 * levels at most.
 */
static int on_include(struct kd_cscan *sc, const struct kd_ctoken *pp)
{
	const char *p = pp->s + 1, *e = pp->s + pp->n, *q, *slash;
	char path[4096], file[4096];
	const char *save_file = sc->file, *save_path = sc->path;
	char save_func[sizeof(sc->func)];
	size_t n, dl, fl;
	char *text = NULL;
	int fd, rc = 0;
	struct stat st;

	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (!sc->path || sc->depth >= 2 || e - p < 10 || memcmp(p, "include", 7) != 0)
		return 0;
	p += 7;
	while (p < e && (*p == ' ' || *p == '\t'))
		p++;
	if (p >= e || *p != '"' || !(q = memchr(p + 1, '"', (size_t)(e - p - 1))))
		return 0;
	n = (size_t)(q - p - 1);
	if (n < 3 || p[1] == '/' || p[n - 1] != '.' || p[n] != 'h')
		return 0;
	slash = strrchr(sc->path, '/');
	dl = slash ? (size_t)(slash - sc->path + 1) : 0;
	slash = strrchr(sc->file, '/');
	fl = slash ? (size_t)(slash - sc->file + 1) : 0;
	if (!kd_csource_join_include(path, sizeof(path), sc->path, dl, p + 1, n) ||
	    !kd_csource_join_include(file, sizeof(file), sc->file, fl, p + 1, n))
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size < (16 << 20) &&
	    (text = malloc((size_t)st.st_size + 1)) &&
	    read(fd, text, (size_t)st.st_size) == st.st_size) {
		memcpy(save_func, sc->func, sizeof(save_func));
		sc->file = file;
		sc->path = path;
		sc->depth++;
		rc = scan_text(sc, text, (size_t)st.st_size);
		sc->depth--;
		sc->file = save_file;
		sc->path = save_path;
		memcpy(sc->func, save_func, sizeof(save_func));
	}
	free(text);
	close(fd);
	return rc;
}

/* Wrappers inside wrappers: as deep as the kernel's (ata_port_err -> ata_port_printk -> pr_err). */
#define EXPAND_DEPTH	4
#define EXPAND_MAX	16384

static int try_call(struct kd_cscan *sc, struct kd_clex *lx, const struct kd_ctoken *t,
		    unsigned int line);

/* A use of wrapper @w (after its '('): the message calls of its expansion. */
static int on_wrapper(struct kd_cscan *sc, struct kd_clex *lx, const struct kd_csource_wrapper *w,
		      unsigned int line)
{
	char *buf = malloc(EXPAND_MAX);
	struct kd_clex ex;
	struct kd_ctoken t;
	ssize_t n;
	int rc = 0;

	if (!buf)
		return -ENOMEM;
	n = kd_csource_macros_expand(w, lx, buf, EXPAND_MAX);
	if (n < 0) {
		sc->st->calls++;
		sc->st->skipped++;
		free(buf);
		return 1;
	}
	ex = (struct kd_clex){ buf, buf + n, line, false };
	sc->expanding++;
	for (kd_csource_lex_next(&ex, &t); t.t != KD_CTOK_EOF && rc >= 0; kd_csource_lex_next(&ex, &t))
		if (t.t == KD_CTOK_IDENT)
			rc = try_call(sc, &ex, &t, line);
	sc->expanding--;
	free(buf);
	return rc < 0 ? rc : 1;
}

/*
 * Identifier @t of @lx: when it is a message call or a wrapper and '('
 * follows, handle the call (consumed up to its ')') and return 1; 0 when
 * it is none (@lx unchanged); <0 for an error.
 */
static int try_call(struct kd_cscan *sc, struct kd_clex *lx, const struct kd_ctoken *t,
		    unsigned int line)
{
	const struct call *c = find_call(t->s, t->n);
	const struct kd_csource_wrapper *w = NULL;
	struct kd_clex save = *lx;
	struct kd_ctoken p;
	int rc;

	if (!c && sc->expanding < EXPAND_DEPTH)
		w = kd_csource_macros_find(sc->local, sc->global, t->s, t->n);
	if (!c && !w)
		return 0;
	kd_csource_lex_next(lx, &p);
	if (p.t != KD_CTOK_PUNCT || *p.s != '(') {
		*lx = save;
		return 0;
	}
	rc = c ? on_call(sc, lx, c, line) : on_wrapper(sc, lx, w, line);
	return rc < 0 ? rc : 1;
}

/*
 * The brace depth across #if/#else: the compiler sees one branch, so each
 * branch starts at the depth of its #if, and after #endif the depth is
 * the first branch's (an "if (x) {" in both branches opens one block).
 */
struct ppstack {
	int at_if[32], after_first[32];
	unsigned int n;
};

static void pp_depth(struct ppstack *ps, const struct kd_ctoken *t, int *depth)
{
	const char *d = t->s + 1, *e = t->s + t->n;
	unsigned int k;

	while (d < e && (*d == ' ' || *d == '\t'))
		d++;
	if (e - d >= 2 && !strncmp(d, "if", 2)) {
		if (ps->n < 32) {
			ps->at_if[ps->n] = *depth;
			ps->after_first[ps->n] = -1;
		}
		ps->n++;
	} else if (e - d >= 4 && (!strncmp(d, "else", 4) || !strncmp(d, "elif", 4))) {
		if (ps->n && (k = ps->n - 1) < 32) {
			if (ps->after_first[k] < 0)
				ps->after_first[k] = *depth;
			*depth = ps->at_if[k];
		}
	} else if (e - d >= 5 && !strncmp(d, "endif", 5) && ps->n) {
		if ((k = --ps->n) < 32 && ps->after_first[k] >= 0)
			*depth = ps->after_first[k];
	}
}

static int scan_text(struct kd_cscan *sc, const char *text, size_t len)
{
	struct kd_clex lx = { text, text + len, 1, true };
	struct kd_ctoken t, prev = { .t = KD_CTOK_EOF };
	struct ppstack ps = { .n = 0 };
	char cand[128] = "";
	int depth = 0, paren = 0, rc = 0;

	for (kd_csource_lex_next(&lx, &t); t.t != KD_CTOK_EOF && rc == 0;
	     prev = t, kd_csource_lex_next(&lx, &t)) {
		if (t.t == KD_CTOK_PP) {
			int was = depth;

			pp_depth(&ps, &t, &depth);
			if (was > 0 && depth == 0)
				sc->func[0] = '\0';
			kd_csource_define(sc, &t);
			rc = on_include(sc, &t);
			t = prev;	/* invisible to the function detection */
			continue;
		}
		if (t.t == KD_CTOK_IDENT && depth > 0 && (rc = try_call(sc, &lx, &t, t.line)) != 0) {
			if (rc > 0)
				rc = 0;
			t.t = KD_CTOK_PUNCT;	/* the call, consumed, reads as its ')' */
			t.s = ")";
			continue;
		}
		if (t.t != KD_CTOK_PUNCT)
			continue;
		switch (*t.s) {
		case '(':
			if (depth == 0 && paren == 0 && prev.t == KD_CTOK_IDENT && prev.n < sizeof(cand)) {
				memcpy(cand, prev.s, prev.n);
				cand[prev.n] = '\0';
			}
			paren++;
			break;
		case ')':
			if (paren > 0)
				paren--;
			break;
		case '{':
			if (depth == 0)
				strcpy(sc->func, prev.t == KD_CTOK_PUNCT && *prev.s == ')' ? cand : "");
			depth++;
			break;
		case '}':
			if (depth > 0 && --depth == 0)
				sc->func[0] = '\0';
			break;
		case ';':
			if (depth == 0)
				cand[0] = '\0';
			break;
		}
	}
	return rc;
}

int kd_csource_scan(const char *text, size_t len, const char *file, const char *path,
		    const char *module, const struct kd_csource_macros *macros,
		    int (*fn)(void *data, const struct kd_csource_msg *m),
		    void *data, struct kd_csource_stats *st)
{
	struct kd_csource_stats dummy = { 0 };
	struct kd_cscan *sc = calloc(1, sizeof(*sc));
	const char *base = strrchr(file, '/');
	size_t bl;
	int rc;

	if (!sc)
		return -ENOMEM;
	sc->file = file;
	sc->path = path;
	sc->module = module;
	sc->global = macros;
	sc->fn = fn;
	sc->data = data;
	sc->st = st ? st : &dummy;
	base = base ? base + 1 : file;
	bl = strcspn(base, ".");
	if (bl >= sizeof(sc->basename))
		bl = sizeof(sc->basename) - 1;
	kd_modname_copy(sc->basename, base, bl);
	rc = scan_text(sc, text, len);
	for (unsigned int i = 0; i < sc->nmacros; i++)
		free(sc->macro[i].val);
	free(sc->pr.pre);
	free(sc->pr.post);
	free(sc->dev.pre);
	free(sc->dev.post);
	kd_csource_macros_free(sc->local);
	free(sc);
	return rc;
}
