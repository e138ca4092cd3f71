// Package ipxe holds the iPXE reader (internal/source, ipxe_run.go) to iPXE
// itself: for an iPXE script, Unpack refuses it, or the document Unpack
// reads from it is the one on the kernel command line iPXE boots (as the
// node's chain reads that line: source.ReadParams, then ReadInline), and
// the line Unpack measures is no shorter than that one.
//
// The oracle is Debian's iPXE (1.0.0+git-20190125.36a4c85-5.1 on bookworm)
// under QEMU with TCG, as a PXE node runs it:
//
//   - BIOS: SeaBIOS runs the NIC's iPXE ROM (ipxe-qemu, the ROM the VM
//     test's PXE machine boots from), which takes an address from QEMU's
//     user-mode network (restrict=on: DHCP and TFTP, no host address),
//     fetches the script as the DHCP boot file (boot.ipxe), and runs it;
//   - UEFI: OVMF starts Debian's ipxe.efi (package ipxe), which does the
//     same with its own driver for the NIC.
//
// The kernel the script fetches over TFTP is a stub (testdata/bzstub.S on
// BIOS, testdata/efistub.S on UEFI) that prints on the serial console the
// command line its boot loader hands it, as hex, and ends QEMU: a boot takes
// about 5 s on BIOS, 12-19 s on UEFI. On UEFI the kernel's EFI stub turns
// the image's load options into its command line; linuxEFICmdline does that
// as Linux does (efi_convert_cmdline). Both stubs were held once to Debian's
// 6.1 kernel booted the same way: the same bytes reached its "Command
// line:". A script that boots nothing shows by iPXE's banner coming round
// again (autoboot returned) or by QEMU ending without the stub's line.
//
// The reader takes every fetch to succeed and every kernel line to name a
// kernel, so the oracle serves every name the script fetches (the stub
// under each), and a boot where iPXE asks for a name TFTP cannot serve
// gives no verdict.
//
// Kept cases run in plain go test (under a minute on two cores); a soak
// runs generated mutations of valid scripts as well:
//
//	go test ./test/ipxe/ -run Generated -ipxe.n=1000 -ipxe.seed=1 [-ipxe.uefi] -timeout 0
//
// Only a script the reader reads is booted there (a refusal holds by
// itself), so a soak costs a boot for about one script in four.
//
// It holds tests only.
package ipxe
