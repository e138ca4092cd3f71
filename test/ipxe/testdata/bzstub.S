/*
 * bzstub: the kernel iPXE boots on BIOS, in place of Linux. A bzImage of
 * boot protocol 2.15 whose header says what Linux's arch/x86/boot/header.S
 * says to a boot loader (loaded high, cmdline_size 2047, as
 * COMMAND_LINE_SIZE - 1 on x86), and whose real-mode entry, the first code
 * a boot loader runs, prints on COM1 the command line at cmd_line_ptr, as
 * hex, up to its NUL or cmdline_size bytes (what Linux copies), between
 * two markers; then it writes to QEMU's isa-debug-exit port, which ends
 * QEMU at once.
 *
 * Built as bzstubImage in stubs_test.go (TestStubsAreTheirSource):
 *   as --32 -o bzstub.o bzstub.S
 *   ld -m elf_i386 -Ttext 0 --oformat binary -o bzstub.bin bzstub.o
 */
	.code16
	.section .text
	.globl _start
_start:
	.org 0x1f1
setup_sects:	.byte 1
root_flags:	.word 0
syssize:	.long 1
ram_size:	.word 0
vid_mode:	.word 0xffff
root_dev:	.word 0
boot_flag:	.word 0xaa55
	/* 0x200: the real-mode entry (CS = DS + 0x20, IP = 0) */
	jmp	start_of_setup
header:		.ascii "HdrS"
version:	.word 0x020f
realmode_swtch:	.long 0
start_sys_seg:	.word 0
kernel_version:	.word 0
type_of_loader:	.byte 0
loadflags:	.byte 0x01
setup_move_size: .word 0x8000
code32_start:	.long 0x100000
ramdisk_image:	.long 0
ramdisk_size:	.long 0
bootsect_kludge: .long 0
heap_end_ptr:	.word 0
ext_loader_ver:	.byte 0
ext_loader_type: .byte 0
cmd_line_ptr:	.long 0
initrd_addr_max: .long 0x7fffffff
kernel_alignment: .long 0x200000
relocatable_kernel: .byte 0
min_alignment:	.byte 0
xloadflags:	.word 0
cmdline_size:	.long 2047
hardware_subarch: .long 0
hardware_subarch_data: .quad 0
payload_offset:	.long 0
payload_length:	.long 0
setup_data:	.quad 0
pref_address:	.quad 0x1000000
init_size:	.long 0x1000
handover_offset: .long 0
kernel_info_offset: .long 0

start_of_setup:
	cli
	cld
	movl	%ds:0x228, %eax		/* cmd_line_ptr, linear */
	movl	%ds:0x238, %ecx		/* cmdline_size */
	movl	%eax, %ebx
	shrl	$4, %ebx
	andw	$0xf, %ax
	movw	%ax, %si
	movw	%bx, %ds
	movw	$begin - 0x200, %di
	call	puts
1:	jecxz	2f
	lodsb
	testb	%al, %al
	jz	2f
	movb	%al, %ah
	shrb	$4, %al
	call	hexdigit
	movb	%ah, %al
	andb	$0xf, %al
	call	hexdigit
	decw	%cx
	jmp	1b
2:	movw	$end - 0x200, %di
	call	puts
	/* isa-debug-exit at 0xf4: QEMU exits at once */
	movw	$0xf4, %dx
	xorb	%al, %al
	outb	%al, %dx
3:	hlt
	jmp	3b

/* hexdigit prints the low nibble of %al */
hexdigit:
	addb	$'0', %al
	cmpb	$'9', %al
	jbe	putc
	addb	$'a' - '9' - 1, %al
/* putc prints %al on COM1 */
putc:
	pushw	%dx
	pushw	%ax
	movw	$0x3fd, %dx
4:	inb	%dx, %al
	testb	$0x20, %al
	jz	4b
	popw	%ax
	movw	$0x3f8, %dx
	outb	%al, %dx
	popw	%dx
	ret

/* puts prints the NUL-terminated string at %cs:%di */
puts:
	pushw	%ax
5:	movb	%cs:(%di), %al
	testb	%al, %al
	jz	6f
	call	putc
	incw	%di
	jmp	5b
6:	popw	%ax
	ret

begin:	.asciz "\r\nCORIUM-STUB-CMDLINE "
end:	.asciz " CORIUM-STUB-END\r\n"

	.org 0x400
	/* the protected-mode part: never run */
	.fill 512, 1, 0xf4
