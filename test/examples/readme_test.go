package examples

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
)

// docsWithCommands are the pages that tell an operator what to type.
func docsWithCommands(t *testing.T) []string {
	t.Helper()
	pages := []string{"README.md", "docs/troubleshooting.md"}
	more, err := filepath.Glob(filepath.Join(repo, "examples", "*", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range more {
		rel, _ := filepath.Rel(repo, p)
		pages = append(pages, filepath.ToSlash(rel))
	}
	return pages
}

var validateCmd = regexp.MustCompile("corium-agent validate ([^`#\n|]+)")

// TestDocumentedValidateCommandsWork runs every `corium-agent validate` line
// the README and the example READMEs give for an example, as written, from
// the top of the checkout: a newcomer who copies one gets "valid".
func TestDocumentedValidateCommandsWork(t *testing.T) {
	ran := 0
	for _, page := range docsWithCommands(t) {
		data, err := os.ReadFile(filepath.Join(repo, page))
		if os.IsNotExist(err) {
			t.Errorf("%s is missing", page)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range validateCmd.FindAllStringSubmatch(string(data), -1) {
			args := strings.Fields(m[1])
			if len(args) == 0 || !strings.HasPrefix(args[len(args)-1], "examples/") {
				continue // a placeholder (FILE...) or a file of the reader's own
			}
			var expanded []string
			for _, a := range args {
				if !strings.ContainsAny(a, "*?[") {
					expanded = append(expanded, a)
					continue
				}
				matches, _ := filepath.Glob(filepath.Join(repo, a))
				if len(matches) == 0 {
					t.Errorf("%s: `corium-agent validate %s`: %s matches no file", page, m[1], a)
				}
				for _, p := range matches {
					rel, _ := filepath.Rel(repo, p)
					expanded = append(expanded, filepath.ToSlash(rel))
				}
			}
			out, code := runAgent(t, append([]string{"validate"}, expanded...)...)
			if code != 0 {
				t.Errorf("%s: `corium-agent validate %s`: exit %d\n%s", page, strings.TrimSpace(m[1]), code, out)
			}
			ran++
		}
	}
	if ran < 7 {
		t.Errorf("found only %d documented validate commands for examples; the README's table lists one per example", ran)
	}
}

// TestREADMEListsEveryCommand holds the README's command table to the
// agent's own list, both ways.
func TestREADMEListsEveryCommand(t *testing.T) {
	out, _ := runAgent(t, "help")
	var commands []string
	inList := false
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "commands:") {
			inList = true
			continue
		}
		if f := strings.Fields(l); inList && len(f) > 1 && strings.HasPrefix(l, "  ") {
			commands = append(commands, f[0])
		}
	}
	if len(commands) < 5 {
		t.Fatalf("corium-agent help lists %d commands:\n%s", len(commands), out)
	}
	readme := string(readRepo(t, "README.md"))
	listed := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `corium-agent ([a-z]+)").FindAllStringSubmatch(readme, -1) {
		listed[m[1]] = true
	}
	for _, c := range commands {
		if !listed[c] {
			t.Errorf("README's command table lacks %s", c)
		}
		delete(listed, c)
	}
	var extra []string
	for c := range listed {
		extra = append(extra, c)
	}
	sort.Strings(extra)
	if len(extra) > 0 {
		t.Errorf("README's command table lists commands the agent does not have: %v", extra)
	}
}

// operatorPages are every page an operator reads: the README, docs/ and
// the examples' READMEs.
func operatorPages(t *testing.T) []string {
	t.Helper()
	pages := docsWithCommands(t)
	docs, err := filepath.Glob(filepath.Join(repo, "docs", "*.md"))
	if err != nil || len(docs) < 5 {
		t.Fatalf("docs/*.md: %d pages, %v", len(docs), err)
	}
	for _, p := range docs {
		rel, _ := filepath.Rel(repo, p)
		if rel = filepath.ToSlash(rel); !slices.Contains(pages, rel) {
			pages = append(pages, rel)
		}
	}
	return pages
}

// TestDocumentLinksResolve checks that every relative link in the operator
// pages points at a file or directory of the checkout, and that a page
// named in code type (`overlay.md`) is one too: a reader follows either.
func TestDocumentLinksResolve(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#\s]+)(#[^)]*)?\)`)
	named := regexp.MustCompile("`([A-Za-z0-9_./-]+\\.md)`")
	checked := 0
	for _, page := range operatorPages(t) {
		data, err := os.ReadFile(filepath.Join(repo, page))
		if err != nil {
			t.Errorf("%s: %v", page, err)
			continue
		}
		var targets []string
		for _, m := range link.FindAllStringSubmatch(string(data), -1) {
			if !strings.Contains(m[1], "://") && !strings.HasPrefix(m[1], "mailto:") {
				targets = append(targets, m[1])
			}
		}
		for _, m := range named.FindAllStringSubmatch(string(data), -1) {
			targets = append(targets, m[1])
		}
		for _, target := range targets {
			checked++
			p := filepath.Join(repo, filepath.Dir(page), target)
			if _, err := os.Stat(p); err != nil {
				t.Errorf("%s links to %s, which does not exist", page, target)
			}
		}
	}
	if checked < 30 {
		t.Errorf("only %d links checked; the pattern finds too little", checked)
	}
}

// TestDocumentedKeysAreNotWorldReadable: a command an operator copies that
// writes a WireGuard private key to a file sets umask 077 first, or the key
// lands readable by every user (umask 022 makes it 0644).
func TestDocumentedKeysAreNotWorldReadable(t *testing.T) {
	writesKey := regexp.MustCompile(`wg genkey\s*(>|\|\s*tee)`)
	found := 0
	for _, page := range operatorPages(t) {
		data, err := os.ReadFile(filepath.Join(repo, page))
		if err != nil {
			continue // reported by TestDocumentLinksResolve
		}
		for i, line := range strings.Split(string(data), "\n") {
			loc := writesKey.FindStringIndex(line)
			if loc == nil {
				continue
			}
			found++
			if !strings.Contains(line[:loc[0]], "umask 077") {
				t.Errorf("%s:%d writes a private key without umask 077 before it: %s", page, i+1, strings.TrimSpace(line))
			}
		}
	}
	if found == 0 {
		t.Error("no page writes a key with wg genkey; the check proves nothing")
	}
}
