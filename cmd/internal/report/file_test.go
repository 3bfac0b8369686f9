package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every file the commands write: mode 0600, never through a link, never
// over a file of another kind without --force.
func TestOutputIsWrittenSafely(t *testing.T) {
	t.Parallel()
	const ours = "<!doctype html>\n<html><head><meta name=\"generator\" content=\"pricing-contract\">old report"
	for _, tc := range []struct {
		name    string
		kind    Kind
		force   bool
		before  func(t *testing.T, dir, path string) // what is at the path
		refused string                               // the error; "" written
	}{
		{name: "a new file", kind: HTMLReport, before: func(*testing.T, string, string) {}},
		{name: "an earlier report", kind: HTMLReport, before: write(ours)},
		{name: "an empty file", kind: HTMLReport, before: write("")},
		{name: "a file of another kind", kind: HTMLReport, before: write("my notes"), refused: "is no HTML report these tools wrote"},
		{name: "a file of another kind, forced", kind: HTMLReport, force: true, before: write("my notes")},
		{name: "a report where a JUnit report goes", kind: JUnitReport, before: write(ours), refused: "is no JUnit report"},
		{name: "an existing profile", kind: ProfileOfInit, before: write("# Target profile written by pricing-contract init"), refused: "exists: refused (--force replaces it)"},
		{name: "an existing profile, forced", kind: ProfileOfInit, force: true, before: write("# Target profile")},
		{name: "a link to a file", kind: HTMLReport, before: link(ours), refused: "is a symbolic link"},
		{name: "a link to a file, forced", kind: HTMLReport, force: true, before: link(ours), refused: "is a symbolic link"},
		{name: "a dangling link", kind: HTMLReport, force: true, before: func(t *testing.T, dir, path string) {
			if err := os.Symlink(filepath.Join(dir, "nowhere"), path); err != nil {
				t.Fatal(err)
			}
		}, refused: "is a symbolic link"},
		{name: "a folder", kind: HTMLReport, force: true, before: func(t *testing.T, dir, path string) {
			if err := os.Mkdir(path, 0o755); err != nil {
				t.Fatal(err)
			}
		}, refused: "is no regular file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			path := filepath.Join(dir, "out")
			tc.before(t, dir, path)
			elsewhere, _ := os.ReadFile(filepath.Join(dir, "elsewhere"))
			o := Output{Path: path, Kind: tc.kind, Force: tc.force}
			checked := o.Check()
			err := o.WriteBytes([]byte("new"))
			after, _ := os.ReadFile(filepath.Join(dir, "elsewhere"))
			if string(after) != string(elsewhere) {
				t.Errorf("the file a link points at was changed: %q", after)
			}
			if tc.refused != "" {
				if err == nil || checked == nil || !strings.Contains(err.Error(), tc.refused) || checked.Error() != err.Error() {
					t.Fatalf("Check %v, Write %v; want both refused: %q", checked, err, tc.refused)
				}
				return
			}
			if err != nil || checked != nil {
				t.Fatalf("Check %v, Write %v", checked, err)
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
				t.Fatalf("%s: %v, %v; want a regular file of mode 0600", path, fi.Mode(), err)
			}
			if b, _ := os.ReadFile(path); string(b) != "new" {
				t.Errorf("the file holds %q", b)
			}
			if left, _ := filepath.Glob(filepath.Join(dir, ".out.*")); len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// write puts text at the path.
func write(text string) func(t *testing.T, dir, path string) {
	return func(t *testing.T, dir, path string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// link puts a link at the path to a file "elsewhere" holding text.
func link(text string) func(t *testing.T, dir, path string) {
	return func(t *testing.T, dir, path string) {
		if err := os.WriteFile(filepath.Join(dir, "elsewhere"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(dir, "elsewhere"), path); err != nil {
			t.Fatal(err)
		}
	}
}

// A reproducer's name is made from what a target answered or a recording
// held: one that would leave its folder is refused.
func TestReproducerNamesStayInTheirFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "reproducers")
	for _, name := range []string{"../escaped.feature", "a/b.feature", `a\b.feature`, "..", ".", "", ".hidden.feature", "/etc/passwd"} {
		if path, err := WriteReproducer(out, name, "# Written by pricing-contract explore", false); err == nil {
			t.Errorf("%q was written, as %s", name, path)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) > 0 && !(len(left) == 1 && left[0] == out) {
		t.Errorf("files outside the folder: %v", left)
	}
	path, err := WriteReproducer(out, "explore-put-users.feature", "# Written by pricing-contract explore", false)
	if err != nil || filepath.Dir(path) != out {
		t.Errorf("a plain name: %s, %v", path, err)
	}
	// Found again: replaced, being a reproducer.
	if _, err := WriteReproducer(out, "explore-put-users.feature", "# Written by pricing-contract explore, again", false); err != nil {
		t.Errorf("a reproducer found again: %v", err)
	}
}
