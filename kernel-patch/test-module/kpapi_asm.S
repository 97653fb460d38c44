/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Part of the kprint_api test module: assembly callers of kprint_asm(),
 * the entry point of issue 4 for assembly code, without a call site and
 * with one (kprint_asm_site(), KPRINT_ASM_SITE), and of kprint_early(),
 * which assembly can call too (after boot it logs directly).  Built only
 * when the kernel exports them (see Kbuild).  The same four callers in
 * x86_64 and in arm64 code; the records must not tell them apart.
 */
#include <linux/linkage.h>
#ifdef KPAPI_HAVE_ASM_SITE
#include <linux/kprint_asm.h>
#endif

/*
 * The formats and strings of the calls, and the call site of the one with
 * a descriptor: the same for both architectures' code below.
 */
	.section .rodata.str1.1, "aMS", @progbits, 1
#ifdef KPAPI_HAVE_ASM_SYM
.Lkpapi_fmt:
	.asciz "kpapi:asm level=%d from=%s"
.Lkpapi_from:
	.asciz "asm"
.Lkpapi_ctx_fmt:
	.asciz "kpapi:asm_ctx from=%s"
#endif
#ifdef KPAPI_HAVE_ASM_SITE
.Lkpapi_site_from:
	.asciz "asm_site"
#endif
#ifdef KPAPI_HAVE_EARLY_SYM
.Lkpapi_early_fmt:
	.asciz "\0013kpapi:asm_early v=%d"	/* KERN_ERR */
#endif

#ifdef KPAPI_HAVE_ASM_SITE
/* the line of this KPRINT_ASM_SITE is the record's CODE_LINE */
KPRINT_ASM_SITE .Lkpapi_site, kpapi_asm_site_call, "kpapi:asm_site level=%d from=%s", __LINE__
#endif

	.text
#if defined(CONFIG_X86_64)

#ifdef KPAPI_HAVE_ASM_SYM
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

#elif defined(CONFIG_ARM64)

#ifdef KPAPI_HAVE_ASM_SYM
/* int kpapi_asm_call(void): kprint_asm(6, fmt, 6, "asm") */
SYM_FUNC_START(kpapi_asm_call)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	w0, #6
	adrp	x1, .Lkpapi_fmt
	add	x1, x1, :lo12:.Lkpapi_fmt
	mov	w2, #6
	adrp	x3, .Lkpapi_from
	add	x3, x3, :lo12:.Lkpapi_from
	bl	kprint_asm
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpapi_asm_call)

/* int kpapi_asm_ctx_call(const char *ctx): kprint_asm(6, fmt, ctx) */
SYM_FUNC_START(kpapi_asm_ctx_call)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	mov	x2, x0
	mov	w0, #6
	adrp	x1, .Lkpapi_ctx_fmt
	add	x1, x1, :lo12:.Lkpapi_ctx_fmt
	bl	kprint_asm
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpapi_asm_ctx_call)
#endif

#ifdef KPAPI_HAVE_ASM_SITE
/* int kpapi_asm_site_call(void): kprint_asm_site(&site, 3, 3, "asm_site") */
SYM_FUNC_START(kpapi_asm_site_call)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x0, .Lkpapi_site
	add	x0, x0, :lo12:.Lkpapi_site
	mov	w1, #3
	mov	w2, #3
	adrp	x3, .Lkpapi_site_from
	add	x3, x3, :lo12:.Lkpapi_site_from
	bl	kprint_asm_site
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpapi_asm_site_call)
#endif

#ifdef KPAPI_HAVE_EARLY_SYM
/* void kpapi_asm_early_call(void): kprint_early(KERN_ERR fmt, 44) */
SYM_FUNC_START(kpapi_asm_early_call)
	stp	x29, x30, [sp, #-16]!
	mov	x29, sp
	adrp	x0, .Lkpapi_early_fmt
	add	x0, x0, :lo12:.Lkpapi_early_fmt
	mov	w1, #44
	bl	kprint_early
	ldp	x29, x30, [sp], #16
	ret
SYM_FUNC_END(kpapi_asm_early_call)
#endif

#else
#error "kpapi_asm.S: assembly callers for x86_64 and arm64 only"
#endif
