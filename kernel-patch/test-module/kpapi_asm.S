/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Part of the kprint_api test module: assembly callers of kprint_asm(),
 * the entry point of issue 4 for assembly code, without a call site and
 * with one (kprint_asm_site(), KPRINT_ASM_SITE), and of kprint_early(),
 * which assembly can call too (after boot it logs directly).  Built only
 * when the kernel exports them (see Kbuild).
 */
#include <linux/linkage.h>
#ifdef KPAPI_HAVE_ASM_SITE
#include <linux/kprint_asm.h>
#endif

#ifdef KPAPI_HAVE_ASM_SYM
	.section .rodata.str1.1, "aMS", @progbits, 1
.Lkpapi_fmt:
	.asciz "kpapi:asm level=%d from=%s"
.Lkpapi_from:
	.asciz "asm"

	.text
/* int kpapi_asm_call(void): kprint_asm(6, fmt, 6, "asm") */
SYM_FUNC_START(kpapi_asm_call)
	push	%rbx			/* realigns the stack to 16 bytes */
	mov	$6, %edi
	leaq	.Lkpapi_fmt(%rip), %rsi
	mov	$6, %edx
	leaq	.Lkpapi_from(%rip), %rcx
	xor	%eax, %eax		/* varargs: no vector registers */
	call	kprint_asm
	pop	%rbx
	RET
SYM_FUNC_END(kpapi_asm_call)

	.section .rodata.str1.1, "aMS", @progbits, 1
.Lkpapi_ctx_fmt:
	.asciz "kpapi:asm_ctx from=%s"

	.text
/* int kpapi_asm_ctx_call(const char *ctx): kprint_asm(6, fmt, ctx) */
SYM_FUNC_START(kpapi_asm_ctx_call)
	push	%rbx			/* realigns the stack to 16 bytes */
	mov	%rdi, %rdx
	mov	$6, %edi
	leaq	.Lkpapi_ctx_fmt(%rip), %rsi
	xor	%eax, %eax		/* varargs: no vector registers */
	call	kprint_asm
	pop	%rbx
	RET
SYM_FUNC_END(kpapi_asm_ctx_call)
#endif

#ifdef KPAPI_HAVE_ASM_SITE
/* the line of this KPRINT_ASM_SITE is the record's CODE_LINE */
KPRINT_ASM_SITE .Lkpapi_site, kpapi_asm_site_call, "kpapi:asm_site level=%d from=%s", __LINE__

	.section .rodata.str1.1, "aMS", @progbits, 1
.Lkpapi_site_from:
	.asciz "asm_site"

	.text
/* int kpapi_asm_site_call(void): kprint_asm_site(&site, 3, 3, "asm_site") */
SYM_FUNC_START(kpapi_asm_site_call)
	push	%rbx			/* realigns the stack to 16 bytes */
	leaq	.Lkpapi_site(%rip), %rdi
	mov	$3, %esi
	mov	$3, %edx
	leaq	.Lkpapi_site_from(%rip), %rcx
	xor	%eax, %eax		/* varargs: no vector registers */
	call	kprint_asm_site
	pop	%rbx
	RET
SYM_FUNC_END(kpapi_asm_site_call)
#endif

#ifdef KPAPI_HAVE_EARLY_SYM
	.section .rodata.str1.1, "aMS", @progbits, 1
.Lkpapi_early_fmt:
	.asciz "\0013kpapi:asm_early v=%d"	/* KERN_ERR */

	.text
/* void kpapi_asm_early_call(void): kprint_early(KERN_ERR fmt, 44) */
SYM_FUNC_START(kpapi_asm_early_call)
	push	%rbx			/* realigns the stack to 16 bytes */
	leaq	.Lkpapi_early_fmt(%rip), %rdi
	mov	$44, %esi
	xor	%eax, %eax		/* varargs: no vector registers */
	call	kprint_early
	pop	%rbx
	RET
SYM_FUNC_END(kpapi_asm_early_call)
#endif
