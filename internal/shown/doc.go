// Package shown is the one escaper for text that came from outside the
// agent (a process's comm from /proc, a cgroup's path, a link's name, an
// interface name from a facts file, a file's name, a line of the journal,
// an error a server or the kernel wrote) on its way to a person.
//
// Such text can hold a line break, which writes a line of its own into a
// report, or a terminal's escape sequence or a bidirectional control, which
// makes a terminal show other text than was printed. In a text report a
// value is shown as it is when it holds printable ASCII only, so that a
// plain name stays plain, and quoted as Go's %+q quotes it otherwise (Text);
// a sentence that carries such values has its control and format
// characters written as escapes (Line, Lines), a net under Text for text
// the program did not quote. In JSON every value stays what it was, and
// each control or format character encoding/json leaves raw is written as
// a \u escape (JSON).
//
// It reads nothing and decides nothing about what may be shown at all:
// secrets are kept out by their types and their own maskers.
package shown
