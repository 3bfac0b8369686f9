// Package buildinfo gives every binary of the project the same --version:
// the module version and the VCS commit it was built from, as the Go
// toolchain recorded them. A bug report or a CI log then names the exact
// suite or mock that produced it.
package buildinfo

import (
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"strings"
)

// Line is the --version line of the program name, e.g.
//
//	pricing-contract v0.3.0, commit 1f0c…e9 (2026-11-20T10:00:00Z), go1.26.8
//	pricing-contract (devel), commit unknown, go1.26.8
//
// "(devel)" is a build from a work tree that the toolchain could not name a
// version for; "unknown" is a build without VCS stamping (go run, go test,
// -buildvcs=false, a copy without .git).
func Line(name string) string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		bi = nil
	}
	return format(name, bi, stamp{version, commit, date})
}

// The release build stamps these with -ldflags -X (.ci/goreleaser.yaml):
// it builds from a tag, and its version, commit and date win over what the
// toolchain recorded, which a build without VCS stamping lacks.
var version, commit, date string

// stamp is what -ldflags -X set; an empty field leaves the build info's.
type stamp struct{ version, commit, date string }

func format(name string, bi *debug.BuildInfo, st stamp) string {
	version, commit, goVersion := "(devel)", "unknown", "go version unknown"
	var details []string
	if bi != nil {
		if v := bi.Main.Version; v != "" {
			version = v
		}
		if bi.GoVersion != "" {
			goVersion = bi.GoVersion
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if rev := settings["vcs.revision"]; rev != "" {
			commit = rev
			if t := settings["vcs.time"]; t != "" {
				details = append(details, t)
			}
			if settings["vcs.modified"] == "true" {
				details = append(details, "modified")
			}
		}
	}
	if st.version != "" {
		version = st.version
	}
	if st.commit != "" {
		commit, details = st.commit, nil
		if st.date != "" {
			details = []string{st.date}
		}
	}
	if len(details) > 0 {
		commit += " (" + strings.Join(details, ", ") + ")"
	}
	return fmt.Sprintf("%s %s, commit %s, %s", name, version, commit, goVersion)
}

// AddFlag registers --version on fs: it prints Line(fs.Name()) on stdout
// and exits with status 0, before any other flag is acted on, as -h does.
func AddFlag(fs *flag.FlagSet) { addFlag(fs, os.Stdout, os.Exit) }

func addFlag(fs *flag.FlagSet, w io.Writer, exit func(int)) {
	fs.BoolFunc("version", "print the module version and VCS commit of this binary and exit", func(string) error {
		fmt.Fprintln(w, Line(fs.Name()))
		exit(0)
		return nil
	})
}

// Requested reports whether args ask for the version (-version or
// --version before any "--"), for a command whose flags are parsed
// elsewhere.
func Requested(args []string) bool {
	end := slices.Index(args, "--")
	if end < 0 {
		end = len(args)
	}
	for _, a := range args[:end] {
		switch a {
		case "-version", "--version", "-version=true", "--version=true":
			return true
		}
	}
	return false
}
